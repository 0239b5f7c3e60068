/**
 * The user's column widths of a ResourceTable: mantine-datatable resizes and stores them
 * (`storeColumnsKey`); this hook keeps each stored width within its column's min and max, says whether
 * any width differs from the code's, and resets them. Both share one localStorage entry: Mantine's
 * `useLocalStorage` tells every hook on the same key about a write, so the table follows at once.
 */
import { useEffect, useState } from 'react';
import { useDataTableColumns, type DataTableColumn } from 'mantine-datatable';

/** localStorage prefix of the kit's tables (`kit-table:/system/user-columns-width`). */
export const WIDTH_STORE_PREFIX = 'kit-table:';

export interface WidthBounds {
  min: number;
  max: number;
}

/**
 * The stored px widths that lie outside their column's bounds, brought back within them; the
 * `flexible` columns (the filler) to 0 px. A drag fixes every column in px (the table's layout is
 * then fixed and exactly the sum): a filler kept at its 3840-px width would widen the table at 1280,
 * and one set back to auto would let the browser squeeze the dragged columns again.
 */
export function widthFixes(
  stored: readonly Record<string, string | number>[],
  bounds: ReadonlyMap<string, WidthBounds>,
  flexible: readonly string[] = [],
): { accessor: string; width: string }[] {
  const fixes: { accessor: string; width: string }[] = [];
  for (const entry of stored) {
    const [accessor, width] = Object.entries(entry)[0] ?? [];
    if (accessor !== undefined && flexible.includes(accessor)) {
      if (typeof width === 'string' && width.endsWith('px') && width !== '0px') fixes.push({ accessor, width: '0px' });
      continue;
    }
    const b = accessor === undefined ? undefined : bounds.get(accessor);
    if (accessor === undefined || !b || typeof width !== 'string' || !/^\d+(\.\d+)?px$/.test(width)) continue;
    const px = parseFloat(width);
    const kept = Math.min(b.max, Math.max(b.min, px));
    if (kept !== px) fixes.push({ accessor, width: `${kept}px` });
  }
  return fixes;
}

/** Whether a stored width differs from the column's own (`width`, else auto). */
export function widthsCustomised<T>(stored: readonly Record<string, string | number>[], columns: readonly DataTableColumn<T>[]): boolean {
  return stored.some((entry) => {
    const [accessor, width] = Object.entries(entry)[0] ?? [];
    const column = columns.find((c) => c.accessor === accessor);
    return column !== undefined && String(width) !== String(column.width ?? 'auto');
  });
}

export function useColumnWidths<T>(storeKey: string | undefined, columns: DataTableColumn<T>[], bounds: ReadonlyMap<string, WidthBounds>, flexible: readonly string[] = []) {
  const key = storeKey === undefined ? undefined : `${WIDTH_STORE_PREFIX}${storeKey}`;
  // The column order is the code's: mantine-datatable also stores an order per key, which would keep
  // a column where it was after a later release moves it (we offer no dragging).
  useState(() => {
    try {
      if (key !== undefined) localStorage.removeItem(`${key}-columns-order`);
    } catch {
      // storage blocked: nothing stored either
    }
    return null;
  });
  const { columnsWidth, setColumnsWidth, resetColumnsWidth } = useDataTableColumns<T>({ key, columns });

  const boundsKey = JSON.stringify([[...bounds], flexible]);
  useEffect(() => {
    if (key === undefined) return;
    // A drag may go below a column's minimum (the library stops at 50 px) or past its maximum.
    const [entries, loose] = JSON.parse(boundsKey) as [[string, WidthBounds][], string[]];
    const fixes = widthFixes(columnsWidth, new Map(entries), loose);
    if (fixes.length > 0) setColumnsWidth(fixes);
  }, [key, columnsWidth, boundsKey, setColumnsWidth]);

  return { key, customised: key !== undefined && widthsCustomised(columnsWidth, columns), reset: resetColumnsWidth };
}
