/**
 * /monitor/trackPlaybackTest: a support engineer's track diagnosis (issue 17). For one vehicle and one
 * China day: every stored point in a virtualised table (RowsTable) with the judgement the track rules
 * gave it (invalid reason, drift, the gap ending at it with band and continuity, its stop), the same
 * points on the map with the flagged ones marked (a click on either selects the point in both), and
 * the day's positioning metrics as the reports count them. The judging is the server's
 * (`trail/diagnosis`, domain/track); nothing is decided here.
 */
import type { Layer, PickingInfo } from '@deck.gl/core';
import { ScatterplotLayer } from '@deck.gl/layers';
import { Alert, Box, Checkbox, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { toDisplay } from '../../../domain/geo/gcj02.ts';
import { chinaDate } from '../../../domain/track/days.ts';
import { useT } from '../../i18n/index.ts';
import { ReportPage } from '../../kit/ReportPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { RowsTable } from '../../kit/RowsTable.tsx';
import { vehicleFromUrl } from '../fleet-pickers/url-vehicle.ts';
import { VehicleSelect } from '../fleet-pickers/VehicleSelect.tsx';
import { MapView, type MapHandle } from '../map/MapView.tsx';
import { useDisplayCrs } from '../map/map-source-store.ts';
import { formatTime } from '../track/format.ts';
import { diagnosisApi, flagged, rowsOf, type DiagnosisRow } from './api.ts';
import { TRACK_DIAGNOSIS_NS } from './messages.ts';

const COLOR = { ok: [120, 120, 120, 160], drift: [150, 60, 200, 255], invalid: [220, 40, 40, 255], gap: [245, 150, 0, 255], selected: [20, 110, 240, 255] } as const;

function colorOf(r: DiagnosisRow): readonly number[] {
  if (r.invalid) return COLOR.invalid;
  if (r.drift) return COLOR.drift;
  if (r.gap !== null && r.continuous === false) return COLOR.gap;
  return COLOR.ok;
}

export function TrackDiagnosisPage() {
  const t = useT(TRACK_DIAGNOSIS_NS);
  const crs = useDisplayCrs();
  const [fromUrl] = useState(() => vehicleFromUrl());
  const [vehicleId, setVehicleId] = useState<number | null>(fromUrl?.id ?? null);
  const [date, setDate] = useState(() => chinaDate(Date.now()));
  const [query, setQuery] = useState<{ vehicleId: number; date: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [onlyFlagged, setOnlyFlagged] = useState(false);
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const map = useRef<MapHandle>(null);

  const result = useQuery({
    queryKey: ['/monitor/trackPlaybackTest', query],
    queryFn: () => diagnosisApi.day(query!.vehicleId, query!.date),
    enabled: query !== null,
  });
  const all = useMemo(() => (result.data ? rowsOf(result.data) : []), [result.data]);
  const rows = useMemo(() => (onlyFlagged ? all.filter(flagged) : all), [all, onlyFlagged]);

  // Fit the map to the day's valid points once they arrive.
  useEffect(() => {
    const valid = all.filter((r) => r.invalid === null);
    if (valid.length === 0) return;
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const r of valid) {
      const [x, y] = toDisplay(crs, r.lng, r.lat);
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
    }
    const timer = setTimeout(() => map.current?.fitBounds(x0 - 0.002, y0 - 0.002, x1 + 0.002, y1 + 0.002), 50);
    return () => clearTimeout(timer);
  }, [all, crs]);

  const layers = useMemo<Layer[]>(() => {
    // Invalid points have no place on the map (0,0 or out of range): the table shows them.
    const onMap = all.filter((r) => r.invalid === null);
    const marked = onMap.filter(flagged);
    const pick = (info: PickingInfo<DiagnosisRow>) => { if (info.object) setSelected(info.object.i); };
    const out: Layer[] = [
      new ScatterplotLayer<DiagnosisRow>({
        id: 'diagnosis-points', data: onMap, getPosition: (r) => toDisplay(crs, r.lng, r.lat), getFillColor: COLOR.ok as [number, number, number, number],
        radiusUnits: 'pixels', getRadius: 2, pickable: true, onClick: pick,
      }) as Layer,
      new ScatterplotLayer<DiagnosisRow>({
        id: 'diagnosis-flagged', data: marked, getPosition: (r) => toDisplay(crs, r.lng, r.lat), getFillColor: (r) => colorOf(r) as [number, number, number, number],
        radiusUnits: 'pixels', getRadius: 6, stroked: true, getLineColor: [255, 255, 255, 255], lineWidthUnits: 'pixels', getLineWidth: 1, pickable: true, onClick: pick,
      }) as Layer,
    ];
    const sel = selected === undefined ? undefined : all[selected];
    if (sel && sel.invalid === null) {
      out.push(new ScatterplotLayer<DiagnosisRow>({ id: 'diagnosis-selected', data: [sel], getPosition: (r) => toDisplay(crs, r.lng, r.lat), getFillColor: COLOR.selected as [number, number, number, number], radiusUnits: 'pixels', getRadius: 8 }) as Layer);
    }
    return out;
  }, [all, crs, selected]);

  const judgement = (r: DiagnosisRow): string => {
    const parts: string[] = [];
    if (r.invalid) parts.push(t(`invalid.${r.invalid}`));
    if (r.drift) parts.push(t('drift'));
    if (r.gap) parts.push(t(`gap.${r.gap}`, { km: r.gapKm?.toFixed(2) ?? '' }) + t(r.continuous ? 'continuous' : 'discontinuous'));
    if (r.stop >= 0) parts.push(t('stop', { n: r.stop + 1 }));
    return parts.length ? parts.join('；') : t('ok');
  };

  const columns: KitColumn<DiagnosisRow>[] = [
    { key: 'i', title: t('col.i'), render: (r) => r.i + 1, minWidth: 70, maxWidth: 90, align: 'right' },
    { key: 'time', title: t('col.time'), render: (r) => (Number.isFinite(r.time) ? formatTime(r.time) : '—'), minWidth: 170, maxWidth: 190 },
    { key: 'lnglat', title: t('col.lnglat'), render: (r) => `${r.lng.toFixed(6)}, ${r.lat.toFixed(6)}`, minWidth: 200, maxWidth: 230 },
    { key: 'speed', title: t('col.speed'), render: (r) => r.speed, minWidth: 90, maxWidth: 110, align: 'right' },
    { key: 'direction', title: t('col.direction'), render: (r) => `${r.direction}°`, minWidth: 70, maxWidth: 90, align: 'right' },
    { key: 'status', title: t('col.status'), render: (r) => `0x${r.status.toString(16).padStart(8, '0')}`, minWidth: 110, maxWidth: 120 },
    { key: 'alarm', title: t('col.alarm'), render: (r) => `0x${r.alarm.toString(16).padStart(8, '0')}`, minWidth: 110, maxWidth: 120 },
    { key: 'judgement', title: t('col.judgement'), render: (r) => <Text size="sm" c={flagged(r) ? 'red' : undefined} data-testid={`judgement-${r.i}`}>{judgement(r)}</Text>, minWidth: 200, maxWidth: 360 },
  ];

  const search = () => {
    if (vehicleId === null) return setProblem(t('noVehicle'));
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return setProblem(t('badDate'));
    setProblem(null);
    setSelected(undefined);
    setQuery({ vehicleId, date });
  };

  const m = result.data?.metrics;
  const figures: [string, string | number][] = m ? [
    ['totalGps', m.totalGps], ['pass', m.pass], ['error', m.error], ['drift', m.drift], ['lossTimes', m.lossTimes], ['lossKm', m.lossKm.toFixed(2)],
    ['lossHours', m.lossHours.toFixed(2)], ['mileageKm', m.mileageKm.toFixed(2)], ['continuousKm', m.continuousKm.toFixed(2)], ['stops', result.data!.stops.length],
    ['online', t(m.online ? 'yes' : 'no')], ['operation', t(m.operation ? 'yes' : 'no')],
  ] : [];

  return (
    <ReportPage
      pageId="track-diagnosis"
      title={t('title')}
      onSearch={search}
      problem={problem}
      filters={(
        <>
          <VehicleSelect label={t('vehicle')} placeholder={t('vehiclePick')} value={vehicleId} initial={fromUrl ?? undefined} onChange={(id) => setVehicleId(id)} testId="diagnosis-vehicle" w={240} />
          <TextInput type="date" label={t('date')} value={date} onChange={(e) => setDate(e.currentTarget.value)} w={170} data-testid="diagnosis-date" />
          <Checkbox label={t('onlyFlagged')} checked={onlyFlagged} onChange={(e) => setOnlyFlagged(e.currentTarget.checked)} mb={8} data-testid="diagnosis-only-flagged" />
        </>
      )}
      note={t('legend')}
    >
      {result.data && result.data.truncated && <Alert color="orange">{t('truncated', { total: result.data.total, shown: all.length })}</Alert>}
      {result.data && all.length === 0 && <Alert color="gray" data-testid="diagnosis-empty">{t('empty')}</Alert>}
      {m && (
        <Stack gap={4} data-testid="diagnosis-metrics">
          <Text fw={600} size="sm">{t('metrics.title')}</Text>
          <SimpleGrid cols={{ base: 3, md: 6 }} spacing={6}>
            {figures.map(([k, v]) => (
              <Group key={k} gap={4} wrap="nowrap"><Text size="xs" c="dimmed">{t(`metrics.${k}`)}</Text><Text size="sm" fw={600} data-testid={`metric-${k}`}>{v}</Text></Group>
            ))}
          </SimpleGrid>
        </Stack>
      )}
      <Group align="stretch" gap="sm" wrap="nowrap" style={{ flex: 1, minHeight: 360 }}>
        <Box style={{ flex: 3, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          <RowsTable
            rows={rows}
            columns={columns}
            rowKey={(r) => r.i}
            label={t('points')}
            loading={result.isFetching}
            error={result.error ?? undefined}
            onRetry={() => void result.refetch()}
            onRowClick={(r) => setSelected(r.i)}
            selectedKey={selected}
            rowAttributes={(r) => ({ 'data-flagged': flagged(r) ? 1 : 0 })}
            testId="diagnosis-table"
          />
        </Box>
        <Box style={{ flex: 2, minWidth: 280, position: 'relative' }} data-testid="diagnosis-map">
          <MapView ref={map} layers={layers} />
        </Box>
      </Group>
    </ReportPage>
  );
}
