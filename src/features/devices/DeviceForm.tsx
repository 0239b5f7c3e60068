import { NumberInput, Select, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { DEVICE_EDITIONS, DEVICE_LIMITS as L, type DeviceEdition } from '../../../domain/fleet/limits.ts';
import { useT } from '../../i18n/index.ts';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { DateTimeField } from '../../kit/period-picker/DateTimeField.tsx';
import { deviceTypeApi } from '../device-types/api.ts';
import { deviceApi, type Device } from './api.ts';
import { EDITION_LABEL, initialValues, toInput, validateDeviceForm, type DeviceFormValues } from './device-form.ts';
import { DEVICE_NS } from './messages.ts';

/** The device types the caller sees (the form's and the filter's options). */
export function useDeviceTypes() {
  return useQuery({ queryKey: ['/information/device', 'device-types'], queryFn: () => deviceTypeApi.page({ current: 1, size: 500 }), staleTime: 60_000 });
}

/**
 * Create (device undefined; `prefill` from a refused registration) or edit a device, in the kit's form
 * drawer. A new device belongs to the company picked in the tree (the client adds it).
 */
export function DeviceForm({ device, prefill, onClose, onSaved }: {
  device: Device | undefined;
  prefill?: Partial<DeviceFormValues>;
  onClose: () => void;
  onSaved: () => void;
}) {
  const t = useT(DEVICE_NS);
  const types = useDeviceTypes();
  const form = useForm<DeviceFormValues>({
    initialValues: initialValues(device, prefill),
    validate: (values) => Object.fromEntries(Object.entries(validateDeviceForm(values)).map(([field, e]) => [field, e.params ? t(e.key, e.params) : t(e.key)])),
  });
  const v = form.getValues();

  return (
    <FormDrawer
      title={device ? t('editTitle', { no: device.deviceNo }) : t('createTitle')}
      form={form}
      testId="device-form"
      size="lg"
      onClose={onClose}
      onSaved={onSaved}
      submit={(values) => (device ? deviceApi.update({ ...toInput(values), id: device.id }) : deviceApi.create(toInput(values)))}
    >
      <SimpleGrid cols={2} spacing="sm">
        <TextInput label={t('deviceNo')} required name="deviceNo" maxLength={L.deviceNoLength} placeholder={t('deviceNoPlaceholder')} {...form.getInputProps('deviceNo')} />
        <TextInput label={t('terminalId')} name="terminalId" maxLength={L.terminalIdMax} {...form.getInputProps('terminalId')} />
        <TextInput label={t('model')} name="model" maxLength={L.modelMax} {...form.getInputProps('model')} />
        <TextInput label={t('maker')} name="maker" maxLength={L.makerMax} {...form.getInputProps('maker')} />
        <Select
          label={t('deviceType')}
          name="deviceTypeId"
          clearable
          searchable
          data={(types.data?.records ?? []).map((d) => ({ value: String(d.id), label: d.devTypeName }))}
          value={v.deviceTypeId || null}
          error={form.errors.deviceTypeId}
          onChange={(id) => {
            form.setFieldValue('deviceTypeId', id ?? '');
            // A type names the edition its terminals speak.
            const type = types.data?.records.find((d) => String(d.id) === id);
            if (type) form.setFieldValue('protocol', type.protocol as DeviceEdition);
          }}
          data-testid="device-form-type"
        />
        <Select
          label={t('protocol')}
          required
          name="protocol"
          allowDeselect={false}
          data={DEVICE_EDITIONS.map((e) => ({ value: String(e), label: EDITION_LABEL[e] }))}
          value={String(v.protocol)}
          onChange={(e) => e && form.setFieldValue('protocol', Number(e) as DeviceEdition)}
          error={form.errors.protocol}
        />
        <NumberInput label={t('channelCount')} name="channelCount" min={0} max={L.channelCountMax} allowDecimal={false} {...form.getInputProps('channelCount')} />
        <TextInput label={t('simIccid')} name="simIccid" maxLength={L.iccidMax} {...form.getInputProps('simIccid')} />
        <DateTimeField mode="date" label={t('installDate')} value={v.installDate} onChange={(d) => form.setFieldValue('installDate', d)} error={form.errors.installDate} data-testid="device-form-install-date" />
      </SimpleGrid>
      <Textarea label={t('remark')} name="remark" autosize minRows={2} maxLength={L.remarkMax} {...form.getInputProps('remark')} />
    </FormDrawer>
  );
}
