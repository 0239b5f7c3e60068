/**
 * The operator log (issue 15, migration 22 `change_log`): one row per change to a vehicle, device,
 * driver, installation record or line, with who, when, from where, before and after. Writers append
 * inside the transaction of the change itself, so a change never commits without its row.
 */
import type { ChangeNames, RefKind } from '../../domain/fleet/change-fields.ts';
import type { Scope } from './scope.ts';
import type { Page, PageRequest } from './types.ts';

export type ChangeResource = 'vehicle' | 'device' | 'driver' | 'installation' | 'line';

export interface ChangeEntry {
  readonly resource: ChangeResource;
  readonly recordId: number;
  /** Plate, device number or name at the time (searchable after the record is gone). */
  readonly label: string;
  /** The record's company (a move logs the new one); scopes who reads the row. */
  readonly companyId: number;
  /** create, update, delete, import, move, bind, unbind, replace, register, … */
  readonly operation: string;
  /** null: the system (a terminal's auto-registration). */
  readonly userId: number | null;
  readonly userName: string;
  readonly ip: string;
  readonly time: number;
  /** The changed fields before and after (null for a create's before and a delete's after). */
  readonly before: Readonly<Record<string, unknown>> | null;
  readonly after: Readonly<Record<string, unknown>> | null;
}

export interface ChangeLogRow extends ChangeEntry {
  readonly id: number;
  readonly companyName: string;
}

export interface ChangeLogQuery extends PageRequest {
  readonly resource: ChangeResource;
  /** Matches the label (plate / number / name) or the operator's name. */
  readonly keyword?: string;
  readonly recordId?: number;
  readonly operation?: string;
  /** Inclusive epoch-ms bounds on the time. */
  readonly from?: number;
  readonly to?: number;
}

export interface ChangeLogRepository {
  append(entry: ChangeEntry): Promise<void>;
  /** Newest first, rows of companies in the scope. */
  page(scope: Scope, query: ChangeLogQuery): Promise<Page<ChangeLogRow>>;
  /** A moved record's rows follow it to its new company (modifyVehiCompany: the old owner no longer reads them). */
  moveRecord(resource: ChangeResource, recordId: number, companyId: number): Promise<void>;
  /** The company path of a record that exists (any scope), or undefined when there is no such record (never was, or deleted). */
  recordCompanyPath(resource: ChangeResource, recordId: number): Promise<string | undefined>;
  /** Names of the referenced ids that lie in `scope` (companies, lines, device types, vehicles, drivers); others stay unnamed. */
  names(scope: Scope, ids: ReadonlyMap<RefKind, ReadonlySet<number>>): Promise<ChangeNames>;
}

/**
 * The fields of `before` and `after` that differ (both sides, same keys), so a row holds what changed
 * rather than two whole records. Values compare as JSON.
 */
export function changedFields(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null)) {
      b[key] = before[key] ?? null;
      a[key] = after[key] ?? null;
    }
  }
  return { before: b, after: a };
}
