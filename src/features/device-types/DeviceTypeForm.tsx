import { Select, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DEVICE_PROTOCOLS, DEVICE_TYPE_LIMITS as L } from '../../../domain/device-type/limits.ts';
import { useT } from '../../i18n/index.ts';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { deviceTypeApi, type DeviceType } from './api.ts';
import { initialValues, PROTOCOL_LABEL, toInput, validateDeviceTypeForm, type DeviceTypeFormValues } from './device-type-form.ts';
import { DEVICE_TYPE_NS } from './messages.ts';

/** Create (deviceType undefined) or edit a device type, in the kit's form drawer. */
export function DeviceTypeForm({ deviceType, onClose, onSaved }: { deviceType: DeviceType | undefined; onClose: () => void; onSaved: () => void }) {
  const t = useT(DEVICE_TYPE_NS);
  const form = useForm<DeviceTypeFormValues>({
    initialValues: initialValues(deviceType),
    // The pure checks (limits from domain/device-type/limits.ts), worded in the UI language.
    validate: (values) => Object.fromEntries(Object.entries(validateDeviceTypeForm(values)).map(([field, e]) => [field, e.params ? t(e.key, e.params) : t(e.key)])),
  });
  const protocol = form.getValues().protocol;

  return (
    <FormDrawer
      title={deviceType ? t('editTitle', { name: deviceType.devTypeName }) : t('createTitle')}
      form={form}
      testId="device-type-form"
      onClose={onClose}
      onSaved={onSaved}
      submit={(values) => deviceTypeApi.save({ ...toInput(values), ...(deviceType ? { id: deviceType.id } : {}) })}
    >
      <TextInput label={t('name')} required name="devTypeName" maxLength={L.nameMax} {...form.getInputProps('devTypeName')} />
      <Select
        label={t('protocol')}
        required
        name="protocol"
        allowDeselect={false}
        data={DEVICE_PROTOCOLS.map((p) => ({ value: String(p), label: PROTOCOL_LABEL[p] }))}
        value={String(protocol)}
        onChange={(v) => v && form.setFieldValue('protocol', Number(v) as DeviceTypeFormValues['protocol'])}
      />
      <SimpleGrid cols={2} spacing="sm">
        <TextInput label={t('makerId')} name="makerId" maxLength={L.makerIdMax} {...form.getInputProps('makerId')} />
        <TextInput label={t('model')} name="model" maxLength={L.modelMax} {...form.getInputProps('model')} />
      </SimpleGrid>
      <Textarea label={t('remark')} name="remark" autosize minRows={2} {...form.getInputProps('remark')} />
    </FormDrawer>
  );
}
