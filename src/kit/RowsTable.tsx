import { useLayoutEffect, useRef, type CSSProperties, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Alert, Box, Button, Checkbox, Group, LoadingOverlay, Table, Text } from '@mantine/core';
import { useT } from '../i18n/index.ts';
import { LAYERS } from '../shell/layers.ts';
import { errorText } from './errors.ts';
import { KIT_NS } from './messages.ts';
import type { KitColumn } from './ResourceTable.tsx';

export interface RowsTableProps<T> {
  /** Every row the screen holds (a report's all pages, a terminal's file list): the table pages nothing. */
  rows: readonly T[];
  columns: readonly KitColumn<T>[];
  rowKey: (row: T, index: number) => string | number;
  /** Accessible name of the table (the screen's or the panel's title). */
  label: string;
  loading?: boolean;
  /** The failure of the last load; shown with the server's message and 重试 (`onRetry`). */
  error?: unknown;
  onRetry?: () => void;
  /** Text when there are no rows and nothing failed. @default 暂无数据 */
  emptyText?: string;
  /** The row's actions, pinned to the right edge and always visible. */
  actions?: { render: (row: T) => ReactNode; width: number };
  /** Cells of a totals row under the header, by column key (the first column says 合计 when absent). */
  totals?: Partial<Record<string, ReactNode>> | undefined;
  /** A click on a row (e.g. plays the recording); the row with `selectedKey` is highlighted. */
  onRowClick?: (row: T) => void;
  selectedKey?: string | number | undefined;
  /**
   * Check-box selection (batch actions): a first column of boxes, and a header box that selects
   * every row shown or, when all are selected, none of them (keys of rows not shown are kept).
   */
  selection?: RowSelection<T>;
  /** Extra attributes of each row (tests find rows by them). */
  rowAttributes?: (row: T, index: number) => Record<string, string | number | undefined>;
  /** Fixed height (px) instead of filling the parent's flex column (`rowsTableHeight` fits a few rows). */
  height?: number;
  /** `data-testid` of the table's box (tests find a screen's tables by it). */
  testId?: string;
}

export interface RowSelection<T> {
  selected: ReadonlySet<string | number>;
  onChange: (next: Set<string | number>) => void;
  /** Accessible name of a row's box (e.g. the alarm type or the photo id). */
  rowLabel: (row: T) => string;
}

const ROW_HEIGHT = 36;
const SELECT = '__select';
const SELECT_WIDTH = 40;
const ACTIONS = '__actions';

/** The height that shows `rows` rows (plus the header and a totals row) without scrolling, at most `max` px. */
export function rowsTableHeight(rows: number, { totals = false, max = 600 }: { totals?: boolean; max?: number } = {}): number {
  // + 2 px: the table's top and bottom border.
  return Math.min(max, (Math.max(rows, 1) + 1 + (totals ? 1 : 0)) * ROW_HEIGHT + 2);
}

/**
 * The kit's table for rows the screen already holds (a report's every vehicle, a terminal's file
 * list, a settings list): the same column rules as `ResourceTable` (each column between its min and
 * max width, sideways scrolling instead of crushing, a filler takes leftover width on wide screens,
 * actions pinned right, `data-min-width` on header cells for the layout checks), with rows
 * virtualised by @tanstack/react-virtual so 2,000 vehicles stay cheap. Server-paged lists use
 * `ResourceTable` instead.
 */
export function RowsTable<T>(props: RowsTableProps<T>) {
  const { rows, columns, actions, totals, selectedKey } = props;
  const t = useT(KIT_NS);
  const scrollRef = useRef<HTMLDivElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);
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

  const minWidths = JSON.stringify(columns.map((c) => [c.key, c.minWidth]).concat(actions ? [[ACTIONS, actions.width]] : []));
  useLayoutEffect(() => {
    const table = tableRef.current;
    if (!table) return;
    for (const [key, min] of JSON.parse(minWidths) as [string, number][]) {
      table.querySelector(`thead th[data-accessor="${key}"]`)?.setAttribute('data-min-width', String(min));
    }
  }, [minWidths]);

  const sized = (c: KitColumn<T>): CSSProperties => ({ minWidth: c.minWidth, maxWidth: c.maxWidth, width: c.maxWidth, textAlign: c.align ?? 'left' });
  const pinned = (header: boolean): CSSProperties => ({
    position: 'sticky',
    right: 0,
    width: actions?.width,
    minWidth: actions?.width,
    background: 'var(--mantine-color-body)',
    zIndex: header ? LAYERS.tableHeader : LAYERS.tablePinned,
    boxShadow: 'inset 1px 0 0 var(--table-border-color, var(--mantine-color-default-border))',
  });
  const failure = props.error === undefined || props.error === null ? undefined : errorText(props.error);
  const colSpan = columns.length + 1 + (actions ? 1 : 0) + (props.selection ? 1 : 0);
  const selection = props.selection;
  const keys = selection ? rows.map((r, i) => props.rowKey(r, i)) : [];
  const selectedCount = selection ? keys.filter((k) => selection.selected.has(k)).length : 0;
  const allSelected = keys.length > 0 && selectedCount === keys.length;
  const toggle = (which: readonly (string | number)[], on: boolean) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    for (const k of which) {
      if (on) next.add(k);
      else next.delete(k);
    }
    selection.onChange(next);
  };
  const boxCell: CSSProperties = { width: SELECT_WIDTH, minWidth: SELECT_WIDTH };

  return (
    <Box
      pos="relative"
      data-testid={props.testId}
      style={props.height === undefined ? { flex: 1, minHeight: 160, display: 'flex', flexDirection: 'column' } : { height: props.height, display: 'flex', flexDirection: 'column' }}
    >
      {failure !== undefined && rows.length > 0 && (
        <Alert color="red" role="alert" py={6} mb={4} data-testid="list-error">
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">{t('loadFailed', { msg: failure })}</Text>
            {props.onRetry && (
              <Button size="compact-xs" variant="light" color="red" onClick={props.onRetry}>
                {t('retry')}
              </Button>
            )}
          </Group>
        </Alert>
      )}
      <LoadingOverlay visible={props.loading ?? false} zIndex={LAYERS.tableOverlay} overlayProps={{ blur: 1 }} loaderProps={{ size: 'sm' }} />
      <div ref={scrollRef} style={{ flex: 1, minHeight: 0, overflow: 'auto' }} data-testid="rows-scroll">
        <Table
          ref={tableRef}
          striped
          highlightOnHover
          withTableBorder
          stickyHeader
          aria-label={props.label}
          aria-busy={props.loading ?? false}
          aria-rowcount={rows.length + 1}
          style={{ width: '100%' }}
        >
          <Table.Thead style={{ zIndex: LAYERS.tableHeader }}>
            <Table.Tr>
              {selection && (
                <Table.Th data-accessor={SELECT} style={boxCell}>
                  <Checkbox
                    size="xs" aria-label={t('selectAll')} checked={allSelected} indeterminate={!allSelected && selectedCount > 0}
                    disabled={keys.length === 0} onChange={() => toggle(keys, !allSelected)} data-testid="rows-select-all"
                  />
                </Table.Th>
              )}
              {columns.map((c) => (
                <Table.Th key={c.key} data-accessor={c.key} style={sized(c)}>
                  {c.title}
                </Table.Th>
              ))}
              <Table.Th data-accessor="__filler" aria-hidden />
              {actions && (
                <Table.Th data-accessor={ACTIONS} style={pinned(true)}>
                  {t('actions')}
                </Table.Th>
              )}
            </Table.Tr>
            {totals && rows.length > 0 && (
              <Table.Tr data-row="totals" style={{ fontWeight: 600 }}>
                {selection && <Table.Th style={boxCell} />}
                {columns.map((c, k) => (
                  <Table.Th key={c.key} style={{ textAlign: c.align ?? 'left' }} data-col={c.key}>
                    {totals[c.key] ?? (k === 0 ? t('totals') : null)}
                  </Table.Th>
                ))}
                <Table.Th aria-hidden />
                {actions && <Table.Th style={pinned(true)} />}
              </Table.Tr>
            )}
          </Table.Thead>
          <Table.Tbody>
            {top > 0 && <tr style={{ height: top }} aria-hidden />}
            {items.map((item) => {
              const row = rows[item.index];
              if (row === undefined) return null;
              const key = props.rowKey(row, item.index);
              return (
                <Table.Tr
                  key={key}
                  {...props.rowAttributes?.(row, item.index)}
                  aria-rowindex={item.index + 2}
                  aria-selected={selectedKey === undefined ? undefined : selectedKey === key}
                  bg={selectedKey !== undefined && selectedKey === key ? 'var(--mantine-primary-color-light)' : undefined}
                  style={{ height: ROW_HEIGHT, cursor: props.onRowClick ? 'pointer' : undefined }}
                  onClick={props.onRowClick ? () => props.onRowClick?.(row) : undefined}
                >
                  {selection && (
                    <Table.Td style={boxCell} onClick={(e) => e.stopPropagation()}>
                      <Checkbox size="xs" aria-label={selection.rowLabel(row)} checked={selection.selected.has(key)} onChange={(e) => toggle([key], e.currentTarget.checked)} data-testid="rows-select" />
                    </Table.Td>
                  )}
                  {columns.map((c) => (
                    <Table.Td key={c.key} style={sized(c)} data-col={c.key}>
                      {c.render(row)}
                    </Table.Td>
                  ))}
                  <Table.Td aria-hidden />
                  {actions && <Table.Td style={pinned(false)}>{actions.render(row)}</Table.Td>}
                </Table.Tr>
              );
            })}
            {bottom > 0 && <tr style={{ height: bottom }} aria-hidden />}
            {rows.length === 0 && !(props.loading ?? false) && (
              <Table.Tr>
                <Table.Td colSpan={colSpan} style={{ textAlign: 'center', padding: 24 }}>
                  <Text size="sm" c={failure === undefined ? 'dimmed' : 'red'} role={failure === undefined ? undefined : 'alert'} data-testid="rows-empty">
                    {failure === undefined ? (props.emptyText ?? t('empty')) : t('loadFailed', { msg: failure })}
                  </Text>
                  {failure !== undefined && props.onRetry && (
                    <Button mt="xs" size="xs" variant="light" onClick={props.onRetry}>
                      {t('retry')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </div>
    </Box>
  );
}
