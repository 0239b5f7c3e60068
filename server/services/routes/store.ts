/**
 * Routes as stored (migration 34) read back in the domain's form: the platform evaluation's source
 * (server/alarms/route-watch.ts `RouteSource`) and the route API's row mapping.
 */
import type { LngLat, Route, RouteKeyPoint, RouteSection } from '../../../domain/route/types.ts';
import type { RouteSource } from '../../alarms/route-watch.ts';
import type { SqliteDb } from '../../db/sqlite.ts';

export interface RouteRow {
  id: number;
  company_id: number;
  name: string;
  points: string;
  sections: string;
  deviation_seconds: number;
  /** Migration 40: the daily window ('HH:mm', both null: always) and key points JSON. */
  start_time: string | null;
  end_time: string | null;
  key_points: string;
  remark: string;
  created_by_name: string;
  create_time: number;
  update_time: number;
}

export function routeOfRow(row: RouteRow): Route {
  return {
    id: row.id, companyId: row.company_id, name: row.name, points: JSON.parse(row.points) as LngLat[],
    // A row from before migration 40 has no night limit in its sections: none.
    sections: (JSON.parse(row.sections) as RouteSection[]).map((s) => ({ ...s, nightMaxSpeed: s.nightMaxSpeed ?? null })), deviationSeconds: row.deviation_seconds,
    startTime: row.start_time, endTime: row.end_time, keyPoints: JSON.parse(row.key_points) as RouteKeyPoint[],
  };
}

/** Every route with the vehicles bound to it, in two queries (the evaluation reloads after each write). */
export function sqliteRouteSource(db: SqliteDb, nightWindow?: { startTime: string; endTime: string }): RouteSource {
  const routes = db.prepare('SELECT * FROM route_plan ORDER BY id');
  const bindings = db.prepare('SELECT route_id, vehicle_id FROM route_plan_vehicle ORDER BY route_id, vehicle_id');
  return {
    nightWindow,
    load() {
      const byRoute = new Map<number, number[]>();
      for (const b of bindings.all() as { route_id: number; vehicle_id: number }[]) {
        let list = byRoute.get(b.route_id);
        if (!list) byRoute.set(b.route_id, (list = []));
        list.push(b.vehicle_id);
      }
      return (routes.all() as RouteRow[]).map((row) => ({ route: routeOfRow(row), vehicleIds: byRoute.get(row.id) ?? [] }));
    },
  };
}
