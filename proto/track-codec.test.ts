import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { analyzeTrack } from '../domain/track/analyze.ts';
import type { TrackColumns } from '../domain/track/columns.ts';
import { prng } from '../domain/random.ts';
import { allocateTrack, decodeTrack, encodeTrack, type TrackData } from './track-codec.ts';
import { FrameError } from './wire.ts';

const protoText = readFileSync(new URL('./track.proto', import.meta.url), 'utf8');
const Track = protobuf.parse(protoText, { keepCase: true }).root.lookupType('fleet.track.Track');
const START = Date.UTC(2026, 10, 15, 0, 0, 0);

/** A 1 Hz drive near Hangzhou with a stop, status and alarm changes, and a few missing odometer values. */
function syntheticTrack(n: number, seed = 7): TrackData {
  const rand = prng(seed);
  const t = allocateTrack(n);
  Object.assign(t, { vehicleId: 42, plate: '浙A12345', deviceNo: '013800000042', startTime: START, endTime: START + n * 1000, total: n });
  let lng = 120.15507, lat = 30.274085, odo = 12345.6;
  for (let i = 0; i < n; i++) {
    const stopped = i % 900 > 600; // a five-minute stop every fifteen minutes
    const speed = stopped ? 0 : 30 + rand() * 50;
    if (!stopped) {
      lng += (rand() - 0.3) * 2e-4;
      lat += (rand() - 0.4) * 2e-4;
      odo += speed / 3600;
    }
    t.time[i] = START + i * 1000;
    t.lng[i] = Math.round(lng * 1e6) / 1e6;
    t.lat[i] = Math.round(lat * 1e6) / 1e6;
    t.speed[i] = Math.round(speed * 10) / 10;
    t.heading[i] = Math.floor(rand() * 360);
    t.altitude[i] = 10 + Math.floor(rand() * 5);
    t.status[i] = stopped ? 0x2 : 0x3;
    t.alarm[i] = i > n / 2 && i < n / 2 + 20 ? 0x1 : 0;
    t.mileage[i] = i % 97 === 5 ? NaN : Math.round(odo * 10) / 10;
  }
  return t;
}

function expectSame(a: TrackData, b: TrackData): void {
  expect({ ...b, time: [...b.time], lng: [...b.lng], lat: [...b.lat], speed: [...b.speed], heading: [...b.heading], altitude: [...b.altitude], status: [...b.status], alarm: [...b.alarm], mileage: [...b.mileage] })
    .toEqual({ ...a, time: [...a.time], lng: [...a.lng], lat: [...a.lat], speed: [...a.speed], heading: [...a.heading], altitude: [...a.altitude], status: [...a.status], alarm: [...a.alarm], mileage: [...a.mileage] });
}

describe('track messages', () => {
  it('round-trip a 1 Hz track with microdegree, 0.1 km/h, whole-second and 0.1 km precision', () => {
    const t = syntheticTrack(5000);
    const bytes = encodeTrack(t);
    expectSame(t, decodeTrack(bytes));
    // Columnar deltas: well under the ≈ 150 bytes a JSON point costs.
    expect(bytes.length / 5000).toBeLessThan(16);
  });

  it('decode into columns the track rules read directly', () => {
    const decoded = decodeTrack(encodeTrack(syntheticTrack(3000)));
    const columns: TrackColumns = decoded;
    const analysis = analyzeTrack(columns);
    expect(analysis.points).toBe(3000);
    expect(analysis.stops.length).toBeGreaterThan(0);
  });

  it('round-trip an empty track, keeping the header', () => {
    const t = allocateTrack(0);
    Object.assign(t, { vehicleId: 9, plate: '京A1', deviceNo: '1', startTime: START, endTime: START + 1000, total: 0 });
    expectSame(t, decodeTrack(encodeTrack(t)));
  });

  it('say how many points the period had when the answer holds fewer', () => {
    const t = syntheticTrack(10);
    t.total = 700_000;
    const d = decodeTrack(encodeTrack(t));
    expect(d.total).toBe(700_000);
    expect(d.count).toBe(10);
  });

  it('are plain protobuf: protobufjs reads the same points from our bytes', () => {
    const t = syntheticTrack(300);
    const msg = Track.toObject(Track.decode(encodeTrack(t)), { longs: Number }) as {
      header: { vehicleId: number; plate: string; count: number }; time: number[]; lng: number[]; speed: number[]; mileage: number[]; mileageMissingAt: number[];
    };
    expect(msg.header).toMatchObject({ vehicleId: 42, plate: '浙A12345', count: 300 });
    let sec = 0, micro = 0;
    for (let i = 0; i < 300; i++) {
      sec += msg.time[i]!;
      micro += msg.lng[i]!;
      expect(sec * 1000).toBe(t.time[i]);
      expect(micro / 1e6).toBe(t.lng[i]);
      expect(msg.speed[i]! / 10).toBeCloseTo(t.speed[i]!, 5);
    }
    expect(msg.mileageMissingAt).toEqual([5, 102, 199, 296]);
  });

  it('decode bytes protobufjs wrote', () => {
    const bytes = Track.encode(Track.fromObject({
      header: { vehicleId: 3, plate: '粤B7', deviceNo: 'd', startTime: START, endTime: START + 5000, total: 2, count: 2 },
      time: [START / 1000, 2], lng: [120_000_000, -5], lat: [30_000_000, 7], speed: [123, 0], heading: [90, 359], altitude: [5, -2],
      statusAt: [1], statusValue: [3], alarmAt: [0, 1], alarmValue: [4, 0], mileage: [100, 5], mileageMissingAt: [0],
    })).finish();
    const d = decodeTrack(bytes);
    expect(d).toMatchObject({ vehicleId: 3, plate: '粤B7', count: 2, total: 2 });
    expect([...d.time]).toEqual([START, START + 2000]);
    expect([...d.lng]).toEqual([120, 119.999995]);
    expect([...d.lat]).toEqual([30, 30.000007]);
    expect(d.speed[0]).toBeCloseTo(12.3, 5);
    expect([...d.heading]).toEqual([90, 359]);
    expect([...d.altitude]).toEqual([5, 3]);
    expect([...d.status]).toEqual([0, 3]);
    expect([...d.alarm]).toEqual([4, 0]);
    expect(d.mileage[0]).toBeNaN();
    expect(d.mileage[1]).toBe(10.5);
  });
});

describe('malformed track messages', () => {
  const good = encodeTrack(syntheticTrack(200));

  it('are refused with a FrameError when truncated anywhere', () => {
    for (let cut = 0; cut < good.length; cut++) {
      let error: unknown;
      try {
        const d = decodeTrack(good.subarray(0, cut));
        // A cut exactly between fields can leave a shorter valid message (e.g. header only).
        expect(d.count === 0 || d.count === 200).toBe(true);
        continue;
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(FrameError);
    }
  });

  it('are refused or decoded, never hanging or throwing anything else, when bytes are mutated', () => {
    const rand = prng(99);
    // Refusals are counted and asserted after the loop, so the test fails if mutations stop being refused.
    const errors: unknown[] = [];
    for (let k = 0; k < 2000; k++) {
      const bad = good.slice();
      const flips = 1 + Math.floor(rand() * 4);
      for (let j = 0; j < flips; j++) bad[Math.floor(rand() * bad.length)] = Math.floor(rand() * 256);
      try {
        const d = decodeTrack(bad);
        expect(d.time.length).toBe(d.count);
      } catch (e) {
        errors.push(e);
      }
    }
    expect(errors.length).toBeGreaterThan(1000); // 1,526 of the 2,000 seeded mutations are refused
    for (const e of errors) expect(e).toBeInstanceOf(FrameError);
  });

  it('are refused when a column has fewer values than the time column', () => {
    const msg = Track.toObject(Track.decode(encodeTrack(syntheticTrack(3))), { longs: Number }) as { header: { count: number }; lat: number[] };
    msg.lat = [1];
    expect(() => decodeTrack(Track.encode(Track.fromObject(msg)).finish())).toThrow(FrameError);
  });

  it('are refused when the header count disagrees with the columns', () => {
    const msg = Track.toObject(Track.decode(encodeTrack(syntheticTrack(3))), { longs: Number }) as { header: { count: number } };
    msg.header.count = 4_000_000_000;
    expect(() => decodeTrack(Track.encode(Track.fromObject(msg)).finish())).toThrow(FrameError);
  });
});
