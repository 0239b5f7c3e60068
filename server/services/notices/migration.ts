/**
 * Migration 45 (issue 19, notices and user menu favourites: server/services/notices/api.md).
 *
 * `notice`: one notice as written (title, content, level) by a user of `company_id` (management lists
 * are scoped by it); `status` 0 draft, 1 published, 2 withdrawn. What it was published to is kept in
 * `notice_target` (companies, each with or without its sub-companies, or chosen users) for the screen.
 * `notice_recipient`: the users it was sent to, expanded once at publish time (a user created later does
 * not receive an older notice: the row set IS the message log, "what was sent to whom and when"), with
 * the delivery (first pushed to an open console or fetched) and read times per user.
 * `user_menu_favourite`: a user's starred menu routes (usermenu/collect, cancel, mycollection).
 * A deleted user's rows go with it (ON DELETE CASCADE); the notice keeps its author's name.
 */
export const NOTICES_MIGRATION = {
  version: 45,
  name: 'notices: published to companies or users, per-user delivery and read state; user menu favourites',
  sql: `
    CREATE TABLE notice (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      title TEXT NOT NULL,
      content TEXT NOT NULL,
      level INTEGER NOT NULL DEFAULT 1 CHECK (level IN (1, 2, 3)),
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
      created_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL,
      publish_time INTEGER,
      withdraw_time INTEGER
    );
    CREATE INDEX notice_company ON notice(company_id);
    CREATE TABLE notice_target (
      notice_id INTEGER NOT NULL REFERENCES notice(id) ON DELETE CASCADE,
      company_id INTEGER REFERENCES company(id) ON DELETE CASCADE,
      include_sub INTEGER NOT NULL DEFAULT 0,
      user_id INTEGER REFERENCES user(id) ON DELETE CASCADE,
      CHECK ((company_id IS NULL) <> (user_id IS NULL))
    );
    CREATE INDEX notice_target_notice ON notice_target(notice_id);
    CREATE TABLE notice_recipient (
      notice_id INTEGER NOT NULL REFERENCES notice(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      send_time INTEGER NOT NULL,
      delivered_time INTEGER,
      read_time INTEGER,
      PRIMARY KEY (notice_id, user_id)
    );
    CREATE INDEX notice_recipient_user ON notice_recipient(user_id, read_time);
    CREATE TABLE user_menu_favourite (
      user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      route_key TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      PRIMARY KEY (user_id, route_key)
    );
  `,
};
