/**
 * /monitor/mediaRemoteExtraction — recordings on the terminal (issue 6): pick a vehicle in the company
 * tree, a channel and a period, ask the terminal (0x9205 → 0x1205), see the files as a timeline bar
 * per channel and a list, and play one back (0x9201/0x9202) with pause, speeds and seek.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, Group, Paper, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { PageFrame } from '../../kit/PageFrame.tsx';
import { RECORDING_SEARCH_MAX_MS } from '../../../domain/video/playback.ts';
import { useT } from '../../i18n/index.ts';
import { keyProblem, problemOf, useProblemText, type Problem } from '../../i18n/problem.ts';
import { formatTime, fromLocalInput } from '../track/format.ts';
import { fetchRecordings, type Recording } from './api.ts';
import { RECORDINGS_NS } from './messages.ts';
import { PlaybackTile, type PlaybackTarget } from './PlaybackTile.tsx';
import { RecordingTable, recordingKey } from './RecordingTable.tsx';
import { timelineRows } from './timeline.ts';
import { useVehicleChannelForm, VehicleChannelForm } from './VehicleChannelForm.tsx';

function todayStart(): number {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

export function RecordingsPage() {
  const t = useT(RECORDINGS_NS);
  const form = useVehicleChannelForm({ channel: '0', startAt: () => todayStart() - 86_400_000 });
  const { vehicle, channel, start: startText, end: endText } = form;
  const [alarmOnly, setAlarmOnly] = useState(false);
  const [result, setResult] = useState<{ list: Recording[]; from: number; to: number; vehicleId: number; plate: string } | null>(null);
  const [loading, setLoading] = useState(false);
  // Kept as what it means, so a language switch re-renders it (i18n/problem.ts).
  const [problem, setProblem] = useState<Problem | null>(null);
  const error = useProblemText(problem);
  const [target, setTarget] = useState<PlaybackTarget | null>(null);
  const [playingKey, setPlayingKey] = useState<string | undefined>(undefined);
  const keyRef = useRef(0);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => () => abortRef.current?.abort(), []);

  const search = async () => {
    if (!vehicle) return;
    const from = fromLocalInput(startText);
    const to = fromLocalInput(endText);
    // Checked here first so a bad period never reaches the terminal.
    if (!Number.isFinite(from) || !Number.isFinite(to) || from > to || to - from > RECORDING_SEARCH_MAX_MS) {
      setProblem(keyProblem('invalidPeriod', RECORDINGS_NS));
      return;
    }
    abortRef.current?.abort();
    const abort = new AbortController();
    abortRef.current = abort;
    setLoading(true);
    setProblem(null);
    try {
      const list = await fetchRecordings({ vehicleId: vehicle.id, channel: Number(channel), startTime: from, endTime: to, alarmOnly }, abort.signal);
      setResult({ list, from, to, vehicleId: vehicle.id, plate: vehicle.plate });
    } catch (e) {
      if (abort.signal.aborted) return;
      setResult(null);
      setProblem(problemOf(e));
    } finally {
      if (!abort.signal.aborted) setLoading(false);
    }
  };

  const play = (r: Recording, from = r.startTime) => {
    if (!result) return;
    keyRef.current++;
    setPlayingKey(recordingKey(r));
    setTarget({ key: keyRef.current, vehicleId: result.vehicleId, plate: result.plate, channel: r.channel, spanStart: r.startTime, spanEnd: r.endTime, from: Math.floor(from / 1000) * 1000 });
  };

  const rows = useMemo(() => (result ? timelineRows(result.list, result.from, result.to) : []), [result]);

  return (
    <PageFrame
      pageId="monitor-recordings"
      testId="recordings-page"
      title={t('title')}
      aside={
        <VehicleChannelForm prefix="recordings" fields={form} allChannels quick={['today', 'yesterday', 'last3Days']}>
          <Switch size="xs" label={t('alarmOnly')} checked={alarmOnly} onChange={(e) => setAlarmOnly(e.currentTarget.checked)} />
          <Button size="xs" disabled={!vehicle} loading={loading} onClick={() => void search()} data-testid="recordings-search">
            {t('search')}
          </Button>
        </VehicleChannelForm>
      }
    >
      {error && (
        <Alert color="red" data-testid="recordings-error">
          {error}
        </Alert>
      )}
      {loading && <Text size="sm">{t('searching')}</Text>}
      {target && (
        <Paper withBorder p="xs" style={{ maxWidth: 560 }}>
          <PlaybackTile target={target} onClose={() => { setTarget(null); setPlayingKey(undefined); }} />
        </Paper>
      )}
      {result && (
        <Paper withBorder p="xs" style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', gap: 6 }}>
          <Text size="sm" fw={600} data-testid="recordings-count">
            {result.list.length === 0 ? t('noResults') : t('results', { n: result.list.length })}
          </Text>
          {rows.length > 0 && (
            <Stack gap={2} data-testid="recordings-timeline">
              <Group justify="space-between">
                <Text size="xs" c="dimmed">{formatTime(result.from)}</Text>
                <Text size="xs" c="dimmed">{t('timeline')}</Text>
                <Text size="xs" c="dimmed">{formatTime(result.to)}</Text>
              </Group>
              {rows.map((row) => (
                <Group key={row.channel} gap={6} wrap="nowrap">
                  <Text size="xs" w={60}>{t('channelName', { n: row.channel })}</Text>
                  <div style={{ position: 'relative', flex: 1, height: 14, background: 'var(--mantine-color-gray-2)', borderRadius: 2 }}>
                    {row.bars.map((b) => (
                      <Tooltip key={b.recording.startTime} label={`${formatTime(b.recording.startTime)} – ${formatTime(b.recording.endTime)}`}>
                        <div
                          role="button"
                          data-testid={`timeline-bar-${row.channel}`}
                          onClick={(e) => {
                            // Play from the clicked point of the file.
                            const rect = e.currentTarget.getBoundingClientRect();
                            const share = rect.width > 0 ? (e.clientX - rect.left) / rect.width : 0;
                            play(b.recording, b.recording.startTime + share * (b.recording.endTime - b.recording.startTime));
                          }}
                          style={{
                            position: 'absolute', top: 0, bottom: 0, left: `${b.left}%`, width: `${b.width}%`, cursor: 'pointer', borderRadius: 2,
                            background: b.recording.alarms.length > 0 ? 'var(--mantine-color-red-6)' : 'var(--mantine-color-blue-6)',
                          }}
                        />
                      </Tooltip>
                    ))}
                  </div>
                </Group>
              ))}
            </Stack>
          )}
          {/* A click on a row plays its file too; the playing file is marked. */}
          <Box style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }} data-testid="recordings-table">
            <RecordingTable
              rows={result.list} label={t('title')} rowTestId="recording-row" emptyText={t('noResults')}
              onRowClick={(r) => play(r)} selectedKey={playingKey}
              action={{
                width: 80,
                render: (r) => (
                  <Button size="compact-xs" variant="light" onClick={(e) => { e.stopPropagation(); play(r); }} data-testid="recording-play">
                    {t('play')}
                  </Button>
                ),
              }}
            />
          </Box>
        </Paper>
      )}
    </PageFrame>
  );
}
