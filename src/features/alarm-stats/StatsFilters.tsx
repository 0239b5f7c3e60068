/**
 * The statistics filters: period, alarm group and types, risk level, processing state, vehicles.
 * The company comes from the shell's company selection (the request client adds it).
 */
import { Group, MultiSelect, Select } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { DEAL_STATUSES } from '../../../domain/alarms/engine.ts';
import { RISK_LEVELS } from '../../../domain/alarms/sources.ts';
import { statsPeriodProblem, type StatsPeriodProblem } from '../../../domain/alarms/stats.ts';
import { useT } from '../../i18n/index.ts';
import { PeriodPicker, type QuickRange } from '../../kit/period-picker/index.ts';
import { fetchAlarmTypes, type AlarmTypeEntry } from '../alarms/api.ts';
import { fromLocalInput, toLocalInput } from '../alarms/format.ts';
import { ALARMS_NS } from '../alarms/messages.ts';
import { VehicleMultiSelect } from '../alarms/VehicleMultiSelect.tsx';
import type { StatsFilter } from './api.ts';
import { ALARM_STATS_NS } from './messages.ts';

/** Quick ranges of the statistics screens: days for the duty review, months for the monthly report. */
export const STATS_QUICK: readonly QuickRange[] = ['today', 'yesterday', 'last7Days', 'thisMonth', 'lastMonth'];

export interface FilterForm {
  start: string;
  end: string;
  group: string | null;
  types: string[];
  risks: string[];
  statuses: string[];
  vehicleIds: string[];
}

/** The last `days` China-calendar days up to the end of today, local inputs. */
export function lastDays(days: number, now = Date.now()): { start: string; end: string } {
  const end = new Date(now);
  end.setHours(23, 59, 0, 0);
  const start = new Date(now);
  start.setHours(0, 0, 0, 0);
  start.setDate(start.getDate() - (days - 1));
  return { start: toLocalInput(start.getTime()), end: toLocalInput(end.getTime()) };
}

export function initialForm(days = 7): FilterForm {
  return { ...lastDays(days), group: null, types: [], risks: [], statuses: [], vehicleIds: [] };
}

/** The call's filter, or why the period is refused (checked before calling, as the server does). */
export function formFilter(f: FilterForm, now = Date.now()): { filter: StatsFilter } | { problem: StatsPeriodProblem } {
  const startTime = fromLocalInput(f.start);
  // The end minute is inclusive.
  const endTime = fromLocalInput(f.end) + 59_999;
  const problem = statsPeriodProblem(startTime, endTime, now);
  if (problem) return { problem };
  const filter: StatsFilter = { startTime, endTime };
  if (f.types.length) filter.alarmTypes = f.types.map(Number);
  else if (f.group !== null) filter.alarmGroups = [Number(f.group)];
  if (f.risks.length) filter.riskLevels = f.risks;
  if (f.statuses.length) filter.dealStatuses = f.statuses.map(Number);
  if (f.vehicleIds.length) filter.vehicleIds = f.vehicleIds.map(Number);
  return { filter };
}

export function StatsFilters({ value, onChange, period = true }: { value: FilterForm; onChange: (f: FilterForm) => void; period?: boolean }) {
  const t = useT(ALARM_STATS_NS);
  const ta = useT(ALARMS_NS);
  const [types, setTypes] = useState<AlarmTypeEntry[]>([]);
  useEffect(() => {
    void fetchAlarmTypes().then(setTypes).catch(() => undefined);
  }, []);
  const groups = useMemo(() => types.filter((x) => x.isGroup), [types]);
  const typeOptions = useMemo(
    () => types.filter((x) => !x.isGroup && (value.group === null || String(x.group) === value.group)).map((x) => ({ value: String(x.alarmType), label: x.alarmName })),
    [types, value.group],
  );
  const set = <K extends keyof FilterForm>(k: K, v: FilterForm[K]) => onChange({ ...value, [k]: v });

  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      {period && (
        <>
          {/* The screen states its own period problem (statsPeriodProblem) below the filters. */}
          <PeriodPicker value={value} onChange={(p) => onChange({ ...value, ...p })} quick={STATS_QUICK} showProblem={false}
            labels={{ start: t('filter.start'), end: t('filter.end') }} testIds={{ start: 'stats-start', end: 'stats-end', quick: 'stats-quick' }} />
        </>
      )}
      <Select
        label={t('filter.group')}
        placeholder={t('filter.all')}
        clearable
        w={150}
        data={groups.map((g) => ({ value: String(g.alarmType), label: g.alarmName }))}
        value={value.group}
        onChange={(v) => onChange({ ...value, group: v, types: [] })}
        data-testid="stats-group"
      />
      <MultiSelect label={t('filter.type')} searchable clearable w={220} data={typeOptions} placeholder={value.types.length ? undefined : t('filter.all')} value={value.types} onChange={(v) => set('types', v)} data-testid="stats-types" />
      <MultiSelect label={t('filter.risk')} clearable w={160} data={RISK_LEVELS.map((l) => ({ value: l, label: ta(`risk.${l}`) }))} placeholder={value.risks.length ? undefined : t('filter.all')} value={value.risks} onChange={(v) => set('risks', v)} />
      <MultiSelect label={t('filter.status')} clearable w={200} data={DEAL_STATUSES.map((s) => ({ value: String(s), label: ta(`status.${s}`) }))} placeholder={value.statuses.length ? undefined : t('filter.all')} value={value.statuses} onChange={(v) => set('statuses', v)} />
      <VehicleMultiSelect label={t('filter.vehicles')} placeholder={t('filter.vehiclesPlaceholder')} value={value.vehicleIds} onChange={(v) => set('vehicleIds', v)} />
    </Group>
  );
}
