import 'mantine-datatable/styles.css';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
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
export function ResourceTable<T extends { id: number }>({ list, columns, actions, label }: ResourceTableProps<T>) {
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
  const dataColumns: DataTableColumn<T>[] = columns.map((c) => ({
    accessor: c.key,
    title: c.title,
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
        columns={dataColumns}
        pinLastColumn={actions !== undefined}
        fetching={list.fetching}
        loadingText={t('loading')}
        noRecordsText={failure === undefined ? t('empty') : t('loadFailed', { msg: failure })}
        customRowAttributes={(row) => ({ 'data-row-id': row.id })}
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
