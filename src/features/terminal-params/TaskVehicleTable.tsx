/** A command task's vehicles: plate, state badge (`<stateTestId>-<vehicleId>`, `data-state`) and result. Shared by every command task view. */
import { Badge, Table } from '@mantine/core';

type State = 'queued' | 'sent' | 'ok' | 'failed' | 'timeout';
const COLOR: Record<State, string> = { queued: 'gray', sent: 'blue', ok: 'green', failed: 'red', timeout: 'orange' };

export function TaskVehicleTable({ vehicles, headers, label, stateTestId, size }: {
  vehicles: readonly { vehicleId: number; vehiidno: string; state: State; result: number | null }[];
  headers: readonly [string, string, string];
  label: (state: State) => string;
  stateTestId: string;
  /** 'xs' for a compact card; the default size otherwise. */
  size?: 'xs';
}) {
  return (
    <Table withTableBorder fz={size}>
      <Table.Thead><Table.Tr>{headers.map((h) => <Table.Th key={h}>{h}</Table.Th>)}</Table.Tr></Table.Thead>
      <Table.Tbody>
        {vehicles.map((v) => (
          <Table.Tr key={v.vehicleId}>
            <Table.Td>{v.vehiidno}</Table.Td>
            <Table.Td><Badge size={size === 'xs' ? 'sm' : undefined} color={COLOR[v.state]} data-testid={`${stateTestId}-${v.vehicleId}`} data-state={v.state}>{label(v.state)}</Badge></Table.Td>
            <Table.Td>{v.result ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
