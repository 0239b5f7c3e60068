/**
 * Migration 9 (issue 6, recordings pulled to the server): upload tasks (JT/T 1078 0x9206 → FTP →
 * 0x1206) and the files the FTP receiver stored for them (DATA_DIR/media/recordings/<task id>/).
 */
export const RECORDING_UPLOAD_MIGRATION = {
  version: 9,
  name: 'recording upload: tasks and received files',
  sql: `
    -- One upload request. state: requested | uploading | paused | done | failed | cancelled
    -- (domain/video/recording-upload.ts); serial: platform serial of the 0x9206 (0x1206 and 0x9207
    -- refer to it); result: the terminal's 0x1206 result (NULL until it arrives).
    CREATE TABLE recording_upload (
      id INTEGER PRIMARY KEY,
      user_id INTEGER NOT NULL,
      vehicle_id INTEGER NOT NULL,
      device_no TEXT NOT NULL,
      channel INTEGER NOT NULL,
      start_time INTEGER NOT NULL,
      end_time INTEGER NOT NULL,
      alarm_flags TEXT NOT NULL DEFAULT '0',
      media_type INTEGER NOT NULL,
      stream_type INTEGER NOT NULL,
      storage_type INTEGER NOT NULL,
      state TEXT NOT NULL,
      fail_reason TEXT NOT NULL DEFAULT '',
      serial INTEGER,
      result INTEGER,
      ftp_user TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      finished_at INTEGER
    );
    CREATE INDEX recording_upload_user ON recording_upload(user_id, id);
    CREATE INDEX recording_upload_vehicle_state ON recording_upload(vehicle_id, state);

    -- A file the terminal stored over FTP for a task (name relative to the task directory).
    CREATE TABLE recording_upload_file (
      id INTEGER PRIMARY KEY,
      task_id INTEGER NOT NULL REFERENCES recording_upload(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      size INTEGER NOT NULL,
      received_at INTEGER NOT NULL,
      UNIQUE (task_id, name)
    );
  `,
};
