/**
 * Deterministic synthetic fleets for codec tests and the decode benchmark: vehicles spread over China
 * with realistic speeds, headings and state mix, as live-store-like columns.
 */
import { prng } from '../domain/random.ts';
import type { PositionSource } from './codec.ts';

export interface SyntheticFleet extends PositionSource {
  readonly count: number;
  /** Row order sorted by vehicle id (what the encoder expects). */
  readonly rows: Int32Array;
  readonly vehicleId: Int32Array;
  readonly lng: Float64Array;
  readonly lat: Float64Array;
  readonly speed: Float32Array;
  readonly heading: Uint16Array;
  readonly state: Uint8Array;
  readonly alarmFlags: Uint32Array;
  readonly gpsTime: Float64Array;
  readonly lastContact: Float64Array;
}


/** `count` vehicles with ids 1..count (a few gaps), 2% never online, the rest moving or standing. */
export function syntheticFleet(count: number, now: number, seed = 1): SyntheticFleet {
  const rnd = prng(seed);
  const f = {
    count, rows: new Int32Array(count), vehicleId: new Int32Array(count), lng: new Float64Array(count), lat: new Float64Array(count),
    speed: new Float32Array(count), heading: new Uint16Array(count), state: new Uint8Array(count), alarmFlags: new Uint32Array(count),
    gpsTime: new Float64Array(count), lastContact: new Float64Array(count),
  };
  let id = 0;
  for (let i = 0; i < count; i++) {
    id += rnd() < 0.05 ? 2 + Math.floor(rnd() * 5) : 1;
    f.rows[i] = i;
    f.vehicleId[i] = id;
    const r = rnd();
    if (r < 0.02) {
      f.state[i] = 0;
      f.lng[i] = NaN;
      f.lat[i] = NaN;
      f.gpsTime[i] = NaN;
      f.lastContact[i] = NaN;
      continue;
    }
    f.lng[i] = 100 + rnd() * 22;
    f.lat[i] = 22 + rnd() * 18;
    const driving = r < 0.6;
    f.state[i] = driving ? 2 : r < 0.9 ? 3 : 4;
    f.speed[i] = driving ? 10 + rnd() * 100 : 0;
    f.heading[i] = Math.floor(rnd() * 360);
    f.alarmFlags[i] = rnd() < 0.03 ? 1 << Math.floor(rnd() * 20) : 0;
    f.lastContact[i] = now - Math.floor(rnd() * (r < 0.1 ? 600_000 : 30_000));
    f.gpsTime[i] = f.lastContact[i]! - Math.floor(rnd() * 3000);
  }
  return f;
}

/** Moves every driving vehicle a 1 s step (what a delta frame carries). */
export function advance(f: SyntheticFleet, seconds: number, seed = 2): void {
  const rnd = prng(seed);
  for (let i = 0; i < f.count; i++) {
    if (f.state[i] !== 2) continue;
    const step = (f.speed[i]! / 3.6) * seconds / 111_000;
    const rad = (f.heading[i]! * Math.PI) / 180;
    f.lng[i] = f.lng[i]! + step * Math.sin(rad);
    f.lat[i] = f.lat[i]! + step * Math.cos(rad);
    f.heading[i] = (f.heading[i]! + Math.floor(rnd() * 11) - 5 + 360) % 360;
    f.lastContact[i] = f.lastContact[i]! + seconds * 1000;
    f.gpsTime[i] = f.gpsTime[i]! + seconds * 1000;
  }
}
