import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useT } from '../../i18n/index.ts';
import { useSession } from '../../session/store.ts';
import { companyOptions, renderCompanyOption, subtreeOf } from '../system/company-options.tsx';
import type { CompanyOption } from '../system/types.ts';
import { errorMessage } from '../system/ui/format.ts';
import { companyApi, type Company } from './api.ts';
import { companyFormToInput, LIMITS, validateCompanyForm, type CompanyField, type CompanyFormErrors, type CompanyFormValues } from './company-form.ts';
import { COMPANY_NS } from './messages.ts';

const FIELDS: readonly CompanyField[] = ['pid', 'name', 'contact', 'phone', 'address', 'remark'];

/** Create (company undefined, under `defaultPid`) or edit a company. */
export function CompanyFormModal({
  company,
  defaultPid,
  companies,
  onClose,
  onSaved,
}: {
  company: Company | undefined;
  defaultPid: number | null;
  companies: readonly CompanyOption[];
  onClose: () => void;
  onSaved: (c: Company) => void;
}) {
  const t = useT(COMPANY_NS);
  const isAdmin = useSession().user?.userLevel === 0;
  const [values, setValues] = useState<CompanyFormValues>(() =>
    company
      ? { pid: company.pid, name: company.name, contact: company.contact, phone: company.phone, address: company.address, remark: company.remark }
      : { pid: defaultPid, name: '', contact: '', phone: '', address: '', remark: '' },
  );
  const [errors, setErrors] = useState<CompanyFormErrors & Partial<Record<CompanyField, { text?: string }>>>({});
  const [serverError, setServerError] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);

  const set = <K extends CompanyField>(key: K, value: CompanyFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const err = (key: CompanyField) => {
    const e = errors[key];
    if (!e) return undefined;
    if ('text' in e && e.text) return e.text;
    return e.params ? t(e.key, e.params) : t(e.key);
  };

  // A company cannot move under itself or its own subtree (the server refuses it too).
  const exclude = company ? subtreeOf(companies, company.id) : undefined;
  const parentChoices = [...(isAdmin || values.pid === 0 ? [{ value: '0', label: t('noParent'), depth: 0 }] : []), ...companyOptions(companies, exclude)];

  const submit = async () => {
    const found = validateCompanyForm(values, isAdmin);
    setErrors(found);
    setServerError(undefined);
    if (Object.values(found).some(Boolean)) return;
    setSaving(true);
    try {
      const input = companyFormToInput(values);
      const saved = company ? await companyApi.update({ ...input, id: company.id }) : await companyApi.create(input);
      notifications.show({ color: 'green', message: t('saved'), autoClose: 2000 });
      onSaved(saved);
    } catch (e) {
      const msg = errorMessage(e);
      const field = FIELDS.find((f) => new RegExp(`\\b${f}\\b`).test(msg));
      if (field) setErrors((x) => ({ ...x, [field]: { key: 'server', text: msg } }));
      setServerError(msg);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal opened onClose={() => !saving && onClose()} title={company ? t('editTitle', { name: company.name }) : t('createTitle')} size="lg" centered>
      <form
        noValidate
        data-testid="company-form"
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
        <SimpleGrid cols={2} spacing="sm">
          <Select
            label={t('parent')}
            required
            searchable
            name="pid"
            data={parentChoices}
            renderOption={renderCompanyOption}
            value={values.pid === null ? null : String(values.pid)}
            onChange={(v) => set('pid', v === null ? null : Number(v))}
            error={err('pid')}
          />
          <TextInput label={t('name')} required name="name" maxLength={LIMITS.name} value={values.name} onChange={(e) => set('name', e.currentTarget.value)} error={err('name')} />
          <TextInput label={t('contact')} name="contact" maxLength={LIMITS.contact} value={values.contact} onChange={(e) => set('contact', e.currentTarget.value)} error={err('contact')} />
          <TextInput label={t('phone')} name="phone" maxLength={LIMITS.phone} value={values.phone} onChange={(e) => set('phone', e.currentTarget.value)} error={err('phone')} />
        </SimpleGrid>
        <TextInput mt="sm" label={t('address')} name="address" maxLength={LIMITS.address} value={values.address} onChange={(e) => set('address', e.currentTarget.value)} error={err('address')} />
        <Textarea mt="sm" label={t('remark')} name="remark" maxLength={LIMITS.remark} autosize minRows={2} value={values.remark} onChange={(e) => set('remark', e.currentTarget.value)} error={err('remark')} />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose} disabled={saving}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={saving} data-testid="company-form-submit">
            {t('save')}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
