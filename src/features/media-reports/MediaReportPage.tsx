import { Alert, Button, Group, Modal, MultiSelect, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { checkMediaPeriod, DEFAULT_SNAP_CHANNELS, defaultMediaDates, MEDIA_REPORT_MAX_DAYS, mediaPeriodOfDates } from '../../../domain/media/media.ts';
import { isApiError, saveBlob } from '../../api/http.ts';
import { useT } from '../../i18n/index.ts';
import { PeriodPicker } from '../../kit/period-picker/index.ts';
import { ReportPage } from '../../kit/ReportPage.tsx';
import { ResourceGrid } from '../../kit/ResourceGrid.tsx';
import { useResourceList } from '../../kit/useResourceList.ts';
import { useCompanySelection } from '../../session/company-selection.ts';
import { CompanyTreePanel } from '../company-tree/CompanyTreePanel.tsx';
import { vehicleIdsOf } from '../reports/online-control/period.ts';
import { mediaApi, REPORT_ROUTE, type MediaItem, type MediaSource, type ReportKind } from './api.ts';
import { DeviceMediaPanel } from './DeviceMediaPanel.tsx';
import { MediaGrid } from './MediaGrid.tsx';
import { MEDIA_NS } from './messages.ts';
import { PhotoViewer } from './PhotoViewer.tsx';

const SOURCES: readonly MediaSource[] = ['snap', 'event', 'upload'];

interface Applied {
  startTime: number;
  endTime: number;
  vehicleIds: number[];
  channels: number[];
  sources: MediaSource[];
  search: number;
}

/**
 * `/report/media/alarmMedia` and `/report/media/snapMediaReport`: the company tree (check vehicles to
 * narrow), a China-date period, channels (and sources on the snapshot report), a paged photo grid with
 * a viewer, and the .xlsx export. The snapshot report also takes a snapshot of the one checked vehicle.
 */
export function MediaReportPage({ kind }: { kind: ReportKind }) {
  const t = useT(MEDIA_NS);
  const { companyId } = useCompanySelection();
  const [dates, setDates] = useState(() => defaultMediaDates(Date.now()));
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set());
  const [channels, setChannels] = useState<string[]>([]);
  const [sources, setSources] = useState<string[]>([]);
  const [applied, setApplied] = useState<Applied>(() => {
    const d = defaultMediaDates(Date.now());
    return { ...mediaPeriodOfDates(d.startDate, d.endDate)!, vehicleIds: [], channels: [], sources: [], search: 0 };
  });
  const [viewer, setViewer] = useState<{ items: MediaItem[]; index: number } | null>(null);
  const [snapping, setSnapping] = useState(false);
  const [snapError, setSnapError] = useState<string | null>(null);
  const [device, setDevice] = useState<number | null>(null);

  const period = mediaPeriodOfDates(dates.startDate, dates.endDate);
  const problem = period === null ? 'missing' : checkMediaPeriod(period.startTime, period.endTime);
  const checkedVehicles = vehicleIdsOf(checked);

  const query = () => ({
    startTime: applied.startTime, endTime: applied.endTime,
    vehicleIds: applied.vehicleIds.length > 0 ? applied.vehicleIds : undefined,
    channels: applied.channels.length > 0 ? applied.channels : undefined,
    sources: kind === 'snap' && applied.sources.length > 0 ? applied.sources : undefined,
  });

  // The kit's paged list (TanStack Query): a new search (or company) is a new scope, so page 1.
  const list = useResourceList(REPORT_ROUTE[kind], (q) => mediaApi.page(kind, { ...query(), current: q.current, size: q.size }), { applied, companyId });

  const search = () => {
    if (problem !== null || period === null) return;
    setApplied((a) => ({
      ...period, vehicleIds: checkedVehicles, channels: channels.map(Number), sources: sources as MediaSource[], search: a.search + 1,
    }));
  };

  /** The one checked vehicle, or undefined after saying that exactly one is needed. */
  const oneVehicle = (): number | undefined => {
    const [vehicleId] = checkedVehicles;
    if (checkedVehicles.length === 1 && vehicleId !== undefined) return vehicleId;
    notifications.show({ color: 'yellow', message: t('snap.pickOne') });
    return undefined;
  };

  const snap = async () => {
    const vehicleId = oneVehicle();
    if (vehicleId === undefined) return;
    setSnapping(true);
    setSnapError(null);
    try {
      const r = await mediaApi.snap(vehicleId, channels.length > 0 ? channels.map(Number) : undefined);
      notifications.show({ color: 'green', message: t('snap.done', { count: r.items.length }) });
      for (const c of r.channels) if (!c.ok && c.message) notifications.show({ color: 'yellow', message: t('snap.partial', { channel: c.channel, message: c.message }) });
      setViewer({ items: r.items, index: 0 });
      // Show the new photos in the list too.
      setApplied((a) => ({ ...a, endTime: Math.max(a.endTime, Date.now() + 60_000), search: a.search + 1 }));
    } catch (e) {
      setSnapError(isApiError(e) ? e.msg : String(e));
    } finally {
      setSnapping(false);
    }
  };

  const problemText = problem === null ? null : t(`period.${problem}`, { days: MEDIA_REPORT_MAX_DAYS });
  return (
    <ReportPage
      pageId={`media-${kind}`}
      title={t(`title.${kind}`)}
      aside={
        <>
          <CompanyTreePanel checkable checkableTypes={['V']} checked={checked} onCheckedChange={setChecked} />
          <Text size="xs" c="dimmed" mt={4}>{t('filter.treeHint')}</Text>
        </>
      }
      header={
        <Group gap="xs">
          <Text size="sm" c="dimmed" data-testid="vehicle-filter">
            {checkedVehicles.length > 0 ? t('filter.vehiclesChecked', { count: checkedVehicles.length }) : t('filter.vehiclesAll')}
          </Text>
          {checked.size > 0 && <Button size="compact-xs" variant="subtle" onClick={() => setChecked(new Set())}>{t('filter.clearVehicles')}</Button>}
        </Group>
      }
      filters={
        <>
          {/* The screen states its own period problem (its span limit) below. */}
          <PeriodPicker mode="date" value={{ start: dates.startDate, end: dates.endDate }} quick={['today', 'yesterday', 'last3Days', 'last7Days']} showProblem={false}
            onChange={(p) => setDates((d) => ({ ...d, startDate: p.start, endDate: p.end }))}
            labels={{ start: t('filter.startDate'), end: t('filter.endDate') }} testIds={{ start: 'start-date', end: 'end-date', quick: 'quick-range' }} />
          <MultiSelect size="sm" w={220} label={t('filter.channels')} placeholder={channels.length === 0 ? t('filter.allChannels') : undefined} clearable
            data={DEFAULT_SNAP_CHANNELS.map((n) => ({ value: String(n), label: t('channel', { n }) }))} value={channels} onChange={setChannels} data-testid="channels" />
          {kind === 'snap' && (
            <MultiSelect size="sm" w={240} label={t('filter.sources')} clearable data={SOURCES.map((s) => ({ value: s, label: t(`source.${s}`) }))}
              value={sources} onChange={setSources} data-testid="sources" />
          )}
        </>
      }
      onSearch={search}
      searchDisabled={problem !== null}
      onExport={() => mediaApi.export(kind, query()).then(saveBlob)}
      extra={
        kind === 'snap' && (
          <>
            <Button size="sm" color="teal" loading={snapping} onClick={() => void snap()} data-testid="snap">{t('snap.button')}</Button>
            <Button size="sm" variant="light" onClick={() => setDevice(oneVehicle() ?? null)} data-testid="device-open">{t('device.button')}</Button>
          </>
        )
      }
      problem={problemText}
      note={t(`note.${kind}`)}
    >
      {snapping && <Alert color="teal" data-testid="snap-progress">{t('snap.capturing')}</Alert>}
      {snapError !== null && <Alert color="red" withCloseButton onClose={() => setSnapError(null)} data-testid="snap-error">{snapError}</Alert>}
      <ResourceGrid list={list} label={t(`title.${kind}`)} emptyText={t('list.empty')}>
        {(records) => <MediaGrid items={records} onOpen={(index) => setViewer({ items: records, index })} />}
      </ResourceGrid>
      <Modal opened={device !== null} onClose={() => setDevice(null)} size="xl" title={t('device.button')}>
        {device !== null && period !== null && (
          <DeviceMediaPanel vehicleId={device} startTime={period.startTime} endTime={period.endTime} channel={channels.length === 1 ? Number(channels[0]) : undefined}
            onUploaded={() => setApplied((a) => ({ ...a, search: a.search + 1 }))} />
        )}
      </Modal>
      <PhotoViewer items={viewer?.items ?? []} index={viewer?.index ?? null} onIndex={(index) => setViewer((v) => (v ? { ...v, index } : v))} onClose={() => setViewer(null)} />
    </ReportPage>
  );
}
