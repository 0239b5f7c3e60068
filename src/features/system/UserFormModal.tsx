import { useState } from 'react';
import { Alert, Button, Group, Modal, MultiSelect, PasswordInput, Select, SimpleGrid, Switch, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useT } from '../../i18n/index.ts';
import { useSession } from '../../session/store.ts';
import { userApi } from './api.ts';
import { SYSTEM_NS } from './messages.ts';
import type { CompanyOption, Role, User } from './types.ts';
import { companyOptions, renderCompanyOption } from './company-options.tsx';
import { errorMessage } from './ui/format.ts';
import {
  emptyUserForm,
  formToInput,
  PASSWORD_MAX,
  REAL_NAME_MAX,
  USERNAME_MAX,
  userToForm,
  validateUserForm,
  type UserField,
  type UserFormErrors,
  type UserFormValues,
} from './user-form.ts';

export interface UserFormModalProps {
  /** undefined: create a new user. */
  user: User | undefined;
  /** Company preselected for a new user (the page's selected company). */
  defaultCompanyId: number | null;
  companies: readonly CompanyOption[];
  roles: readonly Role[];
  onClose: () => void;
  onSaved: (user: User) => void;
}

const FIELDS: readonly UserField[] = ['username', 'password', 'realName', 'companyId', 'userLevel', 'roleIds', 'phone', 'email', 'status', 'expireTime', 'allowedIps', 'geoInverse'];

/** A server 400 names the field (`FieldMessage`): put its message beside that field when we can tell which. */
export function fieldOfServerMessage(msg: string): UserField | undefined {
  return FIELDS.find((f) => new RegExp(`\\b${f}\\b`).test(msg));
}

/** Create or edit one user; mounted only while open, so each opening starts from fresh values. */
export function UserFormModal({ user, defaultCompanyId, companies, roles, onClose, onSaved }: UserFormModalProps) {
  const t = useT(SYSTEM_NS);
  const me = useSession().user;
  const myLevel = me?.userLevel ?? 2;
  const creating = user === undefined;
  const [values, setValues] = useState<UserFormValues>(() => (user ? userToForm(user) : emptyUserForm(defaultCompanyId, 2)));
  const [errors, setErrors] = useState<UserFormErrors>({});
  const [serverError, setServerError] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);

  const set = <K extends UserField>(key: K, value: UserFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const err = (key: UserField) => {
    const e = errors[key];
    if (!e) return undefined;
    return e.text ?? (e.params ? t(e.key, e.params) : t(e.key));
  };

  const submit = async () => {
    const found = validateUserForm(values, creating, myLevel);
    setErrors(found);
    setServerError(undefined);
    if (Object.values(found).some(Boolean)) return;
    setSaving(true);
    try {
      const input = formToInput(values);
      const saved = creating ? await userApi.create(input) : await userApi.update({ ...input, id: user.id });
      notifications.show({ color: 'green', message: t('common.saved'), autoClose: 2000 });
      onSaved(saved);
    } catch (e) {
      const msg = errorMessage(e);
      const field = fieldOfServerMessage(msg);
      if (field) setErrors((x) => ({ ...x, [field]: { key: 'server', text: msg } }));
      setServerError(msg);
    } finally {
      setSaving(false);
    }
  };

  const companyChoices = companyOptions(companies);
  // Nobody may create a user with a lower level number (more rights) than their own.
  const levelOptions = [0, 1, 2]
    .filter((l) => l >= myLevel || l === values.userLevel)
    .map((l) => ({ value: String(l), label: t(`user.levels.${l}`), disabled: l < myLevel }));

  return (
    <Modal
      opened
      onClose={() => !saving && onClose()}
      title={creating ? t('user.createTitle') : t('user.editTitle', { name: user.username })}
      size="lg"
      centered
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        data-testid="user-form"
      >
        {serverError && (
          <Alert color="red" mb="sm" role="alert" data-testid="server-error">
            {serverError}
          </Alert>
        )}
        <SimpleGrid cols={2} spacing="sm">
          <TextInput
            label={t('user.username')}
            required
            name="username"
            maxLength={USERNAME_MAX}
            value={values.username}
            onChange={(e) => set('username', e.currentTarget.value)}
            error={err('username')}
            disabled={!creating}
            autoComplete="off"
          />
          <PasswordInput
            label={creating ? t('user.password') : t('user.newPassword')}
            description={creating ? undefined : t('user.newPasswordHint')}
            required={creating}
            name="password"
            maxLength={PASSWORD_MAX}
            value={values.password}
            onChange={(e) => set('password', e.currentTarget.value)}
            error={err('password')}
            autoComplete="new-password"
          />
          <TextInput
            label={t('user.realName')}
            name="realName"
            maxLength={REAL_NAME_MAX}
            value={values.realName}
            onChange={(e) => set('realName', e.currentTarget.value)}
            error={err('realName')}
          />
          <Select
            label={t('user.company')}
            required
            searchable
            name="companyId"
            data={companyChoices}
            renderOption={renderCompanyOption}
            value={values.companyId === null ? null : String(values.companyId)}
            onChange={(v) => set('companyId', v === null ? null : Number(v))}
            error={err('companyId')}
          />
          <Select
            label={t('user.userLevel')}
            required
            name="userLevel"
            data={levelOptions}
            allowDeselect={false}
            value={String(values.userLevel)}
            onChange={(v) => v !== null && set('userLevel', Number(v))}
            error={err('userLevel')}
          />
          <MultiSelect
            label={t('user.roles')}
            name="roleIds"
            searchable
            data={roles.map((r) => ({ value: String(r.id), label: r.name }))}
            value={values.roleIds.map(String)}
            onChange={(v) => set('roleIds', v.map(Number))}
            error={err('roleIds')}
          />
          <TextInput label={t('user.phone')} name="phone" value={values.phone} onChange={(e) => set('phone', e.currentTarget.value)} error={err('phone')} />
          <TextInput label={t('user.email')} name="email" type="email" value={values.email} onChange={(e) => set('email', e.currentTarget.value)} error={err('email')} />
          <TextInput
            label={t('user.expireTime')}
            description={t('user.expireHint')}
            name="expireTime"
            type="datetime-local"
            value={values.expireTime}
            onChange={(e) => set('expireTime', e.currentTarget.value)}
            error={err('expireTime')}
          />
          <Group gap="lg" mt="lg">
            <Switch
              label={t('user.statusActive')}
              name="status"
              checked={values.status === 1}
              onChange={(e) => set('status', e.currentTarget.checked ? 1 : 0)}
            />
            <Switch label={t('user.geoInverse')} name="geoInverse" checked={values.geoInverse} onChange={(e) => set('geoInverse', e.currentTarget.checked)} />
          </Group>
        </SimpleGrid>
        <Textarea
          mt="sm"
          label={t('user.allowedIps')}
          description={t('user.allowedIpsHint')}
          name="allowedIps"
          autosize
          minRows={2}
          value={values.allowedIps}
          onChange={(e) => set('allowedIps', e.currentTarget.value)}
          error={err('allowedIps')}
        />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose} disabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={saving} data-testid="user-form-submit">
            {t('common.save')}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
