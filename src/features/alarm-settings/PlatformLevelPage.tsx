/**
 * /safeManagement/alarmSettings/platformLevelPage — the company's platform alarm levels: a master
 * switch and, per alarm type, a risk level or "default" (null: back to the catalogue default).
 * Choices are drafts until saved; only changed rows are sent, then the list is reloaded.
 */
import { Badge, Button, Group, Select, Switch, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { RISK_LEVELS } from '../../../domain/alarms/sources.ts';
import { useLang, useT } from '../../i18n/index.ts';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { PageFrame } from '../../kit/PageFrame.tsx';
import { RowsTable } from '../../kit/RowsTable.tsx';
import { ALARMS_NS } from '../alarms/messages.ts';
import { riskColor } from '../alarms/format.ts';
import { enableLevels, fetchLevelSettings, saveLevels, type LevelRecord } from './api.ts';
import { ALARM_SETTINGS_NS } from './messages.ts';
import { filterRows, levelChanges, type LevelChoice, type RowFilter } from './settings-model.ts';
import { FilterBar, groupName, PerCompany, notifyFailure, notifyInfo, notifySuccess, useCompanyLoad } from './shared.tsx';

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
  const loaded = useCompanyLoad('levels', fetchLevelSettings);
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

  const columns: KitColumn<LevelRecord>[] = [
    { key: 'code', title: t('field.code'), minWidth: 70, maxWidth: 90, render: (r) => r.alarmType },
    { key: 'name', title: t('field.name'), minWidth: 160, maxWidth: 300, render: (r) => r.alarmName },
    { key: 'group', title: t('field.group'), minWidth: 120, maxWidth: 200, render: (r) => groupName(r.group, lang) },
    {
      key: 'defaultLevel', title: t('field.defaultLevel'), minWidth: 100, maxWidth: 130,
      render: (r) => <Badge variant="light" color={riskColor(r.defaultRiskLevel)}>{riskLabel(r.defaultRiskLevel)}</Badge>,
    },
    {
      key: 'level', title: t('field.level'), minWidth: 180, maxWidth: 220,
      render: (r) => (
        <Select
          size="xs" allowDeselect={false} disabled={saving} value={drafts.get(r.alarmType) ?? r.riskLevel}
          data={[
            { value: 'default', label: t('level.defaultOption', { level: riskLabel(r.defaultRiskLevel) }) },
            ...RISK_LEVELS.map((l) => ({ value: l, label: riskLabel(l) })),
          ]}
          aria-label={`${t('field.level')} ${r.alarmName}`} onChange={(v) => choose(r, v)} data-testid="level-select"
        />
      ),
    },
  ];

  return (
    <PageFrame pageId="alarm-levels" testId="platform-level-page" title={t('title.levels')}>
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
      <RowsTable
        rows={shown} columns={columns} rowKey={(r) => r.alarmType} label={t('title.levels')} emptyText={t('state.empty')}
        loading={loaded.loading} error={loaded.error} onRetry={() => void loaded.reload()}
        rowAttributes={(r) => ({ 'data-testid': 'level-row', 'data-alarm-type': r.alarmType, 'data-changed': drafts.has(r.alarmType) ? 'true' : undefined })}
      />
    </PageFrame>
  );
}
