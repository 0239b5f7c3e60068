/**
 * A searchable vehicle picker (issue 15): typing searches plates, VINs and device numbers among the
 * caller's vehicles on the server (`GET /service-priv/vehicle?keyword=`, the whole scope, not only the
 * tree selection); each option shows the plate and the company. The chosen vehicle stays among the
 * options while the search changes. Value: the vehicle id, or null.
 */
import { Group, Select, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { vehicleApi } from '../vehicles/api.ts';

const DEBOUNCE_MS = 250;

export interface VehicleOption {
  id: number;
  plate: string;
  companyName: string;
}

export function VehicleSelect({ label, placeholder, value, initial, onChange, disabled, error, testId, w }: {
  label?: string;
  placeholder?: string;
  value: number | null;
  /** The vehicle already chosen (an edit form), so its plate shows before any search. */
  initial?: VehicleOption;
  onChange(id: number | null, option: VehicleOption | undefined): void;
  disabled?: boolean;
  error?: string;
  testId?: string;
  w?: number | string;
}) {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), DEBOUNCE_MS);
  const [options, setOptions] = useState<VehicleOption[]>(initial ? [initial] : []);

  useEffect(() => {
    if (!debounced) return;
    let stale = false;
    vehicleApi.search(debounced)
      .then((page) => {
        if (stale) return;
        const found = page.records.map((v) => ({ id: v.id, plate: v.vehiidno, companyName: v.companyName }));
        setOptions((old) => [...old.filter((o) => o.id === value && !found.some((f) => f.id === o.id)), ...found]);
      })
      .catch(() => undefined);
    return () => {
      stale = true;
    };
  }, [debounced, value]);

  const byId = new Map(options.map((o) => [String(o.id), o]));
  return (
    <Select
      label={label}
      placeholder={placeholder}
      searchable
      clearable
      disabled={disabled}
      error={error}
      w={w}
      data={options.map((o) => ({ value: String(o.id), label: o.plate }))}
      value={value === null ? null : String(value)}
      searchValue={query}
      onSearchChange={setQuery}
      // The server matched the keyword already (plate, VIN or device number).
      filter={({ options: all }) => all}
      renderOption={({ option }) => (
        <Group justify="space-between" wrap="nowrap" w="100%">
          <Text size="sm">{option.label}</Text>
          <Text size="xs" c="dimmed">{byId.get(option.value)?.companyName}</Text>
        </Group>
      )}
      onChange={(v) => onChange(v === null ? null : Number(v), v === null ? undefined : byId.get(v))}
      data-testid={testId}
    />
  );
}
