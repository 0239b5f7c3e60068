/**
 * Routes as stored (migration 34) read back in the domain's form: the platform evaluation's source
 * (server/alarms/route-watch.ts `RouteSource`) and the route API's row mapping.
 */
import type { LngLat, Route, RouteSection } from '../../../domain/route/types.ts';
import type { RouteSource } from '../../alarms/route-watch.ts';
import type { SqliteDb } from '../../db/sqlite.ts';

export interface RouteRow {
  id: number;
  company_id: number;
  name: string;
  points: string;
  sections: string;
  deviation_seconds: number;
  remark: string;
  created_by_name: string;
  create_time: number;
  update_time: number;
}

export function routeOfRow(row: RouteRow): Route {
  return {
    id: row.id, companyId: row.company_id, name: row.name, points: JSON.parse(row.points) as LngLat[],
    sections: JSON.parse(row.sections) as RouteSection[], deviationSeconds: row.deviation_seconds,
  };
}

/** Every route with the vehicles bound to it, in two queries (the evaluation reloads after each write). */
export function sqliteRouteSource(db: SqliteDb): RouteSource {
  const routes = db.prepare('SELECT * FROM route_plan ORDER BY id');
  const bindings = db.prepare('SELECT route_id, vehicle_id FROM route_plan_vehicle ORDER BY route_id, vehicle_id');
  return {
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
