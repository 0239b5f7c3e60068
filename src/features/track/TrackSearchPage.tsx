/**
 * /monitor/trackPlaybackPageNew — track search: draw a rectangle on the map (the monitor page's frame
 * drawing), pick a window of at most 24 hours (checkHistoryPeriod, before any request), list the
 * vehicles that were inside (searchFrameGps), and open any of them in track playback with the window.
 */
import { useMemo, useRef, useState } from 'react';
import { Alert, Button, Group, Paper, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { PathLayer } from '@deck.gl/layers';
import type { Layer } from '@deck.gl/core';
import { toDisplay } from '../../../domain/geo/gcj02.ts';
import { checkHistoryPeriod, MONITOR_HISTORY_MAX_PERIOD_MS, periodMessage } from '../../../domain/track/limits.ts';
import { navigateHref } from '../../app/navigate.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { MapView, type MapHandle } from '../map/MapView.tsx';
import { useDisplayCrs } from '../map/map-source-store.ts';
import { FrameDraw } from '../monitor/FrameQuery.tsx';
import type { Bounds } from '../monitor/rectangle.ts';
import { searchFrameGps, type FrameGpsVehicle } from './api.ts';
import { formatTime, fromLocalInput, toLocalInput } from './format.ts';
import { TRACK_NS } from './messages.ts';
import { DateTimeField } from '../../kit/period-picker/index.ts';

/** Rows listed at most (the total is always shown). */
export const SHOWN_MAX = 500;

/** The playback URL of a found vehicle: its window, so playback shows what the search found. */
export function playbackHref(v: Pick<FrameGpsVehicle, 'vehicleId' | 'plate'>, startTime: number, endTime: number): string {
  const q = new URLSearchParams({ vehicleId: String(v.vehicleId), startTime: String(startTime), endTime: String(endTime), plate: v.plate });
  return `/monitor/trackPlaybackPage?${q.toString()}`;
}

export function TrackSearchPage() {
  const t = useT(TRACK_NS);
  const lang = useLang();
  const crs = useDisplayCrs();
  const mapRef = useRef<MapHandle>(null);
  const [drawing, setDrawing] = useState(false);
  const [bounds, setBounds] = useState<Bounds | null>(null);
  const [startText, setStartText] = useState(() => toLocalInput(Date.now() - MONITOR_HISTORY_MAX_PERIOD_MS));
  const [endText, setEndText] = useState(() => toLocalInput(Date.now()));
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<{ vehicles: FrameGpsVehicle[]; total: number; start: number; end: number } | null>(null);
  const [loading, setLoading] = useState(false);

  const layers = useMemo((): Layer[] => {
    if (!bounds) return [];
    const corners: [number, number][] = [
      [bounds.minLng, bounds.minLat], [bounds.maxLng, bounds.minLat], [bounds.maxLng, bounds.maxLat], [bounds.minLng, bounds.maxLat], [bounds.minLng, bounds.minLat],
    ];
    const path = corners.map(([x, y]) => toDisplay(crs, x, y));
    return [new PathLayer<{ path: [number, number][] }>({ id: 'track-search-rect', data: [{ path }], getPath: (d) => d.path, getColor: [30, 110, 220, 255], widthUnits: 'pixels', getWidth: 2 }) as Layer];
  }, [bounds, crs]);

  const search = async () => {
    const start = fromLocalInput(startText);
    const end = fromLocalInput(endText);
    if (!bounds) {
      setProblem(t('drawFirst'));
      return;
    }
    if (!Number.isFinite(start) || !Number.isFinite(end)) {
      setProblem(t('periodRequired'));
      return;
    }
    const p = checkHistoryPeriod(start, end);
    if (p) {
      setProblem(periodMessage(p, lang));
      return;
    }
    setProblem(null);
    setLoading(true);
    try {
      const found = await searchFrameGps(bounds, start, end);
      setResult({ vehicles: found.records, total: found.total, start, end });
    } catch {
      // the request client has shown the message
    } finally {
      setLoading(false);
    }
  };

  return (
    <Group gap={0} wrap="nowrap" align="stretch" style={{ height: 'calc(100vh - 110px)', minHeight: 480 }} data-testid="track-search-page">
      <Paper withBorder radius={0} w={340} p="xs" style={{ display: 'flex', flexDirection: 'column', minHeight: 0, gap: 6 }}>
        <Button size="xs" variant={drawing ? 'filled' : 'default'} onClick={() => setDrawing((d) => !d)} data-testid="search-draw">
          {bounds ? t('redraw') : t('drawRectangle')}
        </Button>
        <DateTimeField size="xs" w="100%" label={t('start')} value={startText} onChange={setStartText} data-testid="search-start" />
        <DateTimeField size="xs" w="100%" label={t('end')} value={endText} onChange={setEndText} data-testid="search-end" />
        <Button size="xs" loading={loading} onClick={() => void search()} data-testid="search-run">
          {t('search')}
        </Button>
        {problem ? (
          <Alert color="red" p={6} data-testid="search-error" withCloseButton onClose={() => setProblem(null)}>
            <Text size="xs">{problem}</Text>
          </Alert>
        ) : null}
        {result ? (
          <>
            <Text size="sm" fw={600} data-testid="search-total" data-count={result.total}>
              {result.total > 0 ? t('found', { count: result.total }) : t('noVehicles')}
              {result.total > SHOWN_MAX ? t('shownFirst', { shown: SHOWN_MAX }) : ''}
            </Text>
            <ScrollArea style={{ flex: 1 }}>
              <Stack gap={2}>
                {/* Up to 5,000 from the server; 500 rows keep the DOM small and a rectangle that big is refined anyway. */}
                {result.vehicles.slice(0, SHOWN_MAX).map((v) => (
                  <UnstyledButton
                    key={v.vehicleId}
                    onClick={() => void navigateHref(playbackHref(v, result.start, result.end))}
                    data-testid="search-row"
                    data-vehicle-id={v.vehicleId}
                    p={4}
                    style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                  >
                    <Group justify="space-between" wrap="nowrap">
                      <Text size="sm" fw={500}>
                        {v.plate}
                      </Text>
                      <Text size="xs" c="blue">
                        {t('open')}
                      </Text>
                    </Group>
                    <Text size="xs" c="dimmed">
                      {t('firstTime')} {formatTime(v.firstTime)} · {t('lastTime')} {formatTime(v.lastTime)} · {t('count')} {v.points}
                    </Text>
                  </UnstyledButton>
                ))}
              </Stack>
            </ScrollArea>
          </>
        ) : null}
      </Paper>
      <div style={{ flex: 1, position: 'relative', minWidth: 0 }}>
        <MapView ref={mapRef} layers={layers}>
          {drawing ? (
            <FrameDraw
              map={() => mapRef.current}
              onDone={() => setDrawing(false)}
              onRectangle={(b) => {
                setBounds(b);
                setDrawing(false);
              }}
            />
          ) : null}
        </MapView>
      </div>
    </Group>
  );
}
