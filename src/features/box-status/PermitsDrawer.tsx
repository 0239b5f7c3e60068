import { useState } from 'react';
import { Alert, Badge, Button, Drawer, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { DateTimeField } from '../../kit/period-picker/DateTimeField.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { VehicleSelect } from '../fleet-pickers/VehicleSelect.tsx';
import { boxApi, BOX_ROUTE } from './api.ts';
import { BOX_NS } from './messages.ts';

/** Start of a China day (GMT+8) as epoch ms: permits run over whole days (domain/box/permit.ts). */
const chinaDayMs = (day: string) => Date.parse(`${day}T00:00:00+08:00`);
const DAY_MS = 86_400_000;
/** The China date of an instant, YYYY-MM-DD. */
const chinaDay = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);

/**
 * The transport permits (准运证) of the selected company's slag trucks: number, vehicle, validity in
 * whole China days, the disposal site and route it names. A loaded truck moving without a permit valid
 * then raises 70006 (where the company keeps permits here). Adding and deleting need the :site button
 * (the same people keep sites and permits); everyone with the screen reads them.
 */
export function PermitsDrawer({ onClose }: { onClose: () => void }) {
  const t = useT(BOX_NS);
  const { companyId } = useCompanySelection();
  const client = useQueryClient();
  const key = [BOX_ROUTE, 'permits', companyId];
  const permits = useQuery({ queryKey: key, queryFn: () => boxApi.permits() });
  const sites = useQuery({ queryKey: [BOX_ROUTE, 'sites', companyId], queryFn: () => boxApi.sites() });
  const [form, setForm] = useState({ vehicleId: null as number | null, permitNo: '', from: '', to: '', siteId: null as string | null, route: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: key });
  const save = async () => {
    setProblem(null);
    if (form.vehicleId === null) return setProblem(t('permitNeedVehicle'));
    try {
      await boxApi.savePermit({
        vehicleId: form.vehicleId, permitNo: form.permitNo, validFrom: chinaDayMs(form.from),
        // The last valid day is included: the permit ends at the midnight after it.
        validTo: chinaDayMs(form.to) + DAY_MS, siteId: form.siteId === null ? null : Number(form.siteId), route: form.route,
      });
      setForm({ ...form, permitNo: '' });
      await refresh();
    } catch (err) {
      setProblem((err as { msg?: string }).msg ?? String(err));
    }
  };
  return (
    <Drawer opened onClose={onClose} position="right" size="lg" title={t('permitsTitle')}>
      <Stack gap="sm" data-testid="box-permits">
        <Text size="sm" c="dimmed">{t('permitsHint')}</Text>
        {permits.error && <Alert color="red">{(permits.error as { msg?: string }).msg ?? String(permits.error)}</Alert>}
        {permits.data?.records.length === 0 && <Text size="sm">{t('noPermits')}</Text>}
        {permits.data?.records.map((p) => (
          <Group key={p.id} justify="space-between" wrap="nowrap" data-testid="box-permit-row">
            <Stack gap={0}>
              <Group gap="xs">
                <Text size="sm" fw={500}>{p.permitNo}</Text>
                <Text size="sm">{p.vehiidno}</Text>
                <Badge size="xs" color={p.valid ? 'teal' : 'gray'}>{t(p.valid ? 'permitValid' : 'permitInvalid')}</Badge>
              </Group>
              <Text size="xs" c="dimmed">
                {chinaDay(p.validFrom)} ~ {chinaDay(p.validTo - DAY_MS)}{p.siteName ? ` · ${p.siteName}` : ''}{p.route ? ` · ${p.route}` : ''}
              </Text>
            </Stack>
            <Perm route={BOX_ROUTE} button="site">
              <Button size="compact-xs" color="red" variant="light" onClick={() => void boxApi.deletePermit(p.id).then(refresh)}>{t('delete')}</Button>
            </Perm>
          </Group>
        ))}
        <Perm route={BOX_ROUTE} button="site">
          <Stack gap="xs">
            <Group grow>
              <VehicleSelect label={t('plate')} value={form.vehicleId} onChange={(id) => setForm({ ...form, vehicleId: id })} testId="box-permit-vehicle" />
              <TextInput size="sm" label={t('permitNo')} data-testid="box-permit-no" value={form.permitNo} maxLength={30} onChange={(e) => setForm({ ...form, permitNo: e.currentTarget.value })} />
            </Group>
            <Group grow>
              <DateTimeField mode="date" label={t('validFrom')} value={form.from} onChange={(v) => setForm({ ...form, from: v })} data-testid="box-permit-from" />
              <DateTimeField mode="date" label={t('validTo')} value={form.to} onChange={(v) => setForm({ ...form, to: v })} data-testid="box-permit-to" />
            </Group>
            <Select size="sm" clearable label={t('permitSite')} value={form.siteId} onChange={(v) => setForm({ ...form, siteId: v })}
              data={(sites.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))} />
            <TextInput size="sm" label={t('permitRoute')} value={form.route} maxLength={200} onChange={(e) => setForm({ ...form, route: e.currentTarget.value })} />
            {problem && <Alert color="red" data-testid="box-permit-error">{problem}</Alert>}
            <Button size="sm" data-testid="box-permit-add" onClick={() => void save()} disabled={!form.permitNo.trim() || !form.from || !form.to}>{t('addPermit')}</Button>
          </Stack>
        </Perm>
      </Stack>
    </Drawer>
  );
}
