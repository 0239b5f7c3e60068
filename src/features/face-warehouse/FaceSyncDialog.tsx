import { Alert, Badge, Button, Group, Modal, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { isApiError } from '../../api/http.ts';
import { useT } from '../../i18n/index.ts';
import { faceWarehouseApi, type FaceSyncAnswer } from './api.ts';
import { FACE_NS } from './messages.ts';

const CHANGE_KEY = { new: 'changeNew', updated: 'changeUpdated', unchanged: 'changeUnchanged' } as const;

/**
 * 同步人脸库 on /information/vehicle: sends the ticked vehicles (≤ 500, checked before opening) to
 * updateVehicleToFacewarehouse at once and shows the server's answer per vehicle: the drivers enrolled,
 * and what was skipped and why (no driver bound, a driver without a photo, a vehicle out of scope).
 */
export function FaceSyncDialog({ vehicles, onClose }: { vehicles: { id: number; vehiidno: string }[]; onClose: () => void }) {
  const t = useT(FACE_NS);
  const [answer, setAnswer] = useState<FaceSyncAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let gone = false;
    faceWarehouseApi.sync(vehicles.map((v) => v.id)).then(
      (a) => !gone && setAnswer(a),
      (e: unknown) => !gone && setError(isApiError(e) ? e.message : String(e)),
    );
    return () => {
      gone = true;
    };
  }, [vehicles]);

  const plates = new Map(vehicles.map((v) => [v.id, v.vehiidno]));
  return (
    <Modal opened onClose={onClose} title={t('syncTitle')} size="lg" data-testid="face-sync">
      <Stack gap="sm">
        {error && <Alert color="red">{error}</Alert>}
        {!answer && !error && <Text size="sm" c="dimmed">{t('syncHint', { max: 500 })}…</Text>}
        {answer && (
          <>
            <Alert color={answer.enrolled > 0 ? 'green' : 'gray'} variant="light" data-testid="face-sync-summary">
              {t('syncSummary', { enrolled: answer.enrolled, unchanged: answer.unchanged, skipped: answer.skipped })}
            </Alert>
            <ScrollArea.Autosize mah={360}>
              <Table striped withTableBorder data-testid="face-sync-table">
                <Table.Thead>
                  <Table.Tr><Table.Th>{t('plate')}</Table.Th><Table.Th>{t('result')}</Table.Th></Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {answer.vehicles.map((v) => (
                    <Table.Tr key={v.vehicleId} data-vehicle={v.vehicleId}>
                      <Table.Td>{v.vehiidno ?? plates.get(v.vehicleId) ?? t('unknownVehicle', { id: v.vehicleId })}</Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="wrap">
                          {v.enrolled.map((e) => (
                            <Badge key={`e${e.driverId}`} color={e.change === 'unchanged' ? 'gray' : 'green'} variant="light" size="sm" data-change={e.change}>
                              {t(CHANGE_KEY[e.change], { name: e.name })}
                            </Badge>
                          ))}
                          {v.skipped.map((s, i) => (
                            <Badge key={`s${i}`} color="orange" variant="light" size="sm" data-skip={s.reason}>
                              {s.name ? `${s.name}：${s.message}` : s.message}
                            </Badge>
                          ))}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-testid="face-sync-close">{t('close')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
