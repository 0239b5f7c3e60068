/**
 * /monitor/mediaRemoteExtraction1 — "video callback": recordings pulled from the terminal to the
 * server (issue 6). Pick a vehicle in the company tree, a channel and a period (or one file of the
 * terminal's 0x1205 list), ask the terminal to upload (0x9206 → FTP → 0x1206), follow the tasks
 * (polled every 2 s while any is unfinished; pause / resume / cancel = 0x9207), then play a received
 * file in the page or download it.
 */
import { useCallback, useEffect, useState } from 'react';
import { Alert, Badge, Button, Group, Paper, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { checkUploadRange, isFinal, type UploadState } from '../../../domain/video/recording-upload.ts';
import { isApiError, saveBlob } from '../../api/http.ts';
import { useT } from '../../i18n/index.ts';
import { keyProblem, problemOf, useProblemText, type Problem } from '../../i18n/problem.ts';
import { fetchRecordings, type Recording } from '../recordings/api.ts';
import { useVehicleChannelForm, VehicleChannelForm } from '../recordings/VehicleChannelForm.tsx';
import { formatTime, fromLocalInput } from '../track/format.ts';
import { controlTask, downloadFile, fetchMyTasks, fetchTaskResults, requestUpload, type UploadFile, type UploadTask } from './api.ts';
import { ClipPlayer } from './ClipPlayer.tsx';
import { RECORDING_UPLOAD_NS } from './messages.ts';

/** Task states are polled this often while any task on the page is unfinished. */
const POLL_MS = 2000;

const STATE_COLOR: Record<UploadState, string> = { requested: 'gray', uploading: 'blue', paused: 'yellow', done: 'green', failed: 'red', cancelled: 'gray' };
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** A notification's text (shown for seconds, so it is not kept for a language switch). */
const message = (e: unknown) => (isApiError(e) ? e.msg : String(e));

export function RecordingUploadPage() {
  const t = useT(RECORDING_UPLOAD_NS);
  // Kept as what it means, so a language switch re-renders it (i18n/problem.ts).
  const [problem, setProblem] = useState<Problem | null>(null);
  const error = useProblemText(problem);
  const [sending, setSending] = useState(false);
  const [listing, setListing] = useState(false);
  const [terminal, setTerminal] = useState<Recording[] | null>(null);
  const [tasks, setTasks] = useState<UploadTask[]>([]);
  const [playing, setPlaying] = useState<{ file: UploadFile; title: string } | null>(null);
  // Another vehicle's terminal list would be misleading.
  const form = useVehicleChannelForm({ channel: '1', startAt: () => Date.now() - 2 * 3_600_000, onPick: useCallback(() => setTerminal(null), []) });
  const { vehicle, channel, start: startText, end: endText } = form;
  // Only a channel the device is known to have (its record or its terminal's report) can be asked for.
  const channelKnown = form.channels.some((c) => String(c.channel) === channel);

  const reload = useCallback(() => {
    fetchMyTasks().then((page) => setTasks(page.records), (e: unknown) => setProblem(problemOf(e)));
  }, []);
  useEffect(reload, [reload]);

  // Live states: poll the unfinished tasks shown.
  const unfinished = tasks.filter((x) => !isFinal(x.state)).map((x) => x.id);
  const pollKey = unfinished.join(',');
  useEffect(() => {
    if (pollKey === '') return;
    const ids = pollKey.split(',').map(Number);
    const timer = setInterval(() => {
      fetchTaskResults(ids).then(
        (fresh) => setTasks((old) => old.map((x) => fresh.find((f) => f.id === x.id) ?? x)),
        () => undefined,
      );
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [pollKey]);

  const period = (): { from: number; to: number } | null => {
    const from = fromLocalInput(startText);
    const to = fromLocalInput(endText);
    if (!Number.isFinite(from) || !Number.isFinite(to) || checkUploadRange(from, to, Date.now()) !== null) {
      setProblem(keyProblem('invalidPeriod', RECORDING_UPLOAD_NS));
      return null;
    }
    return { from, to };
  };

  const upload = async (ch: number, from: number, to: number) => {
    if (!vehicle) return;
    setSending(true);
    setProblem(null);
    try {
      const task = await requestUpload({ vehicleId: vehicle.id, channel: ch, startTime: from, endTime: to });
      setTasks((old) => [task, ...old.filter((x) => x.id !== task.id)]);
      notifications.show({ color: 'green', autoClose: 2000, message: t('requested') });
    } catch (e) {
      setProblem(problemOf(e));
      reload(); // a refused request still leaves its failed task in the list
    } finally {
      setSending(false);
    }
  };

  const listTerminal = async () => {
    const p = period();
    if (!vehicle || !p) return;
    setListing(true);
    setProblem(null);
    try {
      setTerminal(await fetchRecordings({ vehicleId: vehicle.id, channel: Number(channel), startTime: p.from, endTime: p.to, alarmOnly: false }));
    } catch (e) {
      setTerminal(null);
      setProblem(problemOf(e));
    } finally {
      setListing(false);
    }
  };

  const control = async (task: UploadTask, action: 'pause' | 'resume' | 'cancel') => {
    try {
      const after = await controlTask(task.id, action);
      setTasks((old) => old.map((x) => (x.id === after.id ? after : x)));
    } catch (e) {
      notifications.show({ color: 'red', autoClose: 3000, message: message(e) });
    }
  };

  const save = async (file: UploadFile) => {
    try {
      saveBlob(await downloadFile(file.id));
    } catch (e) {
      notifications.show({ color: 'red', autoClose: 3000, message: message(e) });
    }
  };

  return (
    <Group align="stretch" gap="sm" wrap="nowrap" style={{ height: 'calc(100vh - 120px)' }} data-testid="recording-upload-page">
      <VehicleChannelForm prefix="upload" fields={form} allChannels={false}>
        <Button
          size="xs"
          disabled={!vehicle || !channelKnown}
          loading={sending}
          onClick={() => {
            const p = period();
            if (p) void upload(Number(channel), p.from, p.to);
          }}
          data-testid="upload-request"
        >
          {t('upload')}
        </Button>
        <Button size="xs" variant="light" disabled={!vehicle || !channelKnown} loading={listing} onClick={() => void listTerminal()} data-testid="upload-list-terminal">
          {t('listTerminal')}
        </Button>
      </VehicleChannelForm>
      <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
        {error && (
          <Alert color="red" withCloseButton onClose={() => setProblem(null)} data-testid="upload-error">
            {error}
          </Alert>
        )}
        {playing && (
          <Paper withBorder p="xs" style={{ maxWidth: 760 }}>
            <ClipPlayer file={playing.file} title={playing.title} onClose={() => setPlaying(null)} />
          </Paper>
        )}
        {terminal && (
          <Paper withBorder p="xs" style={{ maxHeight: 240, display: 'flex', flexDirection: 'column', gap: 4 }} data-testid="terminal-recordings">
            <Text size="sm" fw={600}>
              {terminal.length === 0 ? t('noTerminalRecordings') : t('terminalList', { n: terminal.length })}
            </Text>
            <ScrollArea style={{ flex: 1 }}>
              <Table striped>
                <Table.Tbody>
                  {terminal.map((r) => (
                    <Table.Tr key={`${r.channel}-${r.startTime}`} data-testid="terminal-recording">
                      <Table.Td>{t('channelName', { n: r.channel })}</Table.Td>
                      <Table.Td>{`${formatTime(r.startTime)} – ${formatTime(r.endTime)}`}</Table.Td>
                      <Table.Td>{mb(r.fileSize)}</Table.Td>
                      <Table.Td>
                        <Button size="compact-xs" variant="light" loading={sending} onClick={() => void upload(r.channel, r.startTime, r.endTime)} data-testid="terminal-upload">
                          {t('uploadThis')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
          </Paper>
        )}
        <Paper withBorder p="xs" style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', gap: 6 }}>
          <Group justify="space-between">
            <Text size="sm" fw={600}>
              {t('tasks')}
            </Text>
            <Button size="compact-xs" variant="subtle" onClick={reload} data-testid="upload-refresh">
              {t('refresh')}
            </Button>
          </Group>
          {tasks.length === 0 && <Text size="sm" c="dimmed">{t('noTasks')}</Text>}
          <ScrollArea style={{ flex: 1 }}>
            <Table striped highlightOnHover stickyHeader data-testid="upload-tasks">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('col.vehicle')}</Table.Th>
                  <Table.Th>{t('col.channel')}</Table.Th>
                  <Table.Th>{t('col.period')}</Table.Th>
                  <Table.Th>{t('col.state')}</Table.Th>
                  <Table.Th>{t('col.received')}</Table.Th>
                  <Table.Th>{t('col.files')}</Table.Th>
                  <Table.Th>{t('col.action')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {tasks.map((task) => (
                  <Table.Tr key={task.id} data-testid="upload-task" data-task-id={task.id} data-state={task.state}>
                    <Table.Td>{task.vehiidno}</Table.Td>
                    <Table.Td>{task.channel}</Table.Td>
                    <Table.Td>{`${formatTime(task.startTime)} – ${formatTime(task.endTime)}`}</Table.Td>
                    <Table.Td>
                      <Badge size="sm" color={STATE_COLOR[task.state]} data-testid="upload-task-state">
                        {t(`state.${task.state}`)}
                      </Badge>
                      {task.failMessage && (
                        <Text size="xs" c="red" data-testid="upload-task-reason">
                          {task.failMessage}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{mb(task.receivedBytes)}</Table.Td>
                    <Table.Td>
                      <Stack gap={2}>
                        {task.files.map((f) => (
                          <Group key={f.id} gap={4} wrap="nowrap">
                            <Text size="xs" ff="monospace">{f.name}</Text>
                            <Button size="compact-xs" variant="light" onClick={() => setPlaying({ file: f, title: `${task.vehiidno} · ${f.name}` })} data-testid="upload-file-play">
                              {t('play')}
                            </Button>
                            <Button size="compact-xs" variant="subtle" onClick={() => void save(f)} data-testid="upload-file-download">
                              {t('download')}
                            </Button>
                          </Group>
                        ))}
                      </Stack>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        {(task.state === 'requested' || task.state === 'uploading') && (
                          <Button size="compact-xs" variant="light" onClick={() => void control(task, 'pause')} data-testid="upload-task-pause">
                            {t('pause')}
                          </Button>
                        )}
                        {task.state === 'paused' && (
                          <Button size="compact-xs" variant="light" onClick={() => void control(task, 'resume')} data-testid="upload-task-resume">
                            {t('resume')}
                          </Button>
                        )}
                        {!isFinal(task.state) && (
                          <Button size="compact-xs" variant="light" color="red" onClick={() => void control(task, 'cancel')} data-testid="upload-task-cancel">
                            {t('cancel')}
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </Paper>
      </Stack>
    </Group>
  );
}
