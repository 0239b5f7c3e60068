/**
 * ADAS / DSM parameters (苏标 0xF364 / 0xF365, issue 17): pick a vehicle, 查询 reads the block from its
 * live terminal (0x8106), the form shows every field, 设置 sends the block to that vehicle as a task
 * (0x8103) and shows its progress; templates and sending to up to 500 vehicles share the base screen's
 * parts (TemplatesPanel, BatchSend).
 */
import { Alert, Button, Group, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { checkBlock, blockFields, type ActiveSafetyBlock, type BlockLayout } from '../../../domain/terminal-params/active-safety.ts';
import { PermAny } from '../../app/Perm.tsx';
import { useLang, useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import { VehicleSelect } from '../fleet-pickers/VehicleSelect.tsx';
import { BASE_PARAM_ROUTE, paramsApi, type ParamInput } from './api.ts';
import { BatchSend } from './BatchSend.tsx';
import { BlockForm } from './BlockForm.tsx';
import { TERMINAL_PARAMS_NS } from './messages.ts';
import { TaskProgress } from './TaskProgress.tsx';
import { TemplatesPanel } from './TemplatesPanel.tsx';

const isBlock = (v: unknown): v is ActiveSafetyBlock => typeof v === 'object' && v !== null;

/** The block's own screen (`adas` → `/information/params/adasParam`), whose query / set / send bits open its buttons beside the base screen's. */
export const blockScreen = (layout: BlockLayout) => `/information/params/${layout.key}Param`;

export function ActiveSafetyPage({ layout }: { layout: BlockLayout }) {
  const screen = blockScreen(layout);
  const t = useT(TERMINAL_PARAMS_NS);
  const lang = useLang();
  const [vehicleId, setVehicleId] = useState<number | null>(null);
  const [block, setBlock] = useState<ActiveSafetyBlock | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [taskId, setTaskId] = useState<number | null>(null);
  const relevant = (id: number) => id === layout.id;

  /** The form as one parameter item, or why it cannot be sent (a field out of its range). */
  const current = (): ParamInput[] | string => {
    if (!block) return t('notRead');
    const bad = checkBlock(layout, block);
    if (bad) {
      const f = blockFields(layout).find((x) => x.key === bad.key);
      return t('outOfRange', { name: f ? (lang === 'zh' ? f.zh : f.en) : bad.key, min: bad.min, max: bad.max });
    }
    return [{ id: layout.id, value: block }];
  };

  const query = async () => {
    if (vehicleId === null) return setError(t('noVehicle'));
    setBusy(true);
    setError(null);
    try {
      const r = await paramsApi.query(vehicleId, [layout.id]);
      const item = r.answer.params.find((p) => p.id === layout.id);
      if (!item || !isBlock(item.value)) {
        setBlock(null);
        setError(t('blockMissing'));
      } else setBlock(item.value);
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
      setTaskId((await paramsApi.createTask([vehicleId], params)).id);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack p="md" gap="sm">
      <Title order={4}>{t(`${layout.key}Title`)}</Title>
      <Group align="end">
        <VehicleSelect label={t('vehicle')} placeholder={t('vehiclePick')} value={vehicleId} onChange={(id) => { setVehicleId(id); setBlock(null); setTaskId(null); }} testId="params-vehicle" w={260} />
        {/* The server's any-of policies (server/services/terminal-params/api.md): the base screen's bit or this screen's own. */}
        <PermAny of={[[BASE_PARAM_ROUTE, 'query'], [screen, 'query']]}><Button onClick={() => void query()} loading={busy} data-testid="params-query">{t('query')}</Button></PermAny>
        <PermAny of={[[BASE_PARAM_ROUTE, 'set'], [screen, 'set'], [screen, 'send']]}><Button onClick={() => void send()} disabled={block === null} loading={busy} data-testid="params-set">{t('set')}</Button></PermAny>
      </Group>
      {error && <Alert color="red" data-testid="params-error">{error}</Alert>}
      {block && <BlockForm layout={layout} value={block} onChange={setBlock} />}
      {taskId !== null && <TaskProgress taskId={taskId} />}
      <TemplatesPanel relevant={relevant} current={current} onApply={(tpl) => { const item = tpl.params.find((p) => p.id === layout.id); if (item && isBlock(item.value)) setBlock(item.value); }} />
      <BatchSend relevant={relevant} current={current} screen={screen} />
    </Stack>
  );
}
