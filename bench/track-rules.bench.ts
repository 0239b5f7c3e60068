/**
 * Rule module throughput (issue 4): `analyzeTrack` over 10 M points of a synthetic 1 Hz track
 * (≈ 116 days: driving, stops, 0.1 % drift spikes, occasional data gaps), in points per second.
 * Baseline, run in the same process on the same columns: a bare great-circle mileage loop, the least
 * any track analysis must do; the ratio says what drift, continuity, stops and days cost on top.
 */
import { analyzeTrack } from '../domain/track/analyze.ts';
import { allocateColumns } from '../domain/track/columns.ts';
import type { TrackColumns } from '../domain/track/columns.ts';
import { cosLatitude, haversineKmCos } from '../domain/track/geo.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

/** Deterministic synthetic track: same figures run to run. */
export function syntheticTrack(n: number, seed = 1): TrackColumns {
  let s = seed >>> 0;
  const rnd = (): number => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 4_294_967_296;
  };
  const c = allocateColumns(n);
  let t = Date.UTC(2024, 0, 1);
  let lng = 116.4;
  let lat = 39.9;
  let heading = 0;
  let speed = 0;
  let phaseLeft = 0;
  let parked = true;
  for (let i = 0; i < n; i++) {
    if (phaseLeft-- <= 0) {
      parked = !parked;
      phaseLeft = parked ? 60 + Math.floor(rnd() * 1800) : 300 + Math.floor(rnd() * 3600);
    }
    // 1 Hz, with a data gap of 1–30 minutes once every ~20,000 points.
    t += rnd() < 0.00005 ? 60_000 + Math.floor(rnd() * 1_740_000) : 1000;
    if (parked) {
      speed = 0;
    } else {
      speed = Math.max(5, Math.min(110, speed + (rnd() - 0.5) * 6));
      heading += (rnd() - 0.5) * 0.2;
      const km = speed / 3600;
      lat += (km / 111.195) * Math.cos(heading);
      lng += (km / (111.195 * Math.cos((lat * Math.PI) / 180))) * Math.sin(heading);
    }
    const spike = rnd() < 0.001;
    c.time[i] = t;
    c.lng[i] = spike ? lng + 0.2 : lng + (parked ? (rnd() - 0.5) * 0.00005 : 0);
    c.lat[i] = spike ? lat + 0.2 : lat + (parked ? (rnd() - 0.5) * 0.00005 : 0);
    c.speed[i] = parked ? rnd() * 0.8 : speed;
  }
  return c;
}

function bareMileageKm(c: TrackColumns): number {
  const { lng, lat } = c;
  let km = 0;
  let cosPrev = cosLatitude(lat[0]!);
  for (let i = 1; i < lat.length; i++) {
    const cos = cosLatitude(lat[i]!);
    km += haversineKmCos(lng[i - 1]!, lat[i - 1]!, cosPrev, lng[i]!, lat[i]!, cos);
    cosPrev = cos;
  }
  return km;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export async function run(args: BenchArgs = { quick: false }): Promise<BenchRecord[]> {
  const n = args.quick ? 1_000_000 : 10_000_000;
  const rounds = 3;
  const c = syntheticTrack(n);

  const ruleMs: number[] = [];
  const bareMs: number[] = [];
  let last = analyzeTrack(c); // warm-up: lets the JIT optimise before timing
  bareMileageKm(c);
  for (let r = 0; r < rounds; r++) {
    let t0 = performance.now();
    last = analyzeTrack(c);
    ruleMs.push(performance.now() - t0);
    t0 = performance.now();
    bareMileageKm(c);
    bareMs.push(performance.now() - t0);
  }
  // The console's case: one vehicle's week at 1 Hz, analysed in the track worker before the first frame.
  const week = 604_800;
  const weekCols: TrackColumns = {
    time: c.time.subarray(0, week), lng: c.lng.subarray(0, week), lat: c.lat.subarray(0, week), speed: c.speed.subarray(0, week),
  };
  const weekMs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    analyzeTrack(weekCols);
    weekMs.push(performance.now() - t0);
  }

  const rulePps = n / (median(ruleMs) / 1000);
  const barePps = n / (median(bareMs) / 1000);
  const name = `track rules, ${n / 1_000_000} M points`;
  return [
    { name, metric: 'analyzeTrack throughput', value: rulePps, unit: 'points/s', baseline: barePps, ratio: rulePps / barePps },
    { name, metric: 'analyzeTrack time (median)', value: median(ruleMs), unit: 'ms' },
    { name: 'track rules, 7 days at 1 Hz (604,800 points)', metric: 'analyzeTrack time (median of 5)', value: median(weekMs), unit: 'ms' },
    { name, metric: 'drift points found', value: last.drift.length, unit: 'points' },
    { name, metric: 'gaps ≥ 2 km found', value: last.gaps.length, unit: 'gaps' },
    { name, metric: 'stops ≥ 3 min found', value: last.stops.length, unit: 'stops' },
  ];
}
