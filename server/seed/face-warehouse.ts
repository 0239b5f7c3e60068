/**
 * Demo face warehouse: each seeded driver without a photo gets a placeholder portrait (a drawn head
 * and shoulders, services/face-warehouse/avatar.ts: not a real face), then every seeded vehicle's
 * drivers are enrolled through the same code path as `updateVehicleToFacewarehouse`, as the system
 * (no user), so /operation/faceRecognitionManagement/faceWarehouse lists real rows on `npm start`.
 */
import type { Repositories } from '../db/repositories.ts';
import { ALL_COMPANIES } from '../db/scope.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { placeholderPortrait } from '../services/face-warehouse/avatar.ts';
import { syncVehiclesToFaceWarehouse } from '../services/face-warehouse/index.ts';

export async function seedFaceWarehouse(tx: Repositories, now = Date.now()): Promise<number> {
  const db = (tx as SqliteStorage).db;
  const drivers = db.prepare('SELECT d.id FROM driver d WHERE NOT EXISTS (SELECT 1 FROM driver_photo p WHERE p.driver_id = d.id) ORDER BY d.id').all() as { id: number }[];
  for (const d of drivers) await tx.drivers.setPhoto(d.id, 'image/png', placeholderPortrait(d.id));
  const vehicleIds = (db.prepare('SELECT DISTINCT vehicle_id FROM driver_vehicle ORDER BY vehicle_id').all() as { vehicle_id: number }[]).map((r) => r.vehicle_id);
  let enrolled = 0;
  for (let i = 0; i < vehicleIds.length; i += 500) {
    const results = await syncVehiclesToFaceWarehouse(tx, ALL_COMPANIES, vehicleIds.slice(i, i + 500), { userId: null, userName: '', ip: '', time: now });
    enrolled += results.reduce((n, r) => n + r.enrolled.length, 0);
  }
  return enrolled;
}
