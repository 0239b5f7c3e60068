/** Pieces the three alarm-settings pages share: loading the list for the selected company, notices, the filter. */
import { Select, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useCallback, type ReactNode } from 'react';
import { alarmName } from '../../../domain/alarms/catalogue.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { errorText } from '../../kit/errors.ts';
import { resourceKey } from '../../kit/query.ts';
import { useCompanySelection } from '../../session/company-selection.ts';
import { ALARM_SETTINGS_NS } from './messages.ts';
import { FILTER_GROUPS, type RowFilter } from './settings-model.ts';

/** The key of the pages' server state: the settings and linkage pages read the same list. */
const SETTINGS_ROUTE = '/safeManagement/alarmSettings';

export function notifyFailure(what: string, e: unknown): void {
  notifications.show({ color: 'red', message: `${what}: ${errorText(e)}` });
}

export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message });
}

export function notifyInfo(message: string): void {
  notifications.show({ color: 'blue', message });
}

export interface Loaded<T> {
  data: T | null;
  /** The first load is in flight (nothing to show yet). */
  loading: boolean;
  /** The last load's failure, as the server worded it. */
  error: unknown;
  /** Loads again; resolves to null when the new data arrived, else the error's text. */
  reload: () => Promise<string | null>;
}

/**
 * The selected company's list of one call (`call` names it in the key) on TanStack Query: the request
 * client adds the company's id; the pages mount under `<PerCompany>`, so a new company also starts
 * their drafts afresh. A reload after a write answers whether it worked (the page says so).
 */
export function useCompanyLoad<T>(call: string, fetcher: (signal?: AbortSignal) => Promise<T>): Loaded<T> {
  const { companyId } = useCompanySelection();
  const query = useQuery({ queryKey: resourceKey(SETTINGS_ROUTE, call, { companyId }), queryFn: ({ signal }) => fetcher(signal) });
  const { refetch } = query;
  const reload = useCallback(async () => {
    const r = await refetch();
    return r.isError ? errorText(r.error) : null;
  }, [refetch]);
  return { data: query.data ?? null, loading: query.data === undefined && query.isFetching, error: query.isError ? query.error : undefined, reload };
}

/** Renders `children` keyed by the selected company: switching company starts the page afresh. */
export function PerCompany({ children }: { children: ReactNode }) {
  const { companyId } = useCompanySelection();
  return <Fragment key={companyId ?? 'own'}>{children}</Fragment>;
}

/** The group Select and the search box. */
export function FilterBar({ filter, onChange }: { filter: RowFilter; onChange: (f: RowFilter) => void }) {
  const t = useT(ALARM_SETTINGS_NS);
  const lang = useLang();
  const groups = [{ value: '', label: t('filter.allGroups') }, ...FILTER_GROUPS.map((g) => ({ value: String(g), label: alarmName(g, lang) }))];
  return (
    <>
      <Select
        label={t('filter.group')} data={groups} value={filter.group === null ? '' : String(filter.group)} allowDeselect={false} w={200}
        onChange={(v) => onChange({ ...filter, group: v ? Number(v) : null })} data-testid="settings-group"
      />
      <TextInput
        label={t('filter.search')} placeholder={t('filter.searchPlaceholder')} value={filter.search} w={240}
        onChange={(e) => onChange({ ...filter, search: e.currentTarget.value })} data-testid="settings-search"
      />
    </>
  );
}

/** The group's name for a type row. */
export function groupName(group: number, lang: 'zh' | 'en'): string {
  return alarmName(group, lang);
}
