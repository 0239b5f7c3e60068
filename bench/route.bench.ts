/**
 * Platform route evaluation (issue 17): cost per live position with the Flatbush section index against
 * the fair baseline, the same evaluator measuring every section of every route bound to the vehicle
 * (`candidates: 'scan'`), on the same positions in the same process. Both must answer the same
 * transitions (checked, or the bench fails). Figures are CPU time of the process per position (wall
 * time beside it): on a machine shared by many, wall time mostly measures the wait for a core.
 *
 * The fleet: 20 cities of 5,000 vehicles (10 companies of 500; quick: 1,000 per city). Each city has
 * 500 routes (slag-truck routes from sites near the centre, σ 8 km, 8–24 turning points 300–1,500 m
 * apart, corridors 20–100 m): 10,000 routes. Each company is bound to 50 of its city's routes (50 bound
 * per vehicle, ≈ 750 sections). Each vehicle follows the first of its routes at 30–60 km/h, a report
 * every 30 s, with 5 m GNSS noise; one in ten leaves its corridor by 150 m for a few reports
 * (deviations, section times and overspeed happen).
 */
import { M_PER_DEG } from '../domain/fence/geometry.ts';
import { RouteEvaluator, type BoundRoute } from '../domain/route/rules.ts';
import type { LngLat, Route } from '../domain/route/types.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const CITIES: readonly LngLat[] = [
  [116.40, 39.90], [121.47, 31.23], [113.26, 23.13], [114.06, 22.54], [104.07, 30.67], [106.55, 29.56], [120.16, 30.27], [118.80, 32.06],
  [114.31, 30.59], [108.94, 34.34], [117.20, 39.13], [113.62, 34.75], [112.94, 28.23], [120.38, 36.07], [123.43, 41.80], [126.53, 45.80],
  [102.71, 25.04], [106.71, 26.58], [119.30, 26.08], [87.62, 43.83],
];
const COMPANIES_PER_CITY = 10;
const ROUTES_PER_COMPANY = 50;
const REPORT_MS = 30_000;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 4_294_967_296;
  };
}
const gauss = (rnd: () => number) => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
const offset = (at: LngLat, eastM: number, northM: number): LngLat => [at[0] + eastM / (M_PER_DEG * Math.cos((at[1] * Math.PI) / 180)), at[1] + northM / M_PER_DEG];

function fleet(vehiclesPerCompany: number) {
  const rnd = rng(17);
  const routes: BoundRoute[] = [];
  const own: Route[] = []; // per vehicle: the route it follows
  let id = 0, vehicleId = 0;
  for (const city of CITIES) {
    for (let c = 0; c < COMPANIES_PER_CITY; c++) {
      const vehicles = Array.from({ length: vehiclesPerCompany }, () => ++vehicleId);
      const mine: Route[] = [];
      for (let r = 0; r < ROUTES_PER_COMPANY; r++) {
        let at = offset(city, gauss(rnd) * 8000, gauss(rnd) * 8000);
        let heading = rnd() * 2 * Math.PI;
        const n = 8 + Math.floor(rnd() * 17);
        const points: LngLat[] = [at];
        for (let i = 1; i < n; i++) {
          heading += (rnd() - 0.5) * 1.2;
          const d = 300 + rnd() * 1200;
          at = offset(at, Math.sin(heading) * d, Math.cos(heading) * d);
          points.push(at);
        }
        const sections = points.slice(1).map(() => ({
          width: 20 + Math.floor(rnd() * 81), minSeconds: rnd() < 0.5 ? 20 : null, maxSeconds: rnd() < 0.5 ? 180 : null,
          maxSpeed: rnd() < 0.3 ? 50 : null, overspeedSeconds: 10,
        }));
        const route: Route = { id: ++id, companyId: c, name: `r${id}`, points, sections, deviationSeconds: 60 };
        mine.push(route);
        routes.push({ route, vehicleIds: vehicles });
      }
      vehicles.forEach((_, k) => own.push(mine[k % mine.length]!));
    }
  }
  return { routes, own };
}

interface Positions { vehicleId: Int32Array; time: Float64Array; lng: Float64Array; lat: Float64Array; speed: Float64Array }

/** Step-major positions: every vehicle's report s before any vehicle's report s + 1. */
function drive(own: readonly Route[], steps: number): Positions {
  const rnd = rng(29);
  const n = own.length * steps;
  const p: Positions = { vehicleId: new Int32Array(n), time: new Float64Array(n), lng: new Float64Array(n), lat: new Float64Array(n), speed: new Float64Array(n) };
  const t0 = Date.parse('2026-11-28T10:00:00+08:00');
  const state = own.map(() => ({ seg: 0, t: rnd(), speed: 30 + rnd() * 30, off: 0 }));
  let k = 0;
  for (let s = 0; s < steps; s++) {
    for (let v = 0; v < own.length; v++) {
      const r = own[v]!, st = state[v]!;
      const a = r.points[st.seg]!, b = r.points[st.seg + 1]!;
      const len = Math.hypot((b[0] - a[0]) * M_PER_DEG * Math.cos((a[1] * Math.PI) / 180), (b[1] - a[1]) * M_PER_DEG);
      st.t += (st.speed / 3.6) * (REPORT_MS / 1000) / Math.max(1, len);
      while (st.t >= 1 && st.seg < r.points.length - 2) { st.t -= 1; st.seg++; }
      if (st.t > 1) { st.seg = 0; st.t = 0; } // back to the start of its route
      if (st.off > 0) st.off--;
      else if (rnd() < 0.02) st.off = 3;
      const a2 = r.points[st.seg]!, b2 = r.points[st.seg + 1]!;
      const on: LngLat = [a2[0] + (b2[0] - a2[0]) * st.t, a2[1] + (b2[1] - a2[1]) * st.t];
      const at = offset(on, gauss(rnd) * 5 + (st.off > 0 ? 150 : 0), gauss(rnd) * 5);
      p.vehicleId[k] = v + 1;
      p.time[k] = t0 + s * REPORT_MS;
      p.lng[k] = at[0];
      p.lat[k] = at[1];
      p.speed[k] = st.speed;
      k++;
    }
  }
  return p;
}

function evaluateAll(ev: RouteEvaluator, p: Positions, from: number, to: number) {
  let transitions = 0, signature = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let k = from; k < to; k++) {
    const out = ev.evaluate({ vehicleId: p.vehicleId[k]!, time: p.time[k]!, lng: p.lng[k]!, lat: p.lat[k]!, speed: p.speed[k]! });
    if (out.length === 0) continue;
    transitions += out.length;
    // Order-free. A held code is one alarm per vehicle whichever of its routes holds it (the index and the
    // scan may meet the routes in another order), so only an occurrence (13003) counts its route.
    for (const t of out) signature = (signature + Math.imul(t.vehicleId * 1_000_003 + (t.phase === 'occur' ? t.route.id * 131 : 0) + t.code * 7 + t.time / 1000 + (t.phase === 'end' ? 1 : t.phase === 'start' ? 2 : 3), 2_654_435_761)) | 0;
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, transitions, signature };
}

export async function run(args: BenchArgs = { quick: false }): Promise<BenchRecord[]> {
  const steps = args.quick ? 6 : 20;
  const { routes, own } = fleet(args.quick ? 100 : 500);
  const vehicles = own.length;
  const positions = drive(own, steps);
  const total = positions.vehicleId.length;
  const t0 = performance.now();
  const indexed = new RouteEvaluator(routes);
  const buildMs = performance.now() - t0;
  const scanned = new RouteEvaluator(routes, { candidates: 'scan' });
  evaluateAll(indexed, positions, 0, vehicles);
  evaluateAll(scanned, positions, 0, vehicles);
  const half = vehicles + Math.floor((total - vehicles) / 2 / vehicles) * vehicles;
  const a1 = evaluateAll(indexed, positions, vehicles, half);
  const b1 = evaluateAll(scanned, positions, vehicles, half);
  const b2 = evaluateAll(scanned, positions, half, total);
  const a2 = evaluateAll(indexed, positions, half, total);
  if (a1.transitions + a2.transitions !== b1.transitions + b2.transitions || a1.signature !== b1.signature || a2.signature !== b2.signature) {
    throw new Error(`index and scan disagree: ${a1.transitions + a2.transitions} vs ${b1.transitions + b2.transitions} transitions`);
  }
  const timed = total - vehicles;
  const indexNs = ((a1.cpuMs + a2.cpuMs) * 1e6) / timed;
  const scanNs = ((b1.cpuMs + b2.cpuMs) * 1e6) / timed;
  const indexWallNs = ((a1.ms + a2.ms) * 1e6) / timed;
  const scanWallNs = ((b1.ms + b2.ms) * 1e6) / timed;
  const name = `routes, ${vehicles / 1000}k vehicles × ${routes.length / 1000}k routes (${ROUTES_PER_COMPANY} bound each)`;
  return [
    { name, metric: 'CPU per position, indexed', value: indexNs, unit: 'ns', baseline: scanNs, ratio: scanNs / indexNs },
    { name, metric: 'wall time per position, indexed', value: indexWallNs, unit: 'ns', baseline: scanWallNs, ratio: scanWallNs / indexWallNs },
    { name, metric: 'build (section index + bindings)', value: buildMs, unit: 'ms' },
    { name, metric: 'transitions over the run', value: a1.transitions + a2.transitions, unit: 'transitions' },
    { name, metric: 'positions timed', value: timed, unit: 'positions' },
  ];
}
