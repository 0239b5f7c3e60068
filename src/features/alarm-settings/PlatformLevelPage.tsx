/**
 * /safeManagement/alarmSettings/platformLevelPage — the company's platform alarm levels: a master
 * switch and, per alarm type, a risk level or "default" (null: back to the catalogue default).
 * Choices are drafts until saved; only changed rows are sent, then the list is reloaded.
 */
import { Badge, Button, Group, ScrollArea, Select, Stack, Switch, Table, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { RISK_LEVELS } from '../../../domain/alarms/sources.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { ALARMS_NS } from '../alarms/messages.ts';
import { riskColor } from '../alarms/format.ts';
import { enableLevels, fetchLevelSettings, saveLevels, type LevelRecord } from './api.ts';
import { ALARM_SETTINGS_NS } from './messages.ts';
import { filterRows, levelChanges, type LevelChoice, type RowFilter } from './settings-model.ts';
import { FilterBar, groupName, ListState, PerCompany, notifyFailure, notifyInfo, notifySuccess, TABLE_HEIGHT, useCompanyLoad } from './shared.tsx';

function isChoice(v: string | null): v is LevelChoice {
  return v === 'default' || (RISK_LEVELS as readonly string[]).includes(v ?? '');
}

export function PlatformLevelPage() {
  return (
    <PerCompany>
      <LevelEditor />
    </PerCompany>
  );
}

function LevelEditor() {
  const t = useT(ALARM_SETTINGS_NS);
  const ta = useT(ALARMS_NS);
  const lang = useLang();
  const loaded = useCompanyLoad(fetchLevelSettings);
  const [filter, setFilter] = useState<RowFilter>({ group: null, search: '' });
  const [drafts, setDrafts] = useState<ReadonlyMap<number, LevelChoice>>(new Map());
  const [saving, setSaving] = useState(false);
  const [switching, setSwitching] = useState(false);

  const records = useMemo(() => loaded.data?.records ?? [], [loaded.data]);
  const shown = useMemo(() => filterRows(records, filter), [records, filter]);
  const changes = useMemo(() => levelChanges(records, drafts), [records, drafts]);
  const enabled = loaded.data?.enabled ?? false;

  const riskLabel = (level: string) => ta(`risk.${level}`);

  const reloadAfter = async () => {
    const reloadError = await loaded.reload();
    if (reloadError !== null) notifyFailure(t('failed.reload'), reloadError);
    return reloadError === null;
  };

  const toggleMaster = async (on: boolean) => {
    setSwitching(true);
    try {
      await enableLevels(on);
      notifySuccess(t(on ? 'done.levelOn' : 'done.levelOff'));
    } catch (e) {
      notifyFailure(t('failed.level'), e);
    } finally {
      await reloadAfter();
      setSwitching(false);
    }
  };

  const save = async () => {
    if (changes.length === 0) {
      notifyInfo(t('level.unchanged'));
      return;
    }
    setSaving(true);
    try {
      const r = await saveLevels(changes);
      notifySuccess(t('done.saved', { count: r.saved }));
      // the drafts are saved: what the server now holds is shown after the reload
      if (await reloadAfter()) setDrafts(new Map());
    } catch (e) {
      notifyFailure(t('failed.saved'), e);
      await reloadAfter();
    } finally {
      setSaving(false);
    }
  };

  const choose = (r: LevelRecord, v: string | null) => {
    if (!isChoice(v)) return;
    setDrafts((d) => {
      const n = new Map(d);
      if (v === r.riskLevel) n.delete(r.alarmType);
      else n.set(r.alarmType, v);
      return n;
    });
  };

  return (
    <Stack gap="sm" data-testid="platform-level-page">
      <Group gap="md" align="center">
        <Switch
          label={t('level.master')} checked={enabled} disabled={loaded.data === null || switching}
          onChange={(e) => void toggleMaster(e.currentTarget.checked)} data-testid="level-master"
        />
        <Text size="sm" c="dimmed">{t('level.masterHint')}</Text>
      </Group>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <FilterBar filter={filter} onChange={setFilter} />
        <Text size="sm" c="dimmed" data-testid="level-changed">{t('level.changed', { count: changes.length })}</Text>
        <Button size="xs" onClick={() => void save()} loading={saving} disabled={changes.length === 0} data-testid="level-save">
          {t('level.save')}
        </Button>
        <Button size="xs" variant="default" onClick={() => setDrafts(new Map())} disabled={drafts.size === 0 || saving} data-testid="level-reset">
          {t('level.reset')}
        </Button>
      </Group>
      {loaded.data !== null && loaded.error !== null && (
        <Text c="red" size="sm" data-testid="settings-reload-error">{t('state.failed', { msg: loaded.error })}</Text>
      )}
      <ScrollArea h={TABLE_HEIGHT} type="auto">
        <Table striped highlightOnHover stickyHeader>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={80}>{t('field.code')}</Table.Th>
              <Table.Th>{t('field.name')}</Table.Th>
              <Table.Th w={140}>{t('field.group')}</Table.Th>
              <Table.Th w={120}>{t('field.defaultLevel')}</Table.Th>
              <Table.Th w={200}>{t('field.level')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((r) => {
              const value = drafts.get(r.alarmType) ?? r.riskLevel;
              const options = [
                { value: 'default', label: t('level.defaultOption', { level: riskLabel(r.defaultRiskLevel) }) },
                ...RISK_LEVELS.map((l) => ({ value: l, label: riskLabel(l) })),
              ];
              return (
                <Table.Tr key={r.alarmType} data-testid="level-row" data-alarm-type={r.alarmType} data-changed={drafts.has(r.alarmType) || undefined}>
                  <Table.Td>{r.alarmType}</Table.Td>
                  <Table.Td>{r.alarmName}</Table.Td>
                  <Table.Td>{groupName(r.group, lang)}</Table.Td>
                  <Table.Td><Badge variant="light" color={riskColor(r.defaultRiskLevel)}>{riskLabel(r.defaultRiskLevel)}</Badge></Table.Td>
                  <Table.Td>
                    <Select
                      size="xs" data={options} value={value} allowDeselect={false} disabled={saving}
                      aria-label={`${t('field.level')} ${r.alarmName}`} onChange={(v) => choose(r, v)} data-testid="level-select"
                    />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
        <ListState loaded={loaded} empty={shown.length === 0} />
      </ScrollArea>
    </Stack>
  );
}
