/**
 * Migration 7 (issue 5, safety board): a vehicle's open risk as a board item, the alarms that put it
 * there, its audit log, and how far the board has read the alarm table. States and transitions:
 * domain/alarms/board.ts; calls: server/API.md "Safety board".
 */
export const BOARD_MIGRATION = {
  version: 7,
  name: 'safety board: items, their alarms, action log, alarm watermark',
  sql: `
    -- One vehicle's open risk. company_id = the company of the alarm that opened it (scoping follows it).
    -- state: pending | following | reported | resolved | unpushed. Times epoch ms.
    -- mute_until (unpushed): the vehicle's new board alarms before it join this item instead of opening one.
    CREATE TABLE board_item (
      id INTEGER PRIMARY KEY,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      state TEXT NOT NULL CHECK (state IN ('pending', 'following', 'reported', 'resolved', 'unpushed')),
      risk_level TEXT NOT NULL CHECK (risk_level IN ('high', 'medium')),
      alarm_count INTEGER NOT NULL DEFAULT 1,
      first_alarm_time INTEGER NOT NULL,
      last_alarm_time INTEGER NOT NULL,
      last_alarm_type INTEGER NOT NULL,
      note TEXT NOT NULL DEFAULT '',
      next_follow_time INTEGER,
      follow_count INTEGER NOT NULL DEFAULT 0,
      report_time INTEGER,
      close_time INTEGER,
      mute_until INTEGER,
      handler_user_id INTEGER,
      handler_name TEXT NOT NULL DEFAULT '',
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL
    );
    CREATE INDEX board_item_vehicle ON board_item(vehicle_id, state);
    CREATE INDEX board_item_company_state ON board_item(company_id, state);
    CREATE INDEX board_item_state_follow ON board_item(state, next_follow_time);
    CREATE INDEX board_item_close ON board_item(close_time);

    -- Which alarms an item holds (an alarm belongs to at most one item).
    CREATE TABLE board_item_alarm (
      alarm_id INTEGER PRIMARY KEY REFERENCES alarm(id) ON DELETE CASCADE,
      item_id INTEGER NOT NULL REFERENCES board_item(id) ON DELETE CASCADE
    );
    CREATE INDEX board_item_alarm_item ON board_item_alarm(item_id, alarm_id);

    -- Audit trail: every action (who, when, what) and every alarm that opened or joined the item
    -- (user_id NULL = the platform). action: open | alarm | follow | continueFollow | cancelFollow | report | resolve | unpush.
    CREATE TABLE board_log (
      id INTEGER PRIMARY KEY,
      item_id INTEGER NOT NULL REFERENCES board_item(id) ON DELETE CASCADE,
      user_id INTEGER,
      username TEXT NOT NULL DEFAULT '',
      action TEXT NOT NULL,
      from_state TEXT,
      to_state TEXT NOT NULL,
      note TEXT NOT NULL DEFAULT '',
      next_follow_time INTEGER,
      alarm_id INTEGER,
      alarm_type INTEGER,
      create_time INTEGER NOT NULL
    );
    CREATE INDEX board_log_item ON board_log(item_id, id);

    -- The highest alarm id the board has looked at (one row).
    CREATE TABLE board_sync (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      last_alarm_id INTEGER NOT NULL
    );
  `,
} as const;
