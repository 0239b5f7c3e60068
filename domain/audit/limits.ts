/**
 * Limits of the audit trail's queries, shared by the server (server/services/audit/routes.ts refuses longer
 * periods) and the console (the audit screens' period picker, a list row's call trail), so the two cannot drift.
 */
import { DAY_MS } from '../track/days.ts';

/** One audit query covers at most this many days. */
export const AUDIT_RANGE_DAYS = 93;
export const AUDIT_RANGE_MAX_MS = AUDIT_RANGE_DAYS * DAY_MS;
