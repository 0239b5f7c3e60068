/**
 * The passenger reports' own caps (spec §5), shared by the server (server/services/passenger-reports/ refuses
 * past them) and the report pages (src/features/reports/passengers/), so the two cannot drift.
 */

/** Line passenger flow covers at most this many lines (chosen, or served by the chosen vehicles). */
export const LINE_REPORT_MAX_LINES = 30;
/** Vehicle passenger flow supervision covers at most this many vehicles (the other reports 500). */
export const SUPERVISION_MAX_VEHICLES = 1000;
