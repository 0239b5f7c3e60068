import { useRef } from 'react';
import { Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { LINE_LIMITS as L } from '../../../domain/fleet/limits.ts';
import { useT } from '../../i18n/index.ts';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { lineApi, type Line } from './api.ts';
import { initialValues, toInput, validateLineForm, type LineFormValues } from './line-form.ts';
import { LINES_NS } from './messages.ts';

/** Create (line undefined: in the company picked in the tree) or edit a line's name, code and remark. */
export function LineForm({ line, onClose, onSaved }: { line: Line | undefined; onClose: () => void; onSaved: (line: Line) => void }) {
  const t = useT(LINES_NS);
  const form = useForm<LineFormValues>({
    initialValues: initialValues(line),
    validate: (values) => Object.fromEntries(Object.entries(validateLineForm(values)).map(([field, e]) => [field, e.params ? t(e.key, e.params) : t(e.key)])),
  });
  const result = useRef<Line | undefined>(undefined);
  return (
    <FormDrawer
      title={line ? t('editTitle', { name: line.name }) : t('createTitle')}
      form={form}
      testId="line-form"
      onClose={onClose}
      onSaved={() => result.current && onSaved(result.current)}
      submit={async (values) => {
        result.current = line ? await lineApi.update({ ...toInput(values), id: line.id }) : await lineApi.create(toInput(values));
        return result.current;
      }}
    >
      <TextInput label={t('name')} required name="name" maxLength={L.nameMax} {...form.getInputProps('name')} />
      <TextInput label={t('code')} name="code" maxLength={L.codeMax} {...form.getInputProps('code')} />
      <Textarea label={t('remark')} name="remark" autosize minRows={2} maxLength={L.remarkMax} {...form.getInputProps('remark')} />
    </FormDrawer>
  );
}
