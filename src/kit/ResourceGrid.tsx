import type { ReactNode } from 'react';
import { Alert, Box, Button, Group, LoadingOverlay, Pagination, Select, Stack, Text } from '@mantine/core';
import { useT } from '../i18n/index.ts';
import { LAYERS } from '../shell/layers.ts';
import { errorText } from './errors.ts';
import { KIT_NS } from './messages.ts';
import { PAGE_SIZES, type ResourceList } from './useResourceList.ts';

export interface ResourceGridProps<T> {
  list: ResourceList<T>;
  /** Accessible name of the region (the screen's title). */
  label: string;
  /** The current page's records laid out as the screen likes (a photo grid, cards). */
  children: (records: T[]) => ReactNode;
  /** Text when the list is empty and nothing failed. @default 暂无数据 */
  emptyText?: string;
}

/**
 * A server-paged list that is not a table (a photo grid): the same paging, page sizes, loading veil,
 * empty and failure states as `ResourceTable`, around whatever the screen draws for one page. The
 * previous page stays visible under the veil while the next one loads (useResourceList keeps it).
 */
export function ResourceGrid<T>({ list, label, children, emptyText }: ResourceGridProps<T>) {
  const t = useT(KIT_NS);
  const failure = list.error === undefined ? undefined : errorText(list.error);
  const { current, size } = list.query;
  const pages = Math.max(1, Math.ceil(list.total / size));
  const from = list.total === 0 ? 0 : (current - 1) * size + 1;
  const to = Math.min(list.total, current * size);
  const empty = list.records.length === 0;
  const retry = (
    <Button size="compact-xs" variant="light" color="red" onClick={() => void list.invalidate()}>
      {t('retry')}
    </Button>
  );
  return (
    <Stack gap="sm" role="region" aria-label={label} aria-busy={list.fetching} data-testid="resource-grid">
      {failure !== undefined && !empty && (
        <Alert color="red" role="alert" py={6} data-testid="list-error">
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">{t('loadFailed', { msg: failure })}</Text>
            {retry}
          </Group>
        </Alert>
      )}
      <Box pos="relative" mih={160}>
        <LoadingOverlay visible={list.fetching} zIndex={LAYERS.tableOverlay} overlayProps={{ blur: 1 }} loaderProps={{ size: 'sm' }} />
        {empty && !list.fetching && (
          <Stack align="center" gap="xs" py="xl">
            <Text size="sm" c={failure === undefined ? 'dimmed' : 'red'} role={failure === undefined ? undefined : 'alert'} data-testid="grid-empty">
              {failure === undefined ? (emptyText ?? t('empty')) : t('loadFailed', { msg: failure })}
            </Text>
            {failure !== undefined && retry}
          </Stack>
        )}
        {!empty && children(list.records)}
      </Box>
      {list.total > 0 && (
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Text size="sm" c="dimmed" data-testid="list-total" data-total={list.total}>
            {`${t('range', { from, to })} · ${t('total', { total: list.total })}`}
          </Text>
          <Group gap="sm" wrap="nowrap">
            <Select
              size="xs" w={110} aria-label={t('pageSize', { size })} value={String(size)} allowDeselect={false}
              data={PAGE_SIZES.map((n) => ({ value: String(n), label: t('pageSize', { size: n }) }))}
              onChange={(v) => v && list.setSize(Number(v))} data-testid="page-size"
            />
            <Pagination size="sm" total={pages} value={Math.min(current, pages)} onChange={list.setCurrent} />
          </Group>
        </Group>
      )}
    </Stack>
  );
}
