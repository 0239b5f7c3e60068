/**
 * One upgrade push's live progress (`GET upgrade/task`, polled every second while anything is queued or
 * sent): counts per state, each vehicle's state and 0x0108 result, and — behind bit 500 — 取消 for a
 * vehicle still queued (its terminal offline) and for every queued vehicle of the task at once. A
 * vehicle already sent cannot be cancelled (0x8108 has no stop), so the button is only on queued rows.
 */
import { Alert, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import { PUSH_ROUTE, TASK_STATES, upgradeApi, type UpgradeTaskState } from './api.ts';
import { TERMINAL_UPGRADE_NS } from './messages.ts';

const POLL_MS = 1000;
const COLOR: Record<UpgradeTaskState, string> = { queued: 'gray', sent: 'blue', ok: 'green', failed: 'red', timeout: 'orange', cancelled: 'dark' };

export function UpgradeTaskView({ taskId, testId = 'upgrade-task', onChanged }: { taskId: number; testId?: string; onChanged?: () => void }) {
  const t = useT(TERMINAL_UPGRADE_NS);
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const key = ['terminal-upgrade', 'task', taskId];
  const task = useQuery({
    queryKey: key,
    queryFn: () => upgradeApi.task(taskId),
    refetchInterval: (q) => ((q.state.data?.counts['sent'] ?? 1) > 0 || (q.state.data?.counts['queued'] ?? 0) > 0 ? POLL_MS : false),
  });

  const cancel = async (vehicleIds?: number[]) => {
    setBusy(true);
    setError(null);
    try {
      qc.setQueryData(key, await upgradeApi.cancel(taskId, vehicleIds));
      onChanged?.();
    } catch (e) {
      setError(errorText(e));
      void task.refetch();
    } finally {
      setBusy(false);
    }
  };

  if (!task.data) return null;
  const d = task.data;
  const counts = Object.fromEntries(TASK_STATES.map((s) => [s, d.counts[s] ?? 0]));
  return (
    <Stack gap={4} data-testid={testId}>
      <Group gap="xs">
        <Text fw={600}>{t('task', { id: d.id })}</Text>
        <Text size="sm" c="dimmed" data-testid={`${testId}-counts`}>{t('counts', counts)}</Text>
        {(counts['queued'] ?? 0) > 0 && (
          <Perm route={PUSH_ROUTE} button="cancel">
            <Button size="compact-xs" color="red" variant="light" loading={busy} onClick={() => void cancel()} data-testid={`${testId}-cancel-all`}>
              {t('cancelAll', { n: counts['queued'] })}
            </Button>
          </Perm>
        )}
      </Group>
      {error && <Alert color="red" p={6} data-testid={`${testId}-error`}>{error}</Alert>}
      <Table withTableBorder>
        <Table.Thead><Table.Tr><Table.Th>{t('plate')}</Table.Th><Table.Th>{t('state')}</Table.Th><Table.Th>{t('result')}</Table.Th><Table.Th /></Table.Tr></Table.Thead>
        <Table.Tbody>
          {d.vehicles.map((v) => (
            <Table.Tr key={v.vehicleId}>
              <Table.Td>{v.vehiidno}</Table.Td>
              <Table.Td><Badge color={COLOR[v.state]} data-testid={`task-state-${v.vehicleId}`} data-state={v.state}>{t(`states.${v.state}`)}</Badge></Table.Td>
              <Table.Td data-testid={`task-result-${v.vehicleId}`}>{v.reason?.code === 'unanswered' ? t('unanswered', { n: v.reason.retransmissions }) : (v.result ?? '')}</Table.Td>
              <Table.Td>
                {v.state === 'queued' && (
                  <Perm route={PUSH_ROUTE} button="cancel">
                    <Button size="compact-xs" variant="subtle" color="red" loading={busy} onClick={() => void cancel([v.vehicleId])} data-testid={`task-cancel-${v.vehicleId}`}>{t('cancelOne')}</Button>
                  </Perm>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
