/**
 * Picks up to `max` vehicles (issue 17: a parameter task carries at most 500): typing searches plates,
 * VINs and terminal numbers in the caller's whole scope on the server (`vehicleApi.search`, 100 at a
 * time); each found vehicle can be ticked, or all found added at once. Vehicles without a terminal
 * cannot be chosen when `needsDevice` (a command has nowhere to go). The chosen ones show as pills
 * with the count, each removable.
 */
import { Alert, Button, Checkbox, Group, Pill, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useT } from '../../i18n/index.ts';
import { vehicleApi } from '../vehicles/api.ts';
import { FLEET_PICKERS_NS } from './messages.ts';
import type { VehicleOption } from './VehicleSelect.tsx';

const DEBOUNCE_MS = 250;
const FOUND_MAX = 100;

interface Found extends VehicleOption {
  hasDevice: boolean;
}

export function VehiclesPicker({ value, onChange, max, needsDevice = false, testId = 'vehicles-picker' }: {
  value: readonly VehicleOption[];
  onChange(next: VehicleOption[]): void;
  max: number;
  needsDevice?: boolean;
  testId?: string;
}) {
  const t = useT(FLEET_PICKERS_NS);
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), DEBOUNCE_MS);
  const [found, setFound] = useState<Found[]>([]);

  useEffect(() => {
    if (!debounced) return;
    let stale = false;
    vehicleApi.search(debounced, FOUND_MAX)
      .then((page) => {
        if (!stale) setFound(page.records.map((v) => ({ id: v.id, plate: v.vehiidno, companyName: v.companyName, hasDevice: v.deviceNo !== null && v.deviceNo !== '' })));
      })
      .catch(() => undefined);
    return () => {
      stale = true;
    };
  }, [debounced]);

  const chosen = new Set(value.map((v) => v.id));
  const pickable = (f: Found) => !needsDevice || f.hasDevice;
  const add = (list: Found[]) => {
    const extra = list.filter((f) => pickable(f) && !chosen.has(f.id)).map(({ id, plate, companyName }) => ({ id, plate, companyName }));
    onChange([...value, ...extra].slice(0, max));
  };
  const remove = (id: number) => onChange(value.filter((v) => v.id !== id));
  const addable = found.filter((f) => pickable(f) && !chosen.has(f.id));

  return (
    <Stack gap={6} data-testid={testId}>
      <Group align="end" gap="xs">
        <TextInput w={260} size="xs" placeholder={t('search')} value={query} onChange={(e) => setQuery(e.currentTarget.value)} data-testid={`${testId}-search`} />
        <Button size="xs" variant="light" disabled={addable.length === 0 || value.length >= max} onClick={() => add(found)} data-testid={`${testId}-add-all`}>{t('addAll', { n: addable.length })}</Button>
        <Text size="xs" c="dimmed" data-testid={`${testId}-count`}>{t('chosen', { n: value.length, max })}</Text>
        {value.length > 0 && <Button size="xs" variant="subtle" onClick={() => onChange([])}>{t('clear')}</Button>}
      </Group>
      {value.length >= max && <Alert color="yellow" p={6}>{t('full', { max })}</Alert>}
      {debounced && (
        <ScrollArea.Autosize mah={180} type="auto">
          {found.length === 0 && <Text size="xs" c="dimmed">{t('none')}</Text>}
          {found.map((f) => (
            <Checkbox
              key={f.id}
              size="xs"
              my={3}
              checked={chosen.has(f.id)}
              disabled={!pickable(f) || (!chosen.has(f.id) && value.length >= max)}
              onChange={(e) => (e.currentTarget.checked ? add([f]) : remove(f.id))}
              label={<Group gap={6}><Text size="xs">{f.plate}</Text><Text size="xs" c="dimmed">{f.companyName}{pickable(f) ? '' : ` · ${t('noDevice')}`}</Text></Group>}
              data-testid={`${testId}-option-${f.id}`}
            />
          ))}
        </ScrollArea.Autosize>
      )}
      {value.length > 0 && (
        <ScrollArea.Autosize mah={120} type="auto">
          <Pill.Group>
            {value.map((v) => <Pill key={v.id} withRemoveButton onRemove={() => remove(v.id)} data-testid={`${testId}-chosen-${v.id}`}>{v.plate}</Pill>)}
          </Pill.Group>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}
