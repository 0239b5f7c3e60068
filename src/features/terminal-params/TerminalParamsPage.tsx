/**
 * Terminal parameters (issue 17): pick a vehicle, 查询 reads its live terminal's values (0x8104 / 0x8106)
 * into a form grouped by the standard's sections with units, 设置 sends the changed values as a task
 * (0x8103) and shows its per-vehicle progress, polled until nothing is in flight.
 */
import { Alert, Badge, Button, Group, NumberInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import { VehicleSelect } from '../fleet-pickers/VehicleSelect.tsx';
import { BASE_PARAM_ROUTE, paramsApi, SECTIONS, USUAL_IDS, type ParamItem, type ParamSpec } from './api.ts';
import { TERMINAL_PARAMS_NS } from './messages.ts';

const MAX = { dword: 0xffffffff, word: 0xffff, byte: 0xff } as const;

export function TerminalParamsPage({ usual = false }: { usual?: boolean }) {
  const t = useT(TERMINAL_PARAMS_NS);
  const [vehicleId, setVehicleId] = useState<number | null>(null);
  const [read, setRead] = useState<ParamItem[] | null>(null);
  const [edits, setEdits] = useState<Map<number, number | string>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [taskId, setTaskId] = useState<number | null>(null);
  const table = useQuery({ queryKey: ['terminal-params', 'table'], queryFn: paramsApi.table, staleTime: Infinity });
  const specs = useMemo(() => new Map((table.data ?? []).map((s) => [s.id, s])), [table.data]);
  const task = useQuery({
    queryKey: ['terminal-params', 'task', taskId],
    queryFn: () => paramsApi.task(taskId!),
    enabled: taskId !== null,
    refetchInterval: (q) => ((q.state.data?.counts.sent ?? 1) > 0 || (q.state.data?.counts.queued ?? 0) > 0 ? 1000 : false),
  });

  const query = async () => {
    if (vehicleId === null) return setError(t('noVehicle'));
    setBusy(true);
    setError(null);
    try {
      const r = await paramsApi.query(vehicleId, usual ? [...USUAL_IDS] : undefined);
      setRead(r.answer.params);
      setEdits(new Map());
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const send = async () => {
    if (vehicleId === null) return setError(t('noVehicle'));
    const params = [...edits].map(([id, value]) => ({ id, value }));
    if (params.length === 0) return setError(t('noChange'));
    setBusy(true);
    setError(null);
    try {
      const created = await paramsApi.createTask([vehicleId], params);
      setTaskId(created.id);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const rows = (read ?? []).filter((p) => !p.raw && specs.has(p.id));
  const edit = (spec: ParamSpec, current: number | string) => {
    const value = edits.get(spec.id) ?? current;
    const set = (v: number | string) => setEdits((m) => new Map(m).set(spec.id, v));
    if (spec.type === 'string') return <TextInput size="xs" value={String(value)} onChange={(e) => set(e.currentTarget.value)} data-testid={`param-${spec.id}`} />;
    return <NumberInput size="xs" min={0} max={MAX[spec.type]} allowDecimal={false} allowNegative={false} value={Number(value)} onChange={(v) => typeof v === 'number' && set(v)} data-testid={`param-${spec.id}`} />;
  };

  return (
    <Stack p="md" gap="sm">
      <Title order={4}>{t(usual ? 'usualTitle' : 'baseTitle')}</Title>
      <Group align="end">
        <VehicleSelect label={t('vehicle')} placeholder={t('vehiclePick')} value={vehicleId} onChange={(id) => { setVehicleId(id); setRead(null); setTaskId(null); }} testId="params-vehicle" w={260} />
        <Perm route={BASE_PARAM_ROUTE} button="query"><Button onClick={() => void query()} loading={busy} data-testid="params-query">{t('query')}</Button></Perm>
        <Perm route={BASE_PARAM_ROUTE} button="set"><Button onClick={() => void send()} disabled={read === null || edits.size === 0} loading={busy} data-testid="params-set">{t('set')}</Button></Perm>
      </Group>
      {error && <Alert color="red" data-testid="params-error">{error}</Alert>}
      {read && <Text size="sm" c="dimmed">{t('queried', { n: rows.length })}</Text>}
      {read && SECTIONS.map((section) => {
        const inSection = rows.filter((p) => p.id >= section.from && p.id <= section.to);
        if (inSection.length === 0) return null;
        return (
          <Stack key={section.key} gap={4}>
            <Text fw={600}>{t(`section.${section.key}`)}</Text>
            <Table withTableBorder striped>
              <Table.Thead><Table.Tr><Table.Th w={110}>{t('id')}</Table.Th><Table.Th>{t('name')}</Table.Th><Table.Th w={220}>{t('value')}</Table.Th><Table.Th w={90}>{t('unit')}</Table.Th></Table.Tr></Table.Thead>
              <Table.Tbody>
                {inSection.map((p) => {
                  const spec = specs.get(p.id)!;
                  return (
                    <Table.Tr key={p.id}>
                      <Table.Td>0x{p.id.toString(16).padStart(4, '0').toUpperCase()}</Table.Td>
                      <Table.Td>{spec.zh}</Table.Td>
                      <Table.Td>{edit(spec, p.value)}</Table.Td>
                      <Table.Td>{spec.unit ?? ''}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Stack>
        );
      })}
      {task.data && (
        <Stack gap={4} data-testid="params-task">
          <Text fw={600}>{t('task', { id: task.data.id })}</Text>
          <Table withTableBorder>
            <Table.Thead><Table.Tr><Table.Th>{t('plate')}</Table.Th><Table.Th>{t('value')}</Table.Th><Table.Th>{t('result')}</Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>
              {task.data.vehicles.map((v) => (
                <Table.Tr key={v.vehicleId}>
                  <Table.Td>{v.vehiidno}</Table.Td>
                  <Table.Td><Badge color={v.state === 'ok' ? 'green' : v.state === 'queued' || v.state === 'sent' ? 'blue' : 'red'} data-testid={`task-state-${v.vehicleId}`}>{t(`state.${v.state}`)}</Badge></Table.Td>
                  <Table.Td>{v.result ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </Stack>
  );
}
