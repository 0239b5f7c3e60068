/** Pieces both analysis report pages use: the stat tiles and the small figure tables. */
import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { RowsTable, rowsTableHeight } from '../../kit/RowsTable.tsx';

export function Stats({ items }: { items: readonly { key: string; label: string; value: ReactNode }[] }) {
  return (
    <SimpleGrid cols={{ base: 3, lg: 6 }} spacing="sm">
      {items.map((s) => (
        <Paper key={s.key} withBorder p="xs" data-testid={`stat-${s.key}`}>
          <Text size="xs" c="dimmed">{s.label}</Text>
          <Text fw={700} size="lg" data-testid={`stat-${s.key}-value`}>{s.value}</Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** Column makers with the table's row type fixed (so `(r) => r.count` needs no annotation). */
export interface ColumnMakers<T> {
  /** A column of figures (counts, km, rates): right-aligned, 80–120 px. */
  figure: (key: string, title: string, render: (row: T) => ReactNode) => KitColumn<T>;
  /** A column of names (category, alarm type, company…) between `minWidth` and `maxWidth` px. */
  named: (key: string, title: string, render: (row: T) => ReactNode, minWidth?: number, maxWidth?: number) => KitColumn<T>;
}

const MAKERS: ColumnMakers<never> = {
  figure: (key, title, render) => ({ key, title, render, minWidth: 80, maxWidth: 120, align: 'right' }),
  named: (key, title, render, minWidth = 120, maxWidth = 240) => ({ key, title, render, minWidth, maxWidth }),
};

/**
 * A titled table of a report's figures (≤ 31 rows: a month's days, the top 10, five categories) on the
 * kit's RowsTable, tall enough for every row, so the page scrolls rather than the table.
 */
export function FigureTable<T>({ columns, rows, rowKey, testId, title }: {
  columns: (make: ColumnMakers<T>) => KitColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  testId: string;
  /** The heading above the table and its accessible name. */
  title: string;
}) {
  return (
    <Stack gap={4}>
      <Text fw={600}>{title}</Text>
      <RowsTable
        rows={rows}
        columns={columns(MAKERS as unknown as ColumnMakers<T>)}
        rowKey={rowKey}
        label={title}
        testId={testId}
        height={rowsTableHeight(rows.length, { max: Infinity })}
        rowAttributes={() => ({ 'data-testid': `${testId}-row` })}
      />
    </Stack>
  );
}
