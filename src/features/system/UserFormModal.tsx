import { Group, MultiSelect, PasswordInput, Select, SimpleGrid, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useT } from '../../i18n/index.ts';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { DateTimeField } from '../../kit/period-picker/index.ts';
import { useSession } from '../../session/store.ts';
import { userApi } from './api.ts';
import { companyOptions, renderCompanyOption } from './company-options.tsx';
import { SYSTEM_NS } from './messages.ts';
import type { CompanyOption, Role, User } from './types.ts';
import { emptyUserForm, formToInput, userToForm, validateUserForm, type UserFormValues } from './user-form.ts';

export interface UserFormModalProps {
  /** undefined: create a new user. */
  user: User | undefined;
  /** Company preselected for a new user (the page's selected company). */
  defaultCompanyId: number | null;
  companies: readonly CompanyOption[];
  roles: readonly Role[];
  onClose: () => void;
  onSaved: () => void;
}

/** Create or edit one user in the kit's form drawer; mounted only while open, so each opening starts from fresh values. */
export function UserFormModal({ user, defaultCompanyId, companies, roles, onClose, onSaved }: UserFormModalProps) {
  const t = useT(SYSTEM_NS);
  const myLevel = useSession().user?.userLevel ?? 2;
  const creating = user === undefined;
  const form = useForm<UserFormValues>({
    initialValues: user ? userToForm(user) : emptyUserForm(defaultCompanyId, 2),
    // The pure checks of user-form.ts (the server's limits), worded in the UI language.
    validate: (values) => {
      const found = validateUserForm(values, creating, myLevel);
      return Object.fromEntries(Object.entries(found).map(([field, e]) => [field, e.text ?? (e.params ? t(e.key, e.params) : t(e.key))]));
    },
  });
  const values = form.getValues();

  // Nobody may create a user with a lower level number (more rights) than their own.
  const levelOptions = [0, 1, 2]
    .filter((l) => l >= myLevel || l === values.userLevel)
    .map((l) => ({ value: String(l), label: t(`user.levels.${l}`), disabled: l < myLevel }));
  const errorOf = (field: keyof UserFormValues) => form.getInputProps(field).error as string | undefined;

  return (
    <FormDrawer
      title={creating ? t('user.createTitle') : t('user.editTitle', { name: user.username })}
      form={form}
      size="lg"
      testId="user-form"
      onClose={onClose}
      onSaved={onSaved}
      submit={(v) => {
        const input = formToInput(v);
        return creating ? userApi.create(input) : userApi.update({ ...input, id: user.id });
      }}
    >
      <SimpleGrid cols={2} spacing="sm">
        <TextInput label={t('user.username')} required name="username" disabled={!creating} autoComplete="off" {...form.getInputProps('username')} />
        <PasswordInput
          label={creating ? t('user.password') : t('user.newPassword')}
          description={creating ? undefined : t('user.newPasswordHint')}
          required={creating}
          name="password"
          autoComplete="new-password"
          {...form.getInputProps('password')}
        />
        <TextInput label={t('user.realName')} name="realName" {...form.getInputProps('realName')} />
        <Select
          label={t('user.company')}
          required
          searchable
          name="companyId"
          data={companyOptions(companies)}
          renderOption={renderCompanyOption}
          value={values.companyId === null ? null : String(values.companyId)}
          onChange={(v) => form.setFieldValue('companyId', v === null ? null : Number(v))}
          error={errorOf('companyId')}
        />
        <Select
          label={t('user.userLevel')}
          required
          name="userLevel"
          data={levelOptions}
          allowDeselect={false}
          value={String(values.userLevel)}
          onChange={(v) => v !== null && form.setFieldValue('userLevel', Number(v))}
          error={errorOf('userLevel')}
        />
        <MultiSelect
          label={t('user.roles')}
          name="roleIds"
          searchable
          data={roles.map((r) => ({ value: String(r.id), label: r.name }))}
          value={values.roleIds.map(String)}
          onChange={(v) => form.setFieldValue('roleIds', v.map(Number))}
          error={errorOf('roleIds')}
        />
        <TextInput label={t('user.phone')} name="phone" {...form.getInputProps('phone')} />
        <TextInput label={t('user.email')} name="email" type="email" {...form.getInputProps('email')} />
        <Stack gap={2}>
          <DateTimeField label={t('user.expireTime')} value={values.expireTime} onChange={(v) => form.setFieldValue('expireTime', v)} error={errorOf('expireTime')} data-testid="user-expire" />
          <Text size="xs" c="dimmed">
            {t('user.expireHint')}
          </Text>
        </Stack>
        <Group gap="lg" mt="lg">
          <Switch label={t('user.statusActive')} name="status" checked={values.status === 1} onChange={(e) => form.setFieldValue('status', e.currentTarget.checked ? 1 : 0)} />
          <Switch label={t('user.geoInverse')} name="geoInverse" {...form.getInputProps('geoInverse', { type: 'checkbox' })} />
        </Group>
      </SimpleGrid>
      <Textarea label={t('user.allowedIps')} description={t('user.allowedIpsHint')} name="allowedIps" autosize minRows={2} {...form.getInputProps('allowedIps')} />
    </FormDrawer>
  );
}
