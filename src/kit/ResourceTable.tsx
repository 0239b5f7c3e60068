import 'mantine-datatable/styles.css';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { ActionIcon, Alert, Button, Group, Text, Tooltip } from '@mantine/core';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useColumnWidths } from './column-widths.ts';
import { errorText } from './errors.ts';
import { KIT_NS } from './messages.ts';
import { PAGE_SIZES, type ResourceList } from './useResourceList.ts';
import { useT } from '../i18n/index.ts';

export interface KitColumn<T> {
  /** Stable key: the header cell's `data-accessor` and the column store's key. */
  key: string;
  title: ReactNode;
  render: (row: T) => ReactNode;
  /** px. The column never gets narrower: the table scrolls sideways instead of crushing it. */
  minWidth: number;
  /** px. Longer content wraps; extra screen width goes to an empty filler, not to this column. */
  maxWidth: number;
  /** Numbers read better right-aligned. @default 'left' */
  align?: 'left' | 'right';
}

export interface ResourceTableProps<T extends { id: number }> {
  list: ResourceList<T>;
  columns: KitColumn<T>[];
  /** The row's actions, pinned to the right edge and always visible. */
  actions?: { render: (row: T) => ReactNode; width: number };
  /** Accessible name of the table (the screen's title). */
  label: string;
  /** Extra attributes of each row besides `data-row-id` (tests find a screen's rows by them). */
  rowAttributes?: (row: T) => Record<string, string | number | undefined>;
  /**
   * Check-box selection for batch actions (a first column of boxes; the header box selects the page).
   * The screen holds the selected records, so a selection survives paging.
   */
  selection?: { selected: T[]; onChange: (selected: T[]) => void };
  /**
   * Column resizing: drag a header's right edge (double-click it to undo that pair). Widths stay within
   * each column's min and max, are kept in this browser (localStorage `kit-table:<storeKey>-columns-width`)
   * and a 恢复默认列宽 button in the last header appears once a width was changed. ListPage passes the
   * route: keep the key stable, or users lose their widths. Without it, columns are not resizable.
   */
  storeKey?: string;
}

const FILLER = '__filler';
const ACTIONS = '__actions';

/**
 * The console's one server-paged table (mantine-datatable). Each column keeps between its min and
 * max width: the columns ask for their max width, the browser shrinks them no further than their
 * `min-width`, and when even the minimums do not fit the table scrolls sideways. A filler column
 * without a title takes the width left over on wide screens (3840 px), so no data column balloons.
 * The action column is pinned right. Header cells carry `data-min-width` for the e2e layout checks.
 */
export function ResourceTable<T extends { id: number }>({ list, columns, actions, label, rowAttributes, selection, storeKey }: ResourceTableProps<T>) {
  const t = useT(KIT_NS);
  const tableEl = useRef<HTMLTableElement | null>(null);
  const minWidths = JSON.stringify(columns.map((c) => [c.key, c.minWidth]).concat(actions ? [[ACTIONS, actions.width]] : []));

  // mantine-datatable gives header cells no custom attributes, but marks each with data-accessor.
  useLayoutEffect(() => {
    const table = tableEl.current;
    if (!table) return;
    for (const [key, min] of JSON.parse(minWidths) as [string, number][]) {
      table.querySelector(`thead th[data-accessor="${key}"]`)?.setAttribute('data-min-width', String(min));
    }
  });

  const sized = (min: number, max: number, align?: 'left' | 'right') => ({ minWidth: min, maxWidth: max, textAlign: align });
  const resizable = storeKey !== undefined;
  const dataColumns: DataTableColumn<T>[] = columns.map((c) => ({
    accessor: c.key,
    title: c.title,
    resizable,
    width: c.maxWidth,
    titleStyle: sized(c.minWidth, c.maxWidth, c.align),
    cellsStyle: () => sized(c.minWidth, c.maxWidth, c.align),
    render: (row: T) => c.render(row),
  }));
  dataColumns.push({ accessor: FILLER, title: '', render: () => null });
  if (actions) {
    dataColumns.push({
      accessor: ACTIONS,
      title: t('actions'),
      width: actions.width,
      titleStyle: sized(actions.width, actions.width),
      cellsStyle: () => sized(actions.width, actions.width),
      render: (row: T) => actions.render(row),
    });
  }

  const bounds = new Map(columns.map((c) => [c.key, { min: c.minWidth, max: c.maxWidth }]));
  if (actions) bounds.set(ACTIONS, { min: actions.width, max: actions.width });
  const widths = useColumnWidths(storeKey, dataColumns, bounds, [FILLER]);
  // The reset sits in the last header (the pinned actions, else the filler): always in view.
  const last = dataColumns[dataColumns.length - 1]!;
  const shownColumns = widths.customised
    ? [
      ...dataColumns.slice(0, -1),
      {
        ...last,
        title: (
          <Group gap={4} wrap="nowrap" justify="space-between">
            {last.title}
            <Tooltip label={t('resetWidths')}>
              <ActionIcon size="xs" variant="subtle" aria-label={t('resetWidths')} data-testid="reset-widths" onClick={(e) => { e.stopPropagation(); widths.reset(); }}>
                ↺
              </ActionIcon>
            </Tooltip>
          </Group>
        ),
      },
    ]
    : dataColumns;

  const failure = list.error === undefined ? undefined : errorText(list.error);
  const { current, size } = list.query;
  return (
    <>
      {failure !== undefined && (
        <Alert color="red" role="alert" py={6} data-testid="list-error">
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">{t('loadFailed', { msg: failure })}</Text>
            <Button size="compact-xs" variant="light" color="red" onClick={() => void list.invalidate()}>
              {t('retry')}
            </Button>
          </Group>
        </Alert>
      )}
      <DataTable<T>
        aria-label={label}
        aria-busy={list.fetching}
        tableRef={(el) => {
          tableEl.current = el;
        }}
        withTableBorder
        striped
        highlightOnHover
        minHeight={160}
        style={{ flex: 1, minHeight: 0 }}
        records={list.records}
        idAccessor="id"
        columns={shownColumns}
        storeColumnsKey={widths.key}
        pinLastColumn={actions !== undefined}
        fetching={list.fetching}
        loadingText={t('loading')}
        noRecordsText={failure === undefined ? t('empty') : t('loadFailed', { msg: failure })}
        customRowAttributes={(row) => ({ ...rowAttributes?.(row), 'data-row-id': row.id })}
        {...(selection ? { selectedRecords: selection.selected, onSelectedRecordsChange: selection.onChange } : {})}
        page={current}
        onPageChange={list.setCurrent}
        totalRecords={list.total}
        recordsPerPage={size}
        recordsPerPageOptions={[...PAGE_SIZES]}
        onRecordsPerPageChange={list.setSize}
        recordsPerPageLabel={t('pageSize', { size })}
        paginationText={({ from, to, totalRecords }) => `${t('range', { from, to })} · ${t('total', { total: totalRecords })}`}
      />
    </>
  );
}
