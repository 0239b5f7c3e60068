/**
 * The vehicle menu's terminal tools (issue 17): 位置查询 (0x8201 → 0x0201), 临时跟踪 (0x8202), 终端控制
 * (0x8105, asking before it is sent and twice for the commands that cut the terminal off) and 终端属性
 * (0x8107 → 0x0107). All on `POST command/terminalFun` (server/services/terminal-params/api.md), which
 * waits for the terminal's answer; offline is refused there with 终端不在线.
 */
import { Alert, Button, Group, NumberInput, Select, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import { paramsApi, type PositionView, type TerminalAttributesView } from '../terminal-params/api.ts';
import { formatTime } from '../track/format.ts';
import { TERMINAL_TOOLS_NS } from './terminal-tools-messages.ts';
import { CONTROL_COMMANDS, TRACKING_LIMITS } from './vehicle-commands.ts';

function useAnswer<A>(vehicleId: number, fun: 'position' | 'attributes') {
  // Asked once on opening (the dialog is the answer) and again on 查询; never cached or retried: each
  // ask is a command to the terminal.
  const q = useQuery({
    queryKey: ['terminalFun', fun, vehicleId],
    queryFn: () => paramsApi.terminalFun<A>({ vehicleId, fun }),
    retry: false, gcTime: 0, staleTime: 0, refetchOnWindowFocus: false,
  });
  return { answer: q.data?.answer, result: q.data?.result, error: q.error ? errorText(q.error) : undefined, busy: q.isFetching, run: () => void q.refetch() };
}

const rows = (pairs: [string, string][], testId: string) => (
  <Table data-testid={testId} withRowBorders={false}>
    <Table.Tbody>
      {pairs.map(([k, v]) => <Table.Tr key={k}><Table.Td c="dimmed" w={140}>{k}</Table.Td><Table.Td data-testid={`${testId}-${k}`}>{v}</Table.Td></Table.Tr>)}
    </Table.Tbody>
  </Table>
);

export function PositionPanel({ vehicleId }: { vehicleId: number }) {
  const t = useT(TERMINAL_TOOLS_NS);
  const a = useAnswer<PositionView | null>(vehicleId, 'position');
  const loc = a.answer?.location;
  return (
    <Stack gap="xs" data-testid="tool-position">
      {a.error && <Alert color="red" data-testid="tool-error">{a.error}</Alert>}
      {!a.busy && !a.error && !loc && <Alert color="orange" data-testid="tool-error">{t('position.none')}</Alert>}
      {loc && rows([
        [t('position.time'), Number.isFinite(loc.time) ? formatTime(loc.time) : '—'],
        [t('position.lnglat'), `${loc.lng.toFixed(6)}, ${loc.lat.toFixed(6)}`],
        [t('position.speed'), `${loc.speed} km/h`],
        [t('position.direction'), `${loc.direction}°`],
      ], 'position-answer')}
      <Group justify="end"><Button size="xs" loading={a.busy} onClick={a.run} data-testid="tool-position-again">{t('query')}</Button></Group>
    </Stack>
  );
}

export function AttributesPanel({ vehicleId }: { vehicleId: number }) {
  const t = useT(TERMINAL_TOOLS_NS);
  const a = useAnswer<TerminalAttributesView>(vehicleId, 'attributes');
  const x = a.answer;
  const bits = (v: number, names: string[]) => names.filter((_, i) => (v >> i) & 1).join(' / ') || '—';
  return (
    <Stack gap="xs" data-testid="tool-attributes">
      {a.error && <Alert color="red" data-testid="tool-error">{a.error}</Alert>}
      {x && typeof x === 'object' && 'model' in x && rows([
        [t('attributes.maker'), x.makerId], [t('attributes.model'), x.model], [t('attributes.terminalId'), x.terminalId], [t('attributes.iccid'), x.iccid],
        [t('attributes.hardware'), x.hardwareVersion], [t('attributes.firmware'), x.firmwareVersion],
        [t('attributes.gnss'), bits(x.gnss, ['GPS', 'BDS', 'GLONASS', 'Galileo'])],
        [t('attributes.comm'), bits(x.comm, ['GPRS', 'CDMA', 'TD-SCDMA', 'WCDMA', 'CDMA2000', 'TD-LTE', '', 'other'])],
      ], 'attributes-answer')}
      {a.busy && <Text size="sm" c="dimmed">…</Text>}
    </Stack>
  );
}

export function TrackingForm({ vehicleId }: { vehicleId: number }) {
  const t = useT(TERMINAL_TOOLS_NS);
  const [interval, setInterval] = useState<number | string>(10);
  const [duration, setDuration] = useState<number | string>(600);
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const L = TRACKING_LIMITS;
  const whole = (v: number | string, min: number, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

  const send = async (stop: boolean) => {
    if (!stop && !whole(interval, L.intervalMin, L.intervalMax)) return setMsg({ ok: false, text: t('tracking.bad', { name: t('tracking.interval'), min: L.intervalMin, max: L.intervalMax }) });
    if (!stop && !whole(duration, L.durationMin, L.durationMax)) return setMsg({ ok: false, text: t('tracking.bad', { name: t('tracking.duration'), min: L.durationMin, max: L.durationMax }) });
    setBusy(true);
    setMsg(null);
    try {
      // 0x8202 with interval 0 stops temporary tracking (JT/T 808 §8.22).
      const r = await paramsApi.terminalFun({ vehicleId, fun: 'tracking', interval: stop ? 0 : Number(interval), validity: stop ? 0 : Number(duration) });
      if (r.result !== 0) setMsg({ ok: false, text: t('refused', { result: r.result }) });
      else setMsg({ ok: true, text: stop ? t('tracking.stopped') : t('tracking.started', { interval, duration }) });
    } catch (e) {
      setMsg({ ok: false, text: errorText(e) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="xs" data-testid="tool-tracking">
      <Group grow>
        <NumberInput label={t('tracking.interval')} value={interval} onChange={setInterval} min={L.intervalMin} max={L.intervalMax} allowDecimal={false} data-testid="tracking-interval" />
        <NumberInput label={t('tracking.duration')} value={duration} onChange={setDuration} min={L.durationMin} max={L.durationMax} allowDecimal={false} data-testid="tracking-duration" />
      </Group>
      {msg && <Alert color={msg.ok ? 'green' : 'red'} data-testid="tool-result">{msg.text}</Alert>}
      <Group justify="end">
        <Button size="xs" variant="default" loading={busy} onClick={() => void send(true)} data-testid="tracking-stop">{t('tracking.stop')}</Button>
        <Button size="xs" loading={busy} onClick={() => void send(false)} data-testid="tracking-start">{t('tracking.start')}</Button>
      </Group>
    </Stack>
  );
}

export function ControlForm({ vehicleId, plate }: { vehicleId: number; plate: string }) {
  const t = useT(TERMINAL_TOOLS_NS);
  const [command, setCommand] = useState<number>(CONTROL_COMMANDS[0]!.command);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const def = CONTROL_COMMANDS.find((c) => c.command === command)!;
  const name = t(`control.${def.key}`);

  const send = async () => {
    setBusy(true);
    setMsg(null);
    try {
      const r = await paramsApi.terminalFun({ vehicleId, fun: 'control', command });
      setMsg(r.result === 0 ? { ok: true, text: t('ok') } : { ok: false, text: t('refused', { result: r.result }) });
    } catch (e) {
      setMsg({ ok: false, text: errorText(e) });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  return (
    <Stack gap="xs" data-testid="tool-control">
      <Select label={t('control.command')} value={String(command)} allowDeselect={false} onChange={(v) => { setCommand(Number(v)); setConfirming(false); setMsg(null); }}
        data={CONTROL_COMMANDS.map((c) => ({ value: String(c.command), label: t(`control.${c.key}`) }))} data-testid="control-command" />
      {confirming && (
        <Alert color={def.drastic ? 'red' : 'orange'} data-testid="control-confirm">
          <Text size="sm">{t('control.confirm', { plate, name })}</Text>
          {def.drastic && <Text size="sm" fw={600}>{t('control.drastic')}</Text>}
        </Alert>
      )}
      {msg && <Alert color={msg.ok ? 'green' : 'red'} data-testid="tool-result">{msg.text}</Alert>}
      <Group justify="end">
        {confirming
          ? <Button size="xs" color="red" loading={busy} onClick={() => void send()} data-testid="control-send">{t('send')}</Button>
          : <Button size="xs" onClick={() => setConfirming(true)} data-testid="control-ask">{t('send')}</Button>}
      </Group>
    </Stack>
  );
}
