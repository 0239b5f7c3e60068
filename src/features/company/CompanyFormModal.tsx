import { Select, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useT } from '../../i18n/index.ts';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { useSession } from '../../session/store.ts';
import { companyOptions, renderCompanyOption, subtreeOf } from '../system/company-options.tsx';
import type { CompanyOption } from '../system/types.ts';
import { companyApi, type Company } from './api.ts';
import { companyFormToInput, validateCompanyForm, type CompanyFormValues } from './company-form.ts';
import { COMPANY_NS } from './messages.ts';

/** Create (company undefined, under `defaultPid`) or edit a company, in the kit's form drawer. */
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
  onSaved: () => void;
}) {
  const t = useT(COMPANY_NS);
  const isAdmin = useSession().user?.userLevel === 0;
  const form = useForm<CompanyFormValues>({
    initialValues: company
      ? { pid: company.pid, name: company.name, contact: company.contact, phone: company.phone, address: company.address, remark: company.remark }
      : { pid: defaultPid, name: '', contact: '', phone: '', address: '', remark: '' },
    // The pure checks (limits from domain/management/limits.ts), worded in the UI language.
    validate: (values) => {
      const found = validateCompanyForm(values, isAdmin);
      return Object.fromEntries(Object.entries(found).map(([field, e]) => [field, e.params ? t(e.key, e.params) : t(e.key)]));
    },
  });
  const pid = form.getValues().pid;

  // A company cannot move under itself or its own subtree (the server refuses it too).
  const exclude = company ? subtreeOf(companies, company.id) : undefined;
  const parentChoices = [...(isAdmin || pid === 0 ? [{ value: '0', label: t('noParent'), depth: 0 }] : []), ...companyOptions(companies, exclude)];
  const pidInput = form.getInputProps('pid');

  return (
    <FormDrawer
      title={company ? t('editTitle', { name: company.name }) : t('createTitle')}
      form={form}
      size="lg"
      testId="company-form"
      onClose={onClose}
      onSaved={onSaved}
      submit={(values) => {
        const input = companyFormToInput(values);
        return company ? companyApi.update({ ...input, id: company.id }) : companyApi.create(input);
      }}
    >
      <SimpleGrid cols={2} spacing="sm">
        <Select
          label={t('parent')}
          required
          searchable
          name="pid"
          data={parentChoices}
          renderOption={renderCompanyOption}
          value={pid === null ? null : String(pid)}
          onChange={(v) => form.setFieldValue('pid', v === null ? null : Number(v))}
          error={pidInput.error as string | undefined}
        />
        <TextInput label={t('name')} required name="name" {...form.getInputProps('name')} />
        <TextInput label={t('contact')} name="contact" {...form.getInputProps('contact')} />
        <TextInput label={t('phone')} name="phone" {...form.getInputProps('phone')} />
      </SimpleGrid>
      <TextInput label={t('address')} name="address" {...form.getInputProps('address')} />
      <Textarea label={t('remark')} name="remark" autosize minRows={2} {...form.getInputProps('remark')} />
    </FormDrawer>
  );
}
