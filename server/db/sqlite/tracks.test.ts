import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chinaDayIndex, chinaDayStartMs } from '../../../domain/track/days.ts';
import type { TrackData } from '../../../proto/track-codec.ts';
import { loadConfig } from '../../config.ts';
import { openStorage } from '../open.ts';
import type { PositionRow } from '../repositories.ts';
import type { SqliteStorage } from './storage.ts';
import { SqliteTrackRepository } from './tracks.ts';

const DAY = 86_400_000;
let dataDir: string;
let storage: SqliteStorage;
let tracks: SqliteTrackRepository;
/** Three finished China days and today's first hours, one point a minute. */
const today = chinaDayIndex(Date.now());
const from = chinaDayStartMs(today - 3);
const now = chinaDayStartMs(today) + 5 * 3_600_000;

/** Gateway precision: 1e-6 degree (a block stores what the gateway can store, no more). */
const micro = (v: number) => Math.round(v * 1e6) / 1e6;

function rows(vehicleId: number, start: number, end: number, stepMs: number): PositionRow[] {
  const out: PositionRow[] = [];
  for (let t = start, i = 0; t < end; t += stepMs, i++) {
    out.push({
      vehicleId, gpsTime: t, lng: micro(120 + i * 1e-4), lat: micro(30 + i * 1e-5), speed: (i % 800) / 10, heading: i % 360, altitude: 5 + (i % 7),
      status: i % 500 < 250 ? 3 : 2, alarm: i % 1000 === 0 ? 4 : 0, mileage: i % 50 === 0 ? null : Math.round(1000 + i) / 10, receivedAt: t,
    });
  }
  return out;
}

const points = (t: TrackData) => [...t.time].map((time, i) => [time, t.lng[i], t.lat[i], t.speed[i], t.heading[i], t.altitude[i], t.status[i], t.alarm[i], t.mileage[i]]);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-tracks-test-'));
  storage = (await openStorage(loadConfig({}, { dataDir, logLevel: 'silent', seedEnabled: false }))).storage as SqliteStorage;
  tracks = new SqliteTrackRepository(storage.db, () => now);
  await storage.positions.append(rows(1, from, now, 60_000));
  await storage.positions.append(rows(2, from, now, 30_000));
});
afterAll(() => {
  storage.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const blockCount = () => storage.db.prepare('SELECT COUNT(*) FROM track_block WHERE vehicle_id = 1').pluck().get() as number;

describe('track reads over day blocks', () => {
  it('answer the same points as the index for any period, and keep blocks of finished days only', () => {
    const periods = [[from, now], [from + 7 * 3_600_000 + 1234, now - 3_600_000], [from + DAY, from + 2 * DAY], [from + 90_000, from + 95_000]] as const;
    for (const [a, b] of periods) {
      const blocks = tracks.readTrackSync(1, a, b, 1_000_000);
      const index = tracks.readIndexSync(1, a, b, 1_000_000);
      expect(blocks.total).toBe(index.total);
      expect(points(blocks)).toEqual(points(index));
    }
    expect(blockCount()).toBe(3);
  });

  it('cut at the limit and still count the whole period', () => {
    const t = tracks.readTrackSync(1, from, now, 100);
    expect(t.count).toBe(100);
    expect(t.total).toBe((now - from) / 60_000);
    expect(t.time[99]).toBe(from + 99 * 60_000);
  });

  it('see a late row of a finished day: the row drops that day’s block', async () => {
    const late = from + DAY + 30_000;
    await storage.positions.append([{ ...rows(1, late, late + 1, 1000)[0]!, lng: 121.5 }]);
    expect(blockCount()).toBe(2);
    const t = tracks.readTrackSync(1, from + DAY, from + DAY + 120_000, 10);
    expect([...t.time]).toEqual([from + DAY, late, from + DAY + 60_000]);
    expect(t.lng[1]).toBe(121.5);
    expect(blockCount()).toBe(3);
  });

  it('read a day holding values finer than the track format from the index, unchanged', async () => {
    const day = from + DAY;
    // A negative speed (the reports' "error" point) and a millisecond time cannot be encoded exactly.
    await storage.positions.append([
      { ...rows(3, day + 1000, day + 1001, 1000)[0]!, speed: -5 },
      { ...rows(3, day + 2345, day + 2346, 1000)[0]!, lng: 120.123456789 },
    ]);
    const t = tracks.readTrackSync(3, from, now, 1_000);
    expect(points(t)).toEqual(points(tracks.readIndexSync(3, from, now, 1_000)));
    expect(t.speed[0]).toBe(-5);
    expect(t.time[1]).toBe(day + 2345);
    expect(storage.db.prepare('SELECT LENGTH(data) FROM track_block WHERE vehicle_id = 3').pluck().all()).toEqual([0]);
    expect(points(tracks.readTrackSync(3, from, now, 1_000))).toEqual(points(t));
  });

  it('keep each vehicle’s blocks apart', () => {
    const two = tracks.readTrackSync(2, from, now, 1_000_000);
    expect(two.total).toBe((now - from) / 30_000);
    expect(points(two)).toEqual(points(tracks.readIndexSync(2, from, now, 1_000_000)));
  });
});
