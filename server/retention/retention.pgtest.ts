/**
 * Position retention on PostgreSQL (issue 20, pg-partitions.ts): the days past the retention are whole day
 * partitions, dropped instead of deleted row by row. What a user sees: a track read of a dropped day answers
 * no points, every position inside the retention is still there, and a vehicle silent since then still
 * shows where it was last seen; a reset clock's report stamped long ago that arrived today stays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chinaDayIndex, chinaDayStartMs } from '../../domain/track/days.ts';
import { partitionDdl } from '../db/pg/partitions.ts';
import type { PgSyncDb } from '../db/pg/sync-db.ts';
import { COPY_MAX, PgPositionPartitions } from './pg-partitions.ts';
import type { PositionRow } from '../db/repositories.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { pgSkipReason } from '../db/pg/test-db.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';

const skip = pgSkipReason();
if (skip) console.warn(`retention.pgtest: skipped: ${skip}`);

function points(vehicleId: number, from: number, n: number, stepMs: number, arrival = (t: number) => t + 1000): PositionRow[] {
  return Array.from({ length: n }, (_, i) => ({
    vehicleId, gpsTime: from + i * stepMs, lng: 116 + i * 0.001, lat: 39.9, speed: 36, heading: 90, altitude: 50, status: 3, alarm: 0, mileage: 1000 + i * 0.1,
    receivedAt: arrival(from + i * stepMs),
  }));
}

describe.skipIf(skip !== '')('position retention on PostgreSQL: whole day partitions dropped', () => {
  let server: LiveTestServer;

  beforeAll(async () => {
    server = await startLiveServer({ seedVehicles: 3 });
    // The round a node runs on becoming leader must be over before the test's own sweeps (they would race it).
    for (const until = Date.now() + 15_000; !server.app.leadership.isLeader && Date.now() < until;) await new Promise((r) => setTimeout(r, 20));
    await server.app.retention.runAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => (server.app.storage as SqliteStorage).db;
  const partitionExists = (ms: number) => db().prepare('SELECT count(*) FROM pg_class WHERE relname = ?').pluck().get(partitionDdl('positions', ms).name) === 1;
  // The track screens' read (the HTTP track calls refuse periods over 30 days old: TRACK_MAX_AGE_MS).
  const trail = (vehicleId: number, from: number, to: number) => server.app.storage.tracks.count(vehicleId, from, to);

  it('drops the days past the retention; keeps every day inside it, a silent vehicle’s last position and a late arrival', async () => {
    const [v1, v2, v3] = (await server.app.storage.terminals.allVehicles()).map((v) => v.vehicleId) as [number, number, number];
    const now = server.clock.now();
    const today = chinaDayIndex(now);
    const dropped = today - 181; // POSITION_RETENTION_DAYS 180: day today-181 goes, today-180 stays
    const kept = today - 180;
    const start = (day: number) => chinaDayStartMs(day);
    await server.app.storage.positions.append([
      ...points(v1, start(dropped) + 3_600_000, 500, 10_000),
      ...points(v1, start(kept) + 60_000, 300, 10_000),
      ...points(v1, start(today - 1) + 3_600_000, 200, 10_000),
      // v2 has been silent since the dropped day: its newest row stays (the monitor shows where it was last seen).
      ...points(v2, start(dropped) + 3_600_000, 50, 10_000),
      // v3's terminal has a reset clock: stamped 2000, arrived now. Kept until it has been stored 180 days.
      ...points(v3, Date.UTC(2000, 0, 1), 5, 1000, () => now),
    ]);
    const day2000 = Date.UTC(2000, 0, 1);
    expect(partitionExists(start(dropped))).toBe(true);
    expect(await trail(v1, start(dropped), start(dropped + 1))).toBe(500);

    const r = await server.app.dataRetention.sweep();
    expect(r).toMatchObject({ positions: 500 + 49 });
    // The dropped day's partition (v2's newest row copied into a fresh one); the year-2000 day holds only rows that stay: left alone.
    expect(r.positionPartitions).toBe(1);

    // The dropped day: no points but v2's last position.
    expect(await trail(v1, start(dropped), start(dropped + 1))).toBe(0);
    expect(await trail(v2, start(dropped), start(dropped + 1))).toBe(1);
    const lastSeen = (await server.app.storage.positions.latestPerVehicle()).find((p) => p.vehicleId === v2);
    expect(lastSeen?.gpsTime).toBe(start(dropped) + 3_600_000 + 49 * 10_000);
    // Inside the retention: every position still there.
    expect(await trail(v1, start(kept), start(kept + 1))).toBe(300);
    expect(await trail(v1, start(today - 1), start(today))).toBe(200);
    expect(db().prepare('SELECT count(*) FROM positions WHERE vehicle_id = ? AND gps_time >= ? AND gps_time < ?').pluck().get(v3, day2000, day2000 + 86_400_000)).toBe(5);

    // A day with no row to keep: its partition is gone, and a report of that day stored later makes it again.
    const v1Only = today - 190;
    await server.app.storage.positions.append(points(v1, start(v1Only) + 3_600_000, 20, 10_000));
    expect(partitionExists(start(v1Only))).toBe(true);
    const again = await server.app.dataRetention.sweep();
    expect(again).toMatchObject({ positions: 20, positionPartitions: 1 });
    expect(partitionExists(start(v1Only))).toBe(false);
    expect(await trail(v1, start(v1Only), start(v1Only + 1))).toBe(0);
    // This process had made that day's partition before the drop: a late report of the day is still stored.
    await server.app.storage.positions.append(points(v1, start(v1Only) + 7_200_000, 1, 1000, () => now));
    expect(await trail(v1, start(v1Only), start(v1Only + 1))).toBe(1);

    // Nothing left to do: the silent vehicle's and the reset clock's partitions hold only rows that stay.
    expect(await server.app.dataRetention.sweep()).toMatchObject({ positions: 0, positionPartitions: 0 });
  });

  it('finishes a day a crash left detached, and thins instead of copying a day whose rows mostly stay', async () => {
    const [v1, , v3] = (await server.app.storage.terminals.allVehicles()).map((v) => v.vehicleId) as [number, number, number];
    const now = server.clock.now();
    const today = chinaDayIndex(now);
    const start = (day: number) => chinaDayStartMs(day);
    // A crash between a day's detach and its drop: the day table is no partition any more, its name still taken.
    const crashed = today - 300;
    await server.app.storage.positions.append(points(v1, start(crashed) + 3_600_000, 30, 10_000));
    db().exec(`ALTER TABLE positions DETACH PARTITION ${partitionDdl('positions', start(crashed)).name}`);
    // A reset clock reporting into one old day for long: 10,001 rows that arrived now, 40 stored long ago.
    const busy = today - 400;
    await server.app.storage.positions.append([
      ...points(v3, start(busy) + 1000, 40, 1000, () => start(busy) + 5000),
      ...points(v3, start(busy) + 100_000, COPY_MAX + 1, 1, () => now),
    ]);

    const r = await server.app.dataRetention.sweep();
    expect(r).toMatchObject({ positions: 30 + 40, positionPartitions: 1 });
    expect(partitionExists(start(crashed))).toBe(false);
    // Thinned in place: the 40 old arrivals gone, every late one still there, the partition kept.
    expect(partitionExists(start(busy))).toBe(true);
    expect(await trail(v3, start(busy), start(busy + 1))).toBe(COPY_MAX + 1);
  });

  it('a report of a day detached and not yet dropped is stored with the rest of its batch, and stays as a late arrival', async () => {
    const now = server.clock.now();
    const today = chinaDayIndex(now);
    const [day, boundary, other] = [today - 250, today - 180, today - 260];
    // v3 reports today (v2, silent since the first case, must stay so: its last position is kept).
    const [v1, , v3] = (await server.app.storage.terminals.allVehicles()).map((v) => v.vehicleId) as [number, number, number];
    const start = chinaDayStartMs;
    await server.app.storage.positions.append(points(v1, start(day) + 3_600_000, 10, 10_000));
    // The retention stopped between its detach of that day and its drop (the seconds of a round), when a batch comes
    // with a terminal's buffered report of that day, arrived now, and today's reports of another vehicle.
    const partitions = new PgPositionPartitions((db() as unknown as PgSyncDb).url, async () => {
      await server.app.storage.positions.append([
        ...points(v1, start(day) + 7_200_000, 1, 1000, () => now),
        ...points(v3, now - 60_000, 5, 1000, () => now),
      ]);
    });
    const [expired] = (await partitions.expired(boundary)).filter((p) => p.day === day);
    expect(expired?.state).toBe('attached');
    try {
      // The late report arrived after the boundary: it stays, the day's 10 old rows go.
      expect(await partitions.removeDay(expired!, start(boundary), [])).toEqual({ day, deleted: 10, kept: 1, dropped: true });
    } finally {
      await partitions.close();
    }
    expect(await trail(v3, now - 60_000, now)).toBe(5);
    expect(await trail(v1, start(day), start(day + 1))).toBe(1);

    // A partition this process made through a plain INSERT (the facade's ensurePartition), dropped since by the
    // retention: an INSERT of that day makes it again instead of trusting the process's memory.
    const insert = db().prepare(`INSERT INTO positions (vehicle_id, gps_time, lng, lat, speed, heading, altitude, status, alarm, mileage, received_at)
                                 VALUES (?, ?, 116, 39.9, 0, 0, 0, 3, 0, NULL, ?)`);
    insert.run(v1, start(other) + 1000, now);
    db().exec(`DROP TABLE ${partitionDdl('positions', start(other)).name}`);
    insert.run(v1, start(other) + 2000, now);
    expect(await trail(v1, start(other), start(other + 1))).toBe(1);
  });
});
