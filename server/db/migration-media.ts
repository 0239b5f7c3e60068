/**
 * Migration 10 (issue 6, multimedia): one row per photo (or other media item) a terminal uploaded with
 * 0x0801. The file itself lives under DATA_DIR/media/ (`path` is relative to that folder).
 * source: 'snap' a platform 0x8801 (requested_by = the user), 'event' the terminal's own capture
 * (alarm, timer, door: event_code), 'upload' a stored item fetched with 0x8803 / 0x8805.
 * company_id is the vehicle's company at capture time (scoping follows it, as for alarms).
 */
export const MEDIA_MIGRATION = {
  version: 10,
  name: 'multimedia: photos uploaded by terminals (0x0801), linked to alarms and requests',
  sql: `
    CREATE TABLE media_item (
      id INTEGER PRIMARY KEY,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      device_media_id INTEGER NOT NULL,
      media_type INTEGER NOT NULL,
      format INTEGER NOT NULL,
      event_code INTEGER NOT NULL,
      channel INTEGER NOT NULL,
      capture_time INTEGER NOT NULL,
      received_time INTEGER NOT NULL,
      lng REAL,
      lat REAL,
      speed REAL,
      alarm_flags INTEGER NOT NULL DEFAULT 0,
      size INTEGER NOT NULL,
      path TEXT NOT NULL,
      alarm_id INTEGER REFERENCES alarm(id) ON DELETE SET NULL,
      requested_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
      source TEXT NOT NULL CHECK (source IN ('snap', 'event', 'upload'))
    );
    CREATE INDEX media_item_time ON media_item(capture_time);
    CREATE INDEX media_item_vehicle ON media_item(vehicle_id, capture_time);
    CREATE INDEX media_item_alarm ON media_item(alarm_id) WHERE alarm_id IS NOT NULL;
  `,
};

/**
 * Migration 12 (media retention, server/media/retention.ts): retention goes by the server's arrival
 * time, not the terminal's capture time: a terminal with a reset clock (2000-01-01) must not have its
 * photos deleted on the next sweep.
 */
export const MEDIA_RETENTION_MIGRATION = {
  version: 12,
  name: 'multimedia: index on received_time for retention',
  sql: `
    CREATE INDEX media_item_received ON media_item(received_time);
  `,
};
