/**
 * The virtualised point table of the active track: 604,800 rows for a week at 1 Hz, ~30 in the DOM,
 * read straight from the transferred columns. Addresses are asked for the visible rows only, after
 * the scrolling settles (300 ms), through the AddressCache.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Group, Text, UnstyledButton } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import type { LoadedTrack } from '../../live/track/protocol.ts';
import { indexAtOrBefore } from '../../live/track/time-index.ts';
import type { AddressCache } from './address-cache.ts';
import { formatTime } from './format.ts';
import { TRACK_NS } from './messages.ts';

const ROW_HEIGHT = 26;
const COLS = ['52px', '150px', '80px', '52px', '170px', '80px', '1fr'];
const grid = { display: 'grid', gridTemplateColumns: COLS.join(' '), alignItems: 'center', columnGap: 6 } as const;

export interface PointTableProps {
  track: LoadedTrack;
  addresses: AddressCache;
  onSeek: (time: number) => void;
  /** Per-frame track time (the controller's `onFrame`): the current point is highlighted and kept in view. */
  onFrame?: (listener: (t: number) => void) => () => void;
  /** The track time now (the table opens on the current point). */
  currentTime?: () => number;
  /** @default 220 */
  height?: number;
}

/** The current row follows playback at 2 Hz: a table re-render per frame would cost more than the map. */
export const TABLE_FOLLOW_MS = 500;

export function PointTable({ track, addresses, onSeek, onFrame, currentTime, height = 220 }: PointTableProps) {
  const t = useT(TRACK_NS);
  const scrollRef = useRef<HTMLDivElement>(null);
  const n = track.time.length;
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read only in this component
  const virtualizer = useVirtualizer({ count: n, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 6 });
  useSyncExternalStore(addresses.subscribe, () => addresses.version);
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;

  const [current, setCurrent] = useState(-1);
  useEffect(() => {
    if (!onFrame) return;
    let appliedAt = 0;
    let shown = -1;
    let pending = Number.NaN;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const apply = (t: number) => {
      appliedAt = performance.now();
      const i = indexAtOrBefore(track.time, t);
      if (i === shown || i < 0) return;
      shown = i;
      setCurrent(i);
      virtualizer.scrollToIndex(i, { align: 'center' });
    };
    if (currentTime) apply(currentTime());
    const off = onFrame((t) => {
      if (performance.now() - appliedAt >= TABLE_FOLLOW_MS) {
        apply(t);
        return;
      }
      // The last frame of a burst (a seek while paused) still lands, once the interval has passed.
      pending = t;
      timer ??= setTimeout(() => {
        timer = undefined;
        apply(pending);
      }, TABLE_FOLLOW_MS);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [onFrame, currentTime, track, virtualizer]);

  useEffect(() => {
    const timer = setTimeout(() => {
      const want: { lng: number; lat: number }[] = [];
      for (let i = first; i <= last && i < n; i++) want.push({ lng: track.lng[i]!, lat: track.lat[i]! });
      addresses.want(want);
    }, 300);
    return () => clearTimeout(timer);
  }, [first, last, n, track, addresses]);

  return (
    <div style={{ display: 'flex', flexDirection: 'column', minWidth: 0 }} data-testid="point-table" data-rows={n}>
      <div style={{ ...grid, padding: '2px 8px', borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        {(['index', 'time', 'speed', 'heading', 'position', 'alarm', 'address'] as const).map((c) => (
          <Text key={c} size="xs" fw={600}>
            {t(`col.${c}`)}
          </Text>
        ))}
      </div>
      <div ref={scrollRef} style={{ height, overflow: 'auto' }}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const i = item.index;
            const lng = track.lng[i]!;
            const lat = track.lat[i]!;
            const alarm = track.alarm[i]!;
            const address = addresses.get(lng, lat);
            return (
              <UnstyledButton
                key={item.key}
                onClick={() => onSeek(track.time[i]!)}
                data-testid="point-row"
                data-current={i === current || undefined}
                style={{
                  ...grid, position: 'absolute', top: item.start, left: 0, right: 0, height: ROW_HEIGHT, padding: '0 8px',
                  background: i === current ? 'var(--mantine-color-blue-light)' : track.driftFlags[i] ? 'var(--mantine-color-grape-light)' : undefined,
                }}
              >
                <Text size="xs">{i + 1}</Text>
                <Text size="xs">{formatTime(track.time[i]!)}</Text>
                <Text size="xs">{track.speed[i]!.toFixed(1)}</Text>
                <Text size="xs">{track.heading[i]}°</Text>
                <Text size="xs">
                  {lng.toFixed(6)},{lat.toFixed(6)}
                </Text>
                <Text size="xs" c={alarm ? 'red' : 'dimmed'}>
                  {alarm ? `0x${alarm.toString(16)}` : t('none')}
                </Text>
                <Text size="xs" truncate data-testid="point-address">
                  {address ?? t('resolving')}
                </Text>
              </UnstyledButton>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** A compact row list (stops, alarms, drift, gaps) with a count; a click seeks to the row's time. */
export function EventList({ rows, testId, onSeek, empty }: { rows: readonly { time: number; label: string }[]; testId: string; onSeek: (t: number) => void; empty: string }) {
  return (
    <div style={{ maxHeight: 220, overflow: 'auto' }} data-testid={testId} data-count={rows.length}>
      {rows.length === 0 ? (
        <Text size="xs" c="dimmed" p="xs">
          {empty}
        </Text>
      ) : null}
      {/* Lists are bounded: stops ≥ N minutes, drift and alarm episodes; 500 rows fit a scroll box. */}
      {rows.slice(0, 500).map((r, k) => (
        <UnstyledButton key={k} onClick={() => onSeek(r.time)} display="block" w="100%" px="xs" py={2} data-testid={`${testId}-row`}>
          <Group gap={6} wrap="nowrap">
            <Text size="xs">{r.label}</Text>
          </Group>
        </UnstyledButton>
      ))}
    </div>
  );
}
