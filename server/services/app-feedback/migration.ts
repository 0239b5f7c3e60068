/**
 * Migration 46 (issue 19: feedback threads, drivers'-app accounts, app push; ./CONTEXT.md).
 *
 * `app_user`: an account of the drivers' app (outside this product), in one company, optionally a
 * driver of machine affairs; it signs in through the app API (`/service-app/api/login`) and holds
 * `app_token` rows (only the SHA-256 of each token is stored, with its expiry).
 * `feedback_theme`: one feedback thread, raised by a console user (source 2, platform feedback) or an
 * app user (source 1, app feedback), with a type (1 suggestion, 2 fault, 3 complaint, 4 other) and a
 * status (0 open, 1 replied, 2 closed). `feedback_message`: its posts, side 1 the author, side 2 an
 * administrator; `read_time` is set when the OTHER side opens the thread (read state per side).
 * `app_notice`: an app push written as a draft and published once; `app_notice_target` keeps what it was
 * published to (companies or chosen app users); `app_notice_recipient` one row per app user reached,
 * expanded at publish time, with the delivery state queued (send_time) → delivered → read.
 */
export const APP_FEEDBACK_MIGRATION = {
  version: 46,
  name: 'feedback threads (app and platform) with per-side read state; drivers\' app accounts and tokens; app push with per-recipient delivery',
  sql: `
    CREATE TABLE app_user (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      username TEXT NOT NULL UNIQUE,
      real_name TEXT NOT NULL DEFAULT '',
      phone TEXT NOT NULL DEFAULT '',
      driver_id INTEGER REFERENCES driver(id) ON DELETE SET NULL,
      password_hash TEXT NOT NULL,
      status INTEGER NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
      create_time INTEGER NOT NULL,
      last_seen_time INTEGER
    );
    CREATE INDEX app_user_company ON app_user(company_id);
    CREATE TABLE app_token (
      token_hash TEXT PRIMARY KEY,
      app_user_id INTEGER NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
      create_time INTEGER NOT NULL,
      expire_time INTEGER NOT NULL
    );
    CREATE INDEX app_token_user ON app_token(app_user_id);
    CREATE TABLE feedback_theme (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      source INTEGER NOT NULL CHECK (source IN (1, 2)),
      type INTEGER NOT NULL CHECK (type IN (1, 2, 3, 4)),
      title TEXT NOT NULL,
      status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
      author_user_id INTEGER REFERENCES user(id) ON DELETE SET NULL,
      author_app_user_id INTEGER REFERENCES app_user(id) ON DELETE SET NULL,
      author_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL,
      reply_time INTEGER
    );
    CREATE INDEX feedback_theme_company ON feedback_theme(company_id, source, id);
    CREATE INDEX feedback_theme_author ON feedback_theme(author_user_id);
    CREATE INDEX feedback_theme_app_author ON feedback_theme(author_app_user_id);
    CREATE TABLE feedback_message (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      theme_id INTEGER NOT NULL REFERENCES feedback_theme(id) ON DELETE CASCADE,
      side INTEGER NOT NULL CHECK (side IN (1, 2)),
      content TEXT NOT NULL,
      sender_name TEXT NOT NULL,
      sender_user_id INTEGER REFERENCES user(id) ON DELETE SET NULL,
      create_time INTEGER NOT NULL,
      read_time INTEGER
    );
    CREATE INDEX feedback_message_theme ON feedback_message(theme_id, side, read_time);
    CREATE TABLE app_notice (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      title TEXT NOT NULL,
      content TEXT NOT NULL,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1)),
      created_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL,
      publish_time INTEGER
    );
    CREATE INDEX app_notice_company ON app_notice(company_id);
    CREATE TABLE app_notice_target (
      notice_id INTEGER NOT NULL REFERENCES app_notice(id) ON DELETE CASCADE,
      company_id INTEGER REFERENCES company(id) ON DELETE CASCADE,
      app_user_id INTEGER REFERENCES app_user(id) ON DELETE CASCADE,
      CHECK ((company_id IS NULL) <> (app_user_id IS NULL))
    );
    CREATE INDEX app_notice_target_notice ON app_notice_target(notice_id);
    CREATE TABLE app_notice_recipient (
      notice_id INTEGER NOT NULL REFERENCES app_notice(id) ON DELETE CASCADE,
      app_user_id INTEGER NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
      send_time INTEGER NOT NULL,
      delivered_time INTEGER,
      read_time INTEGER,
      PRIMARY KEY (notice_id, app_user_id)
    );
    CREATE INDEX app_notice_recipient_user ON app_notice_recipient(app_user_id, read_time);
  `,
};
