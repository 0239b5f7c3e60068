import { Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ROLE_LIMITS } from '../../../domain/management/limits.ts';
import { useT } from '../../i18n/index.ts';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { roleApi } from './api.ts';
import { SYSTEM_NS } from './messages.ts';
import type { Role } from './types.ts';

/** Create (role undefined) or edit a role's name and remark, in the kit's form drawer. */
export function RoleFormModal({ role, onClose, onSaved }: { role: Role | undefined; onClose: () => void; onSaved: () => void }) {
  const t = useT(SYSTEM_NS);
  const form = useForm({
    initialValues: { name: role?.name ?? '', remark: role?.remark ?? '' },
    validate: {
      name: (v) => (!v.trim() ? t('validation.required') : v.trim().length > ROLE_LIMITS.name ? t('validation.max', { max: ROLE_LIMITS.name }) : null),
      remark: (v) => (v.trim().length > ROLE_LIMITS.remark ? t('validation.max', { max: ROLE_LIMITS.remark }) : null),
    },
  });
  return (
    <FormDrawer
      title={role ? t('role.editTitle', { name: role.name }) : t('role.createTitle')}
      form={form}
      testId="role-form"
      onClose={onClose}
      onSaved={onSaved}
      submit={({ name, remark }) => {
        const body = { name: name.trim(), remark: remark.trim() };
        return role ? roleApi.update({ id: role.id, ...body }) : roleApi.create(body);
      }}
    >
      <TextInput label={t('role.name')} required name="name" {...form.getInputProps('name')} />
      <Textarea label={t('role.remark')} name="remark" autosize minRows={2} {...form.getInputProps('remark')} />
    </FormDrawer>
  );
}
