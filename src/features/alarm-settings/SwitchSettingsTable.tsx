/**
 * The alarm-type table with per-type switches, shared by /safeManagement/alarmSettings/index
 * (enabled, auto-handle) and …/alarmLinkagePage (pop-up, voice, TTS): group filter and search,
 * row selection with batch on/off per switch, the origin of each row's setting. Every change is
 * sent, then the list is reloaded from the server; the switches show the server's state only.
 */
import { Badge, Button, Group, Switch, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useLang, useT } from '../../i18n/index.ts';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { PageFrame } from '../../kit/PageFrame.tsx';
import { RowsTable } from '../../kit/RowsTable.tsx';
import { fetchAlarmSettings, type AlarmSettingRecord } from './api.ts';
import { ALARM_SETTINGS_NS } from './messages.ts';
import { batchTypes, filterRows, originOf, type RowFilter } from './settings-model.ts';
import { FilterBar, groupName, notifyFailure, notifyInfo, notifySuccess, useCompanyLoad } from './shared.tsx';

export type SwitchField = 'enabled' | 'autoHandle' | 'popup' | 'voice' | 'tts';

export interface SwitchColumn {
  field: SwitchField;
  /** Sends the change for these types. */
  apply: (alarmTypes: number[], value: boolean) => Promise<unknown>;
}

export function SwitchSettingsTable({ columns, title, testid }: { columns: readonly SwitchColumn[]; title: 'settings' | 'linkage'; testid: string }) {
  const t = useT(ALARM_SETTINGS_NS);
  const lang = useLang();
  const loaded = useCompanyLoad('settings', fetchAlarmSettings);
  const [filter, setFilter] = useState<RowFilter>({ group: null, search: '' });
  const [selected, setSelected] = useState<ReadonlySet<string | number>>(new Set());
  /** "field:type" of single switches in flight; "batch" while a batch call runs. */
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());

  const records = useMemo(() => loaded.data?.records ?? [], [loaded.data]);
  const companyId = loaded.data?.companyId ?? 0;
  const shown = useMemo(() => filterRows(records, filter), [records, filter]);
  const selectedShown = shown.filter((r) => selected.has(r.alarmType));

  const mark = (key: string, on: boolean) =>
    setBusy((b) => {
      const n = new Set(b);
      if (on) n.add(key);
      else n.delete(key);
      return n;
    });

  const run = async (key: string, column: SwitchColumn, types: number[], value: boolean) => {
    if (types.length === 0) {
      notifyInfo(t('batch.nothing'));
      return;
    }
    mark(key, true);
    try {
      await column.apply(types, value);
      notifySuccess(t('done.switched', { count: types.length }));
    } catch (e) {
      notifyFailure(t('failed.switched'), e);
    } finally {
      // reload either way: after a failure the table must show what the server holds
      const reloadError = await loaded.reload();
      if (reloadError !== null) notifyFailure(t('failed.reload'), reloadError);
      mark(key, false);
    }
  };

  const fieldLabel = (f: SwitchField) => t(`field.${f}`);
  const batchBusy = busy.has('batch');

  const origin = (r: AlarmSettingRecord) => {
    const o = originOf(r.fromCompanyId, companyId);
    if (o.kind === 'own') return <Badge variant="light" color="blue">{t('origin.own')}</Badge>;
    if (o.kind === 'inherited') return <Badge variant="light" color="grape">{t('origin.inherited', { id: o.companyId })}</Badge>;
    return <Badge variant="light" color="gray">{t('origin.default')}</Badge>;
  };

  const table: KitColumn<AlarmSettingRecord>[] = [
    { key: 'code', title: t('field.code'), minWidth: 70, maxWidth: 90, render: (r) => r.alarmType },
    { key: 'name', title: t('field.name'), minWidth: 160, maxWidth: 300, render: (r) => r.alarmName },
    { key: 'group', title: t('field.group'), minWidth: 120, maxWidth: 200, render: (r) => groupName(r.group, lang) },
    ...columns.map((c): KitColumn<AlarmSettingRecord> => ({
      key: c.field, title: fieldLabel(c.field), minWidth: 90, maxWidth: 120,
      render: (r) => {
        const key = `${c.field}:${r.alarmType}`;
        return (
          <Switch
            checked={r[c.field]} disabled={busy.has(key) || batchBusy} aria-label={`${fieldLabel(c.field)} ${r.alarmName}`}
            data-testid={`switch-${c.field}`} onChange={() => void run(key, c, [r.alarmType], !r[c.field])}
          />
        );
      },
    })),
    { key: 'origin', title: t('field.origin'), minWidth: 140, maxWidth: 220, render: origin },
  ];

  return (
    <PageFrame pageId={`alarm-${title}`} testId={testid} title={t(`title.${title}`)}>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <FilterBar filter={filter} onChange={setFilter} />
        <Text size="sm" c="dimmed" data-testid="settings-selected">{t('batch.selected', { count: selectedShown.length })}</Text>
        {columns.map((c) => (
          <Button.Group key={c.field}>
            <Button
              size="xs" variant="light" disabled={selectedShown.length === 0 || batchBusy} data-testid={`batch-${c.field}-on`}
              onClick={() => void run('batch', c, batchTypes(shown, selected, c.field, true), true)}
            >
              {t('batch.on', { field: fieldLabel(c.field) })}
            </Button>
            <Button
              size="xs" variant="default" disabled={selectedShown.length === 0 || batchBusy} data-testid={`batch-${c.field}-off`}
              onClick={() => void run('batch', c, batchTypes(shown, selected, c.field, false), false)}
            >
              {t('batch.off', { field: fieldLabel(c.field) })}
            </Button>
          </Button.Group>
        ))}
      </Group>
      <RowsTable
        rows={shown} columns={table} rowKey={(r) => r.alarmType} label={t(`title.${title}`)} emptyText={t('state.empty')}
        loading={loaded.loading} error={loaded.error} onRetry={() => void loaded.reload()}
        selection={{ selected, onChange: setSelected, rowLabel: (r) => String(r.alarmType) }}
        rowAttributes={(r) => ({ 'data-testid': 'settings-row', 'data-alarm-type': r.alarmType })}
      />
    </PageFrame>
  );
}
