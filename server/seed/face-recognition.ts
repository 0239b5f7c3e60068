/**
 * Demo device samples (issue 19): each seeded vehicle whose simulated terminal has a face camera
 * (server/sim/face.ts) is recorded as holding the faces bound to it (its driver, enrolled by the
 * face-warehouse seed), which is what that simulated terminal starts with. So on `npm start`
 * /operation/faceRecognitionManagement/deviceSample shows synced devices, and their shift-start
 * comparisons fill /faceRecognitionResult.
 */
import type { Repositories } from '../db/repositories.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { FaceRecognitionStore } from '../services/face-recognition/store.ts';
import { simHasFaceCamera } from '../sim/face.ts';

export function seedFaceDevices(tx: Repositories, now = Date.now()): number {
  const db = (tx as SqliteStorage).db;
  const store = new FaceRecognitionStore(db);
  const vehicles = db.prepare('SELECT DISTINCT v.id, v.device_no FROM vehicle v JOIN face_enrolment e ON e.vehicle_id = v.id ORDER BY v.id').all() as { id: number; device_no: string }[];
  let devices = 0;
  for (const v of vehicles) {
    if (!simHasFaceCamera(v.device_no)) continue;
    if (store.seedConfirmed(v.id, now) > 0) devices++;
  }
  return devices;
}
