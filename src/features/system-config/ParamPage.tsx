/**
 * /system/param (issue 19): the parameter tree (groups, `paramName` labels) on the left, the parameters of
 * the picked group in a table, and a drawer to change one value (checked by the same domain rule as the
 * server, refused values shown under the field in the UI language). Platform parameters are changed by
 * platform administrators only; company parameters (report thresholds) apply to the selected company.
 * Pages that read a parameter follow a change at once (push `configChanged`).
 */
import { useMemo, useState } from 'react';
import { Badge, Button, Group, NavLink, NumberInput, ScrollArea, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { checkParamValue, displayValue, formatTimeOfDay, paramLabel, type ParamKind } from '../../../domain/system-config/params.ts';
import { fieldRuleText } from '../../../domain/errors/field-problem.ts';
import { Perm } from '../../app/Perm.tsx';
import { useLang, useT } from '../../i18n/index.ts';
import { DeleteRowButton } from '../../kit/DeleteRowButton.tsx';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { KIT_NS } from '../../kit/messages.ts';
import { PageFrame } from '../../kit/PageFrame.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { RowsTable } from '../../kit/RowsTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { formatTime } from '../system/ui/format.ts';
import { CONFIG_KEY, paramApi, useConfigRefresh, type ParamNode } from './api.ts';
import { SYSCONF_NS } from './messages.ts';

const ROUTE = '/system/param';

const flatten = (nodes: readonly ParamNode[]): ParamNode[] => nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);

function GroupTree({ nodes, selected, onSelect, lang }: { nodes: readonly ParamNode[]; selected: number | null; onSelect: (id: number) => void; lang: 'zh' | 'en' }) {
  return (
    <>
      {nodes.filter((n) => n.kind === 'group').map((n) => (
        <NavLink
          key={n.id}
          label={paramLabel({ zh: n.paramName, en: n.paramNameEn }, lang)}
          active={selected === n.id}
          defaultOpened
          onClick={() => onSelect(n.id)}
          data-param-group={n.paramKey}
        >
          {(n.children ?? []).some((c) => c.kind === 'group') ? <GroupTree nodes={n.children ?? []} selected={selected} onSelect={onSelect} lang={lang} /> : undefined}
        </NavLink>
      ))}
    </>
  );
}

export function ParamPage() {
  const t = useT(SYSCONF_NS);
  const tk = useT(KIT_NS);
  const lang = useLang();
  useConfigRefresh();
  const client = useQueryClient();
  // Company parameters show the selected company's values: the company is part of the key.
  const { companyId } = useCompanySelection();
  const q = useQuery({ queryKey: [CONFIG_KEY, 'params', 'tree', companyId], queryFn: paramApi.tree });
  const [group, setGroup] = useState<number | null>(null);
  const [editing, setEditing] = useState<ParamNode | null>(null);
  const [creating, setCreating] = useState(false);
  const refresh = () => void client.invalidateQueries({ queryKey: [CONFIG_KEY, 'params'] });

  const all = useMemo(() => flatten(q.data?.tree ?? []), [q.data]);
  const rows = useMemo(() => {
    if (group === null) return all.filter((n) => n.kind !== 'group');
    const under = flatten(all.find((n) => n.id === group)?.children ?? []);
    return under.filter((n) => n.kind !== 'group');
  }, [all, group]);

  const unit = (n: ParamNode) => (lang === 'zh' ? n.unit : n.unitEn || n.unit);
  const shown = (n: ParamNode, v: string | null) => (v === null ? '' : `${displayValue(n, v)}${unit(n) ? ` ${unit(n)}` : ''}`);
  const range = (n: ParamNode) => {
    if (n.kind === 'enum') return n.options.map((o) => o.value).join(' / ');
    if (n.min === null && n.max === null) return '';
    const f = (x: number | null) => (x === null ? '' : n.kind === 'time' ? formatTimeOfDay(x) : String(x));
    return `${f(n.min)} – ${f(n.max)}`;
  };

  const columns: KitColumn<ParamNode>[] = [
    { key: 'name', title: t('param.name'), minWidth: 160, maxWidth: 260, render: (n) => <Text size="sm" fw={500}>{paramLabel({ zh: n.paramName, en: n.paramNameEn }, lang)}</Text> },
    { key: 'key', title: t('param.key'), minWidth: 150, maxWidth: 220, render: (n) => <Text size="xs" ff="monospace">{n.paramKey}</Text> },
    {
      key: 'value', title: t('param.value'), minWidth: 120, maxWidth: 200,
      render: (n) => (
        <Group gap={4} wrap="nowrap" data-param-value={n.paramKey}>
          <Text size="sm">{n.kind === 'enum' ? paramLabel(n.options.find((o) => o.value === n.effective) ?? { zh: n.effective ?? '', en: '' }, lang) : shown(n, n.effective)}</Text>
          {n.value === null && <Badge size="xs" variant="light" color="gray">{t('param.isDefault')}</Badge>}
        </Group>
      ),
    },
    { key: 'default', title: t('param.defaultValue'), minWidth: 90, maxWidth: 140, render: (n) => shown(n, n.defaultValue) },
    { key: 'range', title: t('param.range'), minWidth: 100, maxWidth: 180, render: range },
    {
      key: 'scope', title: t('param.scope'), minWidth: 70, maxWidth: 100,
      render: (n) => <Badge size="sm" variant="light" color={n.scope === 'platform' ? 'grape' : 'blue'}>{t(`param.${n.scope}`)}</Badge>,
    },
    { key: 'updatedBy', title: t('param.updatedBy'), minWidth: 90, maxWidth: 140, render: (n) => n.updatedBy },
    { key: 'updateTime', title: t('param.updateTime'), minWidth: 130, maxWidth: 170, render: (n) => (n.updateTime ? formatTime(n.updateTime) : '') },
  ];

  return (
    <PageFrame
      pageId="system-param"
      title={t('param.title')}
      header={
        q.data?.platformAdmin ? (
          <Perm route={ROUTE} button="create">
            <Button size="xs" onClick={() => setCreating(true)} data-testid="param-create">{t('param.create')}</Button>
          </Perm>
        ) : undefined
      }
      aside={
        <ScrollArea style={{ flex: 1 }}>
          <Text size="xs" c="dimmed" mb={4}>{t('param.groups')}</Text>
          <NavLink label={t('param.all')} active={group === null} onClick={() => setGroup(null)} />
          <GroupTree nodes={q.data?.tree ?? []} selected={group} onSelect={setGroup} lang={lang} />
        </ScrollArea>
      }
      dialogs={
        <>
          {editing && <ParamValueDrawer node={editing} onClose={() => setEditing(null)} onSaved={() => { setEditing(null); refresh(); }} />}
          {creating && <ParamCreateDrawer groups={all.filter((n) => n.kind === 'group')} onClose={() => setCreating(false)} onSaved={() => { setCreating(false); refresh(); }} />}
        </>
      }
    >
      <RowsTable
        rows={rows}
        columns={columns}
        rowKey={(n) => n.id}
        label={t('param.title')}
        loading={q.isFetching && !q.data}
        error={q.error ?? undefined}
        onRetry={() => void q.refetch()}
        testId="param-table"
        rowAttributes={(n) => ({ 'data-param-key': n.paramKey })}
        actions={{
          width: 170,
          render: (n) => (
            <Group gap={4} wrap="nowrap">
              {n.editable && (
                <Perm route={ROUTE} button="update">
                  <Button size="compact-xs" variant="light" onClick={() => setEditing(n)} data-action="edit">{t('param.edit')}</Button>
                </Perm>
              )}
              {!n.builtin && q.data?.platformAdmin && (
                <DeleteRowButton
                  route={ROUTE}
                  label={t('param.delete')}
                  message={t('param.deleteConfirm', { name: n.paramName })}
                  deletedMessage={tk('deleted')}
                  onDelete={() => paramApi.remove([n.id])}
                  onDeleted={refresh}
                />
              )}
            </Group>
          ),
        }}
      />
    </PageFrame>
  );
}

/** Changes one value; empty with 恢复默认 sends null (the default is in force again). */
function ParamValueDrawer({ node, onClose, onSaved }: { node: ParamNode; onClose: () => void; onSaved: () => void }) {
  const t = useT(SYSCONF_NS);
  const lang = useLang();
  const form = useForm<{ value: string }>({
    mode: 'controlled',
    initialValues: { value: displayValue(node, node.effective) },
    validate: {
      value: (v) => {
        const r = checkParamValue(node, v);
        return r.ok ? null : fieldRuleText(r.problem, lang) ?? t('param.value');
      },
    },
  });
  const input = (kind: ParamKind) => {
    if (kind === 'enum') {
      return <Select label={t('param.value')} data={node.options.map((o) => ({ value: o.value, label: paramLabel(o, lang) }))} {...form.getInputProps('value')} data-testid="param-value" />;
    }
    const hint = kind === 'time' ? t('param.timeHint') : [node.min, node.max].some((x) => x !== null) ? `${node.min ?? ''} – ${node.max ?? ''} ${lang === 'zh' ? node.unit : node.unitEn || node.unit}` : undefined;
    return <TextInput label={t('param.value')} description={hint} {...form.getInputProps('value')} data-testid="param-value" />;
  };
  return (
    <FormDrawer
      title={t('param.editTitle', { name: paramLabel({ zh: node.paramName, en: node.paramNameEn }, lang) })}
      form={form}
      testId="param-form"
      onClose={onClose}
      onSaved={onSaved}
      submit={(v) => paramApi.update({ id: node.id, value: v.value })}
    >
      <Text size="xs" c="dimmed">{node.scope === 'company' ? t('param.companyNote') : t('param.platformNote')}</Text>
      {input(node.kind)}
      {node.value !== null && (
        <Button size="xs" variant="subtle" onClick={() => void paramApi.update({ id: node.id, value: null }).then(onSaved)} data-testid="param-reset">
          {t('param.reset')}
        </Button>
      )}
    </FormDrawer>
  );
}

const CUSTOM_KINDS = ['group', 'int', 'number', 'enum', 'duration', 'text'] as const;

/** A custom parameter (platform administrators): key, names, kind, bounds or options, first value. */
function ParamCreateDrawer({ groups, onClose, onSaved }: { groups: ParamNode[]; onClose: () => void; onSaved: () => void }) {
  const t = useT(SYSCONF_NS);
  const form = useForm<{ paramKey: string; paramName: string; paramNameEn: string; kind: string; parentId: string; min: number | string; max: number | string; options: string; value: string }>({
    mode: 'controlled',
    initialValues: { paramKey: '', paramName: '', paramNameEn: '', kind: 'int', parentId: '', min: '', max: '', options: '', value: '' },
  });
  const kind = form.getValues().kind;
  return (
    <FormDrawer
      title={t('param.createTitle')}
      form={form}
      testId="param-create-form"
      onClose={onClose}
      onSaved={onSaved}
      submit={(v) => paramApi.save({
        paramKey: v.paramKey.trim(), paramName: v.paramName, paramNameEn: v.paramNameEn || undefined, kind: v.kind,
        parentId: v.parentId ? Number(v.parentId) : undefined,
        min: v.min === '' ? undefined : Number(v.min), max: v.max === '' ? undefined : Number(v.max),
        options: v.kind === 'enum' ? v.options.split('\n').map((l) => l.trim()).filter(Boolean).map((l) => {
          const [value, label] = l.split('=');
          return { value: (value ?? '').trim(), zh: (label ?? value ?? '').trim() };
        }) : undefined,
        value: v.kind === 'group' || v.value === '' ? undefined : v.value,
      })}
    >
      <Stack gap="xs">
        <TextInput label={t('param.key')} required {...form.getInputProps('paramKey')} />
        <TextInput label={t('param.name')} required {...form.getInputProps('paramName')} />
        <TextInput label={t('param.nameEn')} {...form.getInputProps('paramNameEn')} />
        <Select label={t('param.kind')} data={CUSTOM_KINDS.map((k) => ({ value: k, label: t(`param.kinds.${k}`) }))} {...form.getInputProps('kind')} allowDeselect={false} />
        <Select label={t('param.parent')} clearable data={groups.map((g) => ({ value: String(g.id), label: g.paramName }))} {...form.getInputProps('parentId')} />
        {kind !== 'group' && kind !== 'enum' && (
          <Group grow>
            <NumberInput label={t('param.min')} {...form.getInputProps('min')} />
            <NumberInput label={t('param.max')} {...form.getInputProps('max')} />
          </Group>
        )}
        {kind === 'enum' && <Textarea label={t('param.options')} autosize minRows={3} {...form.getInputProps('options')} />}
        {kind !== 'group' && <TextInput label={t('param.value')} {...form.getInputProps('value')} />}
      </Stack>
    </FormDrawer>
  );
}
