/**
 * /system/dictionary (issue 19): the kinds (`codeCnname` labels) on the left, the picked kind's codes in a
 * table, a drawer to add or edit a kind or a code (code, Chinese and English names, order, enabled).
 * Platform-wide: only a platform administrator's changes are accepted (the server says so otherwise);
 * seeded entries can be relabelled, reordered and disabled, not deleted. Pages reading a kind refetch it
 * when it changes (push `configChanged`).
 */
import { useMemo, useState } from 'react';
import { Badge, Button, Group, NavLink, NumberInput, ScrollArea, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DICT_CODE_MAX, DICT_NAME_MAX, DICT_SORT_MAX } from '../../../domain/system-config/dictionary.ts';
import { Perm } from '../../app/Perm.tsx';
import { useLang, useT } from '../../i18n/index.ts';
import { DeleteRowButton } from '../../kit/DeleteRowButton.tsx';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { KIT_NS } from '../../kit/messages.ts';
import { PageFrame } from '../../kit/PageFrame.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { RowsTable } from '../../kit/RowsTable.tsx';
import { formatTime } from '../system/ui/format.ts';
import { CONFIG_KEY, dictApi, useConfigRefresh, type DictEntry } from './api.ts';
import { SYSCONF_NS } from './messages.ts';

const ROUTE = '/system/dictionary';

type Editing = { kind: 'newKind' } | { kind: 'newCode'; parent: DictEntry } | { kind: 'edit'; entry: DictEntry } | null;

export function DictionaryPage() {
  const t = useT(SYSCONF_NS);
  const tk = useT(KIT_NS);
  const lang = useLang();
  useConfigRefresh();
  const client = useQueryClient();
  const q = useQuery({ queryKey: [CONFIG_KEY, 'dictionary', '*'], queryFn: () => dictApi.tree() });
  const [kindId, setKindId] = useState<number | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const refresh = () => void client.invalidateQueries({ queryKey: [CONFIG_KEY, 'dictionary'] });
  const kinds = useMemo(() => q.data?.tree ?? [], [q.data]);
  const kind = kinds.find((k) => k.id === kindId) ?? kinds[0];
  const label = (e: DictEntry) => (lang === 'zh' ? e.codeCnname : e.codeEnname || e.codeCnname);

  const columns: KitColumn<DictEntry>[] = [
    { key: 'code', title: t('dict.code'), minWidth: 90, maxWidth: 160, render: (e) => <Text size="sm" ff="monospace">{e.code}</Text> },
    { key: 'cnname', title: t('dict.cnname'), minWidth: 120, maxWidth: 220, render: (e) => e.codeCnname },
    { key: 'enname', title: t('dict.enname'), minWidth: 120, maxWidth: 220, render: (e) => e.codeEnname },
    { key: 'sort', title: t('dict.sort'), minWidth: 60, maxWidth: 80, align: 'right', render: (e) => e.sort },
    {
      key: 'enabled', title: t('dict.enabled'), minWidth: 70, maxWidth: 100,
      render: (e) => <Badge size="sm" variant="light" color={e.enabled ? 'green' : 'gray'}>{e.enabled ? t('dict.on') : t('dict.off')}</Badge>,
    },
    { key: 'builtin', title: t('dict.builtin'), minWidth: 60, maxWidth: 80, render: (e) => (e.builtin ? '✓' : '') },
    { key: 'updateTime', title: t('param.updateTime'), minWidth: 130, maxWidth: 170, render: (e) => formatTime(e.updateTime) },
  ];

  return (
    <PageFrame
      pageId="system-dictionary"
      title={t('dict.title')}
      header={
        <Group gap="xs">
          <Perm route={ROUTE} button="create">
            <Button size="xs" variant="default" onClick={() => setEditing({ kind: 'newKind' })} data-testid="dict-create-kind">{t('dict.createKind')}</Button>
          </Perm>
          {kind && (
            <Perm route={ROUTE} button="create">
              <Button size="xs" onClick={() => setEditing({ kind: 'newCode', parent: kind })} data-testid="dict-create-code">{t('dict.createCode')}</Button>
            </Perm>
          )}
        </Group>
      }
      aside={
        <ScrollArea style={{ flex: 1 }}>
          <Text size="xs" c="dimmed" mb={4}>{t('dict.kinds')}</Text>
          {kinds.map((k) => (
            <NavLink
              key={k.id}
              label={label(k)}
              description={k.code}
              active={kind?.id === k.id}
              onClick={() => setKindId(k.id)}
              data-dict-kind={k.code}
              rightSection={
                <Perm route={ROUTE} button="update">
                  <Button size="compact-xs" variant="subtle" onClick={(ev) => { ev.stopPropagation(); setEditing({ kind: 'edit', entry: k }); }}>{t('dict.edit')}</Button>
                </Perm>
              }
            />
          ))}
        </ScrollArea>
      }
      dialogs={editing && <DictDrawer editing={editing} onClose={() => setEditing(null)} onSaved={() => { setEditing(null); refresh(); }} />}
    >
      {kind && <Text size="sm" c="dimmed">{t('dict.kindOf', { name: label(kind) })}</Text>}
      <RowsTable
        rows={kind?.children ?? []}
        columns={columns}
        rowKey={(e) => e.id}
        label={t('dict.title')}
        loading={q.isFetching && !q.data}
        error={q.error ?? undefined}
        onRetry={() => void q.refetch()}
        emptyText={kind ? undefined : t('dict.pickKind')}
        testId="dict-table"
        rowAttributes={(e) => ({ 'data-dict-code': e.code })}
        actions={{
          width: 150,
          render: (e) => (
            <Group gap={4} wrap="nowrap">
              <Perm route={ROUTE} button="update">
                <Button size="compact-xs" variant="light" onClick={() => setEditing({ kind: 'edit', entry: e })} data-action="edit">{t('dict.edit')}</Button>
              </Perm>
              {!e.builtin && (
                <DeleteRowButton route={ROUTE} label={t('dict.delete')} message={t('dict.deleteConfirm', { name: e.codeCnname })} deletedMessage={tk('deleted')} onDelete={() => dictApi.remove([e.id])} onDeleted={refresh} />
              )}
            </Group>
          ),
        }}
      />
    </PageFrame>
  );
}

function DictDrawer({ editing, onClose, onSaved }: { editing: NonNullable<Editing>; onClose: () => void; onSaved: () => void }) {
  const t = useT(SYSCONF_NS);
  const entry = editing.kind === 'edit' ? editing.entry : undefined;
  const form = useForm<{ code: string; codeCnname: string; codeEnname: string; sort: number | string; enabled: boolean }>({
    mode: 'controlled',
    initialValues: { code: entry?.code ?? '', codeCnname: entry?.codeCnname ?? '', codeEnname: entry?.codeEnname ?? '', sort: entry?.sort ?? 0, enabled: entry?.enabled ?? true },
  });
  const title = editing.kind === 'newKind' ? t('dict.createKind') : editing.kind === 'newCode' ? t('dict.createCode') : t('dict.editTitle');
  return (
    <FormDrawer
      title={title}
      form={form}
      testId="dict-form"
      onClose={onClose}
      onSaved={onSaved}
      submit={(v) => {
        const body = { code: v.code.trim(), codeCnname: v.codeCnname, codeEnname: v.codeEnname, sort: v.sort === '' ? 0 : Number(v.sort), enabled: v.enabled };
        if (entry) return dictApi.update({ id: entry.id, ...body });
        return dictApi.save(editing.kind === 'newCode' ? { parentId: editing.parent.id, ...body } : body);
      }}
    >
      <TextInput label={t('dict.code')} required maxLength={DICT_CODE_MAX} disabled={entry?.builtin} {...form.getInputProps('code')} />
      <TextInput label={t('dict.cnname')} required maxLength={DICT_NAME_MAX} {...form.getInputProps('codeCnname')} />
      <TextInput label={t('dict.enname')} maxLength={DICT_NAME_MAX} {...form.getInputProps('codeEnname')} />
      <NumberInput label={t('dict.sort')} min={0} max={DICT_SORT_MAX} {...form.getInputProps('sort')} />
      <Switch label={t('dict.enabled')} {...form.getInputProps('enabled', { type: 'checkbox' })} />
    </FormDrawer>
  );
}
