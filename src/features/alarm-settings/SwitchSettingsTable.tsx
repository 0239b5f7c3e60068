/**
 * The alarm-type table with per-type switches, shared by /safeManagement/alarmSettings/index
 * (enabled, auto-handle) and …/alarmLinkagePage (pop-up, voice, TTS): group filter and search,
 * row selection with batch on/off per switch, the origin of each row's setting. Every change is
 * sent, then the list is reloaded from the server; the switches show the server's state only.
 */
import { Badge, Button, Checkbox, Group, ScrollArea, Stack, Switch, Table, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useLang, useT } from '../../i18n/index.ts';
import { fetchAlarmSettings, type AlarmSettingRecord } from './api.ts';
import { ALARM_SETTINGS_NS } from './messages.ts';
import { batchTypes, filterRows, originOf, toggleAll, type RowFilter } from './settings-model.ts';
import { FilterBar, groupName, ListState, notifyFailure, notifyInfo, notifySuccess, TABLE_HEIGHT, useCompanyLoad } from './shared.tsx';

export type SwitchField = 'enabled' | 'autoHandle' | 'popup' | 'voice' | 'tts';

export interface SwitchColumn {
  field: SwitchField;
  /** Sends the change for these types. */
  apply: (alarmTypes: number[], value: boolean) => Promise<unknown>;
}

export function SwitchSettingsTable({ columns, testid }: { columns: readonly SwitchColumn[]; testid: string }) {
  const t = useT(ALARM_SETTINGS_NS);
  const lang = useLang();
  const loaded = useCompanyLoad(fetchAlarmSettings);
  const [filter, setFilter] = useState<RowFilter>({ group: null, search: '' });
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  /** "field:type" of single switches in flight; "batch" while a batch call runs. */
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());

  const records = useMemo(() => loaded.data?.records ?? [], [loaded.data]);
  const companyId = loaded.data?.companyId ?? 0;
  const shown = useMemo(() => filterRows(records, filter), [records, filter]);
  const selectedShown = shown.filter((r) => selected.has(r.alarmType));
  const allOn = shown.length > 0 && selectedShown.length === shown.length;

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

  const state = <ListState loaded={loaded} empty={shown.length === 0} />;

  return (
    <Stack gap="sm" data-testid={testid}>
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
      {loaded.data !== null && loaded.error !== null && (
        <Text c="red" size="sm" data-testid="settings-reload-error">{t('state.failed', { msg: loaded.error })}</Text>
      )}
      <ScrollArea h={TABLE_HEIGHT} type="auto">
        <Table striped highlightOnHover stickyHeader>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>
                <Checkbox
                  aria-label={t('batch.selectAll')} checked={allOn} indeterminate={!allOn && selectedShown.length > 0}
                  onChange={() => setSelected(toggleAll(shown, selected))} data-testid="settings-select-all"
                />
              </Table.Th>
              <Table.Th w={80}>{t('field.code')}</Table.Th>
              <Table.Th>{t('field.name')}</Table.Th>
              <Table.Th w={140}>{t('field.group')}</Table.Th>
              {columns.map((c) => <Table.Th key={c.field} w={100}>{fieldLabel(c.field)}</Table.Th>)}
              <Table.Th w={200}>{t('field.origin')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((r) => (
              <Table.Tr key={r.alarmType} data-testid="settings-row" data-alarm-type={r.alarmType}>
                <Table.Td>
                  <Checkbox
                    aria-label={String(r.alarmType)} checked={selected.has(r.alarmType)}
                    onChange={() => setSelected(toggleAll([r], selected))}
                  />
                </Table.Td>
                <Table.Td>{r.alarmType}</Table.Td>
                <Table.Td>{r.alarmName}</Table.Td>
                <Table.Td>{groupName(r.group, lang)}</Table.Td>
                {columns.map((c) => {
                  const key = `${c.field}:${r.alarmType}`;
                  return (
                    <Table.Td key={c.field}>
                      <Switch
                        checked={r[c.field]} disabled={busy.has(key) || batchBusy} aria-label={`${fieldLabel(c.field)} ${r.alarmName}`}
                        data-testid={`switch-${c.field}`} onChange={() => void run(key, c, [r.alarmType], !r[c.field])}
                      />
                    </Table.Td>
                  );
                })}
                <Table.Td>{origin(r)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {state}
      </ScrollArea>
    </Stack>
  );
}
