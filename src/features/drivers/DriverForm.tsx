import { Button, FileButton, Group, MultiSelect, SegmentedControl, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { checkPhoto } from '../../../domain/fleet/driver.ts';
import { DRIVER_LIMITS as L, LICENCE_CLASSES } from '../../../domain/fleet/limits.ts';
import { DictKinds } from '../../../domain/system-config/dictionary.ts';
import { useDictOptions } from '../vehicles/dict-options.ts';
import { isApiError } from '../../api/http.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { DateTimeField } from '../../kit/period-picker/index.ts';
import { companyOptions, renderCompanyOption } from '../system/company-options.tsx';
import { companyOptionsApi } from '../system/api.ts';
import { driverApi, type Driver } from './api.ts';
import { formProblems, initialValues, PHOTO_MB, toInput, type DriverFormValues } from './driver-form.ts';
import { DriverPhoto } from './DriverPhoto.tsx';
import { DRIVER_NS } from './messages.ts';

const ROUTE = '/information/driver';

/** Reads a picked file as base64 (the photo call takes JSON). */
async function fileBytes(file: File): Promise<Uint8Array> {
  return new Uint8Array(await file.arrayBuffer());
}
function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/**
 * Create (driver undefined) or edit a driver in the kit's drawer: company, licence, qualification
 * certificate (what a 0x0702 sign-in links by), phone, status, vehicles driven (searched on the server
 * among the company's vehicles) and the photo (limits stated before the pick; on an edit it uploads at
 * once, on a create after the save).
 */
export function DriverForm({ driver, companyId, onClose, onSaved }: { driver: Driver | undefined; companyId: number | null; onClose: () => void; onSaved: () => void }) {
  const t = useT(DRIVER_NS);
  const form = useForm<DriverFormValues>({
    initialValues: initialValues(driver, companyId),
    validate: (values) => Object.fromEntries(Object.entries(formProblems(values)).map(([field, p]) => [field, p.params ? t(p.key, p.params) : t(p.key)])),
  });
  const values = form.getValues();
  // Issue 19: the licence classes read the data dictionary (labels, order, enabled), the driver's own class kept.
  const licenceClasses = useDictOptions(DictKinds.licenceClass, LICENCE_CLASSES, (c) => c, useLang(), driver?.licenceClass || undefined);
  const companies = useQuery({ queryKey: [ROUTE, 'companies'], queryFn: companyOptionsApi.tree, staleTime: 60_000 });

  // Vehicle search among the chosen company's subtree; chosen plates stay known while the search changes.
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [known, setKnown] = useState<Map<number, string>>(() => new Map((driver?.vehicles ?? []).map((v) => [v.id, v.vehiidno])));
  const options = useQuery({
    queryKey: [ROUTE, 'vehicle-options', values.companyId, debounced],
    queryFn: async () => {
      const found = await driverApi.vehicleOptions(values.companyId!, debounced);
      setKnown((old) => new Map([...old, ...found.map((o) => [o.id, o.vehiidno] as const)]));
      return found;
    },
    enabled: values.companyId !== null,
  });
  const found = new Map((options.data ?? []).map((o) => [o.id, o.vehiidno]));
  const vehicleData = [...new Set([...values.vehicleIds, ...found.keys()])]
    .map((id) => ({ value: String(id), label: found.get(id) ?? known.get(id) ?? `#${id}` }));

  // Photo: a pick is checked here with the server's rule (JPEG/PNG by its bytes, ≤ 2 MiB).
  const [photoTime, setPhotoTime] = useState<number | null>(driver?.photoTime ?? null);
  const [pending, setPending] = useState<Uint8Array | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [photoBusy, setPhotoBusy] = useState(false);
  // The list shows the thumbnail: after a photo change, closing the drawer refreshes it (onSaved invalidates).
  const [photoChanged, setPhotoChanged] = useState(false);
  const onPhotoChanged = () => setPhotoChanged(true);
  const problemText = (p: NonNullable<ReturnType<typeof checkPhoto>>) => (p.key === 'photoTooLarge' ? t('photoTooLarge', { mb: PHOTO_MB }) : t(p.key));

  async function pick(file: File | null) {
    setPhotoError(null);
    if (!file) return;
    const bytes = await fileBytes(file);
    const problem = checkPhoto(bytes);
    if (problem) {
      setPhotoError(problemText(problem));
      return;
    }
    if (!driver) {
      setPending(bytes);
      return;
    }
    setPhotoBusy(true);
    try {
      const saved = await driverApi.uploadPhoto(driver.id, toBase64(bytes));
      setPhotoTime(saved.photoTime);
      notifications.show({ color: 'green', message: t('photoUploaded') });
      onPhotoChanged();
    } catch (e) {
      setPhotoError(isApiError(e) ? e.msg : String(e));
    } finally {
      setPhotoBusy(false);
    }
  }

  async function removePhoto() {
    if (!driver) {
      setPending(null);
      return;
    }
    setPhotoBusy(true);
    try {
      await driverApi.deletePhoto(driver.id);
      setPhotoTime(null);
      notifications.show({ color: 'green', message: t('photoRemoved') });
      onPhotoChanged();
    } catch (e) {
      setPhotoError(isApiError(e) ? e.msg : String(e));
    } finally {
      setPhotoBusy(false);
    }
  }

  async function submit(v: DriverFormValues) {
    const input = toInput(v);
    if (driver) return driverApi.update({ ...input, id: driver.id });
    const made = await driverApi.create(input);
    if (pending) {
      // The driver exists now: a failed upload is said, the drawer closes on the saved driver (a retry is an edit).
      try {
        await driverApi.uploadPhoto(made.id, toBase64(pending));
      } catch (e) {
        notifications.show({ color: 'red', message: t('photoFailed', { msg: isApiError(e) ? e.msg : String(e) }) });
      }
    }
    return made;
  }

  return (
    <FormDrawer
      title={driver ? t('editTitle', { name: driver.name }) : t('createTitle')}
      form={form}
      testId="driver-form"
      size="lg"
      onClose={photoChanged ? onSaved : onClose}
      onSaved={onSaved}
      submit={submit}
    >
      <SimpleGrid cols={2} spacing="sm">
        <TextInput label={t('name')} required name="name" maxLength={L.nameMax} {...form.getInputProps('name')} />
        <Select
          label={t('company')}
          required
          name="companyId"
          searchable
          data={companyOptions(companies.data ?? [])}
          renderOption={renderCompanyOption}
          value={values.companyId === null ? null : String(values.companyId)}
          onChange={(v) => form.setFieldValue('companyId', v === null ? null : Number(v))}
          error={form.errors.companyId}
        />
        <TextInput label={t('licenceNo')} name="licenceNo" maxLength={L.licenceNoMax} {...form.getInputProps('licenceNo')} />
        <Select
          label={t('licenceClass')}
          name="licenceClass"
          clearable
          data={licenceClasses}
          value={values.licenceClass || null}
          onChange={(v) => form.setFieldValue('licenceClass', v ?? '')}
          error={form.errors.licenceClass}
        />
        <DateTimeField mode="date" w="100%" label={t('licenceExpire')} data-testid="driver-licence-expire" value={values.licenceExpire} onChange={(v) => form.setFieldValue('licenceExpire', v)} error={form.errors.licenceExpire} />
        <TextInput label={t('phone')} name="phone" maxLength={L.phoneMax} {...form.getInputProps('phone')} />
        <TextInput label={t('certNo')} name="certNo" maxLength={L.certNoMax} {...form.getInputProps('certNo')} />
        <TextInput label={t('certAuthority')} name="certAuthority" maxLength={L.certAuthorityMax} {...form.getInputProps('certAuthority')} />
        <DateTimeField mode="date" w="100%" label={t('certExpire')} data-testid="driver-cert-expire" value={values.certExpire} onChange={(v) => form.setFieldValue('certExpire', v)} error={form.errors.certExpire} />
        <Stack gap={4}>
          <Text size="sm" fw={500}>{t('status')}</Text>
          <SegmentedControl
            size="xs"
            data={[{ value: '1', label: t('active') }, { value: '0', label: t('disabled') }]}
            value={String(values.status)}
            onChange={(v) => form.setFieldValue('status', v === '0' ? 0 : 1)}
          />
        </Stack>
      </SimpleGrid>
      <MultiSelect
        label={t('vehicles')}
        description={t('vehiclesHint', { max: L.vehiclesMax })}
        placeholder={t('vehiclesPlaceholder')}
        name="vehicleIds"
        data-testid="driver-vehicles"
        searchable
        clearable
        hidePickedOptions
        maxValues={L.vehiclesMax}
        searchValue={search}
        onSearchChange={setSearch}
        data={vehicleData}
        value={values.vehicleIds.map(String)}
        onChange={(v) => form.setFieldValue('vehicleIds', v.map(Number))}
        error={form.errors.vehicleIds}
        disabled={values.companyId === null}
      />
      <Stack gap={4}>
        <Text size="sm" fw={500}>{t('photo')}</Text>
        <Text size="xs" c="dimmed">{t('photoHint', { mb: PHOTO_MB })}</Text>
        <Group gap="sm">
          {driver && <DriverPhoto id={driver.id} name={driver.name} photoTime={photoTime} size={64} />}
          <FileButton onChange={(f) => void pick(f)} accept="image/jpeg,image/png">
            {(props) => <Button {...props} size="xs" variant="light" loading={photoBusy} data-testid="driver-photo-pick">{t('photoPick')}</Button>}
          </FileButton>
          {(photoTime !== null || pending) && (
            <Button size="xs" variant="subtle" color="red" disabled={photoBusy} onClick={() => void removePhoto()}>{t('photoRemove')}</Button>
          )}
          {pending && <Text size="xs" c="dimmed">{t('photoPending')}</Text>}
        </Group>
        {photoError && <Text size="xs" c="red" data-testid="driver-photo-error">{photoError}</Text>}
      </Stack>
      <Textarea label={t('remark')} name="remark" autosize minRows={2} maxLength={L.remarkMax} {...form.getInputProps('remark')} />
    </FormDrawer>
  );
}
