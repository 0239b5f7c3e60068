/**
 * The analyst's view of the report engine (issue 18's goal: "the slowest report over a month of 2,000 vehicles
 * answers in under a second on first request"): a real server (buildApp) started on a filled data dir, and
 * every /report list call that reads the engine's rows timed over HTTP, first after the start and warm.
 * Each call covers the most one report may (REPORT_MAX_VEHICLES vehicles, the whole period, page 1 of 50:
 * the server builds every row and the totals for any page). Used by bench/report-engine.bench.ts.
 */
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { chinaDateOfDay } from '../../domain/track/days.ts';
import { REPORT_MAX_VEHICLES } from '../../server/services/report-engine/report-routes.ts';
import { warmGeocoder } from '../../server/services/track/geocoder.ts';
import { login } from './common.ts';

/** The bench data dir's first administrator's password (report-engine.bench.ts opens the storage with it). */
export const BENCH_ADMIN_PASSWORD = 'bench-admin-1';

/** Method and path of every list call answered from the report engine (fuel, mileage, operation, device, online, early morning). */
export const ENGINE_REPORT_CALLS: readonly (readonly ['GET' | 'POST', string])[] = [
  ['POST', '/service-onlinegps/oilreport/summary'], ['POST', '/service-onlinegps/oilreport/daily'],
  ['POST', '/service-onlinegps/oilreport/refuels'], ['POST', '/service-onlinegps/oilreport/leaks'],
  ['GET', '/service-onlinegps/geography/getVehicleRealtimeMile'], ['POST', '/service-onlinegps/geography/getVehicleDailyMile'],
  ['GET', '/service-onlinegps/geography/getAllVehicleGeographyStop'], ['GET', '/service-onlinegps/geography/getVehicleDailyStop'],
  ['GET', '/service-onlinegps/geography/getVehicleTrips'], ['POST', '/service-onlinegps/nightoperatereport/vehicledaily'],
  ['POST', '/service-onlinegps/nightoperatereport/vehiclecollect'],
  ['POST', '/service-safe/devstatus/onlinelist'], ['POST', '/service-safe/devstatus/onlinestat'], ['POST', '/service-safe/devstatus/storagelist'],
  ['POST', '/service-safe/devstatus/errorlist'], ['POST', '/service-safe/devstatus/errorstat'],
  ['POST', '/service-onlinegps/onlineanalysis/daily'], ['POST', '/service-onlinegps/onlineanalysis/rate'],
  ['POST', '/service-onlinegps/morningoperate/daily'], ['POST', '/service-onlinegps/morningoperate/collect'],
];

export interface ReportCallTime {
  readonly method: string;
  readonly path: string;
  readonly rows: number;
  readonly firstMs: number;
  readonly warmMs: number;
}

/** Starts a server on `dataDir`, times every call first and warm, stops it. Vehicles 1…N are the fleet's. */
export async function timeReportCalls(dataDir: string, vehicles: number, firstDay: number, lastDay: number): Promise<ReportCallTime[]> {
  const config = loadConfig({}, {
    dataDir, port: 0, host: '127.0.0.1', gatewayPort: 0, gatewayHost: '127.0.0.1', logLevel: 'warn', seedEnabled: false,
    consoleDir: `${dataDir}/no-console`, adminPassword: BENCH_ADMIN_PASSWORD,
  });
  const app = await buildApp(config);
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    warmGeocoder(); // as server/main.ts does once a node listens
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const base = `http://127.0.0.1:${address.port}`;
    const token = await login(base, 'admin', BENCH_ADMIN_PASSWORD);
    const ids = Array.from({ length: Math.min(vehicles, REPORT_MAX_VEHICLES) }, (_, i) => i + 1);
    const startDate = chinaDateOfDay(firstDay);
    const endDate = chinaDateOfDay(lastDay);
    const call = async (method: 'GET' | 'POST', path: string): Promise<{ ms: number; rows: number }> => {
      const t0 = performance.now();
      let res: Response;
      if (method === 'GET') {
        const q = new URLSearchParams({ startDate, endDate, current: '1', size: '50' });
        for (const id of ids) q.append('vehicleIds', String(id));
        res = await fetch(`${base}${path}?${q}`, { headers: { 'x-jwt': token } });
      } else {
        res = await fetch(`${base}${path}`, {
          method, headers: { 'content-type': 'application/json', 'x-jwt': token },
          body: JSON.stringify({ startDate, endDate, vehicleIds: ids, current: 1, size: 50 }),
        });
      }
      const body = (await res.json()) as { code: number; msg: string; data: { total: number } | null };
      const ms = performance.now() - t0;
      if (body.code !== 200 || !body.data) throw new Error(`${method} ${path}: ${body.code} ${body.msg}`);
      return { ms, rows: body.data.total };
    };
    const first = [];
    for (const [method, path] of ENGINE_REPORT_CALLS) first.push(await call(method, path));
    const out: ReportCallTime[] = [];
    for (const [i, [method, path]] of ENGINE_REPORT_CALLS.entries()) {
      const warm = await call(method, path);
      out.push({ method, path, rows: first[i]!.rows, firstMs: first[i]!.ms, warmMs: warm.ms });
    }
    return out;
  } finally {
    await app.close();
  }
}
