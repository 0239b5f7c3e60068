/**
 * 参数模板 (paramconfig): the templates of the caller's scope that carry parameters this screen edits,
 * with 应用 (fills the form with the template's values), 删除 (asks first) and 保存为模板 (the form's
 * current values under a name, unique per company: the server's 400 shows under the name).
 */
import { Alert, Button, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { ConfirmButton } from '../../kit/ConfirmButton.tsx';
import { errorText } from '../../kit/errors.ts';
import { formatTime } from '../alarms/format.ts';
import { BASE_PARAM_ROUTE, templatesApi, type ParamInput, type ParamTemplate } from './api.ts';
import { TERMINAL_PARAMS_NS } from './messages.ts';

export const TEMPLATES_KEY = ['terminal-params', 'templates'] as const;

export function TemplatesPanel({ relevant, current, onApply }: {
  /** Whether a template item belongs on this screen (base: the table's ids; ADAS: 0xF364 …). */
  relevant(id: number): boolean;
  /** The form's values to save, or a message why there are none. */
  current(): ParamInput[] | string;
  onApply(template: ParamTemplate): void;
}) {
  const t = useT(TERMINAL_PARAMS_NS);
  const client = useQueryClient();
  const list = useQuery({ queryKey: TEMPLATES_KEY, queryFn: templatesApi.list });
  const [saving, setSaving] = useState<ParamInput[] | null>(null);
  const [name, setName] = useState('');
  const [remark, setRemark] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);

  const templates = (list.data?.records ?? []).filter((tpl) => tpl.params.some((p) => relevant(p.id)));
  const open = () => {
    const params = current();
    if (typeof params === 'string') return setNote(params);
    setNote(null);
    setError(null);
    setName('');
    setRemark('');
    setSaving(params);
  };
  const save = async () => {
    if (!saving) return;
    if (!name.trim()) return setError(t('nameRequired'));
    setBusy(true);
    setError(null);
    try {
      await templatesApi.save({ name: name.trim(), params: saving, remark: remark.trim() });
      setSaving(null);
      await client.invalidateQueries({ queryKey: TEMPLATES_KEY });
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap={4} data-testid="params-templates">
      <Group justify="space-between">
        <Text fw={600}>{t('templates')}</Text>
        <Perm route={BASE_PARAM_ROUTE} button="template"><Button size="xs" variant="light" onClick={open} data-testid="template-save-open">{t('saveTemplate')}</Button></Perm>
      </Group>
      {note && <Alert color="yellow" p={6} data-testid="template-note">{note}</Alert>}
      <Table withTableBorder>
        <Table.Thead><Table.Tr><Table.Th>{t('templateName')}</Table.Th><Table.Th>{t('templateRemark')}</Table.Th><Table.Th w={80}>{t('templateParams')}</Table.Th><Table.Th>{t('templateBy')}</Table.Th><Table.Th>{t('updated')}</Table.Th><Table.Th w={150} /></Table.Tr></Table.Thead>
        <Table.Tbody>
          {templates.length === 0 && <Table.Tr><Table.Td colSpan={6}><Text size="sm" c="dimmed">{t('noTemplates')}</Text></Table.Td></Table.Tr>}
          {templates.map((tpl) => (
            <Table.Tr key={tpl.id} data-testid={`template-${tpl.name}`}>
              <Table.Td>{tpl.name}</Table.Td>
              <Table.Td>{tpl.remark}</Table.Td>
              <Table.Td>{tpl.params.filter((p) => relevant(p.id)).length}</Table.Td>
              <Table.Td>{tpl.createdByName}</Table.Td>
              <Table.Td>{formatTime(tpl.updateTime)}</Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Button size="compact-xs" variant="light" onClick={() => { onApply(tpl); setNote(t('applied', { name: tpl.name })); }} data-testid={`template-apply-${tpl.name}`}>{t('apply')}</Button>
                  <Perm route={BASE_PARAM_ROUTE} button="template">
                    <ConfirmButton size="compact-xs" variant="subtle" message={t('removeConfirm', { name: tpl.name })} data-testid={`template-remove-${tpl.name}`}
                      onConfirm={async () => { await templatesApi.remove([tpl.id]); await client.invalidateQueries({ queryKey: TEMPLATES_KEY }); }}>{t('remove')}</ConfirmButton>
                  </Perm>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Modal opened={saving !== null} onClose={() => !busy && setSaving(null)} title={t('saveTemplate')} centered size="sm">
        <Stack gap="xs">
          <TextInput label={t('templateName')} maxLength={50} value={name} onChange={(e) => setName(e.currentTarget.value)} error={error ?? undefined} data-testid="template-name" data-autofocus />
          <TextInput label={t('templateRemark')} maxLength={200} value={remark} onChange={(e) => setRemark(e.currentTarget.value)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setSaving(null)} disabled={busy}>{t('cancel')}</Button>
            <Button loading={busy} onClick={() => void save()} data-testid="template-save">{t('save')}</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
