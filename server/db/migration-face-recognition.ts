/**
 * Migration 49 (issue 19, /operation/faceRecognitionManagement/faceRecognitionResult and /deviceSample):
 * what the terminals' face comparison reported and what each terminal holds. The comparison runs on
 * the terminal (server/gateway/jt808/face.ts); the platform stores, shows and audits.
 *
 * - `face_recognition`: one row per 0x0E10 result: the vehicle and company at that moment (the plate and
 *   device number kept as text, so a result outlives a renamed or deleted vehicle), result, similarity,
 *   threshold, trigger, the face id reported (the driver's qualification certificate number) and the
 *   driver it resolved to, the photo the terminal took, and the `mistake` mark (误报: a user says the
 *   terminal misrecognised) with who and when.
 * - `face_device`: per vehicle terminal, the pass threshold pushed with its samples, the last sample push
 *   (state, time, who) and the last status read (the face ids the terminal said it holds, when).
 * - `face_device_sample`: per vehicle × driver, the photo hash the terminal confirmed holding (0x0E11).
 *   The faces a terminal should hold are `face_enrolment` (migration 27): bind / unbind edit those rows.
 */
export const FACE_RECOGNITION_MIGRATION = {
  version: 49,
  name: 'face recognition: comparison results, device sample state',
  sql: `
    CREATE TABLE face_recognition (
      id INTEGER PRIMARY KEY,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      vehicle_id INTEGER REFERENCES vehicle(id) ON DELETE SET NULL,
      plate TEXT NOT NULL,
      device_no TEXT NOT NULL,
      -- Terminal time of the comparison (epoch ms) and when the platform received it.
      time INTEGER NOT NULL,
      receive_time INTEGER NOT NULL,
      -- 0 pass, 1 mismatch, 2 no face found.
      result INTEGER NOT NULL CHECK (result IN (0, 1, 2)),
      similarity INTEGER NOT NULL CHECK (similarity BETWEEN 0 AND 100),
      threshold INTEGER NOT NULL CHECK (threshold BETWEEN 0 AND 100),
      trigger INTEGER NOT NULL,
      lat INTEGER NOT NULL,
      lng INTEGER NOT NULL,
      face_id TEXT NOT NULL,
      reported_name TEXT NOT NULL,
      driver_id INTEGER REFERENCES driver(id) ON DELETE SET NULL,
      driver_name TEXT NOT NULL DEFAULT '',
      photo_mime TEXT NOT NULL,
      photo BLOB NOT NULL,
      mistake INTEGER NOT NULL DEFAULT 0 CHECK (mistake IN (0, 1)),
      mistake_user_id INTEGER,
      mistake_user_name TEXT NOT NULL DEFAULT '',
      mistake_time INTEGER,
      mistake_remark TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX face_recognition_time ON face_recognition(time);
    CREATE INDEX face_recognition_vehicle ON face_recognition(vehicle_id, time);
    CREATE TABLE face_device (
      vehicle_id INTEGER PRIMARY KEY REFERENCES vehicle(id) ON DELETE CASCADE,
      threshold INTEGER NOT NULL DEFAULT 80 CHECK (threshold BETWEEN 1 AND 100),
      -- none | ok | failed | offline | timeout
      push_state TEXT NOT NULL DEFAULT 'none',
      push_time INTEGER,
      push_user_name TEXT NOT NULL DEFAULT '',
      -- JSON array of the face ids the terminal said it holds; NULL: never read.
      terminal_faces TEXT,
      status_state TEXT NOT NULL DEFAULT 'none',
      status_time INTEGER
    );
    CREATE TABLE face_device_sample (
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      driver_id INTEGER NOT NULL REFERENCES driver(id) ON DELETE CASCADE,
      photo_hash TEXT NOT NULL,
      push_time INTEGER NOT NULL,
      PRIMARY KEY (vehicle_id, driver_id)
    ) WITHOUT ROWID;
  `,
};
