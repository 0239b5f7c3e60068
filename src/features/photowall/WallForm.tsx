/**
 * The photo wall's create / edit drawer (kit FormDrawer): name, vehicles (searched with the fleet
 * picker, added to a list), channels (none: each vehicle's own cameras), refresh interval, remark.
 * Limits mirror the server's schema (server/services/photowall/index.ts); the server checks them again
 * and names the field it refuses (a vehicle outside the user's scope → `vehicleIds`).
 */
import { ActionIcon, Badge, Group, MultiSelect, NumberInput, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useT } from '../../i18n/index.ts';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { VehicleSelect, type VehicleOption } from '../fleet-pickers/VehicleSelect.tsx';
import { photoWallApi, WALL_LIMITS as L, type PhotoWall } from './api.ts';
import { PHOTOWALL_NS } from './messages.ts';

type Values = { name: string; vehicleIds: VehicleOption[]; channels: string[]; refreshSeconds: number | string; remark: string };

export function WallForm({ wall, onClose, onSaved }: { wall: PhotoWall | null; onClose: () => void; onSaved: (w: PhotoWall) => void }) {
  const t = useT(PHOTOWALL_NS);
  const [picker, setPicker] = useState(0);
  const saved = useRef<PhotoWall | null>(null);
  // An edit starts from the wall's vehicles as this user sees them.
  const existing = useQuery({ queryKey: ['photowall', 'form-vehicles', wall?.id], queryFn: () => photoWallApi.vehicles(wall!.id), enabled: wall !== null });
  const form = useForm<Values>({
    initialValues: {
      name: wall?.name ?? '', vehicleIds: [], channels: (wall?.channels ?? []).map(String),
      refreshSeconds: wall?.refreshSeconds ?? L.refreshDefault, remark: wall?.remark ?? '',
    },
    validate: {
      name: (v) => (!v.trim() ? t('form.nameRequired') : v.trim().length > L.nameMax ? t('form.nameTooLong', { n: L.nameMax }) : null),
      vehicleIds: (v) => (v.length === 0 ? t('form.vehiclesRequired') : v.length > L.vehiclesMax ? t('form.vehiclesTooMany', { n: L.vehiclesMax }) : null),
      refreshSeconds: (v) => {
        const n = Number(v);
        return Number.isInteger(n) && n >= L.refreshMin && n <= L.refreshMax ? null : t('form.refreshRange', { min: L.refreshMin, max: L.refreshMax });
      },
    },
  });
  const [loaded, setLoaded] = useState(false);
  if (wall && existing.data && !loaded) {
    setLoaded(true);
    form.setFieldValue('vehicleIds', existing.data.records.map((v) => ({ id: v.id, plate: v.vehiidno, companyName: v.companyName })));
  }
  const values = form.values;
  const input = (v: Values) => ({
    name: v.name.trim(), vehicleIds: v.vehicleIds.map((x) => x.id), channels: v.channels.map(Number), refreshSeconds: Number(v.refreshSeconds), remark: v.remark.trim(),
  });
  return (
    <FormDrawer<Values>
      title={wall ? t('form.editTitle') : t('form.createTitle')}
      form={form}
      testId="photowall-form"
      onClose={onClose}
      onSaved={() => onSaved(saved.current!)}
      submit={async (v) => {
        saved.current = wall ? await photoWallApi.update(wall.id, input(v)) : await photoWallApi.create(input(v));
      }}
    >
      <Stack gap="sm">
        <TextInput label={t('form.name')} withAsterisk maxLength={L.nameMax} data-testid="photowall-name" {...form.getInputProps('name')} />
        <div>
          <VehicleSelect
            key={picker}
            label={t('form.vehicles')}
            placeholder={t('form.vehiclePick')}
            value={null}
            testId="photowall-vehicle-pick"
            error={form.errors.vehicleIds as string | undefined}
            onChange={(_id, option) => {
              if (option && !values.vehicleIds.some((x) => x.id === option.id)) form.setFieldValue('vehicleIds', [...values.vehicleIds, option]);
              // A fresh picker: the next search starts empty.
              setPicker((n) => n + 1);
            }}
          />
          <Group gap={6} mt={6} data-testid="photowall-vehicles">
            {values.vehicleIds.map((v) => (
              <Badge key={v.id} variant="light" size="lg" rightSection={(
                <ActionIcon size="xs" variant="transparent" aria-label={`${t('form.remove')} ${v.plate}`}
                  onClick={() => form.setFieldValue('vehicleIds', values.vehicleIds.filter((x) => x.id !== v.id))}>×</ActionIcon>
              )}>{v.plate}</Badge>
            ))}
          </Group>
        </div>
        <MultiSelect
          label={t('form.channels')}
          description={t('form.channelsHint')}
          data={Array.from({ length: 8 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }))}
          clearable
          data-testid="photowall-channels"
          {...form.getInputProps('channels')}
        />
        <NumberInput label={t('form.refreshSeconds')} min={L.refreshMin} max={L.refreshMax} allowDecimal={false} data-testid="photowall-refresh" {...form.getInputProps('refreshSeconds')} />
        <Textarea label={t('form.remark')} maxLength={L.remarkMax} autosize minRows={2} {...form.getInputProps('remark')} />
        {wall && existing.data && existing.data.hidden > 0 && <Text size="xs" c="dimmed">{t('hidden', { n: existing.data.hidden })}</Text>}
      </Stack>
    </FormDrawer>
  );
}
