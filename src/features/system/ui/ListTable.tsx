import type { ReactNode } from 'react';
import { Box, Button, Group, LoadingOverlay, Pagination, Select, Stack, Table, Text } from '@mantine/core';
import { useT } from '../../../i18n/index.ts';
import { SYSTEM_NS } from '../messages.ts';
import { PAGE_SIZES, type PagedList } from './usePagedList.ts';

export interface Column<T> {
  key: string;
  title: ReactNode;
  render: (row: T) => ReactNode;
  width?: number | string;
}

/** A server-paged Mantine table with loading, empty and failed states and a pager. */
export function ListTable<T extends { id: number }>({ list, columns, label }: { list: PagedList<T>; columns: Column<T>[]; label: string }) {
  const t = useT(SYSTEM_NS);
  const { page, loading, failed, query } = list;
  const records = page?.records ?? [];
  const total = page?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / query.size));
  return (
    <Stack gap="xs" style={{ minHeight: 0, flex: 1 }}>
      <Box pos="relative" style={{ flex: 1, minHeight: 120, overflow: 'auto' }}>
        <LoadingOverlay visible={loading} zIndex={5} overlayProps={{ blur: 1 }} loaderProps={{ size: 'sm' }} />
        <Table striped highlightOnHover withTableBorder stickyHeader aria-label={label} aria-busy={loading}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c.key} style={c.width ? { width: c.width } : undefined}>
                  {c.title}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {records.map((r) => (
              <Table.Tr key={r.id} data-row-id={r.id}>
                {columns.map((c) => (
                  <Table.Td key={c.key}>{c.render(r)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {!loading && records.length === 0 && (
          <Stack align="center" gap="xs" p="lg">
            <Text c={failed ? 'red' : 'dimmed'} size="sm">
              {failed ? t('common.loadFailed') : t('common.empty')}
            </Text>
            {failed && (
              <Button size="xs" variant="light" onClick={list.reload}>
                {t('common.retry')}
              </Button>
            )}
          </Stack>
        )}
      </Box>
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" c="dimmed">
          {t('common.total', { total })}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Select
            size="xs"
            w={120}
            aria-label={t('common.pageSize', { size: query.size })}
            data={PAGE_SIZES.map((s) => ({ value: String(s), label: t('common.pageSize', { size: s }) }))}
            value={String(query.size)}
            onChange={(v) => v && list.setSize(Number(v))}
            allowDeselect={false}
          />
          <Pagination size="sm" total={pages} value={Math.min(query.current, pages)} onChange={list.setCurrent} />
        </Group>
      </Group>
    </Stack>
  );
}
