/**
 * The accident form (登记事故 / 修改): vehicle (at filing only) and time, then the platform lists that
 * vehicle's stored alarms inside ± the window (10 minutes unless the officer widens it) for the officer to
 * link; the first linked alarm fills an empty position. The counts give the lowest level (shown as a hint;
 * "auto" files that one); the server holds every rule and names the field it refuses.
 */
import { Checkbox, Group, NumberInput, ScrollArea, Select, SimpleGrid, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { ACCIDENT_LEVELS, ACCIDENT_LIMITS, ACCIDENT_STATES, ACCIDENT_TYPES, impliedLevel, label, RESPONSIBILITIES, type AccidentLevel, type AccidentState, type AccidentType, type Responsibility } from '../../../domain/accidents/rules.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { FormDrawer } from '../../kit/FormDrawer.tsx';
import { DateTimeField } from '../../kit/period-picker/index.ts';
import { VehicleSelect } from '../fleet-pickers/VehicleSelect.tsx';
import { formatTime } from '../system/ui/format.ts';
import { fromLocalInput, toLocalInput } from '../track/format.ts';
import { accidentApi, type Accident, type AccidentInput } from './api.ts';
import { ACCIDENTS_NS } from './messages.ts';

type Values = {
  vehicleId: number | null; time: string; lng: number | string; lat: number | string; place: string; type: AccidentType; level: AccidentLevel | 'auto';
  lightInjuries: number | string; seriousInjuries: number | string; deaths: number | string; propertyLoss: number | string; responsibility: Responsibility;
  state: AccidentState; description: string; driverName: string; frameNo: string; sourceProject: string; windowMinutes: number | string; alarmIds: number[];
};
const num = (v: number | string) => (typeof v === 'number' ? v : v.trim() === '' ? 0 : Number(v));

export function AccidentForm({ accident, linkedAlarmIds, onClose, onSaved }: { accident?: Accident; linkedAlarmIds?: number[]; onClose: () => void; onSaved: () => void }) {
  const t = useT(ACCIDENTS_NS);
  const lang = useLang();
  const form = useForm<Values>({
    initialValues: {
      vehicleId: accident?.vehicleId ?? null, time: accident ? toLocalInput(accident.time) : '', lng: accident?.lng ?? '', lat: accident?.lat ?? '',
      place: accident?.place ?? '', type: accident?.type ?? 'collision', level: accident?.level ?? 'auto',
      lightInjuries: accident?.lightInjuries ?? 0, seriousInjuries: accident?.seriousInjuries ?? 0, deaths: accident?.deaths ?? 0, propertyLoss: accident?.propertyLoss ?? 0,
      responsibility: accident?.responsibility ?? 'pending', state: accident?.state ?? 'reported', description: accident?.description ?? '',
      driverName: accident?.driverName ?? '', frameNo: accident?.frameNo ?? '', sourceProject: accident?.sourceProject ?? '',
      windowMinutes: accident?.windowMinutes ?? ACCIDENT_LIMITS.windowMinutesDefault, alarmIds: linkedAlarmIds ?? [],
    },
    validate: {
      vehicleId: (v) => (v === null ? t('vehicleRequired') : null),
      time: (v) => (Number.isNaN(fromLocalInput(v)) ? t('timeRequired') : null),
      place: (v) => (!v.trim() ? t('placeRequired') : null),
    },
  });
  const v = form.getValues();
  const time = fromLocalInput(v.time);
  const window = Math.min(ACCIDENT_LIMITS.windowMinutesMax, Math.max(ACCIDENT_LIMITS.windowMinutesMin, num(v.windowMinutes) || ACCIDENT_LIMITS.windowMinutesDefault));
  const alarms = useQuery({
    queryKey: ['accident-alarms', v.vehicleId, time, window],
    queryFn: () => accidentApi.alarms(v.vehicleId!, time, window),
    enabled: v.vehicleId !== null && !Number.isNaN(time),
  });
  const floor = impliedLevel({ lightInjuries: num(v.lightInjuries), seriousInjuries: num(v.seriousInjuries), deaths: num(v.deaths), propertyLoss: num(v.propertyLoss) });
  const toggle = (id: number, on: boolean) => {
    const ids = on ? [...v.alarmIds, id] : v.alarmIds.filter((x) => x !== id);
    form.setFieldValue('alarmIds', ids);
    const a = alarms.data?.alarms.find((x) => x.id === id);
    // The alarm's position and driver are what the terminal said at that moment: a better start than nothing.
    if (on && a && (v.lng === '' || v.lat === '')) { form.setFieldValue('lng', a.lng); form.setFieldValue('lat', a.lat); }
    if (on && a && !v.driverName && a.driverName) form.setFieldValue('driverName', a.driverName);
  };
  const submit = (x: Values) => {
    const input: AccidentInput = {
      time: fromLocalInput(x.time), lng: num(x.lng), lat: num(x.lat), place: x.place.trim(), type: x.type,
      ...(x.level === 'auto' ? {} : { level: x.level }),
      lightInjuries: num(x.lightInjuries), seriousInjuries: num(x.seriousInjuries), deaths: num(x.deaths), propertyLoss: num(x.propertyLoss),
      responsibility: x.responsibility, state: x.state, description: x.description, driverName: x.driverName, frameNo: x.frameNo, sourceProject: x.sourceProject,
      windowMinutes: num(x.windowMinutes) || ACCIDENT_LIMITS.windowMinutesDefault, alarmIds: x.alarmIds,
    };
    return accident ? accidentApi.update({ ...input, id: accident.id }) : accidentApi.save({ ...input, vehicleId: x.vehicleId! });
  };
  const opts = <K extends 'type' | 'level' | 'responsibility' | 'state'>(kind: K, values: readonly string[]) =>
    values.map((value) => ({ value, label: label(kind, value as never, lang) }));
  return (
    <FormDrawer title={accident ? t('editTitle', { plate: accident.plate }) : t('createTitle')} form={form} testId="accident-form" size="xl" onClose={onClose} onSaved={onSaved} submit={submit}>
      <SimpleGrid cols={2} spacing="sm">
        {accident
          ? <TextInput label={t('vehicle')} value={accident.plate} disabled />
          : <VehicleSelect label={t('vehicle')} value={v.vehicleId} onChange={(id) => { form.setFieldValue('vehicleId', id); form.setFieldValue('alarmIds', []); }} error={form.errors.vehicleId as string | undefined} testId="accident-vehicle" />}
        <DateTimeField label={t('estimatedTime')} withAsterisk value={v.time} onChange={(s) => { form.setFieldValue('time', s); }} error={form.errors.time} data-testid="accident-time" />
        <Select label={t('type')} data={opts('type', ACCIDENT_TYPES)} allowDeselect={false} {...form.getInputProps('type')} data-testid="accident-type" />
        <Select label={t('level')} description={t('levelHint', { level: label('level', floor, lang) })} allowDeselect={false}
          data={[{ value: 'auto', label: `${t('autoLevel')}（${label('level', floor, lang)}）` }, ...opts('level', ACCIDENT_LEVELS)]} {...form.getInputProps('level')} data-testid="accident-level" />
        <NumberInput label={t('lightInjuries')} min={0} max={ACCIDENT_LIMITS.peopleMax} allowDecimal={false} {...form.getInputProps('lightInjuries')} />
        <NumberInput label={t('seriousInjuries')} min={0} max={ACCIDENT_LIMITS.peopleMax} allowDecimal={false} {...form.getInputProps('seriousInjuries')} />
        <NumberInput label={t('deaths')} min={0} max={ACCIDENT_LIMITS.peopleMax} allowDecimal={false} {...form.getInputProps('deaths')} data-testid="accident-deaths" />
        <NumberInput label={t('propertyLoss')} min={0} max={ACCIDENT_LIMITS.lossMax} allowDecimal={false} thousandSeparator="," {...form.getInputProps('propertyLoss')} />
        <Select label={t('responsibility')} data={opts('responsibility', RESPONSIBILITIES)} allowDeselect={false} {...form.getInputProps('responsibility')} data-testid="accident-responsibility" />
        <Select label={t('state')} data={opts('state', accident ? ACCIDENT_STATES : ACCIDENT_STATES.filter((s) => s !== 'closed'))} allowDeselect={false} {...form.getInputProps('state')} data-testid="accident-state" />
        <NumberInput label={t('lng')} decimalScale={6} {...form.getInputProps('lng')} data-testid="accident-lng" />
        <NumberInput label={t('lat')} decimalScale={6} {...form.getInputProps('lat')} data-testid="accident-lat" />
      </SimpleGrid>
      <TextInput label={t('place')} required maxLength={ACCIDENT_LIMITS.placeMax} {...form.getInputProps('place')} data-testid="accident-place" />
      <SimpleGrid cols={3} spacing="sm">
        <TextInput label={t('driver')} maxLength={ACCIDENT_LIMITS.textMax} {...form.getInputProps('driverName')} />
        <TextInput label={t('frameNo')} maxLength={ACCIDENT_LIMITS.vinMax} {...form.getInputProps('frameNo')} />
        <TextInput label={t('sourceProject')} maxLength={ACCIDENT_LIMITS.textMax} {...form.getInputProps('sourceProject')} />
      </SimpleGrid>
      <Textarea label={t('description')} autosize minRows={2} maxLength={ACCIDENT_LIMITS.descriptionMax} {...form.getInputProps('description')} />
      <Group align="end" gap="sm">
        <Text fw={500} size="sm">{t('alarms')}</Text>
        <NumberInput label={t('window')} min={ACCIDENT_LIMITS.windowMinutesMin} max={ACCIDENT_LIMITS.windowMinutesMax} allowDecimal={false} w={170} size="xs" {...form.getInputProps('windowMinutes')} />
      </Group>
      {form.errors.alarmIds && <Text c="red" size="sm">{form.errors.alarmIds}</Text>}
      {v.vehicleId === null || Number.isNaN(time)
        ? <Text size="sm" c="dimmed">{t('pickVehicleTime')}</Text>
        : (alarms.data?.alarms.length ?? 0) === 0
          ? <Text size="sm" c="dimmed" data-testid="accident-no-alarms">{alarms.isFetching ? '…' : t('noAlarms')}</Text>
          : (
            <ScrollArea.Autosize mah={220}>
              <Table striped withTableBorder data-testid="accident-alarm-candidates">
                <Table.Thead><Table.Tr><Table.Th w={36} /><Table.Th>{t('alarmTime')}</Table.Th><Table.Th>{t('alarmName')}</Table.Th><Table.Th>{t('speed')}</Table.Th><Table.Th>{t('driver')}</Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {alarms.data!.alarms.map((a) => (
                    <Table.Tr key={a.id}>
                      <Table.Td><Checkbox aria-label={a.alarmName} checked={v.alarmIds.includes(a.id)} onChange={(e) => toggle(a.id, e.currentTarget.checked)} data-testid={`accident-alarm-${a.id}`} /></Table.Td>
                      <Table.Td>{formatTime(a.startTime)}</Table.Td><Table.Td>{a.alarmName}</Table.Td><Table.Td>{Math.round(a.speed)}</Table.Td><Table.Td>{a.driverName}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          )}
    </FormDrawer>
  );
}
