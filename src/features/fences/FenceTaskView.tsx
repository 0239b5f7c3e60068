/** A fence's 下发 task: each vehicle's state (queued/sent/ok/failed/timeout), polled live until nothing is in flight. */
import { Badge, Group, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useT } from '../../i18n/index.ts';
import { fenceApi, FENCES_ROUTE, taskPollMs, type TaskState } from './api.ts';
import { FENCES_NS } from './messages.ts';

const COLOR: Record<TaskState, string> = { queued: 'gray', sent: 'blue', ok: 'green', failed: 'red', timeout: 'orange' };

export function FenceTaskView({ taskId, onSettled }: { taskId: number; onSettled?: () => void }) {
  const t = useT(FENCES_NS);
  const task = useQuery({
    queryKey: [FENCES_ROUTE, 'task', taskId],
    queryFn: async () => {
      const answer = await fenceApi.task(taskId);
      if (taskPollMs(answer) === false) onSettled?.();
      return answer;
    },
    refetchInterval: (q) => taskPollMs(q.state.data),
  });
  if (!task.data) return null;
  const { data } = task;
  return (
    <Stack gap={4} data-testid="fence-task">
      <Group justify="space-between">
        <Text fw={600} size="sm">{t('task', { id: data.id })}</Text>
        <Group gap={4}>
          {(Object.keys(COLOR) as TaskState[]).filter((s) => (data.counts[s] ?? 0) > 0).map((s) => (
            <Badge key={s} size="xs" color={COLOR[s]} variant="light">{t(`states.${s}`)} {data.counts[s]}</Badge>
          ))}
        </Group>
      </Group>
      {/* Up to 500 vehicles: the table scrolls so the map above keeps its height. */}
      <ScrollArea.Autosize mah={150}>
      <Table withTableBorder fz="xs">
        <Table.Thead><Table.Tr><Table.Th>{t('plate')}</Table.Th><Table.Th>{t('state')}</Table.Th><Table.Th>{t('result')}</Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {data.vehicles.map((v) => (
            <Table.Tr key={v.vehicleId}>
              <Table.Td>{v.vehiidno}</Table.Td>
              <Table.Td><Badge size="sm" color={COLOR[v.state]} data-testid={`fence-task-state-${v.vehicleId}`} data-state={v.state}>{t(`states.${v.state}`)}</Badge></Table.Td>
              <Table.Td>{v.result ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      </ScrollArea.Autosize>
    </Stack>
  );
}
