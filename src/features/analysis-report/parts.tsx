/** Pieces both analysis report pages use: the stat tiles and the small figure tables. */
import { Button, Paper, SimpleGrid, Table, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';

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

export function FigureTable<T>({ columns, rows, rowKey, testId }: {
  columns: readonly { label: string; cell: (row: T) => ReactNode }[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  testId: string;
}) {
  return (
    <Table striped withTableBorder data-testid={testId}>
      <Table.Thead>
        <Table.Tr>{columns.map((c) => <Table.Th key={c.label}>{c.label}</Table.Th>)}</Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={rowKey(r)} data-testid={`${testId}-row`}>
            {columns.map((c) => <Table.Td key={c.label}>{c.cell(r)}</Table.Td>)}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** An export button: busy while the file is prepared; failures are shown by the request client. */
export function ExportButton({ label, run, disabled }: { label: string; run: () => Promise<void>; disabled?: boolean }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="sm" variant="default" mt={25} loading={busy} disabled={disabled} data-testid="export"
      onClick={() => {
        setBusy(true);
        run().catch(() => undefined).finally(() => setBusy(false));
      }}
    >
      {label}
    </Button>
  );
}
