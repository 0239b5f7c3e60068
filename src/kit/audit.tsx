/**
 * The audit trail hook of the list pages. Issue 19 builds the trail (server audit rows and the
 * viewer); until it registers a component here, the slot renders nothing: no placeholder history.
 *
 *   registerAuditTrail(({ route, recordId }) => <AuditButton route={route} recordId={recordId} />);
 */
import type { ComponentType } from 'react';

export interface AuditTrailProps {
  /** The screen's route: the audit rows' `route`. */
  route: string;
  /** The row's id: the audit rows' `record_id`. */
  recordId: number;
}

let trail: ComponentType<AuditTrailProps> | undefined;

/** Called once by the audit feature at module load. */
export function registerAuditTrail(component: ComponentType<AuditTrailProps> | undefined): void {
  trail = component;
}

/** The registered trail for one row, or nothing while no trail exists. */
export function AuditTrailSlot(props: AuditTrailProps) {
  const Trail = trail;
  return Trail ? <Trail {...props} /> : null;
}
