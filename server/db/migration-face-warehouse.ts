/**
 * Migration 27 (issue 15's last call, `updateVehicleToFacewarehouse`; the face warehouse screen
 * /operation/faceRecognitionManagement/faceWarehouse): the faces a company's terminals recognise
 * drivers by.
 *
 * - `face_sample`: one per driver enrolled, holding the SHA-256 of the `driver_photo` bytes enrolled and
 *   that photo's `update_time`, who enrolled it and when. A driver photo uploaded or removed after that
 *   (its `update_time` no longer equal, or no photo) makes the sample stale until it is synced again.
 * - `face_enrolment`: which vehicles' terminals should know the face (driver × vehicle), with the hash
 *   enrolled for that vehicle and who/when. Rows go with the driver or the vehicle (cascade).
 */
export const FACE_WAREHOUSE_MIGRATION = {
  version: 27,
  name: 'face warehouse: driver face samples and their enrolment per vehicle',
  sql: `
    CREATE TABLE face_sample (
      driver_id INTEGER PRIMARY KEY REFERENCES driver(id) ON DELETE CASCADE,
      -- Hex SHA-256 of the driver_photo bytes enrolled, and that photo's update_time.
      photo_hash TEXT NOT NULL,
      photo_time INTEGER NOT NULL,
      enrol_time INTEGER NOT NULL,
      -- NULL: the system (the demo seed).
      enrol_user_id INTEGER,
      enrol_user_name TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX face_sample_time ON face_sample(enrol_time);
    CREATE TABLE face_enrolment (
      driver_id INTEGER NOT NULL REFERENCES face_sample(driver_id) ON DELETE CASCADE,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      photo_hash TEXT NOT NULL,
      enrol_time INTEGER NOT NULL,
      enrol_user_id INTEGER,
      enrol_user_name TEXT NOT NULL DEFAULT '',
      PRIMARY KEY (driver_id, vehicle_id)
    ) WITHOUT ROWID;
    CREATE INDEX face_enrolment_vehicle ON face_enrolment(vehicle_id);
  `,
};
