/** Pieces the three alarm-settings pages share: loading the list for the selected company, and the states. */
import { Alert, Button, Center, Group, Loader, Select, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Fragment, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { alarmName } from '../../../domain/alarms/catalogue.ts';
import { isApiError } from '../../api/http.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { useCompanySelection } from '../../session/company-selection.ts';
import { ALARM_SETTINGS_NS } from './messages.ts';
import { FILTER_GROUPS, type RowFilter } from './settings-model.ts';

/** Height of the scrolling table area. */
export const TABLE_HEIGHT = 560;

export function errorText(e: unknown): string {
  return isApiError(e) ? e.msg : e instanceof Error ? e.message : String(e);
}

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
  loading: boolean;
  error: string | null;
  /** Loads again; resolves to null when the new data arrived, else the error's text. */
  reload: () => Promise<string | null>;
}

/**
 * Loads `fetcher` once on mount (for the selected company: the request client adds its id). The
 * pages mount under `<PerCompany>`, so a new company remounts them with no stale rows or drafts.
 */
export function useCompanyLoad<T>(fetcher: (signal?: AbortSignal) => Promise<T>): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const seq = useRef(0);

  /** Settles one load: only the latest load's answer is applied. */
  const settle = useCallback(
    (request: Promise<T>, signal?: AbortSignal): Promise<string | null> => {
      const mine = ++seq.current;
      return request.then(
        (d) => {
          if (mine === seq.current) {
            setData(d);
            setError(null);
            setLoading(false);
          }
          return null;
        },
        (e: unknown) => {
          const text = errorText(e);
          if (!signal?.aborted && mine === seq.current) {
            setError(text);
            setLoading(false);
          }
          return text;
        },
      );
    },
    [],
  );

  useEffect(() => {
    const ctrl = new AbortController();
    void settle(fetcher(ctrl.signal), ctrl.signal);
    return () => ctrl.abort();
  }, [fetcher, settle]);

  const reload = useCallback(() => {
    setLoading(true);
    return settle(fetcher());
  }, [fetcher, settle]);
  return { data, loading, error, reload };
}

/** Renders `children` keyed by the selected company: switching company starts the page afresh. */
export function PerCompany({ children }: { children: ReactNode }) {
  const { companyId } = useCompanySelection();
  return <Fragment key={companyId ?? 'own'}>{children}</Fragment>;
}

/** Loading / error / empty placeholder for a table area; null when there are rows to show. */
export function ListState({ loaded, empty }: { loaded: Loaded<unknown>; empty: boolean }) {
  const t = useT(ALARM_SETTINGS_NS);
  if (loaded.data === null && loaded.loading) {
    return (
      <Center h={120} data-testid="settings-loading">
        <Loader size="sm" />
        <Text ml="sm">{t('state.loading')}</Text>
      </Center>
    );
  }
  if (loaded.data === null && loaded.error !== null) {
    return (
      <Alert color="red" data-testid="settings-error">
        <Group justify="space-between">
          <Text size="sm">{t('state.failed', { msg: loaded.error })}</Text>
          <Button size="xs" variant="light" onClick={() => void loaded.reload()}>{t('state.retry')}</Button>
        </Group>
      </Alert>
    );
  }
  if (empty) {
    return (
      <Text c="dimmed" ta="center" py="lg" data-testid="settings-empty">{t('state.empty')}</Text>
    );
  }
  return null;
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
