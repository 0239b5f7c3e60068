/**
 * The audit trail hook of the list pages. Each row's action cell renders `<AuditTrailSlot route recordId>`.
 *
 * Issue 15: the operator log is the trail of the machine-affairs lists. The app registers
 * `RecordTrailButton` (src/features/operator-log; src/app/App.tsx): on the vehicle, device, driver,
 * installation and line lists it shows 操作记录, which opens the row's change history
 * (`GET /service-priv/binlog/record`); on every other screen it renders nothing — no placeholder
 * history. The kit knows no feature.
 *
 * Issue 19: more sources add a section to the row's trail (`registerAuditSection`): the audit trail
 * (src/features/audit/RowCalls.tsx) shows every call that named the row (who called what, with what
 * outcome, refused calls too) under the change history. The trail renders `<AuditSections>`.
 */
import type { ComponentType } from 'react';

export interface AuditTrailProps {
  /** The screen's route: which records' trail (domain/fleet/change-fields.ts maps the route to its resource). */
  route: string;
  /** The row's id: the log rows' `record_id`. */
  recordId: number;
}

let trail: ComponentType<AuditTrailProps> | undefined;

/** Replaces the trail every list row shows (undefined: none). */
export function registerAuditTrail(component: ComponentType<AuditTrailProps> | undefined): void {
  trail = component;
}

/** The registered trail for one row, or nothing while no trail exists. */
export function AuditTrailSlot(props: AuditTrailProps) {
  const Trail = trail;
  return Trail ? <Trail {...props} /> : null;
}

let sections: ReadonlyArray<{ key: string; component: ComponentType<AuditTrailProps> }> = [];

/** Adds (or, for a known key, replaces) a section the row's trail shows below its own history. */
export function registerAuditSection(key: string, component: ComponentType<AuditTrailProps>): void {
  sections = [...sections.filter((s) => s.key !== key), { key, component }];
}

/** Every registered section for one row, in registration order (each decides itself whether it shows). */
export function AuditSections(props: AuditTrailProps) {
  return <>{sections.map(({ key, component: Section }) => <Section key={key} {...props} />)}</>;
}
