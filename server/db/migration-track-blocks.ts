/**
 * Migration 3: per-vehicle-day track blocks (issue 4, track playback). Self-contained so it sits in
 * `migrations.ts` whatever order parallel work appends in. A block is one finished China day
 * (GMT+8) of one vehicle's positions encoded as a proto/track.proto Track message: a week's read
 * decodes 7 blobs instead of materialising 604,800 SQLite rows (≈ 7× faster, measured in
 * bench/track.bench.ts; see server/CONTEXT.md "Track history"). Blocks are a cache of `positions`:
 * built on first read of a finished day, dropped when a late row for that day arrives.
 */
export const TRACK_BLOCKS_MIGRATION = {
  version: 3,
  name: 'track playback: per-vehicle-day blocks of finished days',
  sql: `
    -- day = China day index (floor((epoch ms + 8 h) / 1 day)); points = rows encoded; data = Track bytes,
    -- or empty when the day holds values finer than the track format (then that day is read from positions).
    CREATE TABLE track_block (
      vehicle_id INTEGER NOT NULL,
      day INTEGER NOT NULL,
      points INTEGER NOT NULL,
      data BLOB NOT NULL,
      built_at INTEGER NOT NULL,
      PRIMARY KEY (vehicle_id, day)
    ) WITHOUT ROWID;
  `,
} as const;
