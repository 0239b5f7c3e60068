/**
 * A parameter task's live progress (`GET params/task`): the counts per state and every vehicle's state
 * and result, polled every second while anything is queued or in flight (queued vehicles move when
 * their terminal comes back), then left alone.
 */
import { Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useT } from '../../i18n/index.ts';
import { paramsApi, type ParamTask } from './api.ts';
import { TERMINAL_PARAMS_NS } from './messages.ts';
import { TaskVehicleTable } from './TaskVehicleTable.tsx';

const POLL_MS = 1000;
const STATES = ['queued', 'sent', 'ok', 'failed', 'timeout'] as const;

export function TaskProgress({ taskId, testId = 'params-task', load, kind = 'terminal-params' }: {
  taskId: number;
  testId?: string;
  /** Another kind of command task with the same shape (terminal upgrades: `GET upgrade/task`). */
  load?: (id: number) => Promise<ParamTask>;
  kind?: string;
}) {
  const t = useT(TERMINAL_PARAMS_NS);
  const task = useQuery({
    queryKey: [kind, 'task', taskId],
    queryFn: () => (load ?? paramsApi.task)(taskId),
    refetchInterval: (q) => ((q.state.data?.counts.sent ?? 1) > 0 || (q.state.data?.counts.queued ?? 0) > 0 ? POLL_MS : false),
  });
  if (!task.data) return null;
  const counts = Object.fromEntries(STATES.map((s) => [s, task.data.counts[s] ?? 0]));
  return (
    <Stack gap={4} data-testid={testId}>
      <Group gap="xs">
        <Text fw={600}>{t('task', { id: task.data.id })}</Text>
        <Text size="sm" c="dimmed" data-testid={`${testId}-counts`}>{t('counts', counts)}</Text>
      </Group>
      <TaskVehicleTable vehicles={task.data.vehicles} headers={[t('plate'), t('value'), t('result')]} label={(st) => t(`state.${st}`)} stateTestId="task-state" />
    </Stack>
  );
}
