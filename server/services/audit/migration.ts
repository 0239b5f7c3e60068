/**
 * Migration 43 (issue 19): the audit trail and page visits.
 *
 * `audit_log` gets one row per audited call (server/services/audit/hook.ts); `audit_target` the ids the
 * call named, one row each, so "every call on vehicle 12" is an index range. The three screens' queries
 * (by page, by button, by target) and the company filter each have their index. No route updates or
 * deletes either table; the UPDATE trigger makes that a database rule too (only retention deletes).
 */
export const AUDIT_MIGRATION = {
  version: 43,
  name: 'audit trail: audit_log, audit_target, page_view',
  sql: `
    CREATE TABLE audit_log (
      id INTEGER PRIMARY KEY,
      time INTEGER NOT NULL,
      user_id INTEGER,
      user_name TEXT NOT NULL DEFAULT '',
      company_id INTEGER,
      company_path TEXT NOT NULL DEFAULT '',
      session_id TEXT,
      ip TEXT NOT NULL DEFAULT '',
      method TEXT NOT NULL,
      route TEXT NOT NULL,
      permission TEXT NOT NULL,
      page TEXT NOT NULL DEFAULT '',
      button TEXT NOT NULL DEFAULT '',
      result TEXT NOT NULL CHECK (result IN ('ok', 'refused', 'invalid', 'error')),
      status INTEGER NOT NULL,
      code INTEGER NOT NULL,
      targets TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX audit_log_time ON audit_log(time);
    CREATE INDEX audit_log_company_time ON audit_log(company_path, time);
    CREATE INDEX audit_log_page_time ON audit_log(page, time);
    CREATE INDEX audit_log_button_time ON audit_log(button, time);
    CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;

    CREATE TABLE audit_target (
      kind TEXT NOT NULL,
      target_id INTEGER NOT NULL,
      audit_id INTEGER NOT NULL,
      time INTEGER NOT NULL,
      PRIMARY KEY (kind, target_id, audit_id)
    ) WITHOUT ROWID;
    CREATE INDEX audit_target_audit ON audit_target(audit_id);

    CREATE TABLE page_view (
      id INTEGER PRIMARY KEY,
      time INTEGER NOT NULL,
      user_id INTEGER NOT NULL,
      company_path TEXT NOT NULL DEFAULT '',
      session_id TEXT,
      page TEXT NOT NULL,
      ip TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX page_view_company_time ON page_view(company_path, time);
    CREATE INDEX page_view_session ON page_view(session_id, time);
  `,
} as const;

/** Tables the audit writes on every call (test fingerprints leave them out: a refused call writes its row there). */
export const AUDIT_TABLES: readonly string[] = ['audit_log', 'audit_target', 'page_view'];
