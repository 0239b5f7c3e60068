import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chinaDayIndex, chinaDayStartMs } from '../../domain/track/days.ts';
import type { TrackData } from '../../proto/track-codec.ts';
import { loadConfig } from '../config.ts';
import { openStorage } from './open.ts';
import { attachTrackReadPool, type TrackReadPool } from './read-pool.ts';
import type { PositionRow } from './repositories.ts';
import type { SqliteStorage } from './sqlite/storage.ts';

let dataDir: string;
let storage: SqliteStorage;
let pool: TrackReadPool | undefined;
/** Three finished China days and today's first hour, one point every 10 s. */
const today = chinaDayIndex(Date.now());
const from = chinaDayStartMs(today - 3);
const end = Math.min(Date.now(), chinaDayStartMs(today) + 3_600_000);

function rows(vehicleId: number, start: number, stop: number, stepMs: number): PositionRow[] {
  const out: PositionRow[] = [];
  for (let t = start, i = 0; t < stop; t += stepMs, i++) {
    out.push({
      vehicleId, gpsTime: t, lng: Math.round((120 + i * 1e-4) * 1e6) / 1e6, lat: 30.5, speed: (i % 800) / 10, heading: i % 360, altitude: 5,
      status: 3, alarm: 0, mileage: i % 50 === 0 ? null : Math.round(1000 + i) / 10, receivedAt: t,
    });
  }
  return out;
}

const columns = (t: TrackData) => ({ count: t.count, total: t.total, time: [...t.time], lng: [...t.lng], speed: [...t.speed], mileage: [...t.mileage] });
const blocks = (vehicleId: number) => storage.db.prepare('SELECT COUNT(*) FROM track_block WHERE vehicle_id = ?').pluck().get(vehicleId) as number;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-read-pool-test-'));
  storage = (await openStorage(loadConfig({}, { dataDir, logLevel: 'silent', seedEnabled: false }))).storage as SqliteStorage;
  await storage.positions.append(rows(1, from, end, 10_000));
  await storage.positions.append(rows(2, from, end, 10_000));
  pool = attachTrackReadPool(storage, 1);
});
afterAll(async () => {
  await pool?.close();
  storage.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the track read pool', () => {
  it('answers a long read from its worker with the same points as an in-process read, and the main thread keeps the day blocks', async () => {
    expect(pool).toBeDefined();
    const viaPool = await storage.tracks.readTrack(1, from, end, 1_000_000);
    // The worker's connection is read-only: the three finished days' blocks were stored by this thread.
    expect(blocks(1)).toBe(3);
    storage.db.prepare('DELETE FROM track_block').run();
    const inProcess = storage.tracks.readTrackSync(1, from, end, 1_000_000);
    expect(columns(viaPool)).toEqual(columns(inProcess));
    expect(viaPool.count).toBeGreaterThan(3 * 8640);
    expect(blocks(1)).toBe(3);
  });

  it('keeps no block the worker built while a late row of that vehicle was written', async () => {
    const reading = storage.tracks.readTrack(2, from, end, 1_000_000);
    // A blind-area re-upload into a finished day, written while the worker reads.
    await storage.positions.append(rows(2, from + 5, from + 6, 1000));
    const t = await reading;
    expect(t.count).toBeGreaterThan(0);
    expect(blocks(2)).toBe(0);
    // The next read builds them with the late row in.
    const again = await storage.tracks.readTrack(2, from, end, 1_000_000);
    expect(again.time[1]).toBe(from + 5);
    expect(blocks(2)).toBe(3);
  });

  it('sends reads back in process once closed', async () => {
    await pool!.close();
    const t = await storage.tracks.readTrack(1, from, end, 1_000_000);
    expect(t.count).toBe(storage.tracks.readIndexSync(1, from, end, 1_000_000).count);
  });
});
