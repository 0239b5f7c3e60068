/**
 * A searchable picker of devices (terminals) by number, model or the plate they are installed on:
 * typing searches the caller's devices on the server (`POST /service-priv/device/pp/search`, ≤ 50
 * options); `unboundOnly` offers only devices installed on no vehicle (binding a device, an
 * installation record). The value is the 12-digit device number; the chosen option stays listed while
 * the search changes. Used by the vehicle form and the installation records.
 */
import { Select } from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { deviceApi, type DeviceOption } from '../devices/api.ts';
import { DEVICE_NS } from '../devices/messages.ts';
import { useT } from '../../i18n/index.ts';

export interface DeviceSelectProps {
  /** The selected device number, or null. */
  value: string | null;
  onChange(deviceNo: string | null, option: DeviceOption | undefined): void;
  /** Only devices installed on no vehicle (the current value stays offered). */
  unboundOnly?: boolean;
  /** Narrows the search to this company's subtree (else the caller's whole scope). */
  companyId?: number;
  label?: string;
  placeholder?: string;
  description?: string;
  error?: string;
  required?: boolean;
  disabled?: boolean;
  clearable?: boolean;
  /** A known option for the value (the vehicle's current device), so it shows before any search. */
  initialOption?: DeviceOption;
  testId?: string;
  w?: number | string;
}

const SEARCH_DELAY_MS = 250;

/** The option's label: number, model and where it is installed. */
export function deviceOptionLabel(o: DeviceOption, installedOn: (plate: string) => string): string {
  const parts = [o.deviceNo];
  if (o.model) parts.push(o.model);
  if (o.plate) parts.push(installedOn(o.plate));
  return parts.join(' · ');
}

export function DeviceSelect(props: DeviceSelectProps) {
  const { value, onChange, unboundOnly, companyId, initialOption } = props;
  const t = useT(DEVICE_NS);
  const [options, setOptions] = useState<DeviceOption[]>(initialOption ? [initialOption] : []);
  const [search, setSearch] = useState('');
  const [loading, setLoading] = useState(false);
  const latest = useRef(0);

  const labelOf = (o: DeviceOption) => deviceOptionLabel(o, (plate) => t('installedOn', { plate }));
  // Picking an option puts its label in the search box: that is no new search.
  const keyword = options.some((o) => labelOf(o) === search) ? '' : search.trim();

  useEffect(() => {
    const ticket = ++latest.current;
    const timer = setTimeout(() => {
      setLoading(true);
      deviceApi.search({ keyword: keyword || undefined, unbound: unboundOnly || undefined, size: 50, ...(companyId ? { companyId } : {}) })
        .then((found) => {
          if (ticket !== latest.current) return;
          // The chosen device stays an option (a bound device is not in an unbound-only answer).
          setOptions((old) => {
            const chosen = old.filter((o) => o.deviceNo === value && !found.some((f) => f.deviceNo === o.deviceNo));
            return [...chosen, ...found];
          });
        })
        .catch(() => undefined)
        .finally(() => ticket === latest.current && setLoading(false));
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [keyword, unboundOnly, companyId, value]);

  const data = useMemo(() => {
    const list = initialOption && !options.some((o) => o.deviceNo === initialOption.deviceNo) ? [initialOption, ...options] : options;
    return list.map((o) => ({ value: o.deviceNo, label: labelOf(o) }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [options, initialOption, t]);

  return (
    <Select
      label={props.label ?? t('picker')}
      placeholder={props.placeholder ?? t('pickerPlaceholder')}
      description={props.description}
      error={props.error}
      required={props.required}
      disabled={props.disabled}
      clearable={props.clearable ?? true}
      searchable
      w={props.w}
      data={data}
      value={value}
      nothingFoundMessage={loading ? t('searching') : t('nothingFound')}
      onSearchChange={setSearch}
      onChange={(v) => onChange(v, options.find((o) => o.deviceNo === v) ?? (initialOption?.deviceNo === v ? initialOption : undefined))}
      filter={({ options: opts }) => opts /* the server filtered already */}
      data-testid={props.testId ?? 'device-select'}
    />
  );
}
