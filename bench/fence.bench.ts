/**
 * Platform fence evaluation (issue 17): 100,000 vehicles × 10,000 fences, cost per live position.
 *
 * The fleet: 20 cities of 5,000 vehicles (10 companies of 500). Each city has 500 fences clustered
 * around its centre (σ 8 km: depots, sites, forbidden zones; circles 100 m–2 km, rectangles,
 * polygons of 6–40 vertices): 100 set by the city's regulator and bound to every vehicle of the
 * city (slag-truck forbidden zones and sites), and 40 per company bound to its 500 vehicles:
 * 10,000 fences, 14 M bindings, 140 bound fences per vehicle. Vehicles drive around their city (up
 * to 80 km/h, a report every 30 s, a third parked with a few metres of jitter), crossing fences.
 *
 * Measured: `FenceEvaluator` with the Flatbush index (the fences near the position, then the
 * binding and exact tests) against the fair baseline, the same evaluator scanning every fence bound
 * to the vehicle with the same exact tests (bounding-box reject first), on the same positions in
 * the same process. Both must answer the same transitions (checked, or the bench fails). Figures are
 * CPU time of the process per position (wall time beside it): on a machine shared by many, wall time
 * mostly measures the wait for a core.
 *
 * Also measured: one fence edited at 14 M bindings, patched in (`FenceEvaluator.update`: that fence's
 * index cells and bindings) against the full rebuild (`replace`) on the same evaluator; a round of
 * reports after the edits must answer as an evaluator rebuilt from the edited list.
 */
import { prepareGeometry, M_PER_DEG } from '../domain/fence/geometry.ts';
import { FenceIndex } from '../domain/fence/index.ts';
import { FENCE_HYSTERESIS_M, FenceEvaluator, type BoundFence } from '../domain/fence/rules.ts';
import type { FenceGeometry, FenceRule, LngLat } from '../domain/fence/types.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const CITIES: readonly LngLat[] = [
  [116.40, 39.90], [121.47, 31.23], [113.26, 23.13], [114.06, 22.54], [104.07, 30.67], [106.55, 29.56], [120.16, 30.27], [118.80, 32.06],
  [114.31, 30.59], [108.94, 34.34], [117.20, 39.13], [113.62, 34.75], [112.94, 28.23], [120.38, 36.07], [123.43, 41.80], [126.53, 45.80],
  [102.71, 25.04], [106.71, 26.58], [119.30, 26.08], [87.62, 43.83],
];
const COMPANIES_PER_CITY = 10;
const VEHICLES_PER_COMPANY = 500;
const CITY_FENCES = 100;
const FENCES_PER_COMPANY = 40;
const REPORT_MS = 30_000;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 4_294_967_296;
  };
}
/** Standard normal (Box–Muller). */
function gauss(rnd: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
}
function offset(at: LngLat, eastM: number, northM: number): LngLat {
  return [at[0] + eastM / (M_PER_DEG * Math.cos((at[1] * Math.PI) / 180)), at[1] + northM / M_PER_DEG];
}

function geometry(rnd: () => number, center: LngLat): FenceGeometry {
  const kind = rnd();
  if (kind < 0.5) return { shape: 'circle', center, radius: 100 + rnd() * 1900 };
  if (kind < 0.8) {
    const w = 200 + rnd() * 2800, h = 200 + rnd() * 2800;
    return { shape: 'rect', sw: offset(center, -w / 2, -h / 2), ne: offset(center, w / 2, h / 2) };
  }
  // An irregular star-shaped polygon (notches included) of 6–40 vertices, 300 m–2 km across.
  const n = 6 + Math.floor(rnd() * 35);
  const r = 300 + rnd() * 1700;
  const points: LngLat[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    const ri = r * (0.4 + 0.6 * rnd());
    points.push(offset(center, ri * Math.cos(a), ri * Math.sin(a)));
  }
  return { shape: 'polygon', points };
}

function rule(rnd: () => number): FenceRule {
  const x = rnd();
  return {
    alarmIn: x < 0.3, alarmOut: x < 0.3, forbidIn: x >= 0.3 && x < 0.4, forbidOut: x >= 0.4 && x < 0.45,
    maxSpeed: x >= 0.45 && x < 0.75 ? 40 : null, overspeedSeconds: 30,
    startTime: x >= 0.9 ? '22:00' : null, endTime: x >= 0.9 ? '06:00' : null,
  };
}

export interface FenceFleet {
  readonly fences: BoundFence[];
  /** Per vehicle (id = index + 1): its company's city. */
  readonly cityOf: Int32Array;
}

export function fenceFleet(seed = 17): FenceFleet {
  const rnd = rng(seed);
  const fences: BoundFence[] = [];
  const cityVehicles = COMPANIES_PER_CITY * VEHICLES_PER_COMPANY;
  const cityOf = new Int32Array(CITIES.length * cityVehicles);
  const add = (city: number, companyId: number, vehicleIds: readonly number[]): void => {
    // Clustered: σ 8 km around the city centre, where depots and sites are.
    const center = offset(CITIES[city]!, gauss(rnd) * 8000, gauss(rnd) * 8000);
    const id = fences.length + 1;
    fences.push({ fence: { id, companyId, name: `f${id}`, geometry: geometry(rnd, center), rule: rule(rnd) }, vehicleIds });
  };
  for (let city = 0; city < CITIES.length; city++) {
    const first = city * cityVehicles + 1;
    cityOf.fill(city, first - 1, first - 1 + cityVehicles);
    const all = Array.from({ length: cityVehicles }, (_, i) => first + i);
    for (let f = 0; f < CITY_FENCES; f++) add(city, 1, all);
    for (let c = 0; c < COMPANIES_PER_CITY; c++) {
      const own = all.slice(c * VEHICLES_PER_COMPANY, (c + 1) * VEHICLES_PER_COMPANY);
      for (let f = 0; f < FENCES_PER_COMPANY; f++) add(city, 2 + city * COMPANIES_PER_CITY + c, own);
    }
  }
  return { fences, cityOf };
}

interface Positions {
  readonly vehicleId: Int32Array;
  readonly time: Float64Array;
  readonly lng: Float64Array;
  readonly lat: Float64Array;
  readonly speed: Float64Array;
}

/** `steps` reports of every vehicle (time order), driving around its city. */
function drive(fleet: FenceFleet, steps: number, seed = 5): Positions {
  const rnd = rng(seed);
  const n = fleet.cityOf.length;
  const total = n * steps;
  const p: Positions = {
    vehicleId: new Int32Array(total), time: new Float64Array(total), lng: new Float64Array(total), lat: new Float64Array(total), speed: new Float64Array(total),
  };
  const lng = new Float64Array(n), lat = new Float64Array(n), heading = new Float64Array(n), parked = new Uint8Array(n);
  for (let v = 0; v < n; v++) {
    const at = offset(CITIES[fleet.cityOf[v]!]!, gauss(rnd) * 10_000, gauss(rnd) * 10_000);
    lng[v] = at[0];
    lat[v] = at[1];
    heading[v] = rnd() * 2 * Math.PI;
    parked[v] = rnd() < 1 / 3 ? 1 : 0;
  }
  const t0 = Date.parse('2026-11-28T08:00:00+08:00');
  let k = 0;
  for (let s = 0; s < steps; s++) {
    for (let v = 0; v < n; v++) {
      let speed = 0;
      if (parked[v]) {
        // A parked fix wanders by a few metres.
        const at = offset([lng[v]!, lat[v]!], gauss(rnd) * 5, gauss(rnd) * 5);
        p.lng[k] = at[0];
        p.lat[k] = at[1];
      } else {
        speed = 20 + rnd() * 60;
        heading[v] = heading[v]! + (rnd() - 0.5) * 0.6;
        const m = (speed / 3.6) * (REPORT_MS / 1000);
        const at = offset([lng[v]!, lat[v]!], m * Math.sin(heading[v]!), m * Math.cos(heading[v]!));
        lng[v] = at[0];
        lat[v] = at[1];
        p.lng[k] = at[0];
        p.lat[k] = at[1];
      }
      p.vehicleId[k] = v + 1;
      p.time[k] = t0 + s * REPORT_MS;
      p.speed[k] = speed;
      k++;
    }
  }
  return p;
}

/** Evaluates positions [from, to); answers elapsed ms, the transitions and an order-free checksum of them. */
function evaluateAll(ev: FenceEvaluator, p: Positions, from: number, to: number): { ms: number; cpuMs: number; transitions: number; signature: number } {
  let transitions = 0, signature = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let k = from; k < to; k++) {
    const out = ev.evaluate({ vehicleId: p.vehicleId[k]!, time: p.time[k]!, lng: p.lng[k]!, lat: p.lat[k]!, speed: p.speed[k]! });
    if (out.length === 0) continue;
    transitions += out.length;
    // Order-free: the index and the scan may visit one position's fences in another order.
    for (const t of out) signature = (signature + Math.imul(t.vehicleId * 1_000_003 + t.fence.id * 131 + t.code * 7 + (t.phase === 'end' ? 1 : t.phase === 'start' ? 2 : 3), 2_654_435_761)) | 0;
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, transitions, signature };
}

export async function run(args: BenchArgs = { quick: false }): Promise<BenchRecord[]> {
  const steps = args.quick ? 4 : 20;
  const fleet = fenceFleet();
  const vehicles = fleet.cityOf.length;
  const positions = drive(fleet, steps);
  const total = positions.vehicleId.length;

  const t0 = performance.now();
  const indexed = new FenceEvaluator(fleet.fences, { candidates: 'index' });
  const buildMs = performance.now() - t0;
  const scanned = new FenceEvaluator(fleet.fences, { candidates: 'scan' });

  // The first report of each vehicle only sets its state (and warms the JIT): timed apart.
  const first = evaluateAll(indexed, positions, 0, vehicles);
  evaluateAll(scanned, positions, 0, vehicles);
  // Then alternate halves so neither side runs on a quieter share of the (shared) machine.
  const half = vehicles + Math.floor((total - vehicles) / 2 / vehicles) * vehicles;
  const a1 = evaluateAll(indexed, positions, vehicles, half);
  const b1 = evaluateAll(scanned, positions, vehicles, half);
  const b2 = evaluateAll(scanned, positions, half, total);
  const a2 = evaluateAll(indexed, positions, half, total);
  if (a1.transitions + a2.transitions !== b1.transitions + b2.transitions || a1.signature !== b1.signature || a2.signature !== b2.signature) {
    throw new Error(`index and scan disagree: ${a1.transitions + a2.transitions} vs ${b1.transitions + b2.transitions} transitions`);
  }
  const timed = total - vehicles;
  // CPU time of this process: on a machine shared by many, wall time mostly measures waiting for a core.
  const indexNs = ((a1.cpuMs + a2.cpuMs) * 1e6) / timed;
  const scanNs = ((b1.cpuMs + b2.cpuMs) * 1e6) / timed;
  const indexWallNs = ((a1.ms + a2.ms) * 1e6) / timed;
  const scanWallNs = ((b1.ms + b2.ms) * 1e6) / timed;

  // How many fences the index hands over per position (grown by the hysteresis margin), against the 140 bound.
  const index = new FenceIndex(fleet.fences.map((b) => prepareGeometry(b.fence.geometry)), FENCE_HYSTERESIS_M);
  let near = 0;
  const sample = Math.min(total, 200_000);
  for (let k = 0; k < sample; k++) near += index.near(positions.lng[k]!, positions.lat[k]!).length;

  // One fence edited at 14 M bindings (a city fence bound to its 5,000 vehicles, moved 300 m and
  // widened): the full rebuild the server did before (`replace` with every fence) against the patch
  // (`update` of that fence), on the same evaluator in the same process. Both must leave the same
  // evaluation: the scan evaluator gets the full rebuild of the same lists and the positions after
  // are compared below.
  const editTime = positions.time[total - 1]! + REPORT_MS;
  const target = fleet.fences[0]!;
  const moved = (by: number): BoundFence => {
    const g = target.fence.geometry;
    const geometry: FenceGeometry = g.shape === 'circle' ? { ...g, center: offset(g.center, by, 0), radius: g.radius + by }
      : g.shape === 'rect' ? { shape: 'rect', sw: offset(g.sw, by, 0), ne: offset(g.ne, by, 0) }
        : { shape: 'polygon', points: g.points.map((q) => offset(q, by, 0)) };
    return { fence: { ...target.fence, geometry }, vehicleIds: target.vehicleIds };
  };
  const withEdit = (b: BoundFence) => [b, ...fleet.fences.slice(1)];
  const cpuMs = (f: () => void): { cpuMs: number; ms: number } => {
    const c0 = process.cpuUsage(), w0 = performance.now();
    f();
    const c = process.cpuUsage(c0);
    return { cpuMs: (c.user + c.system) / 1000, ms: performance.now() - w0 };
  };
  const full = cpuMs(() => indexed.replace(withEdit(moved(300)), editTime));
  const patch = cpuMs(() => indexed.update(target.fence.id, moved(600), editTime));
  // A company fence (500 vehicles) patched as well: the cost follows the fence's bindings.
  const small = fleet.fences[CITY_FENCES]!;
  const patchSmall = cpuMs(() => indexed.update(small.fence.id, { fence: { ...small.fence, rule: { ...small.fence.rule, maxSpeed: 30 } }, vehicleIds: small.vehicleIds }, editTime));
  scanned.replace([moved(600), ...fleet.fences.slice(1, CITY_FENCES), { fence: { ...small.fence, rule: { ...small.fence.rule, maxSpeed: 30 } }, vehicleIds: small.vehicleIds }, ...fleet.fences.slice(CITY_FENCES + 1)], editTime);
  // One more round of reports after the edits: the patched evaluator and the rebuilt one answer alike.
  const after = drive(fleet, 1, 9);
  for (let k = 0; k < vehicles; k++) after.time[k] = editTime + REPORT_MS;
  const pa = evaluateAll(indexed, after, 0, vehicles);
  const pb = evaluateAll(scanned, after, 0, vehicles);
  if (pa.transitions !== pb.transitions || pa.signature !== pb.signature) throw new Error(`patched and rebuilt disagree after the edit: ${pa.transitions} vs ${pb.transitions}`);

  const name = `fences, ${vehicles / 1000}k vehicles × ${fleet.fences.length / 1000}k fences (${CITY_FENCES + FENCES_PER_COMPANY} bound each)`;
  return [
    { name, metric: 'CPU per position, indexed', value: indexNs, unit: 'ns', baseline: scanNs, ratio: scanNs / indexNs },
    { name, metric: 'positions/s of one core, indexed', value: 1e9 / indexNs, unit: 'positions/s', baseline: 1e9 / scanNs, ratio: scanNs / indexNs },
    { name, metric: 'wall time per position, indexed', value: indexWallNs, unit: 'ns', baseline: scanWallNs, ratio: scanWallNs / indexWallNs },
    { name, metric: 'fences near a position (mean)', value: near / sample, unit: 'fences' },
    { name, metric: 'CPU per first report (state only)', value: (first.cpuMs * 1e6) / vehicles, unit: 'ns' },
    { name, metric: 'build (index + 14 M bindings)', value: buildMs, unit: 'ms' },
    { name, metric: 'one fence edited (5,000 bindings): patch CPU', value: patch.cpuMs, unit: 'ms', baseline: full.cpuMs, ratio: full.cpuMs / patch.cpuMs },
    { name, metric: 'one fence edited (5,000 bindings): patch wall (event loop held)', value: patch.ms, unit: 'ms', baseline: full.ms, ratio: full.ms / patch.ms },
    { name, metric: 'one company fence edited (500 bindings): patch CPU', value: patchSmall.cpuMs, unit: 'ms', baseline: full.cpuMs, ratio: full.cpuMs / patchSmall.cpuMs },
    { name, metric: 'transitions over the run', value: a1.transitions + a2.transitions, unit: 'transitions' },
    { name, metric: 'positions timed', value: timed, unit: 'positions' },
  ];
}
