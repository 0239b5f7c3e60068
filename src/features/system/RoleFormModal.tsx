import { useState } from 'react';
import { Alert, Button, Group, Modal, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useT } from '../../i18n/index.ts';
import { roleApi } from './api.ts';
import { SYSTEM_NS } from './messages.ts';
import type { Role } from './types.ts';
import { errorMessage } from './ui/format.ts';

export const ROLE_NAME_MAX = 32;
export const ROLE_REMARK_MAX = 200;

/** Create (role undefined) or edit a role's name and remark. */
export function RoleFormModal({ role, onClose, onSaved }: { role: Role | undefined; onClose: () => void; onSaved: (r: Role) => void }) {
  const t = useT(SYSTEM_NS);
  const [name, setName] = useState(role?.name ?? '');
  const [remark, setRemark] = useState(role?.remark ?? '');
  const [nameError, setNameError] = useState<string | undefined>(undefined);
  const [serverError, setServerError] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const n = name.trim();
    const problem = !n ? t('validation.required') : n.length > ROLE_NAME_MAX ? t('validation.max', { max: ROLE_NAME_MAX }) : undefined;
    setNameError(problem);
    setServerError(undefined);
    if (problem) return;
    setSaving(true);
    try {
      const saved = role ? await roleApi.update({ id: role.id, name: n, remark: remark.trim() }) : await roleApi.create({ name: n, remark: remark.trim() });
      notifications.show({ color: 'green', message: t('common.saved'), autoClose: 2000 });
      onSaved(saved);
    } catch (e) {
      const msg = errorMessage(e);
      if (/\bname\b/.test(msg)) setNameError(msg);
      setServerError(msg);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal opened onClose={() => !saving && onClose()} title={role ? t('role.editTitle', { name: role.name }) : t('role.createTitle')} centered>
      <form
        noValidate
        data-testid="role-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {serverError && (
          <Alert color="red" mb="sm" role="alert" data-testid="server-error">
            {serverError}
          </Alert>
        )}
        <TextInput
          label={t('role.name')}
          required
          name="name"
          maxLength={ROLE_NAME_MAX}
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setNameError(undefined);
          }}
          error={nameError}
        />
        <Textarea mt="sm" label={t('role.remark')} name="remark" maxLength={ROLE_REMARK_MAX} autosize minRows={2} value={remark} onChange={(e) => setRemark(e.currentTarget.value)} />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose} disabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={saving} data-testid="role-form-submit">
            {t('common.save')}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
