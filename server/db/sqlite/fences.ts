/**
 * Fences as stored (migration 30) read back in the domain's form: the platform evaluation's source
 * (server/alarms/fence-watch.ts `FenceSource`) and the fence API's row mapping.
 */
import type { Fence, FenceGeometry, FenceRule } from '../../../domain/fence/types.ts';
import type { FenceSource } from '../../alarms/fence-watch.ts';
import type { SqliteDb } from '../sqlite.ts';

export interface FenceRow {
  id: number;
  company_id: number;
  name: string;
  shape: string;
  geometry: string;
  rule: string;
  remark: string;
  created_by_name: string;
  create_time: number;
  update_time: number;
}

export function fenceOf(row: FenceRow): Fence {
  return { id: row.id, companyId: row.company_id, name: row.name, geometry: JSON.parse(row.geometry) as FenceGeometry, rule: JSON.parse(row.rule) as FenceRule };
}

/** Every fence with the vehicles bound to it, in two queries; or one fence after a write (the evaluation patches it in). */
export function sqliteFenceSource(db: SqliteDb): FenceSource {
  const fences = db.prepare('SELECT * FROM fence ORDER BY id');
  const bindings = db.prepare('SELECT fence_id, vehicle_id FROM fence_vehicle ORDER BY fence_id, vehicle_id');
  // One fence after an edit: the primary key (fence_id, vehicle_id) serves both.
  const one = db.prepare('SELECT * FROM fence WHERE id = ?');
  const bindingsOf = db.prepare('SELECT vehicle_id FROM fence_vehicle WHERE fence_id = ? ORDER BY vehicle_id');
  return {
    load() {
      const byFence = new Map<number, number[]>();
      for (const b of bindings.all() as { fence_id: number; vehicle_id: number }[]) {
        let list = byFence.get(b.fence_id);
        if (!list) byFence.set(b.fence_id, (list = []));
        list.push(b.vehicle_id);
      }
      return (fences.all() as FenceRow[]).map((row) => ({ fence: fenceOf(row), vehicleIds: byFence.get(row.id) ?? [] }));
    },
    loadOne(id) {
      const row = one.get(id) as FenceRow | undefined;
      if (!row) return undefined;
      return { fence: fenceOf(row), vehicleIds: (bindingsOf.all(id) as { vehicle_id: number }[]).map((b) => b.vehicle_id) };
    },
  };
}
