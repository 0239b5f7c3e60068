/**
 * Migration 20 (issue 14, the operation dashboard): the first-time guide's steps per user, and the
 * per-vehicle China-day driving figures behind the 7-day mileage / driving-time chart.
 */
export const DASHBOARD_MIGRATION = {
  version: 20,
  name: 'dashboard: guide steps per user, driving per vehicle and day',
  sql: `
    -- One row per guide step a user reached (spec §3 guide record: guideModule, step, stepName) and
    -- guide version (spec §9: 3.2.1); a step named 'enter' or 'ignore' closes the guide for that version.
    CREATE TABLE user_guide (
      user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      guide_module TEXT NOT NULL,
      version TEXT NOT NULL,
      step INTEGER NOT NULL,
      step_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      PRIMARY KEY (user_id, guide_module, version, step)
    ) WITHOUT ROWID;

    -- Finished China days (GMT+8) computed once for the whole fleet: a row per vehicle with positions
    -- that day (mileage by the track rules of domain/track, driving minutes by domain/dashboard).
    CREATE TABLE dashboard_vehicle_day (
      day TEXT NOT NULL,
      vehicle_id INTEGER NOT NULL,
      mileage_km REAL NOT NULL,
      driving_minutes REAL NOT NULL,
      PRIMARY KEY (day, vehicle_id)
    ) WITHOUT ROWID;
    -- The days whose rows are complete (every vehicle looked at), and when.
    CREATE TABLE dashboard_day_done (
      day TEXT PRIMARY KEY,
      vehicles INTEGER NOT NULL,
      computed_at INTEGER NOT NULL
    ) WITHOUT ROWID;
  `,
};
