/**
 * Vehicles by plate for a filter: typing searches the caller's vehicles (`searchVehicles`); the chosen
 * ones stay among the options while the search changes. Used by the alarm, statistics and board filters.
 */
import { MultiSelect } from '@mantine/core';
import { useState } from 'react';
import { searchVehicles, type VehicleOption } from './api.ts';

export function VehicleMultiSelect({ label, placeholder, value, initialOptions, onChange, testId }: {
  label: string;
  placeholder: string;
  /** Vehicle ids as strings (MultiSelect values). */
  value: string[];
  /** Options known up front (a vehicle the page was opened for), so a preset value shows its plate. */
  initialOptions?: VehicleOption[];
  onChange(ids: string[]): void;
  testId?: string;
}) {
  const [options, setOptions] = useState<VehicleOption[]>(initialOptions ?? []);
  return (
    <MultiSelect
      label={label}
      placeholder={placeholder}
      searchable
      clearable
      w={220}
      data={options.map((v) => ({ value: String(v.vehicleId), label: v.plate }))}
      value={value}
      onChange={onChange}
      onSearchChange={(k) => {
        if (k.trim().length >= 1)
          void searchVehicles(k.trim())
            .then((found) => setOptions((old) => [...old.filter((o) => value.includes(String(o.vehicleId))), ...found.filter((f) => !value.includes(String(f.vehicleId)))]))
            .catch(() => undefined);
      }}
      data-testid={testId}
    />
  );
}
