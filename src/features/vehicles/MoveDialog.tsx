import { useEffect, useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { isApiError } from '../../api/http.ts';
import { useT } from '../../i18n/index.ts';
import { vehicleApi, type Vehicle } from './api.ts';
import { VEHICLE_NS } from './messages.ts';
import { MOVE_MAX } from './vehicle-form.ts';

/** 转移公司: the selected vehicles (≤ 500, checked before opening) to a company of the caller's scope. */
export function MoveDialog({ vehicles, onClose, onMoved }: { vehicles: Vehicle[]; onClose: () => void; onMoved: () => void }) {
  const t = useT(VEHICLE_NS);
  const [companies, setCompanies] = useState<{ value: string; label: string }[]>([]);
  const [target, setTarget] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    vehicleApi.companies()
      .then((list) => {
        const byId = new Map(list.map((c) => [c.id, c]));
        // The path of names, so two fleets of the same name in different branches are told apart.
        const label = (id: number): string => {
          const c = byId.get(id);
          if (!c) return '';
          const parent = byId.get(c.pid);
          return parent ? `${label(parent.id)} / ${c.name}` : c.name;
        };
        setCompanies(list.map((c) => ({ value: String(c.id), label: label(c.id) })));
      })
      .catch((e: unknown) => setError(isApiError(e) ? e.message : String(e)));
  }, []);

  const submit = async () => {
    if (!target) return;
    setBusy(true);
    setError(null);
    try {
      const r = await vehicleApi.move(vehicles.slice(0, MOVE_MAX).map((v) => v.id), Number(target));
      notifications.show({ color: 'green', message: t('moved', { n: r.moved }), autoClose: 2000 });
      onMoved();
    } catch (e) {
      setError(isApiError(e) ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={() => !busy && onClose()} title={t('moveTitle', { n: vehicles.length })} data-testid="vehicle-move">
      <Stack gap="sm">
        <Text size="sm" c="dimmed" lineClamp={3}>{vehicles.map((v) => v.vehiidno).join('、')}</Text>
        <Select label={t('moveTarget')} searchable data={companies} value={target} onChange={setTarget} data-testid="vehicle-move-target" />
        <Alert color="yellow" variant="light">{t('moveHint')}</Alert>
        {error && <Alert color="red">{error}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>{t('cancel')}</Button>
          <Button onClick={() => void submit()} loading={busy} disabled={!target} data-testid="vehicle-move-submit">{t('confirm')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
