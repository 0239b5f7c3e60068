/**
 * A deterministic synthetic track for tests and the playback benchmark: 1 Hz points driving a
 * wandering course, a parked stretch every `stopEvery` points, one drift spike and one data gap.
 */
import { allocateTrack, type TrackData } from '../../../proto/track-codec.ts';

export interface SynthOptions {
  /** @default 0 (Date.UTC 2026-11-01 00:00) */
  start?: number;
  /** @default 10_000 */
  stopEvery?: number;
  /** @default 1_200 (20 min parked) */
  stopLength?: number;
  /** @default true */
  drift?: boolean;
  /** @default true */
  gap?: boolean;
}

export function synthTrack(n: number, opts: SynthOptions = {}): TrackData {
  const t = allocateTrack(n);
  const start = opts.start ?? Date.UTC(2026, 10, 1);
  const stopEvery = opts.stopEvery ?? 10_000;
  const stopLength = opts.stopLength ?? 1_200;
  t.vehicleId = 1;
  t.plate = '京A00001';
  t.deviceNo = '013800000001';
  t.startTime = start;
  t.endTime = start + n * 1000;
  let lng = 116.3;
  let lat = 39.9;
  let heading = 0;
  for (let i = 0; i < n; i++) {
    const parked = i % stopEvery >= stopEvery - stopLength;
    // ≈ 50 km/h: 14 m per second, turning slowly.
    const kmh = parked ? 0 : 50;
    if (!parked) {
      heading = (heading + Math.sin(i / 300) * 2 + 360) % 360;
      const rad = (heading * Math.PI) / 180;
      lat += (Math.cos(rad) * 0.014) / 111.2;
      lng += (Math.sin(rad) * 0.014) / (111.2 * Math.cos((lat * Math.PI) / 180));
      // Keep the course within a box ≈ 100 km wide.
      if (lng > 116.9 || lng < 115.7 || lat > 40.4 || lat < 39.4) heading = (heading + 180) % 360;
    }
    t.time[i] = start + i * 1000;
    t.lng[i] = lng;
    t.lat[i] = lat;
    t.speed[i] = kmh;
    t.heading[i] = Math.round(heading) % 360;
    t.altitude[i] = 50;
    t.alarm[i] = i % 50_000 >= 100 && i % 50_000 < 130 ? 1 : 0;
    t.mileage[i] = Number.NaN;
  }
  if (opts.drift !== false && n > 1000) {
    // A 0.1° spike (≈ 11 km in 1 s) at point 500: drift by the 160 km/h rule.
    t.lat[500] = t.lat[500]! + 0.1;
  }
  if (opts.gap !== false && n > 3000) {
    // From point 2000 the terminal jumps 0.2° (≈ 17 km): a discontinuous gap, then drives on from there.
    for (let i = 2000; i < n; i++) t.lng[i] = t.lng[i]! + 0.2;
  }
  return t;
}
