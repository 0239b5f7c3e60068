/**
 * The stops of the active track (issue 13): start, end, duration and the address where the vehicle
 * stood, a click seeks to the stop. Addresses come from the same AddressCache as the point table
 * (one call per ~1 m position, ≤ 4 in flight); the list is bounded (stops ≥ N minutes), so every
 * stop shown is asked for — the tab shows either this list or the point table, never both, so the
 * two never replace each other's wanted list.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { Text, UnstyledButton } from '@mantine/core';
import type { TrackStop } from '../../../domain/track/stops.ts';
import { useT } from '../../i18n/index.ts';
import type { LoadedTrack } from '../../live/track/protocol.ts';
import type { AddressCache } from './address-cache.ts';
import { durationParts, formatTime } from './format.ts';
import { TRACK_NS } from './messages.ts';

/** A stop list longer than this is cut (a week of 3-minute stops stays far below). */
const MAX_ROWS = 500;
const grid = { display: 'grid', gridTemplateColumns: '150px 150px 100px minmax(200px, 1fr)', alignItems: 'center', columnGap: 6 } as const;

export interface StopTableProps {
  track: LoadedTrack;
  stops: readonly TrackStop[];
  addresses: AddressCache;
  onSeek: (time: number) => void;
  empty: string;
}

export function StopTable({ track, stops, addresses, onSeek, empty }: StopTableProps) {
  const t = useT(TRACK_NS);
  useSyncExternalStore(addresses.subscribe, () => addresses.version);
  const shown = stops.slice(0, MAX_ROWS);

  const count = stops.length;
  useEffect(() => {
    addresses.want(stops.slice(0, MAX_ROWS).map((s) => ({ lng: track.lng[s.from]!, lat: track.lat[s.from]! })));
  }, [stops, count, track, addresses]);

  const duration = (minutes: number) => {
    const d = durationParts(minutes);
    return d.h > 0 ? t('duration', d) : t('durationMinutes', d);
  };

  return (
    <div data-testid="stop-list" data-count={stops.length} style={{ minWidth: 0 }}>
      <div style={{ ...grid, padding: '2px 8px', borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        {(['start', 'end', 'duration', 'address'] as const).map((c) => (
          <Text key={c} size="xs" fw={600}>
            {t(`stopCol.${c}`)}
          </Text>
        ))}
      </div>
      {shown.length === 0 ? (
        <Text size="xs" c="dimmed" p="xs">
          {empty}
        </Text>
      ) : null}
      {shown.map((s) => {
        const lng = track.lng[s.from]!;
        const lat = track.lat[s.from]!;
        return (
          <UnstyledButton key={s.from} onClick={() => onSeek(track.time[s.from]!)} display="block" w="100%" data-testid="stop-list-row">
            <div style={{ ...grid, padding: '2px 8px' }}>
              <Text size="xs" data-testid="stop-start">{formatTime(track.time[s.from]!)}</Text>
              <Text size="xs" data-testid="stop-end">{formatTime(track.time[s.to]!)}</Text>
              <Text size="xs" data-testid="stop-duration">{duration(s.minutes)}</Text>
              <Text size="xs" truncate data-testid="stop-address">{addresses.get(lng, lat) ?? t('resolving')}</Text>
            </div>
          </UnstyledButton>
        );
      })}
    </div>
  );
}
