import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chinaDayIndex } from '../../domain/track/days.ts';
import { migrate } from './migrations.ts';
import { openSqlite, type SqliteDb } from './sqlite.ts';
import { SqlitePositionRepository } from './sqlite/positions.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function freshDb(): SqliteDb {
  const dir = mkdtempSync(path.join(tmpdir(), 'mig53-'));
  dirs.push(dir);
  return openSqlite(path.join(dir, 'fleet.sqlite'));
}

const T = Date.UTC(2026, 10, 20, 2, 0, 0); // a finished China day
const insertSql = `INSERT INTO positions (vehicle_id, gps_time, lng, lat, speed, heading, altitude, status, alarm, mileage, received_at)
  VALUES (?, ?, ?, 31.2, 10, 0, 0, 3, 0, NULL, ?)`;

describe('migration 53 (one position per vehicle and GPS time)', () => {
  it('keeps the first stored row of each duplicated (vehicle, GPS time), drops the track blocks of those days, and makes the pair unique', () => {
    const db = freshDb();
    migrate(db, 52);
    const insert = db.prepare(insertSql);
    insert.run(1, T, 121.1, T);
    insert.run(1, T + 1000, 121.2, T + 1000);
    insert.run(1, T, 121.9, T + 60_000); // a resend after a lost ack (stored second: removed)
    insert.run(1, T, 121.8, T + 90_000); // and another
    insert.run(2, T, 121.3, T); // another vehicle, same time: kept
    const day = chinaDayIndex(T);
    const block = db.prepare('INSERT INTO track_block (vehicle_id, day, points, data, built_at) VALUES (?, ?, 0, x\'\', 0)');
    block.run(1, day); // built from the duplicated day: dropped
    block.run(2, day); // nothing duplicated: kept
    block.run(1, day - 1);

    expect(migrate(db)).toContain(53);
    const rows = db.prepare('SELECT vehicle_id AS v, gps_time AS t, lng FROM positions ORDER BY vehicle_id, gps_time').all();
    expect(rows).toEqual([{ v: 1, t: T, lng: 121.1 }, { v: 1, t: T + 1000, lng: 121.2 }, { v: 2, t: T, lng: 121.3 }]);
    expect(db.prepare('SELECT vehicle_id AS v, day FROM track_block ORDER BY vehicle_id, day').all()).toEqual([{ v: 1, day: day - 1 }, { v: 2, day }]);
    expect(() => insert.run(1, T, 121.5, T)).toThrow(/UNIQUE/);
    // The reads that used the old index still use this one.
    const plan = db.prepare('EXPLAIN QUERY PLAN SELECT * FROM positions WHERE vehicle_id = ? AND gps_time >= ? AND gps_time < ?').all(1, 0, 1) as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/positions_vehicle_time/);
    db.close();
  });

  it('lets the history writer store a resent row once and answer the rows it stored', async () => {
    const db = freshDb();
    migrate(db);
    const repo = new SqlitePositionRepository(db);
    const row = (gpsTime: number, lng: number) => ({
      vehicleId: 1, gpsTime, lng, lat: 31.2, speed: 10, heading: 0, altitude: 0, status: 3, alarm: 0, mileage: null, receivedAt: gpsTime,
    });
    expect(await repo.append([row(T, 121.1), row(T + 1000, 121.2)])).toBeUndefined();
    const stored = await repo.append([row(T + 1000, 121.7), row(T + 2000, 121.3)]);
    expect(stored).toEqual([row(T + 2000, 121.3)]);
    expect(db.prepare('SELECT gps_time AS t, lng FROM positions ORDER BY gps_time').all()).toEqual([
      { t: T, lng: 121.1 }, { t: T + 1000, lng: 121.2 }, { t: T + 2000, lng: 121.3 },
    ]);
    db.close();
  });
});
