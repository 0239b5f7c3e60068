/**
 * A send (下发) task of a held resource: the counts per state as badges (`<testId>-<state>`) and, with
 * `table`, each vehicle's state (`<testId>-state-<vehicleId>`) and result; polled with `taskPollMs`
 * until nothing is in flight, then `onSettled` runs once. Labels come from the caller's namespace
 * (`task`, `states.*`, `plate`, `state`, `result`).
 */
import { Badge, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useT } from '../../i18n/index.ts';
import { TaskVehicleTable } from '../terminal-params/TaskVehicleTable.tsx';
import { TASK_STATES, taskPollMs, type HeldTask, type TaskState } from './api.ts';

export const TASK_COLOR: Record<TaskState, string> = { queued: 'gray', sent: 'blue', ok: 'green', failed: 'red', timeout: 'orange' };

export function HeldTaskView({ taskId, load, kind, ns, testId, table = false, onSettled }: {
  taskId: number;
  load: (id: number) => Promise<HeldTask>;
  /** The query key's head (the screen's route), so a list refresh refetches the task too. */
  kind: string;
  ns: string;
  testId: string;
  table?: boolean;
  onSettled?: () => void;
}) {
  const t = useT(ns);
  const task = useQuery({
    queryKey: [kind, 'task', taskId],
    queryFn: async () => {
      const answer = await load(taskId);
      if (taskPollMs(answer) === false) onSettled?.();
      return answer;
    },
    refetchInterval: (q) => taskPollMs(q.state.data),
  });
  if (!task.data) return null;
  const { data } = task;
  return (
    <Stack gap={4} data-testid={testId}>
      <Group justify="space-between">
        <Text fw={600} size="sm">{t('task', { id: data.id })}</Text>
        <Group gap={4}>
          {TASK_STATES.filter((s) => (data.counts[s] ?? 0) > 0).map((s) => (
            <Badge key={s} size="xs" color={TASK_COLOR[s]} variant="light" data-testid={`${testId}-${s}`}>{t(`states.${s}`)} {data.counts[s]}</Badge>
          ))}
        </Group>
      </Group>
      {/* Up to 500 vehicles: the table scrolls so the map above keeps its height. */}
      {table && (
        <ScrollArea.Autosize mah={150}>
          <TaskVehicleTable vehicles={data.vehicles} headers={[t('plate'), t('state'), t('result')]} label={(s) => t(`states.${s}`)} stateTestId={`${testId}-state`} size="xs" />
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}
