/**
 * 终端升级 (/information/params/hjwsUpdate2, issue 17): choose a package and up to 500 vehicles, push it
 * (0x8108 as a command task: online terminals at once, offline ones when they come back), follow the
 * task's per-vehicle state and 0x0108 result live (UpgradeTaskView, polled; a queued vehicle or the whole
 * queue can be cancelled behind bit 500), and the history of pushes with their counts (a row opens its progress).
 */
import { Alert, Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import { PageFrame } from '../../kit/PageFrame.tsx';
import type { VehicleOption } from '../fleet-pickers/VehicleSelect.tsx';
import { VehiclesPicker } from '../fleet-pickers/VehiclesPicker.tsx';
import { formatSize, PUSH_ROUTE, TASK_STATES, TASK_VEHICLES_MAX, upgradeApi } from './api.ts';
import { TERMINAL_UPGRADE_NS } from './messages.ts';
import { PACKAGES_KEY } from './PackagesPage.tsx';
import { UpgradeTaskView } from './UpgradeTaskView.tsx';

const HISTORY_KEY = ['terminal-upgrade', 'tasks'] as const;

export function PushPage() {
  const t = useT(TERMINAL_UPGRADE_NS);
  const qc = useQueryClient();
  const [packageId, setPackageId] = useState<string | null>(null);
  const [vehicles, setVehicles] = useState<VehicleOption[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [taskId, setTaskId] = useState<number | null>(null);
  const packages = useQuery({ queryKey: [...PACKAGES_KEY, ''], queryFn: () => upgradeApi.packages() });
  // The history follows the open task's progress too (its counts), so it polls while one is shown.
  const history = useQuery({ queryKey: HISTORY_KEY, queryFn: upgradeApi.tasks, refetchInterval: taskId !== null ? 2000 : false });

  const push = async () => {
    if (packageId === null) return setError(t('noPackage'));
    if (vehicles.length === 0) return setError(t('noVehicles'));
    setBusy(true);
    setError(null);
    try {
      const task = await upgradeApi.push(Number(packageId), vehicles.map((v) => v.id));
      setTaskId(task.id);
      void qc.invalidateQueries({ queryKey: HISTORY_KEY });
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PageFrame pageId="hjwsUpdate2" testId="upgrade-push" title={t('pushTitle')}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">{t('hint')}</Text>
        <Select label={t('package')} placeholder={t('packagePick')} value={packageId} onChange={setPackageId} searchable w={420}
          data={(packages.data?.records ?? []).map((p) => ({ value: String(p.id), label: `${p.name} · ${p.version} · ${t(`type.${p.upgradeType}`)} · ${p.makerId} · ${formatSize(p.size)}` }))}
          data-testid="upgrade-push-package" />
        <Text size="sm" fw={500}>{t('vehicles')}</Text>
        <VehiclesPicker value={vehicles} onChange={setVehicles} max={TASK_VEHICLES_MAX} needsDevice testId="upgrade-push-vehicles" />
        <Group>
          <Perm route={PUSH_ROUTE} button="push">
            <Button loading={busy} disabled={vehicles.length === 0 || packageId === null} onClick={() => void push()} data-testid="upgrade-push-send">{t('push', { n: vehicles.length })}</Button>
          </Perm>
        </Group>
        {error && <Alert color="red" p={6} data-testid="upgrade-push-error">{error}</Alert>}
        {taskId !== null && <UpgradeTaskView key={taskId} taskId={taskId} onChanged={() => void qc.invalidateQueries({ queryKey: HISTORY_KEY })} />}
        <Text fw={600}>{t('history')}</Text>
        <Table withTableBorder striped data-testid="upgrade-history">
          <Table.Thead><Table.Tr>
            <Table.Th>{t('taskId')}</Table.Th><Table.Th>{t('package')}</Table.Th><Table.Th>{t('version')}</Table.Th><Table.Th>{t('createdBy')}</Table.Th>
            <Table.Th>{t('createTime')}</Table.Th><Table.Th>{t('progress')}</Table.Th><Table.Th />
          </Table.Tr></Table.Thead>
          <Table.Tbody>
            {(history.data?.records ?? []).length === 0 && <Table.Tr><Table.Td colSpan={7}><Text c="dimmed" size="sm">{t('noTasks')}</Text></Table.Td></Table.Tr>}
            {(history.data?.records ?? []).map((r) => (
              <Table.Tr key={r.id} data-testid={`upgrade-history-${r.id}`}>
                <Table.Td>#{r.id}</Table.Td><Table.Td>{r.package.name}</Table.Td><Table.Td>{r.package.version}</Table.Td><Table.Td>{r.createdByName}</Table.Td>
                <Table.Td>{new Date(r.createTime).toLocaleString()}</Table.Td>
                <Table.Td>{t('counts', Object.fromEntries(TASK_STATES.map((s) => [s, r.counts[s] ?? 0])))}</Table.Td>
                <Table.Td><Button size="compact-xs" variant="light" onClick={() => setTaskId(r.id)}>{t('view')}</Button></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </PageFrame>
  );
}
