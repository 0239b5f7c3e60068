/**
 * A parameter task's live progress (`GET params/task`): the counts per state and every vehicle's state
 * and result, polled every second while anything is queued or in flight (queued vehicles move when
 * their terminal comes back), then left alone.
 */
import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useT } from '../../i18n/index.ts';
import { paramsApi, type ParamTask, type TaskVehicle } from './api.ts';
import { TERMINAL_PARAMS_NS } from './messages.ts';

const POLL_MS = 1000;
const STATES = ['queued', 'sent', 'ok', 'failed', 'timeout'] as const;
const COLOR: Record<TaskVehicle['state'], string> = { queued: 'gray', sent: 'blue', ok: 'green', failed: 'red', timeout: 'orange' };

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
      <Table withTableBorder>
        <Table.Thead><Table.Tr><Table.Th>{t('plate')}</Table.Th><Table.Th>{t('value')}</Table.Th><Table.Th>{t('result')}</Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {task.data.vehicles.map((v) => (
            <Table.Tr key={v.vehicleId}>
              <Table.Td>{v.vehiidno}</Table.Td>
              <Table.Td><Badge color={COLOR[v.state]} data-testid={`task-state-${v.vehicleId}`} data-state={v.state}>{t(`state.${v.state}`)}</Badge></Table.Td>
              <Table.Td>{v.result ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
