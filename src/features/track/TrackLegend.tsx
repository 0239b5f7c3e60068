/**
 * What the colours on the playback map mean (issue 13): each loaded track in its own colour, then
 * the marks drawn over it — gaps (amber, thinner), stops (green), alarm points (red), drift (purple).
 * The swatches read the same constants the layers draw with (track-layers.ts), so they cannot drift.
 */
import { Group, Paper, Stack, Text } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import { TRACK_NS } from './messages.ts';
import { ALARM_COLOR, DRIFT_COLOR, GAP_COLOR, STOP_COLOR } from './track-layers.ts';

const rgb = (c: readonly number[]) => `rgb(${c[0]}, ${c[1]}, ${c[2]})`;

function Swatch({ color, kind }: { color: string; kind: 'line' | 'dot' }) {
  return kind === 'line' ? (
    <span style={{ width: 18, height: 4, borderRadius: 2, background: color, flex: 'none' }} />
  ) : (
    <span style={{ width: 10, height: 10, borderRadius: 5, background: color, border: '1px solid white', flex: 'none', margin: '0 4px' }} />
  );
}

export function TrackLegend({ tracks }: { tracks: readonly { key: number; plate: string; vehicleId: number; color: string }[] }) {
  const t = useT(TRACK_NS);
  const row = (color: string, kind: 'line' | 'dot', label: string, testId: string) => (
    <Group gap={6} wrap="nowrap" key={testId} data-testid={testId}>
      <Swatch color={color} kind={kind} />
      <Text size="xs" truncate maw={160}>
        {label}
      </Text>
    </Group>
  );
  return (
    <Paper withBorder shadow="xs" p={6} data-testid="track-legend" style={{ opacity: 0.92 }}>
      <Stack gap={2}>
        {tracks.length === 1
          ? row(tracks[0]!.color, 'line', t('legend.track'), 'legend-track')
          : tracks.slice(0, 6).map((s) => row(s.color, 'line', s.plate || `#${s.vehicleId}`, 'legend-track'))}
        {row(rgb(GAP_COLOR), 'line', t('legend.gap'), 'legend-gap')}
        {row(rgb(STOP_COLOR), 'dot', t('legend.stop'), 'legend-stop')}
        {row(rgb(ALARM_COLOR), 'dot', t('legend.alarm'), 'legend-alarm')}
        {row(rgb(DRIFT_COLOR), 'dot', t('legend.drift'), 'legend-drift')}
      </Stack>
    </Paper>
  );
}
