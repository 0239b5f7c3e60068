// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/http.ts';
import { RowsTable } from './RowsTable.tsx';
import type { KitColumn } from './ResourceTable.tsx';
import { stubBrowserApis, stubLayoutHeight } from './test-dom.ts';

interface Row {
  id: number;
  plate: string;
  km: number;
}

const ROWS: Row[] = Array.from({ length: 2000 }, (_, i) => ({ id: i + 1, plate: `京A${String(i + 1).padStart(5, '0')}`, km: i * 1.5 }));
const columns: KitColumn<Row>[] = [
  { key: 'plate', title: 'Plate', minWidth: 110, maxWidth: 160, render: (r) => r.plate },
  { key: 'km', title: 'km', minWidth: 80, maxWidth: 120, align: 'right', render: (r) => r.km.toFixed(1) },
];

let unstubLayout: () => void;
beforeAll(() => {
  stubBrowserApis();
  unstubLayout = stubLayoutHeight();
});
afterAll(() => unstubLayout());
afterEach(cleanup);

const wrap = (ui: React.ReactNode) => render(<MantineProvider>{ui}</MantineProvider>);

describe('RowsTable (rows the screen holds)', () => {
  it('renders only the rows in view of 2,000, with the totals row and the pinned actions', () => {
    const play = vi.fn();
    wrap(
      <RowsTable
        rows={ROWS}
        columns={columns}
        rowKey={(r) => r.id}
        label="Mileage"
        totals={{ km: '2,998,500.0' }}
        actions={{ width: 90, render: (r) => <button onClick={() => play(r.id)}>play {r.plate}</button> }}
      />,
    );
    const table = screen.getByRole('table', { name: 'Mileage' });
    const rendered = table.querySelectorAll('tbody tr[aria-rowindex]');
    expect(rendered.length).toBeGreaterThan(10);
    expect(rendered.length).toBeLessThan(100);
    expect(table.getAttribute('aria-rowcount')).toBe('2001');
    const totals = table.querySelector('tr[data-row="totals"]') as HTMLElement;
    expect(within(totals).getByText('合计')).toBeTruthy();
    expect(within(totals).getByText('2,998,500.0')).toBeTruthy();
    fireEvent.click(screen.getByText('play 京A00001'));
    expect(play).toHaveBeenCalledWith(1);
    expect(table.querySelector('th[data-accessor="plate"]')?.getAttribute('data-min-width')).toBe('110');
    expect((table.querySelector('th[data-accessor="__actions"]') as HTMLElement).style.position).toBe('sticky');
  });

  it('selects a row by click and marks it', () => {
    const pick = vi.fn();
    const { rerender } = wrap(<RowsTable rows={ROWS.slice(0, 5)} columns={columns} rowKey={(r) => r.id} label="t" onRowClick={pick} />);
    fireEvent.click(screen.getByText('京A00003'));
    expect(pick).toHaveBeenCalledWith(ROWS[2]);
    rerender(
      <MantineProvider>
        <RowsTable rows={ROWS.slice(0, 5)} columns={columns} rowKey={(r) => r.id} label="t" onRowClick={pick} selectedKey={3} />
      </MantineProvider>,
    );
    expect(screen.getByText('京A00003').closest('tr')?.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('京A00002').closest('tr')?.getAttribute('aria-selected')).toBe('false');
  });

  it('selects rows by their boxes, and all shown rows (or none) by the header box, keeping keys not shown', () => {
    const change = vi.fn();
    const shown = ROWS.slice(0, 3);
    const selection = (selected: Set<string | number>) => ({ selected, onChange: change, rowLabel: (r: Row) => r.plate });
    const { rerender } = wrap(<RowsTable rows={shown} columns={columns} rowKey={(r) => r.id} label="t" selection={selection(new Set([99]))} />);
    fireEvent.click(screen.getByRole('checkbox', { name: '京A00002' }));
    expect([...(change.mock.lastCall?.[0] as Set<number>)].sort()).toEqual([2, 99]);
    fireEvent.click(screen.getByRole('checkbox', { name: '全选' }));
    expect([...(change.mock.lastCall?.[0] as Set<number>)].sort((a, b) => a - b)).toEqual([1, 2, 3, 99]);
    rerender(
      <MantineProvider>
        <RowsTable rows={shown} columns={columns} rowKey={(r) => r.id} label="t" selection={selection(new Set([1, 2, 3, 99]))} />
      </MantineProvider>,
    );
    expect((screen.getByRole('checkbox', { name: '全选' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: '全选' }));
    expect([...(change.mock.lastCall?.[0] as Set<number>)]).toEqual([99]);
  });

  it('says the table is empty, or why it failed with a retry', () => {
    const retry = vi.fn();
    const { rerender } = wrap(<RowsTable rows={[]} columns={columns} rowKey={(r) => r.id} label="t" emptyText="该终端没有录像" />);
    expect(screen.getByTestId('rows-empty').textContent).toBe('该终端没有录像');
    rerender(
      <MantineProvider>
        <RowsTable rows={[]} columns={columns} rowKey={(r) => r.id} label="t" error={new ApiError(500, '终端未应答')} onRetry={retry} />
      </MantineProvider>,
    );
    expect(screen.getByRole('alert').textContent).toContain('终端未应答');
    fireEvent.click(screen.getByText('重试'));
    expect(retry).toHaveBeenCalled();
  });
});
