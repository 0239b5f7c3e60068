/**
 * One dispatch's per-vehicle state (`voice/searchBatchDistributeLog`), polled every second while a
 * vehicle is sent or still waiting inside the window: acknowledged (the terminal's 0x0001), failed with its
 * result, timed out, waiting for an offline terminal, expired, withdrawn. Behind bit 557 the waiting
 * vehicles can be withdrawn.
 */
import { Alert, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import { formatTime } from '../system/ui/format.ts';
import { LOG_ROUTE, VOICE_STATES, voiceApi, type VoiceState } from './api.ts';
import { VOICE_RES_NS } from './messages.ts';

const POLL_MS = 1000;
export const STATE_COLOR: Record<VoiceState, string> = { queued: 'gray', sent: 'blue', ok: 'green', failed: 'red', timeout: 'orange', cancelled: 'dark', expired: 'yellow' };

export function VoiceTaskView({ taskId, onChanged }: { taskId: number; onChanged?: () => void }) {
  const t = useT(VOICE_RES_NS);
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const key = ['voice', 'task', taskId];
  const q = useQuery({
    queryKey: key,
    queryFn: () => voiceApi.task(taskId),
    refetchInterval: (s) => {
      const d = s.state.data;
      return !d || d.task.counts.sent > 0 || (d.task.counts.queued > 0 && !d.task.expired) ? POLL_MS : false;
    },
  });
  if (!q.data) return null;
  const { task, records } = q.data;
  const withdraw = async () => {
    setError(null);
    try {
      await voiceApi.disable(task.id);
      void qc.invalidateQueries({ queryKey: key });
      onChanged?.();
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <Stack gap={4} data-testid="voice-task">
      <Group gap="xs">
        <Text fw={600}>{t('task', { id: task.id })}</Text>
        <Text size="sm" c="dimmed" data-testid="voice-task-counts">{t('counts', Object.fromEntries(VOICE_STATES.map((s) => [s, task.counts[s] ?? 0])))}</Text>
        <Text size="sm" c="dimmed">{t('expireTime')}: {formatTime(task.expireTime)}</Text>
        {task.counts.queued > 0 && !task.expired && (
          <Perm route={LOG_ROUTE} button="disable">
            <Button size="compact-xs" color="red" variant="light" onClick={() => void withdraw()} data-testid="voice-task-withdraw">{t('withdraw')}</Button>
          </Perm>
        )}
      </Group>
      <Text size="sm" data-testid="voice-task-text">{task.text}</Text>
      {error && <Alert color="red" p={6}>{error}</Alert>}
      <Table withTableBorder>
        <Table.Thead><Table.Tr><Table.Th>{t('plate')}</Table.Th><Table.Th>{t('state')}</Table.Th><Table.Th>{t('result')}</Table.Th><Table.Th>{t('updated')}</Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {records.map((v) => (
            <Table.Tr key={v.vehicleId} data-testid={`voice-vehicle-${v.vehicleId}`}>
              <Table.Td>{v.vehiidno}</Table.Td>
              <Table.Td><Badge color={STATE_COLOR[v.state]} data-testid={`voice-state-${v.vehicleId}`} data-state={v.state}>{t(`states.${v.state}`)}</Badge></Table.Td>
              <Table.Td>{v.result ?? ''}</Table.Td>
              <Table.Td>{formatTime(v.updateTime)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
