import { Group, Pagination, Select, Text } from '@mantine/core';
import { useT } from '../../../i18n/index.ts';
import { onlineControlApi, type DetailKind, type DetailRows, type PeriodSums, type ReportVehicle, type SummaryRow } from './api.ts';
import { useAllPages, useServerPage, DETAIL_PAGE_SIZES, LOAD_ALL_MAX_ROWS } from './hooks.ts';
import { ONLINE_CONTROL_NS } from './messages.ts';
import { formatChinaTime, formatPercent, formatPosition } from './period.ts';
import type { AppliedQuery } from './ReportFrame.tsx';
import { RowsTable } from '../../../kit/RowsTable.tsx';
import type { KitColumn } from '../../../kit/ResourceTable.tsx';

type T = ReturnType<typeof useT>;

type ReportColumn<R> = KitColumn<R>;

// Widths (px) at 1280: a plate is 7–8 characters, a time `2026-11-20 08:05:00`, a position two 6-decimal numbers.
const PLATE = { minWidth: 100, maxWidth: 130 };
const COMPANY = { minWidth: 120, maxWidth: 220 };
const TIME = { minWidth: 160, maxWidth: 180 };
const POSITION = { minWidth: 180, maxWidth: 220 };
const FIGURE = { minWidth: 80, maxWidth: 130, align: 'right' } as const;

export function vehicleColumns<R extends ReportVehicle>(t: T): ReportColumn<R>[] {
  return [
    { key: 'vehiidno', title: t('col.vehiidno'), render: (r) => r.vehiidno, ...PLATE },
    { key: 'company', title: t('col.company'), render: (r) => r.companyName, ...COMPANY },
  ];
}

const num = (digits: number) => (x: number) => x.toFixed(digits);
type SumKey = keyof PeriodSums;
const SUM_FORMAT: Partial<Record<SumKey, (x: number) => string>> = {
  lossHours: num(2), lossKm: num(2), continuousKm: num(2), mileageKm: num(2), earlyMorningKm: num(2),
  qualifiedRate: formatPercent, driftRate: formatPercent, onlineRate: formatPercent,
};

/** Columns of period sums, in the order given; the same keys fill the totals row. */
export function sumColumns(t: T, keys: readonly SumKey[]): ReportColumn<SummaryRow>[] {
  return keys.map((key) => ({ key, title: t(`col.${key}`), ...FIGURE, render: (r) => (SUM_FORMAT[key] ?? String)(r[key]) }));
}

export function totalsOf(totals: PeriodSums | undefined, keys: readonly SumKey[]): Partial<Record<string, string>> | undefined {
  if (!totals) return undefined;
  return Object.fromEntries(keys.map((k) => [k, (SUM_FORMAT[k] ?? String)(totals[k])]));
}

/** Every vehicle's period sums (all pages loaded, rows virtualised) with a totals row. */
export function SummaryList({ query, keys, label }: { query: AppliedQuery; keys: readonly SumKey[]; label: string }) {
  const t = useT(ONLINE_CONTROL_NS);
  const list = useAllPages((page, signal) => onlineControlApi.summary(query, page, signal), query.key, true);
  const columns = [...vehicleColumns<SummaryRow>(t), ...sumColumns(t, keys)];
  return (
    <>
      <RowsTable
        rows={list.rows}
        columns={columns}
        rowKey={(r) => r.vehicleId}
        label={label}
        loading={list.loading}
        error={list.error}
        onRetry={list.reload}
        totals={totalsOf(list.extra?.totals, keys)}
      />
      <Text size="sm" c="dimmed" data-testid="list-total">
        {list.loading
          ? t('table.loading')
          : list.loadingMore || list.rows.length < list.total
            ? t('table.loadedOf', { loaded: list.rows.length, total: Math.min(list.total, LOAD_ALL_MAX_ROWS) })
            : t('table.total', { total: list.total })}
      </Text>
    </>
  );
}

/** One server page of a detail list, virtualised, with a pager. */
export function DetailList<K extends DetailKind>({
  kind,
  query,
  columns,
  label,
}: {
  kind: K;
  query: AppliedQuery;
  columns: ReportColumn<DetailRows[K]>[];
  label: string;
}) {
  const t = useT(ONLINE_CONTROL_NS);
  const list = useServerPage((page, signal) => onlineControlApi.detail(kind, query, page, signal), `${kind}:${query.key}`, true);
  const pages = Math.max(1, Math.ceil(list.total / list.size));
  return (
    <>
      <RowsTable
        rows={list.rows}
        columns={columns}
        rowKey={(_, i) => `${list.current}:${i}`}
        label={label}
        loading={list.loading}
        error={list.error}
        onRetry={list.reload}
      />
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" c="dimmed" data-testid="list-total">
          {list.loading ? t('table.loading') : t('table.total', { total: list.total })}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Select
            size="xs"
            w={120}
            aria-label={t('table.pageSize', { size: list.size })}
            data={DETAIL_PAGE_SIZES.map((s) => ({ value: String(s), label: t('table.pageSize', { size: s }) }))}
            value={String(list.size)}
            onChange={(v) => v && list.setSize(Number(v))}
            allowDeselect={false}
          />
          <Pagination size="sm" total={pages} value={Math.min(list.current, pages)} onChange={list.setCurrent} />
        </Group>
      </Group>
    </>
  );
}

const speedText = (t: T, v: number | null) => (v === null ? t('infinite') : v.toFixed(1));

export function invalidColumns(t: T): ReportColumn<DetailRows['illegalDatas']>[] {
  return [
    ...vehicleColumns(t),
    { key: 'gpsTime', title: t('col.gpsTime'), render: (r) => formatChinaTime(r.gpsTime), ...TIME },
    { key: 'position', title: t('col.position'), render: (r) => formatPosition(r.lng, r.lat), ...POSITION },
    { key: 'speed', title: t('col.speed'), ...FIGURE, render: (r) => r.speed.toFixed(1) },
    { key: 'reason', title: t('col.reason'), render: (r) => t(`reason.${r.reason}`), minWidth: 120, maxWidth: 260 },
  ];
}

export function driftColumns(t: T): ReportColumn<DetailRows['driftDatas']>[] {
  return [
    ...vehicleColumns(t),
    { key: 'gpsTime', title: t('col.gpsTime'), render: (r) => formatChinaTime(r.gpsTime), ...TIME },
    { key: 'position', title: t('col.position'), render: (r) => formatPosition(r.lng, r.lat), ...POSITION },
    { key: 'speed', title: t('col.speed'), ...FIGURE, render: (r) => r.speed.toFixed(1) },
    { key: 'speedIn', title: t('col.speedIn'), ...FIGURE, render: (r) => speedText(t, r.speedIn) },
    { key: 'speedOut', title: t('col.speedOut'), ...FIGURE, render: (r) => speedText(t, r.speedOut) },
  ];
}

export function gapColumns(t: T): ReportColumn<DetailRows['discontinuousDatas']>[] {
  return [
    ...vehicleColumns(t),
    { key: 'fromTime', title: t('col.fromTime'), render: (r) => formatChinaTime(r.fromTime), ...TIME },
    { key: 'fromPosition', title: t('col.fromPosition'), render: (r) => formatPosition(r.fromLng, r.fromLat), ...POSITION },
    { key: 'toTime', title: t('col.toTime'), render: (r) => formatChinaTime(r.toTime), ...TIME },
    { key: 'toPosition', title: t('col.toPosition'), render: (r) => formatPosition(r.toLng, r.toLat), ...POSITION },
    { key: 'km', title: t('col.km'), ...FIGURE, render: (r) => r.km.toFixed(2) },
    { key: 'hours', title: t('col.hours'), ...FIGURE, render: (r) => r.hours.toFixed(2) },
  ];
}
