/**
 * Terminal parameters (issue 17): pick a vehicle, 查询 reads its live terminal's values (0x8104 / 0x8106)
 * into a form grouped by the standard's sections with units, 设置 sends the changed values as a task
 * (0x8103) and shows its per-vehicle progress, polled until nothing is in flight. Templates fill the
 * changed values (and save them), 批量下发 sends them to up to 500 vehicles (parts shared with the
 * ADAS / DSM screens).
 */
import { Alert, Button, Group, NumberInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { PermAny } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import { VehicleSelect } from '../fleet-pickers/VehicleSelect.tsx';
import { BASE_PARAM_ROUTE, paramsApi, SECTIONS, USUAL_IDS, USUAL_PARAM_ROUTE, type ParamInput, type ParamItem, type ParamSpec } from './api.ts';
import { BatchSend } from './BatchSend.tsx';
import { TERMINAL_PARAMS_NS } from './messages.ts';
import { TaskProgress } from './TaskProgress.tsx';
import { TemplatesPanel } from './TemplatesPanel.tsx';
import { vehicleFromUrl } from '../fleet-pickers/url-vehicle.ts';

const MAX = { dword: 0xffffffff, word: 0xffff, byte: 0xff } as const;

export function TerminalParamsPage({ usual = false }: { usual?: boolean }) {
  const t = useT(TERMINAL_PARAMS_NS);
  // Opened from the vehicle menu (参数设置): that vehicle is chosen.
  const [fromMenu] = useState(() => vehicleFromUrl());
  const [vehicleId, setVehicleId] = useState<number | null>(fromMenu?.id ?? null);
  const [read, setRead] = useState<ParamItem[] | null>(null);
  const [edits, setEdits] = useState<Map<number, number | string>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [taskId, setTaskId] = useState<number | null>(null);
  const table = useQuery({ queryKey: ['terminal-params', 'table'], queryFn: paramsApi.table, staleTime: Infinity });
  const specs = useMemo(() => new Map((table.data ?? []).map((s) => [s.id, s])), [table.data]);
  const relevant = (id: number) => specs.has(id) && (!usual || USUAL_IDS.includes(id));
  /** The changed values (what 设置, a template and 批量下发 carry). */
  const current = (): ParamInput[] | string => (edits.size === 0 ? t('noChange') : [...edits].map(([id, value]) => ({ id, value })));

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
    const params = current();
    if (typeof params === 'string') return setError(params);
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

  // What was read, plus what a template filled in that the terminal did not answer.
  const readRows = (read ?? []).filter((p) => !p.raw && specs.has(p.id));
  const rows = [...readRows, ...[...edits.keys()].filter((id) => !readRows.some((p) => p.id === id)).map((id) => ({ id, value: edits.get(id)! }))].sort((a, b) => a.id - b.id);
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
        <VehicleSelect label={t('vehicle')} placeholder={t('vehiclePick')} value={vehicleId} initial={fromMenu ?? undefined} onChange={(id) => { setVehicleId(id); setRead(null); setTaskId(null); }} testId="params-vehicle" w={260} />
        {/* The usual screen's own bits (488/489) open its buttons beside the base screen's; the server narrows them to the usual ids. */}
        <PermAny of={usual ? [[BASE_PARAM_ROUTE, 'query'], [USUAL_PARAM_ROUTE, 'query']] : [[BASE_PARAM_ROUTE, 'query']]}><Button onClick={() => void query()} loading={busy} data-testid="params-query">{t('query')}</Button></PermAny>
        <PermAny of={usual ? [[BASE_PARAM_ROUTE, 'set'], [USUAL_PARAM_ROUTE, 'set']] : [[BASE_PARAM_ROUTE, 'set']]}><Button onClick={() => void send()} disabled={edits.size === 0} loading={busy} data-testid="params-set">{t('set')}</Button></PermAny>
      </Group>
      {error && <Alert color="red" data-testid="params-error">{error}</Alert>}
      {read && <Text size="sm" c="dimmed">{t('queried', { n: rows.length })}</Text>}
      {rows.length > 0 && SECTIONS.map((section) => {
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
                      <Table.Td>{edit(spec, p.value as number | string)}</Table.Td>
                      <Table.Td>{spec.unit ?? ''}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Stack>
        );
      })}
      {taskId !== null && <TaskProgress taskId={taskId} />}
      <TemplatesPanel relevant={relevant} current={current}
        onApply={(tpl) => setEdits(new Map(tpl.params.filter((p) => relevant(p.id) && (typeof p.value === 'number' || typeof p.value === 'string')).map((p) => [p.id, p.value as number | string])))} />
      <BatchSend relevant={relevant} current={current} />
    </Stack>
  );
}
