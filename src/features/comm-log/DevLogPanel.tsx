/**
 * 上传终端日志 (issue 17, devlogcommand): asks the chosen vehicle's terminal for its own log (0x8900
 * type 0xF1, answered by 0x0900 within 10 s) and shows it; earlier requests of the vehicle are listed
 * and can be opened again.
 */
import { Alert, Button, Code, Group, Modal, NumberInput, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import { commLogApi, type DevLogRecord } from './api.ts';
import { COMM_LOG_NS } from './messages.ts';
import { fmtTime } from './time.ts';

export function DevLogPanel({ vehicleId }: { vehicleId: number | null }) {
  const t = useT(COMM_LOG_NS);
  const [opened, setOpened] = useState(false);
  const [lines, setLines] = useState(200);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<DevLogRecord | null>(null);
  const records = useQuery({ queryKey: ['/monitor/deviceLog', 'devlog', vehicleId], queryFn: () => commLogApi.searchDevLog(vehicleId!), enabled: opened && vehicleId !== null });

  const ask = async () => {
    if (vehicleId === null) return setError(t('noVehicle'));
    setBusy(true);
    setError(null);
    try {
      setShown(await commLogApi.uploadDevLog(vehicleId, lines));
      void records.refetch();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="light" onClick={() => setOpened(true)} disabled={vehicleId === null} data-testid="commlog-devlog">{t('uploadLog')}</Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('uploadLog')} size="xl">
        <Stack gap="sm">
          <Group align="end">
            <NumberInput label={t('lines')} min={1} max={1000} allowDecimal={false} value={lines} onChange={(v) => typeof v === 'number' && setLines(v)} w={120} />
            <Button onClick={() => void ask()} loading={busy} data-testid="devlog-ask">{t('ask')}</Button>
            {busy && <Text size="sm" c="dimmed">{t('asking')}</Text>}
          </Group>
          {error && <Alert color="red" data-testid="devlog-error">{error}</Alert>}
          {shown && (
            <Stack gap={4}>
              <Text fw={600}>{t('logTitle')} · {fmtTime(shown.sendTime)} · {t(`state.${shown.state}`)}</Text>
              <ScrollArea.Autosize mah={300}><Code block data-testid="devlog-text">{shown.log ?? ''}</Code></ScrollArea.Autosize>
            </Stack>
          )}
          <Text fw={600} size="sm">{t('records')}</Text>
          <Table withTableBorder striped>
            <Table.Thead><Table.Tr><Table.Th>{t('sendTime')}</Table.Th><Table.Th>{t('user')}</Table.Th><Table.Th>{t('lines')}</Table.Th><Table.Th>{t('direction')}</Table.Th><Table.Th /></Table.Tr></Table.Thead>
            <Table.Tbody>
              {(records.data?.records ?? []).map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>{fmtTime(r.sendTime)}</Table.Td>
                  <Table.Td>{r.userName}</Table.Td>
                  <Table.Td>{r.answerLines ?? '—'} / {r.lines}</Table.Td>
                  <Table.Td>{t(`state.${r.state}`)}</Table.Td>
                  <Table.Td><Button size="compact-xs" variant="subtle" onClick={() => void commLogApi.devLogResult(r.id).then(setShown, (e: unknown) => setError(errorText(e)))}>{t('view')}</Button></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      </Modal>
    </>
  );
}
