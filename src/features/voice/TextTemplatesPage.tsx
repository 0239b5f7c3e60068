/**
 * 文本资源 (/operation/entertainmentResources/text, issue 19): the company's text templates a voice dispatch
 * may start from — the kit's list with create, edit and delete behind bits 550–552. The server holds the
 * rules (content required, one 0x8300's worth of GBK bytes) and names the field it refuses.
 */
import { Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useT } from '../../i18n/index.ts';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { formatTime } from '../system/ui/format.ts';
import { TEXT_ROUTE, voiceApi, type TextTemplate } from './api.ts';
import { VOICE_RES_NS } from './messages.ts';

type Values = { name: string; content: string; remark: string };

function TemplateForm({ template, onClose, onSaved }: { template: TextTemplate | undefined; onClose: () => void; onSaved: () => void }) {
  const t = useT(VOICE_RES_NS);
  const form = useForm<Values>({
    initialValues: { name: template?.name ?? '', content: template?.content ?? '', remark: template?.remark ?? '' },
    validate: {
      name: (v) => (!v.trim() ? t('nameRequired') : [...v.trim()].length > 50 ? t('nameLength') : null),
      content: (v) => (!v.trim() ? t('contentRequired') : null),
    },
  });
  return (
    <FormDrawer title={template ? t('editTitle', { name: template.name }) : t('createTitle')} form={form} testId="text-template-form" onClose={onClose} onSaved={onSaved}
      submit={(v) => (template ? voiceApi.textUpdate({ id: template.id, ...v }) : voiceApi.textAdd(v))}>
      <TextInput label={t('name')} required name="name" maxLength={50} {...form.getInputProps('name')} />
      <Textarea label={t('content')} required name="content" autosize minRows={4} maxLength={500} {...form.getInputProps('content')} />
      <Textarea label={t('remark')} name="remark" autosize minRows={2} maxLength={200} {...form.getInputProps('remark')} />
    </FormDrawer>
  );
}

export function TextTemplatesPage() {
  const t = useT(VOICE_RES_NS);
  const { companyId } = useCompanySelection();
  const [dialog, setDialog] = useState<{ template?: TextTemplate } | undefined>(undefined);
  const invalidate = useInvalidate(TEXT_ROUTE);
  const columns: KitColumn<TextTemplate>[] = [
    { key: 'name', title: t('name'), minWidth: 120, maxWidth: 240, render: (r) => <Text size="sm" fw={500}>{r.name}</Text> },
    { key: 'content', title: t('content'), minWidth: 220, maxWidth: 600, render: (r) => <Text size="sm" lineClamp={2}>{r.content}</Text> },
    { key: 'companyName', title: t('company'), minWidth: 120, maxWidth: 220, render: (r) => r.companyName },
    { key: 'remark', title: t('remark'), minWidth: 100, maxWidth: 300, render: (r) => r.remark },
    { key: 'createdByName', title: t('createdBy'), minWidth: 90, maxWidth: 140, render: (r) => r.createdByName },
    { key: 'updateTime', title: t('updateTime'), minWidth: 130, maxWidth: 170, render: (r) => formatTime(r.updateTime) },
  ];
  return (
    <ListPage<TextTemplate>
      route={TEXT_ROUTE}
      pageId="operation-text-resources"
      title={t('textTitle')}
      tree={{}}
      searchPlaceholder={t('textSearch')}
      fetchPage={(q) => voiceApi.textPage({ current: q.current, size: q.size, keyword: q.keyword || undefined })}
      scope={{ companyId }}
      columns={columns}
      onCreate={() => setDialog({})}
      onEdit={(template) => setDialog({ template })}
      remove={{ name: (r) => r.name, message: (r) => t('deleteConfirm', { name: r.name }), call: (r) => voiceApi.textRemove([r.id]) }}
    >
      {dialog && <TemplateForm template={dialog.template} onClose={() => setDialog(undefined)} onSaved={() => { setDialog(undefined); void invalidate(); }} />}
    </ListPage>
  );
}
