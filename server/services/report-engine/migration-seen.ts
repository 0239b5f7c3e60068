/**
 * Migration 54 (issue 18 leftovers): `terminal_seen`, spans of heartbeat contact per vehicle (server/services/
 * report-engine/seen.ts). One row per span, not per heartbeat: a heartbeat within 3 minutes of the span's end
 * extends it (the row is rewritten at most every 30 s); a longer silence starts a new row. Keyed by
 * (vehicle, start) so a day's spans are one index range; `end` is the last heartbeat written.
 */
export const TERMINAL_SEEN_MIGRATION = {
  version: 54,
  name: 'terminal_seen: spans of heartbeat contact per vehicle (online without positions)',
  sql: `
    CREATE TABLE terminal_seen (
      vehicle_id INTEGER NOT NULL,
      start INTEGER NOT NULL,
      "end" INTEGER NOT NULL,
      PRIMARY KEY (vehicle_id, start)
    ) WITHOUT ROWID;
  `,
};
