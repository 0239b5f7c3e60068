/**
 * The frame of an analyst report read from the report engine (issue 18), shared by the fuel and the operation
 * report pages: company tree with vehicle check boxes, period (≤ 31 China days), 查询, 导出 as a server export
 * job, the list (all pages, virtualised) with its totals row, and 轨迹回放 on every row. Each screen is a
 * declaration (`EngineReportDecl`: call, columns, totals); what differs between features is an option
 * (`wholeCompany`, extra row actions, a part above the list, extra total cells).
 */
import { useState, type ReactNode } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { http } from '../../../api/http.ts';
import { navigateHref } from '../../../app/navigate.ts';
import { useT } from '../../../i18n/index.ts';
import { PeriodPicker, type QuickRange } from '../../../kit/period-picker/index.ts';
import { ReportPage } from '../../../kit/ReportPage.tsx';
import type { KitColumn } from '../../../kit/ResourceTable.tsx';
import { RowsTable } from '../../../kit/RowsTable.tsx';
import { chinaDayStartMs, DAY_MS } from '../../../../domain/track/days.ts';
import { CompanyTreePanel } from '../../company-tree/CompanyTreePanel.tsx';
import { ExportJobButton, type ExportJob, type ExportJobStatus } from '../../shared/ExportJobButton.tsx';
import { useAllPages } from '../online-control/hooks.ts';
import { checkPeriod, dayOfDate, defaultPeriod, formatChinaTime, REPORT_MAX_DAYS, vehicleIdsOf, type ReportPeriod } from '../online-control/period.ts';

/** Vehicles one report may cover (the server's cap). */
export const MAX_VEHICLES = 500;

export type T = (key: string, params?: Record<string, unknown>) => string;
export interface Row { vehicleId: number; vehiidno: string; companyName: string; date?: string; [k: string]: unknown }
export type Totals = Record<string, number | null>;

export interface EngineReportDecl {
  page: string;
  /** Key under `title.` of the feature's namespace. */
  title: string;
  path: string;
  /** The list call's method (default POST). */
  method?: 'GET' | 'POST';
  /** Key of the note under the filters. */
  note: string;
  columns: (t: T) => KitColumn<Row>[];
  /** Keys of `totals` shown in the totals row. */
  totals: readonly string[];
}

export type ColumnOf = (t: T) => KitColumn<Row>;
export const num = (key: string, min = 90): ColumnOf => (t) => ({
  key, title: t(`col.${key}`), minWidth: min, maxWidth: 160, align: 'right',
  render: (r) => (r[key] === null || r[key] === undefined ? '—' : String(r[key])),
});
export const text = (key: string, value: (r: Row, t: T) => ReactNode, min = 110, max = 220): ColumnOf => (t) => ({
  key, title: t(`col.${key}`), minWidth: min, maxWidth: max, render: (r) => value(r, t),
});
export const VEHICLE = [text('vehiidno', (r) => r.vehiidno, 100, 140), text('company', (r) => r.companyName, 120, 220)];
export const DATE = text('date', (r) => r.date ?? '', 100, 120);
export const time = (key: string): ColumnOf => text(key, (r) => formatChinaTime(r[key] as number), 150, 170);
export const cols = (...c: ColumnOf[]) => (t: T) => c.map((f) => f(t));

export interface ReportQuery extends ReportPeriod { vehicleIds?: number[]; [field: string]: unknown }

/** A page's own filter beside the period (line passenger flow: its lines): the control, what it sends, its problem. */
export interface ExtraFilter {
  node: ReactNode;
  query: Record<string, unknown>;
  problem: string | null;
}

function call<X>(d: EngineReportDecl, body: Record<string, unknown>, signal?: AbortSignal): Promise<X> {
  return d.method === 'GET' ? http.get<X>(d.path, body, { signal }) : http.post<X>(d.path, body, { signal });
}

function exportJob(d: EngineReportDecl, q: ReportQuery): ExportJob {
  const quiet = { noCompanyId: true, silent: true } as const;
  return {
    start: () => http.post<{ taskId: string }>(`${d.path}/excel`, { ...q }, { silent: true }),
    status: (taskId) => http.get<ExportJobStatus>(`${d.path}/export_status`, { taskId }, quiet),
    file: (taskId) => http.export(`${d.path}/excel_file`, { taskId }, quiet),
  };
}

/** Track playback of the row's vehicle over its day (or the whole period for a per-vehicle row). */
export function playbackHref(row: { vehicleId: number; vehiidno: string; date?: string | undefined }, q: ReportPeriod): string {
  const from = dayOfDate(row.date ?? q.startDate) ?? 0;
  const to = dayOfDate(row.date ?? q.endDate) ?? from;
  const p = new URLSearchParams({
    vehicleId: String(row.vehicleId), startTime: String(chinaDayStartMs(from)), endTime: String(Math.min(Date.now(), chinaDayStartMs(to) + DAY_MS - 1000)), plate: row.vehiidno,
  });
  return `/monitor/trackPlaybackPage?${p.toString()}`;
}

export interface EngineReportOptions {
  /** The feature's i18n namespace (keys: title.*, col.*, filter.*, period.*, note.*, export, exporting, loadedOf, total, playback). */
  ns: string;
  /** No vehicle checked means every vehicle of the selected company (fuel); otherwise 1–500 must be checked. */
  wholeCompany?: boolean;
  /** This report's vehicle cap where the spec gives its own (passenger supervision: 1,000). @default MAX_VEHICLES */
  maxVehicles?: number;
  quick: readonly QuickRange[];
  /** Key of the export error shown when the failure has no message. */
  exportFailedKey: string;
  /** Total cells beside the declared ones (e.g. a detail list's count under its first column). */
  extraTotals?: (totals: Totals) => Record<string, string>;
  /** Shown above the list once rows are there (e.g. a chart). */
  above?: (rows: Row[], t: T) => ReactNode;
  /** Row buttons before 轨迹回放, and the width of the actions column. */
  rowActions?: (row: Row, period: ReportPeriod, t: T) => ReactNode;
  actionsWidth?: number;
  /** false: rows are not one vehicle's (the line analysis lists stops), so no 轨迹回放 and no actions column. @default true */
  playback?: boolean;
}

export function EngineReport({ decl, options: o, extra }: { decl: EngineReportDecl; options: EngineReportOptions; extra?: ExtraFilter }) {
  const t = useT(o.ns) as unknown as T;
  const [draft, setDraft] = useState<ReportPeriod>(() => defaultPeriod(Date.now()));
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set());
  const [applied, setApplied] = useState<{ q: ReportQuery; search: number } | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const picked = vehicleIdsOf(checked);
  const periodProblem = checkPeriod(draft);
  const max = o.maxVehicles ?? MAX_VEHICLES;
  const problem = periodProblem !== null ? t(`period.${periodProblem}`, { days: REPORT_MAX_DAYS })
    : !o.wholeCompany && picked.length === 0 ? t('filter.pickVehicles', { max })
      : picked.length > max ? t('filter.tooMany', { max, count: picked.length }) : extra?.problem ?? null;

  const q = applied?.q;
  const list = useAllPages<Row, { totals?: Totals }>(
    (page, signal) => call(decl, { ...q, ...page }, signal),
    JSON.stringify(applied),
    applied !== null,
  );
  const totals = list.extra?.totals;
  const totalCells = totals && {
    ...Object.fromEntries(decl.totals.filter((k) => totals[k] !== undefined).map((k) => [k, totals[k] === null ? '—' : String(totals[k])])),
    ...o.extraTotals?.(totals),
  };
  // Without wholeCompany the "check vehicles" hint stands before the first search; after it, only while checking.
  const shownProblem = o.wholeCompany || applied === null || checked.size > 0 || periodProblem !== null ? problem : null;

  return (
    <ReportPage
      pageId={decl.page}
      title={t(`title.${decl.title}`)}
      header={
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" c="dimmed" data-testid="vehicle-filter">
            {picked.length > 0 ? t('filter.vehiclesChecked', { count: picked.length })
              : t(o.wholeCompany ? 'filter.vehiclesAll' : 'filter.pickVehicles', { max })}
          </Text>
          {checked.size > 0 && (
            <Button size="compact-xs" variant="subtle" onClick={() => setChecked(new Set())}>
              {t('filter.clearVehicles')}
            </Button>
          )}
        </Group>
      }
      aside={<CompanyTreePanel checkable checkableTypes={['V']} checked={checked} onCheckedChange={setChecked} />}
      filters={
        <>
          <PeriodPicker
            mode="date"
            value={{ start: draft.startDate, end: draft.endDate }}
            onChange={(p) => setDraft((d) => ({ ...d, startDate: p.start, endDate: p.end }))}
            quick={o.quick}
            showProblem={false}
            labels={{ start: t('filter.startDate'), end: t('filter.endDate') }}
            testIds={{ start: 'start-date', end: 'end-date', quick: 'quick-range' }}
          />
          {extra?.node}
        </>
      }
      onSearch={() => {
        if (problem === null) {
          const vehicles = picked.length > 0 || !o.wholeCompany ? { vehicleIds: picked } : {};
          setApplied((a) => ({ q: { ...draft, ...vehicles, ...extra?.query }, search: (a?.search ?? 0) + 1 }));
        }
      }}
      searchDisabled={problem !== null}
      extra={
        <>
          <ExportJobButton
            label={t('export')}
            size="sm"
            job={q ? exportJob(decl, q) : null}
            onError={(e) => setExportError(e instanceof Error && e.message ? e.message : t(o.exportFailedKey))}
            progressText={(p) => t('exporting', p)}
            testId="export"
            capTestId="export-cap"
          />
          {exportError !== null && (
            <Text size="sm" c="red" role="alert">
              {exportError}
            </Text>
          )}
        </>
      }
      problem={shownProblem}
      note={t(decl.note)}
    >
      {list.loadingMore && (
        <Text size="xs" c="dimmed">
          {t('loadedOf', { loaded: list.rows.length, total: list.total })}
        </Text>
      )}
      {list.rows.length > 0 && o.above?.(list.rows, t)}
      <RowsTable
        rows={list.rows}
        columns={decl.columns(t)}
        rowKey={(r, i) => `${r.vehicleId}-${r.date ?? ''}-${String(r['start'] ?? r['startTime'] ?? '')}-${i}`}
        label={t(`title.${decl.title}`)}
        loading={list.loading}
        error={list.error}
        onRetry={list.reload}
        totals={totalCells ? { vehiidno: t('total'), ...totalCells } : undefined}
        actions={o.playback === false ? undefined : {
          width: o.actionsWidth ?? 100,
          render: (r) => {
            const playback = (
              <Button size="compact-xs" variant="subtle" data-testid="playback" onClick={() => void navigateHref(playbackHref(r, q ?? draft))}>
                {t('playback')}
              </Button>
            );
            return o.rowActions ? (
              <Group gap={4} wrap="nowrap">
                {o.rowActions(r, q ?? draft, t)}
                {playback}
              </Group>
            ) : playback;
          },
        }}
        testId="report-rows"
      />
    </ReportPage>
  );
}
