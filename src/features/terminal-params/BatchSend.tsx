/**
 * 批量下发: the screen's parameters (the form's values, or one template's items for this screen) to up
 * to 500 vehicles as one task (`POST params/task`); online terminals are sent at once, offline ones
 * stay queued until they come back. The task's per-vehicle progress follows below (TaskProgress).
 */
import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PermAny } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import type { VehicleOption } from '../fleet-pickers/VehicleSelect.tsx';
import { VehiclesPicker } from '../fleet-pickers/VehiclesPicker.tsx';
import { BASE_PARAM_ROUTE, paramsApi, TASK_VEHICLES_MAX, templatesApi, type ParamInput } from './api.ts';
import { TERMINAL_PARAMS_NS } from './messages.ts';
import { TaskProgress } from './TaskProgress.tsx';
import { TEMPLATES_KEY } from './TemplatesPanel.tsx';

const FORM = 'form';

export function BatchSend({ relevant, current, screen }: {
  relevant(id: number): boolean;
  /** A block screen (adasParam, dsmParam) whose own `send` bit (批量下发) opens the button beside the base screen's `set`. */
  screen?: string;
  /** The form's values, or a message why there are none. */
  current(): ParamInput[] | string;
}) {
  const t = useT(TERMINAL_PARAMS_NS);
  const [vehicles, setVehicles] = useState<VehicleOption[]>([]);
  const [source, setSource] = useState<string>(FORM);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [taskId, setTaskId] = useState<number | null>(null);
  const list = useQuery({ queryKey: TEMPLATES_KEY, queryFn: templatesApi.list });
  const templates = (list.data?.records ?? []).filter((tpl) => tpl.params.some((p) => relevant(p.id)));

  const send = async () => {
    if (vehicles.length === 0) return setError(t('noVehicles'));
    const tpl = templates.find((x) => String(x.id) === source);
    const params = tpl ? tpl.params.filter((p) => relevant(p.id)).map(({ id, value }) => ({ id, value })) : current();
    if (typeof params === 'string') return setError(params);
    if (params.length === 0) return setError(t('noParams'));
    setBusy(true);
    setError(null);
    try {
      const task = await paramsApi.createTask(vehicles.map((v) => v.id), params);
      setTaskId(task.id);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap={6} data-testid="params-batch">
      <Text fw={600}>{t('batch')}</Text>
      <VehiclesPicker value={vehicles} onChange={setVehicles} max={TASK_VEHICLES_MAX} needsDevice testId="batch-vehicles" />
      <Group align="end" gap="xs">
        <Select size="xs" w={260} label={t('batchSource')} value={source} onChange={(v) => setSource(v ?? FORM)} allowDeselect={false}
          data={[{ value: FORM, label: t('sourceForm') }, ...templates.map((tpl) => ({ value: String(tpl.id), label: t('sourceTemplate', { name: tpl.name }) }))]} data-testid="batch-source" />
        <PermAny of={screen ? [[BASE_PARAM_ROUTE, 'set'], [screen, 'send']] : [[BASE_PARAM_ROUTE, 'set']]}>
          <Button size="xs" loading={busy} disabled={vehicles.length === 0} onClick={() => void send()} data-testid="batch-send">{t('batchSend', { n: vehicles.length })}</Button>
        </PermAny>
      </Group>
      {error && <Alert color="red" p={6} data-testid="batch-error">{error}</Alert>}
      {taskId !== null && <TaskProgress taskId={taskId} testId="batch-task" />}
    </Stack>
  );
}
