/**
 * The rows of a statistics result as a virtualised grid (a fleet's per-vehicle table can hold
 * thousands of rows): a totals row under the header, a click on a row opens its alarms.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type ReactNode } from 'react';

export interface StatsColumn<R> {
  key: string;
  title: ReactNode;
  render: (row: R) => ReactNode;
  /** CSS grid track, e.g. `1.5fr` or `90px`. @default '1fr' */
  width?: string;
  align?: 'left' | 'right';
}

const ROW_HEIGHT = 32;

export function StatsTable<R>({ rows, columns, rowKey, totals, onRow, testId = 'stats-table' }: {
  rows: readonly R[];
  columns: readonly StatsColumn<R>[];
  rowKey: (row: R, index: number) => string;
  totals?: Partial<Record<string, ReactNode>>;
  onRow?: (row: R, index: number) => void;
  testId?: string;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read only in this component
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const grid = columns.map((c) => c.width ?? '1fr').join(' ');
  const line = { display: 'grid', gridTemplateColumns: grid, columnGap: 12, alignItems: 'center', fontSize: 13, padding: '0 6px', borderBottom: '1px solid var(--mantine-color-default-border)' } as const;
  const cell = (c: StatsColumn<R>) => ({ textAlign: c.align ?? 'left', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }) as const;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', minHeight: 160, minWidth: 0, flex: 1 }} data-testid={testId} data-rows={rows.length}>
      <div style={{ ...line, fontWeight: 600, height: ROW_HEIGHT }}>
        {columns.map((c) => <span key={c.key} style={cell(c)}>{c.title}</span>)}
      </div>
      {totals && (
        <div style={{ ...line, fontWeight: 600, height: ROW_HEIGHT, background: 'var(--mantine-color-default-hover)' }} data-testid={`${testId}-totals`}>
          {columns.map((c) => <span key={c.key} style={cell(c)} data-col={c.key}>{totals[c.key] ?? ''}</span>)}
        </div>
      )}
      <div ref={scrollRef} style={{ flex: 1, minHeight: 120, overflow: 'auto' }}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (row === undefined) return null;
            return (
              <div
                key={rowKey(row, item.index)}
                data-testid={`${testId}-row`}
                data-key={rowKey(row, item.index)}
                onClick={onRow ? () => onRow(row, item.index) : undefined}
                style={{ ...line, position: 'absolute', top: item.start, left: 0, right: 0, height: ROW_HEIGHT, cursor: onRow ? 'pointer' : undefined }}
              >
                {columns.map((c) => <span key={c.key} style={cell(c)} data-col={c.key}>{c.render(row)}</span>)}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
