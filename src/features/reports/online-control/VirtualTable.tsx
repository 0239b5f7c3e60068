import { useRef, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Box, Button, LoadingOverlay, Stack, Table, Text } from '@mantine/core';
import { useT } from '../../../i18n/index.ts';
import { ONLINE_CONTROL_NS } from './messages.ts';
import { LAYERS } from '../../../shell/layers.ts';

export interface ReportColumn<T> {
  key: string;
  title: ReactNode;
  render: (row: T) => ReactNode;
  width?: number;
  align?: 'left' | 'right';
}

const ROW_HEIGHT = 34;

/**
 * A Mantine table that renders only the rows in view (a 2,000-vehicle summary or a page of 500
 * detail rows stays cheap): spacer rows above and below the visible window keep the scroll height.
 * Loading, empty and failed states; an optional totals row pinned under the header.
 */
export function VirtualTable<T>({
  rows,
  columns,
  rowKey,
  label,
  loading,
  failed,
  onRetry,
  totals,
}: {
  rows: readonly T[];
  columns: readonly ReportColumn<T>[];
  rowKey: (row: T, index: number) => string | number;
  label: string;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  /** Cells of the totals row by column key (absent keys stay empty). */
  totals?: Partial<Record<string, ReactNode>> | undefined;
}) {
  const t = useT(ONLINE_CONTROL_NS);
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read only in this component
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const top = items[0]?.start ?? 0;
  const bottom = items.length > 0 ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;
  const cell = (c: ReportColumn<T>) => ({ textAlign: c.align ?? 'left', whiteSpace: 'nowrap' as const });

  return (
    <Box pos="relative" style={{ flex: 1, minHeight: 160, display: 'flex', flexDirection: 'column' }}>
      <LoadingOverlay visible={loading} zIndex={LAYERS.tableOverlay} overlayProps={{ blur: 1 }} loaderProps={{ size: 'sm' }} />
      <div ref={scrollRef} style={{ flex: 1, minHeight: 0, overflow: 'auto' }} data-testid="report-scroll">
        <Table striped highlightOnHover withTableBorder stickyHeader aria-label={label} aria-busy={loading} aria-rowcount={rows.length + 1}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c.key} style={{ ...cell(c), minWidth: c.width }}>
                  {c.title}
                </Table.Th>
              ))}
            </Table.Tr>
            {totals && rows.length > 0 && (
              <Table.Tr data-row="totals" style={{ fontWeight: 600 }}>
                {columns.map((c, k) => (
                  <Table.Th key={c.key} style={cell(c)}>
                    {k === 0 ? t('table.totals') : totals[c.key]}
                  </Table.Th>
                ))}
              </Table.Tr>
            )}
          </Table.Thead>
          <Table.Tbody>
            {top > 0 && <tr style={{ height: top }} aria-hidden />}
            {items.map((item) => {
              const row = rows[item.index];
              if (row === undefined) return null;
              return (
                <Table.Tr key={rowKey(row, item.index)} style={{ height: ROW_HEIGHT }} aria-rowindex={item.index + 2}>
                  {columns.map((c) => (
                    <Table.Td key={c.key} style={cell(c)}>
                      {c.render(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
            {bottom > 0 && <tr style={{ height: bottom }} aria-hidden />}
          </Table.Tbody>
        </Table>
        {!loading && rows.length === 0 && (
          <Stack align="center" gap="xs" p="lg">
            <Text c={failed ? 'red' : 'dimmed'} size="sm" role={failed ? 'alert' : undefined}>
              {failed ? t('table.failed') : t('table.empty')}
            </Text>
            {failed && (
              <Button size="xs" variant="light" onClick={onRetry}>
                {t('table.retry')}
              </Button>
            )}
          </Stack>
        )}
      </div>
    </Box>
  );
}
