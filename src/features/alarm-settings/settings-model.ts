/** Pure logic of the alarm-settings pages: filtering, batch payloads, inheritance and level diffs. */
import { ALARM_GROUPS, CLASSIFICATION_GROUP } from '../../../domain/alarms/catalogue.ts';
import type { RiskLevel } from '../../../domain/alarms/sources.ts';

export interface RowFilter {
  /** An alarm group number, or null for every group. */
  group: number | null;
  /** Matched (case-insensitive) against the name and the type code. */
  search: string;
}

interface NamedRow { alarmType: number; alarmName: string; group: number }

/** The groups a type can belong to (the classification headings are not raisable). */
export const FILTER_GROUPS: readonly number[] = ALARM_GROUPS.filter((g) => g !== CLASSIFICATION_GROUP);

export function filterRows<R extends NamedRow>(rows: readonly R[], filter: RowFilter): R[] {
  const needle = filter.search.trim().toLowerCase();
  return rows.filter(
    (r) =>
      (filter.group === null || r.group === filter.group) &&
      (needle === '' || r.alarmName.toLowerCase().includes(needle) || String(r.alarmType).includes(needle)),
  );
}

/**
 * The alarm types a batch change sends: the selected rows among the shown ones whose value differs
 * from the target (an unchanged type is not sent, so no company row is created for it). Empty when
 * nothing would change.
 */
export function batchTypes<R extends { alarmType: number }, K extends keyof R>(
  shown: readonly R[], selected: ReadonlySet<number | string>, field: K, value: R[K],
): number[] {
  return shown.filter((r) => selected.has(r.alarmType) && r[field] !== value).map((r) => r.alarmType);
}

/** Where a row's settings come from, relative to the company being edited. */
export type Origin = { kind: 'own' } | { kind: 'inherited'; companyId: number } | { kind: 'default' };

export function originOf(fromCompanyId: number | null, companyId: number): Origin {
  if (fromCompanyId === null) return { kind: 'default' };
  if (fromCompanyId === companyId) return { kind: 'own' };
  return { kind: 'inherited', companyId: fromCompanyId };
}

/** A level choice in the editor: a level, or 'default' (back to the catalogue default, sent as null). */
export type LevelChoice = RiskLevel | 'default';

/** The save payload: each drafted choice that differs from the level now in force. */
export function levelChanges(
  rows: readonly { alarmType: number; riskLevel: RiskLevel }[], drafts: ReadonlyMap<number, LevelChoice>,
): { alarmType: number; riskLevel: RiskLevel | null }[] {
  const items: { alarmType: number; riskLevel: RiskLevel | null }[] = [];
  for (const r of rows) {
    const d = drafts.get(r.alarmType);
    if (d === undefined || d === r.riskLevel) continue;
    items.push({ alarmType: r.alarmType, riskLevel: d === 'default' ? null : d });
  }
  return items;
}
