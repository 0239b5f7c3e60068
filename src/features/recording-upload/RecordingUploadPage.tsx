/**
 * /monitor/mediaRemoteExtraction1 — "video callback": recordings pulled from the terminal to the
 * server (issue 6). Pick a vehicle in the company tree, a channel and a period (or one file of the
 * terminal's 0x1205 list), ask the terminal to upload (0x9206 → FTP → 0x1206), follow the tasks
 * (polled every 2 s while any is unfinished; pause / resume / cancel = 0x9207), then play a received
 * file in the page or download it.
 */
import { useCallback, useEffect, useState } from 'react';
import { Alert, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { checkUploadRange, isFinal, type UploadState } from '../../../domain/video/recording-upload.ts';
import { isApiError, saveBlob } from '../../api/http.ts';
import { useT } from '../../i18n/index.ts';
import { keyProblem, problemOf, useProblemText, type Problem } from '../../i18n/problem.ts';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { PageFrame } from '../../kit/PageFrame.tsx';
import { RowsTable } from '../../kit/RowsTable.tsx';
import { fetchRecordings, type Recording } from '../recordings/api.ts';
import { mb, RecordingTable } from '../recordings/RecordingTable.tsx';
import { useVehicleChannelForm, VehicleChannelForm } from '../recordings/VehicleChannelForm.tsx';
import { formatTime, fromLocalInput } from '../track/format.ts';
import { controlTask, downloadFile, fetchMyTasks, fetchTaskResults, requestUpload, type UploadFile, type UploadTask } from './api.ts';
import { ClipPlayer } from './ClipPlayer.tsx';
import { RECORDING_UPLOAD_NS } from './messages.ts';

/** Task states are polled this often while any task on the page is unfinished. */
const POLL_MS = 2000;

const STATE_COLOR: Record<UploadState, string> = { requested: 'gray', uploading: 'blue', paused: 'yellow', done: 'green', failed: 'red', cancelled: 'gray' };

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

  // A failed task list is the table's own failure state (with 重试), not the request form's problem.
  const [tasksProblem, setTasksProblem] = useState<Problem | null>(null);
  const tasksError = useProblemText(tasksProblem);
  const reload = useCallback(() => {
    fetchMyTasks().then(
      (page) => {
        setTasks(page.records);
        setTasksProblem(null);
      },
      (e: unknown) => setTasksProblem(problemOf(e)),
    );
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

  const taskColumns: KitColumn<UploadTask>[] = [
    { key: 'vehicle', title: t('col.vehicle'), minWidth: 100, maxWidth: 140, render: (task) => task.vehiidno },
    { key: 'channel', title: t('col.channel'), minWidth: 60, maxWidth: 80, render: (task) => task.channel },
    { key: 'period', title: t('col.period'), minWidth: 150, maxWidth: 320, render: (task) => `${formatTime(task.startTime)} – ${formatTime(task.endTime)}` },
    {
      key: 'state', title: t('col.state'), minWidth: 110, maxWidth: 220,
      render: (task) => (
        <>
          <Badge size="sm" color={STATE_COLOR[task.state]} data-testid="upload-task-state">
            {t(`state.${task.state}`)}
          </Badge>
          {task.failMessage && (
            <Text size="xs" c="red" data-testid="upload-task-reason">
              {task.failMessage}
            </Text>
          )}
        </>
      ),
    },
    { key: 'received', title: t('col.received'), minWidth: 90, maxWidth: 120, align: 'right', render: (task) => mb(task.receivedBytes) },
    {
      // Names only: each file's play and download sit on the same line of the pinned action column.
      key: 'files', title: t('col.files'), minWidth: 200, maxWidth: 320,
      render: (task) => (
        <Stack gap={2}>
          {task.files.map((f) => (
            <Text key={f.id} size="xs" ff="monospace" truncate lh="22px" title={f.name}>{f.name}</Text>
          ))}
        </Stack>
      ),
    },
  ];

  /** A task's buttons: pause / resume / cancel while unfinished, then play and download per received file. */
  const taskActions = (task: UploadTask) => (
    <Stack gap={2}>
      {!isFinal(task.state) && (
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
          <Button size="compact-xs" variant="light" color="red" onClick={() => void control(task, 'cancel')} data-testid="upload-task-cancel">
            {t('cancel')}
          </Button>
        </Group>
      )}
      {task.files.map((f) => (
        <Group key={f.id} gap={4} wrap="nowrap">
          <Button size="compact-xs" variant="light" title={f.name} onClick={() => setPlaying({ file: f, title: `${task.vehiidno} · ${f.name}` })} data-testid="upload-file-play">
            {t('play')}
          </Button>
          <Button size="compact-xs" variant="subtle" title={f.name} onClick={() => void save(f)} data-testid="upload-file-download">
            {t('download')}
          </Button>
        </Group>
      ))}
    </Stack>
  );

  return (
    <PageFrame
      pageId="monitor-recording-upload"
      testId="recording-upload-page"
      title={t('title')}
      // At most 24 hours go up at once: no multi-day quick range.
      aside={
        <VehicleChannelForm prefix="upload" fields={form} allChannels={false} quick={['today', 'yesterday']}>
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
      }
    >
      {error && (
        <Alert color="red" withCloseButton onClose={() => setProblem(null)} data-testid="upload-error">
          {error}
        </Alert>
      )}
      {playing && (
        // 60vh wide is about a third of the screen tall at 16:9: on a 720-px screen the lists keep room under the player.
        <Paper withBorder p="xs" style={{ maxWidth: 'min(760px, 60vh)' }}>
          <ClipPlayer file={playing.file} title={playing.title} onClose={() => setPlaying(null)} />
        </Paper>
      )}
      {terminal && (
        <Paper withBorder p="xs" style={{ display: 'flex', flexDirection: 'column', gap: 4 }} data-testid="terminal-recordings">
          <Text size="sm" fw={600}>
            {terminal.length === 0 ? t('noTerminalRecordings') : t('terminalList', { n: terminal.length })}
          </Text>
          <RecordingTable
            rows={terminal} label={t('listTerminal')} rowTestId="terminal-recording" emptyText={t('noTerminalRecordings')} height={220}
            action={{
              width: 80,
              render: (r) => (
                <Button size="compact-xs" variant="light" loading={sending} onClick={() => void upload(r.channel, r.startTime, r.endTime)} data-testid="terminal-upload">
                  {t('uploadThis')}
                </Button>
              ),
            }}
          />
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
        <RowsTable
          rows={tasks} columns={taskColumns} rowKey={(task) => task.id} label={t('tasks')} emptyText={t('noTasks')} error={tasksError ?? undefined} onRetry={reload}
          rowAttributes={(task) => ({ 'data-testid': 'upload-task', 'data-task-id': task.id, 'data-state': task.state })}
          actions={{ width: 150, render: taskActions }}
        />
      </Paper>
    </PageFrame>
  );
}
