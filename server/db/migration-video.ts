/**
 * Migration 6 (issue 6, live video): per-user daily live-video limits and the stream log behind the
 * `service-priv/stream` calls and the spec's "daily live-video connection count reached" message.
 */
export const VIDEO_MIGRATION = {
  version: 6,
  name: 'live video: stream log and per-user daily connection limits',
  sql: `
    -- A user's daily limit of live-video connections (absent: the server default, VIDEO_DAILY_LIMIT)
    -- and extra connections granted for one China day (extra_day 'YYYY-MM-DD').
    CREATE TABLE user_stream_setting (
      user_id INTEGER PRIMARY KEY REFERENCES user(id) ON DELETE CASCADE,
      daily_limit INTEGER,
      extra_day TEXT,
      extra_times INTEGER NOT NULL DEFAULT 0
    );

    -- One row per live-video connection a user opened; ended_at NULL while it plays.
    CREATE TABLE stream_log (
      id INTEGER PRIMARY KEY,
      user_id INTEGER NOT NULL,
      vehicle_id INTEGER NOT NULL,
      channel INTEGER NOT NULL,
      stream INTEGER NOT NULL,
      started_at INTEGER NOT NULL,
      ended_at INTEGER,
      bytes INTEGER NOT NULL DEFAULT 0,
      outcome TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX stream_log_user_time ON stream_log(user_id, started_at);
  `,
};
