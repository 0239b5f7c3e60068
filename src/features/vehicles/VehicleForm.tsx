import { useEffect, useState } from 'react';
import { Button, Group, MultiSelect, NumberInput, Select, SimpleGrid, Textarea, TextInput, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Perm } from '../../app/Perm.tsx';
import { useForm } from '@mantine/form';
import { DEVICE_LIMITS, PLATE_COLOR_NAMES, PLATE_COLORS, VEHICLE_LIMITS as L, VEHICLE_TYPE_NAMES, VEHICLE_TYPES, type PlateColor, type VehicleType } from '../../../domain/fleet/limits.ts';
import { DictKinds } from '../../../domain/system-config/dictionary.ts';
import { useDictOptions } from './dict-options.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { DateTimeField } from '../../kit/period-picker/index.ts';
import { DeviceSelect } from '../fleet-pickers/DeviceSelect.tsx';
import { vehicleApi, type Vehicle } from './api.ts';
import { VEHICLE_NS } from './messages.ts';
import { CHANNEL_NAME_MAX, initialValues, toInput, validateVehicleForm, vinFormProblem, type VehicleFormValues } from './vehicle-form.ts';

/** Create (vehicle undefined) or edit a vehicle with every field, in the kit's form drawer. */
export function VehicleForm({ vehicle, companyId, onClose, onSaved }: { vehicle: Vehicle | undefined; companyId?: number; onClose: () => void; onSaved: () => void }) {
  const t = useT(VEHICLE_NS);
  const lang = useLang();
  const word = (names: readonly [string, string]) => names[lang === 'zh' ? 0 : 1];
  // Issue 19: the code lists read the data dictionary (labels, order, enabled), the record's own code kept.
  const plateColors = useDictOptions(DictKinds.plateColor, PLATE_COLORS, (c) => (PLATE_COLOR_NAMES[Number(c) as PlateColor] ? word(PLATE_COLOR_NAMES[Number(c) as PlateColor]) : c), lang,
    vehicle ? String(vehicle.plateColor) : undefined);
  const vehicleTypes = useDictOptions(DictKinds.vehicleType, VEHICLE_TYPES, (c) => (VEHICLE_TYPE_NAMES[c as VehicleType] ? word(VEHICLE_TYPE_NAMES[c as VehicleType]) : c), lang,
    vehicle?.vehicleType || undefined);
  const form = useForm<VehicleFormValues>({
    initialValues: initialValues(vehicle),
    validate: (values) => Object.fromEntries(Object.entries(validateVehicleForm(values)).map(([field, e]) => [field, e!.params ? t(e!.key, e!.params) : t(e!.key)])),
  });
  const values = form.getValues();
  // The VIN is checked as it is typed (the same domain rule as the server), once 17 characters are in or the field is left.
  const [syncing, setSyncing] = useState(false);
  const [vinTouched, setVinTouched] = useState(false);
  const vinProblem = vinTouched || values.vin.length >= L.vinLength ? vinFormProblem(values.vin) : undefined;
  const [lines, setLines] = useState<{ id: number; name: string }[]>(vehicle?.lineId ? [{ id: vehicle.lineId, name: vehicle.lineName ?? '' }] : []);
  const lineCompany = vehicle?.companyId ?? companyId;
  useEffect(() => {
    let stale = false;
    vehicleApi.lines(lineCompany)
      .then((page) => {
        if (!stale) setLines((old) => [...old.filter((o) => !page.records.some((r) => r.id === o.id)), ...page.records.map((r) => ({ id: r.id, name: r.name }))]);
      })
      .catch(() => undefined);
    return () => {
      stale = true;
    };
  }, [lineCompany]);
  const [driverOptions, setDriverOptions] = useState<{ id: number; name: string }[]>(vehicle?.drivers ?? []);
  const [driverQuery, setDriverQuery] = useState('');
  useEffect(() => {
    const q = driverQuery.trim();
    if (!q) return;
    let stale = false;
    vehicleApi.drivers(q)
      .then((page) => {
        if (!stale) setDriverOptions((old) => [...old.filter((o) => form.getValues().driverIds.includes(o.id) && !page.records.some((r) => r.id === o.id)), ...page.records.map((r) => ({ id: r.id, name: r.name }))]);
      })
      .catch(() => undefined);
    return () => {
      stale = true;
    };
  }, [driverQuery, form]);

  return (
    <FormDrawer
      title={vehicle ? t('editTitle', { name: vehicle.vehiidno }) : t('createTitle')}
      form={form}
      testId="vehicle-form"
      size="lg"
      onClose={onClose}
      onSaved={onSaved}
      submit={(v) => (vehicle ? vehicleApi.update({ ...toInput(v), id: vehicle.id }) : vehicleApi.create(toInput(v)))}
    >
      <SimpleGrid cols={2} spacing="sm">
        <TextInput label={t('plate')} required name="vehiidno" maxLength={L.plateMax} {...form.getInputProps('vehiidno')} />
        <Select
          label={t('plateColor')}
          name="plateColor"
          allowDeselect={false}
          data={plateColors}
          value={String(values.plateColor)}
          onChange={(v) => v && form.setFieldValue('plateColor', Number(v))}
        />
      </SimpleGrid>
      {vehicle?.deviceNo && (
        <Perm route="/information/vehicle" button="update">
          <Group justify="flex-end" mt={-6}>
            <Tooltip label={t('syncToCabHint')} multiline w={260}>
              <Button
                size="compact-xs"
                variant="subtle"
                loading={syncing}
                data-testid="vehicle-sync-cab"
                onClick={() => {
                  setSyncing(true);
                  vehicleApi.syncToCab(vehicle.id)
                    .then((r) => notifications.show({ color: 'green', message: t('syncedToCab', { plate: r.vehiidno }) }))
                    .catch(() => undefined)
                    .finally(() => setSyncing(false));
                }}
              >
                {t('syncToCab')}
              </Button>
            </Tooltip>
          </Group>
        </Perm>
      )}
      <TextInput
        label={t('vin')}
        required
        name="vin"
        maxLength={L.vinLength}
        {...form.getInputProps('vin')}
        onChange={(e) => form.setFieldValue('vin', e.currentTarget.value.toUpperCase())}
        onBlur={() => setVinTouched(true)}
        error={form.errors.vin ?? (vinProblem ? t(vinProblem.key) : undefined)}
        styles={{ input: { fontFamily: 'monospace', letterSpacing: 1 } }}
      />
      <SimpleGrid cols={2} spacing="sm">
        <Select
          label={t('vehicleType')}
          name="vehicleType"
          clearable
          data={vehicleTypes}
          value={values.vehicleType || null}
          onChange={(v) => form.setFieldValue('vehicleType', v ?? '')}
        />
        <Select
          label={t('status')}
          name="status"
          allowDeselect={false}
          data={[{ value: '1', label: t('inService') }, { value: '0', label: t('retired') }]}
          value={String(values.status)}
          onChange={(v) => v && form.setFieldValue('status', Number(v))}
        />
        <Select
          label={t('line')}
          name="lineId"
          clearable
          searchable
          data={lines.map((l) => ({ value: String(l.id), label: l.name }))}
          value={values.lineId === null ? null : String(values.lineId)}
          onChange={(v) => form.setFieldValue('lineId', v === null ? null : Number(v))}
          error={form.errors.lineId}
        />
        <div />
        <DateTimeField mode="date" label={t('insuranceExpire')} value={values.insuranceExpire} onChange={(v) => form.setFieldValue('insuranceExpire', v)} />
        <DateTimeField mode="date" label={t('inspectionExpire')} value={values.inspectionExpire} onChange={(v) => form.setFieldValue('inspectionExpire', v)} />
      </SimpleGrid>
      <DeviceSelect
        label={t('deviceNo')}
        placeholder={t('devicePlaceholder')}
        value={values.deviceNo}
        unboundOnly
        clearable
        // The caller's whole scope: a head office's stock goes onto its branches' vehicles (the server refuses a sibling branch's device under this field).
        error={form.errors.deviceNo as string | undefined}
        initialOption={vehicle?.deviceNo ? { id: 0, deviceNo: vehicle.deviceNo, companyId: vehicle.companyId, companyName: vehicle.companyName, model: '', channelCount: 0, vehicleId: vehicle.id, plate: vehicle.vehiidno } : undefined}
        onChange={(no, option) => {
          form.setFieldValue('deviceNo', no);
          // A device with known channels fills the count when none was entered.
          if (option && option.channelCount > 0 && form.getValues().channelCount === 0) form.setFieldValue('channelCount', option.channelCount);
        }}
        testId="vehicle-form-device"
      />
      <Group align="flex-end" gap="sm">
        <NumberInput
          label={t('channelCount')}
          name="channelCount"
          min={0}
          max={DEVICE_LIMITS.channelCountMax}
          w={120}
          value={values.channelCount}
          onChange={(v) => form.setFieldValue('channelCount', Math.max(0, Math.min(DEVICE_LIMITS.channelCountMax, Number(v) || 0)))}
        />
      </Group>
      {values.channelCount > 0 && (
        <SimpleGrid cols={3} spacing="xs">
          {Array.from({ length: values.channelCount }, (_, i) => (
            <TextInput
              key={i}
              size="xs"
              label={t('channelName', { n: i + 1 })}
              maxLength={CHANNEL_NAME_MAX}
              value={values.channelNames[i] ?? ''}
              error={form.errors[`channelNames.${i}`]}
              onChange={(e) => {
                const names = [...form.getValues().channelNames];
                names[i] = e.currentTarget.value;
                form.setFieldValue('channelNames', names);
              }}
            />
          ))}
        </SimpleGrid>
      )}
      <MultiSelect
        label={t('drivers')}
        placeholder={t('driverSearch')}
        searchable
        clearable
        data={driverOptions.map((d) => ({ value: String(d.id), label: d.name }))}
        value={values.driverIds.map(String)}
        onChange={(ids) => form.setFieldValue('driverIds', ids.map(Number))}
        onSearchChange={setDriverQuery}
        filter={({ options }) => options}
        error={form.errors.driverIds}
      />
      <Textarea label={t('remark')} name="remark" autosize minRows={2} maxLength={L.remarkMax} {...form.getInputProps('remark')} />
    </FormDrawer>
  );
}
