/**
 * Migration 48 (issue 19, ops check KPIs: server/services/ops-check/api.md).
 *
 * `ops_kpi_setting`: a company's targets and weights (JSON list of {code, target, weight}, every KPI of
 * domain/ops-check once, weights summing to 100). A company without a row uses its nearest ancestor's,
 * else the defaults.
 * `ops_kpi`: one KPI of one company and month. The current month's rows are rewritten on each
 * recomputation (measured value, target and weight as set now); a closed month's rows are written once
 * with `frozen = 1` and then only read. `corrected` is an auditor's value (with reason, who, when): it is
 * judged instead of `measured`, which is never overwritten by a correction, so both stay visible.
 */
export const OPS_CHECK_MIGRATION = {
  version: 48,
  name: 'ops check: KPI targets per company, monthly KPI values (frozen when the month is closed) with corrections',
  sql: `
    CREATE TABLE ops_kpi_setting (
      company_id INTEGER PRIMARY KEY REFERENCES company(id) ON DELETE CASCADE,
      items TEXT NOT NULL,
      update_user TEXT NOT NULL,
      update_time INTEGER NOT NULL
    );
    CREATE TABLE ops_kpi (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      month TEXT NOT NULL,
      code TEXT NOT NULL,
      measured REAL,
      target REAL NOT NULL,
      weight INTEGER NOT NULL,
      corrected REAL,
      reason TEXT NOT NULL DEFAULT '',
      corrected_by TEXT NOT NULL DEFAULT '',
      corrected_time INTEGER,
      frozen INTEGER NOT NULL DEFAULT 0,
      computed_time INTEGER NOT NULL,
      UNIQUE (company_id, month, code)
    );
  `,
};
