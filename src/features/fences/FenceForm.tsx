/**
 * Create (from a shape just drawn) or edit a fence: name, the rule (进区域报警/出区域报警/禁入/禁出, speed
 * limit + duration, time window), remark and the bound vehicles. Checks come from fence-form.ts (the
 * contract's limits); a refused save shows the server's message under the field it names.
 */
import { useRef, useState } from 'react';
import { ActionIcon, Badge, Checkbox, Group, Input, NumberInput, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FENCE_LIMITS as L, type FenceGeometry } from '../../../domain/fence/types.ts';
import { useT } from '../../i18n/index.ts';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { VehicleSelect } from '../fleet-pickers/VehicleSelect.tsx';
import { fenceApi, type FenceDetail } from './api.ts';
import { initialValues, OVERSPEED_SECONDS_MAX, REMARK_MAX, toInput, validateFenceForm, type FenceFormValues } from './fence-form.ts';
import { geometryParts } from './geometry.ts';
import { FENCES_NS } from './messages.ts';
import { vehicleFromUrl } from '../fleet-pickers/url-vehicle.ts';

const RULE_FLAGS = ['alarmIn', 'alarmOut', 'forbidIn', 'forbidOut'] as const;
const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export function FenceForm({ fence, drawn, onClose, onSaved }: {
  /** The fence to edit (its detail, with the bound vehicles); undefined: a new fence. */
  fence: FenceDetail | undefined;
  /** The shape just drawn (a new fence). */
  drawn: FenceGeometry | null;
  onClose: () => void;
  onSaved: (fence: FenceDetail) => void;
}) {
  const t = useT(FENCES_NS);
  // Opened from the vehicle menu (电子围栏): a new fence starts bound to that vehicle.
  const fromMenu = fence ? null : vehicleFromUrl();
  const form = useForm<FenceFormValues>({
    initialValues: fence || !fromMenu ? initialValues(fence, drawn) : { ...initialValues(fence, drawn), vehicleIds: [fromMenu.id] },
    validate: (values) => Object.fromEntries(Object.entries(validateFenceForm(values)).map(([field, e]) => [field, e ? t(`err.${e.key}`, e.params ?? {}) : ''])),
  });
  const [plates, setPlates] = useState<Map<number, string>>(() => new Map(fence?.vehicles.map((v) => [v.vehicleId, v.vehiidno]) ?? (fromMenu ? [[fromMenu.id, fromMenu.plate]] : [])));
  const [pickerKey, setPickerKey] = useState(0);
  const result = useRef<FenceDetail | undefined>(undefined);
  const values = form.getValues();
  const geometry = values.geometry;
  const parts = geometry ? geometryParts(geometry) : null;

  const submit = async (v: FenceFormValues) => {
    const input = toInput(v);
    if (!fence) {
      result.current = await fenceApi.create({ ...input, vehicleIds: v.vehicleIds });
      return result.current;
    }
    result.current = await fenceApi.update({ ...input, id: fence.id });
    const before = fence.vehicles.map((x) => x.vehicleId);
    if (!sameIds(before, v.vehicleIds)) result.current = await fenceApi.bind(fence.id, v.vehicleIds);
    return result.current;
  };

  return (
    <FormDrawer
      title={fence ? t('editTitle', { name: fence.name }) : t('createTitle')}
      form={form}
      testId="fence-form"
      size="lg"
      onClose={onClose}
      onSaved={() => result.current && onSaved(result.current)}
      submit={submit}
    >
      <TextInput label={t('name')} required name="name" maxLength={L.nameMaxLength} data-testid="fence-name" {...form.getInputProps('name')} />
      <Input.Wrapper label={t('geometry')} error={form.errors['geometry']}>
        <Group gap="xs">
          {geometry && <Badge variant="light">{t(`shapes.${geometry.shape}`)}</Badge>}
          <Text size="sm" data-testid="fence-geometry">{parts ? t(`geometrySummary.${parts.key}`, parts.values) : ''}</Text>
        </Group>
      </Input.Wrapper>
      <Input.Wrapper label={t('rule')} error={form.errors['alarmIn']}>
        <Group gap="md" mt={4}>
          {RULE_FLAGS.map((k) => (
            <Checkbox key={k} label={t(`ruleLabels.${k}`)} data-testid={`fence-rule-${k}`} {...form.getInputProps(k, { type: 'checkbox' })} error={undefined} />
          ))}
        </Group>
      </Input.Wrapper>
      <SimpleGrid cols={2}>
        <NumberInput label={t('maxSpeed')} description={t('maxSpeedHint')} min={1} max={L.maxSpeedKmh} allowDecimal={false} allowNegative={false} data-testid="fence-max-speed" {...form.getInputProps('maxSpeed')} />
        <NumberInput label={t('overspeedSeconds')} min={0} max={OVERSPEED_SECONDS_MAX} allowDecimal={false} allowNegative={false} disabled={values.maxSpeed === ''} data-testid="fence-overspeed-seconds" {...form.getInputProps('overspeedSeconds')} />
        <TextInput label={t('startTime')} description={t('timeHint')} placeholder="08:00" maxLength={5} data-testid="fence-start-time" {...form.getInputProps('startTime')} />
        <TextInput label={t('endTime')} description=" " placeholder="18:00" maxLength={5} data-testid="fence-end-time" {...form.getInputProps('endTime')} />
      </SimpleGrid>
      <Textarea label={t('remark')} name="remark" autosize minRows={2} maxLength={REMARK_MAX} {...form.getInputProps('remark')} />
      <Input.Wrapper label={t('vehicles')} error={form.errors['vehicleIds']}>
        <Stack gap={6} mt={4}>
          <VehicleSelect
            key={pickerKey}
            placeholder={t('addVehiclePick')}
            value={null}
            testId="fence-add-vehicle"
            onChange={(id, option) => {
              if (id === null || values.vehicleIds.includes(id)) return;
              setPlates((m) => new Map(m).set(id, option?.plate ?? String(id)));
              form.setFieldValue('vehicleIds', [...values.vehicleIds, id]);
              setPickerKey((k) => k + 1);
            }}
          />
          {values.vehicleIds.length === 0 ? (
            <Text size="sm" c="dimmed">{t('noVehicles')}</Text>
          ) : (
            <Group gap={6} data-testid="fence-bound-vehicles">
              {values.vehicleIds.map((id) => (
                <Badge key={id} variant="outline" pr={3} rightSection={
                  <ActionIcon size="xs" variant="transparent" aria-label={t('removeVehicle')} onClick={() => form.setFieldValue('vehicleIds', values.vehicleIds.filter((x) => x !== id))}>×</ActionIcon>
                }>{plates.get(id) ?? id}</Badge>
              ))}
            </Group>
          )}
        </Stack>
      </Input.Wrapper>
    </FormDrawer>
  );
}
