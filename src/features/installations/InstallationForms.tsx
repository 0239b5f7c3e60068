/**
 * 新增安装记录 (a binding change: install, replace or remove, with photos) and the edit of a record's own
 * fields and photos, in the kit's form drawer. The server's refusals (a device on another vehicle: 409
 * naming its plate; a photo refused by its bytes) land under their fields.
 */
import { useState } from 'react';
import { Alert, Badge, Group, SegmentedControl, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { INSTALLATION_KIND_NAMES, photoProblemText } from '../../../domain/fleet/installation.ts';
import { INSTALLATION_LIMITS as L } from '../../../domain/fleet/limits.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { DateTimeField } from '../../kit/period-picker/DateTimeField.tsx';
import { DeviceSelect } from '../fleet-pickers/DeviceSelect.tsx';
import { VehicleSelect, type VehicleOption } from '../fleet-pickers/VehicleSelect.tsx';
import { vehicleApi } from '../vehicles/api.ts';
import { installationApi, type Installation } from './api.ts';
import {
  createKind, initialCreate, initialEdit, toCreate, toUpdate, validateCreate, validateEdit, type CreateFormValues, type EditFormValues, type FormProblem,
} from './installation-form.ts';
import { INSTALLATION_NS } from './messages.ts';
import { PhotoGrid, PhotoPicker } from './Photos.tsx';

export const ROUTE = '/information/vehicle_installed';

/** Words the pure checks' problems in the UI language. */
function useWording() {
  const t = useT(INSTALLATION_NS);
  const lang = useLang();
  return (problems: Record<string, FormProblem>) =>
    Object.fromEntries(Object.entries(problems).map(([field, p]) => [field, 'photo' in p ? photoProblemText(p.photo, lang) : p.params ? t(p.key, p.params) : t(p.key)]));
}

/** The chosen vehicle's device now: read from the vehicle list (undefined while reading). */
function useVehicleDevice(vehicle: VehicleOption | undefined): string | null | undefined {
  const q = useQuery({
    queryKey: [ROUTE, 'vehicle-device', vehicle?.id],
    enabled: vehicle !== undefined,
    staleTime: 0,
    queryFn: async () => (await vehicleApi.search(vehicle!.plate, 50)).records.find((v) => v.id === vehicle!.id)?.deviceNo ?? null,
  });
  return vehicle === undefined ? undefined : q.data;
}

export function InstallationCreateForm({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const t = useT(INSTALLATION_NS);
  const lang = useLang();
  const word = useWording();
  const [vehicle, setVehicle] = useState<VehicleOption | undefined>(undefined);
  const current = useVehicleDevice(vehicle);
  // useForm takes the rule of each render: it reads the device as of the submit.
  const form = useForm<CreateFormValues>({
    initialValues: initialCreate(new Date()),
    validate: (values) => word(validateCreate(values, current, Date.now())),
  });
  const values = form.getValues();
  const kind = current === undefined ? undefined : createKind(current, values);

  return (
    <FormDrawer
      title={t('createTitle')}
      form={form}
      testId="installation-form"
      onClose={onClose}
      onSaved={onSaved}
      submit={(v) => installationApi.create(toCreate(v))}
    >
      <VehicleSelect
        label={t('vehicle')}
        placeholder={t('vehiclePlaceholder')}
        value={values.vehicleId}
        onChange={(id, option) => {
          setVehicle(option);
          form.setFieldValue('vehicleId', id);
          form.setFieldValue('action', 'bind');
          form.setFieldValue('deviceNo', null);
        }}
        error={form.errors.vehicleId as string | undefined}
        testId="installation-vehicle"
      />
      {vehicle && (
        <Group gap="xs" data-testid="installation-current-device">
          <Text size="sm" c="dimmed">{t('currentDevice')}:</Text>
          {current === undefined ? <Text size="sm">{t('reading')}</Text> : current === null ? <Text size="sm">{t('currentNone')}</Text> : <Text size="sm" ff="monospace">{current}</Text>}
        </Group>
      )}
      <SegmentedControl
        fullWidth
        value={values.action}
        onChange={(a) => form.setFieldValue('action', a as CreateFormValues['action'])}
        data={[
          { value: 'bind', label: t('actionBind') },
          { value: 'remove', label: t('actionRemove'), disabled: current === null },
        ]}
        data-testid="installation-action"
      />
      {values.action === 'bind' ? (
        // Devices on no vehicle in the caller's scope; one of another branch is refused by the server, naming the rule.
        <DeviceSelect
          unboundOnly
          required
          label={t('device')}
          placeholder={t('devicePlaceholder')}
          value={values.deviceNo}
          onChange={(no) => form.setFieldValue('deviceNo', no)}
          error={form.errors.deviceNo as string | undefined}
          testId="installation-device"
        />
      ) : (
        form.errors.deviceNo && <Alert color="red" p="xs">{form.errors.deviceNo}</Alert>
      )}
      {kind && (
        <Text size="sm" data-testid="installation-kind">
          {t('willRecord', { kind: INSTALLATION_KIND_NAMES[kind][lang === 'zh' ? 0 : 1] })}
        </Text>
      )}
      <TextInput label={t('installer')} name="installer" maxLength={L.installerMax} {...form.getInputProps('installer')} />
      <DateTimeField label={t('installTime')} withAsterisk value={values.installTime} onChange={(v) => form.setFieldValue('installTime', v)} error={form.errors.installTime} w="100%" data-testid="installation-time" />
      <Textarea label={t('remark')} name="remark" autosize minRows={2} {...form.getInputProps('remark')} />
      <PhotoPicker photos={values.photos} onChange={(p) => form.setFieldValue('photos', p)} error={form.errors.photos as string | undefined} />
    </FormDrawer>
  );
}

export function InstallationEditForm({ record, onClose, onSaved }: { record: Installation; onClose: () => void; onSaved: () => void }) {
  const t = useT(INSTALLATION_NS);
  const lang = useLang();
  const word = useWording();
  const form = useForm<EditFormValues>({
    initialValues: initialEdit(record),
    validate: (values) => word(validateEdit(values, record.photos.length, Date.now())),
  });
  const values = form.getValues();
  const toggle = (id: number) => form.setFieldValue('removePhotoIds', values.removePhotoIds.includes(id) ? values.removePhotoIds.filter((x) => x !== id) : [...values.removePhotoIds, id]);

  return (
    <FormDrawer
      title={t('editTitle', { plate: record.plate })}
      form={form}
      testId="installation-edit-form"
      onClose={onClose}
      onSaved={onSaved}
      submit={(v) => installationApi.update(toUpdate(record.id, v))}
    >
      <Group gap="xs">
        <Badge variant="light">{INSTALLATION_KIND_NAMES[record.kind][lang === 'zh' ? 0 : 1]}</Badge>
        <Text size="sm" ff="monospace">{record.oldDeviceNo ?? t('none')} → {record.newDeviceNo ?? t('none')}</Text>
      </Group>
      <Text size="xs" c="dimmed">{t('editNote')}</Text>
      <TextInput label={t('installer')} name="installer" maxLength={L.installerMax} {...form.getInputProps('installer')} />
      <DateTimeField label={t('installTime')} withAsterisk value={values.installTime} onChange={(v) => form.setFieldValue('installTime', v)} error={form.errors.installTime} w="100%" />
      <Textarea label={t('remark')} name="remark" autosize minRows={2} {...form.getInputProps('remark')} />
      <PhotoGrid photos={record.photos} removing={values.removePhotoIds} toggle={toggle} />
      <PhotoPicker photos={values.photos} onChange={(p) => form.setFieldValue('photos', p)} error={form.errors.photos as string | undefined} />
    </FormDrawer>
  );
}
