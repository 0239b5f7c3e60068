import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mileageModule, type MileageRow } from '../../../domain/report-day/mileage.ts';
import type { DayContext, DayEvent, DayModule, DayPoint } from '../../../domain/report-day/module.ts';
import { isValidDayPoint } from '../../../domain/report-day/valid.ts';
import { chinaDayIndex, chinaDayStartMs, DAY_MS } from '../../../domain/track/days.ts';
import { loadConfig } from '../../config.ts';
import { openStorage } from '../../db/open.ts';
import type { PositionRow } from '../../db/repositories.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { BatchedHistoryWriter } from '../../live/history.ts';
import { OPEN_ROW, SqliteReportEngine } from './engine.ts';

const MIN = 60_000;
const TODAY = chinaDayIndex(Date.now());
const Y = TODAY - 1;
const at = (day: number, minutes: number) => chinaDayStartMs(day) + minutes * MIN;

/**
 * A probe module beside mileage: a 'stop' event each time the vehicle stops after moving (final, from
 * `step`), an 'open' event from `finish` while stopped at the end, and the company's `probe.factor`.
 */
interface ProbeCarry { moving: boolean; stoppedAt: number; lng: number; lat: number; n: number; factor: number }
const probe: DayModule<ProbeCarry, { n: number; factor: number }> = {
  key: 'probe',
  start: (c: DayContext) => ({ moving: false, stoppedAt: 0, lng: 0, lat: 0, n: 0, factor: c.settings['probe.factor'] ?? 1 }),
  step(c, p, events) {
    c.n++;
    if (p.speed > 0) c.moving = true;
    else if (c.moving) {
      c.moving = false;
      c.stoppedAt = p.t;
      c.lng = p.lng;
      c.lat = p.lat;
      events.push({ kind: 'stop', start: p.t, end: p.t, lng: p.lng, lat: p.lat, value: { n: c.n } });
    }
  },
  finish(c, events) {
    if (!c.moving && c.stoppedAt > 0) events.push({ kind: 'open', start: c.stoppedAt, end: c.stoppedAt, lng: c.lng, lat: c.lat, value: {} });
    return { n: c.n, factor: c.factor };
  },
};

/** A day of one vehicle: a point every 30 s from `fromMin` for `count` points; stops every 20th point; odometer. */
function drive(vehicleId: number, day: number, fromMin: number, count: number, lat0 = 30): PositionRow[] {
  return Array.from({ length: count }, (_, i) => {
    const t = at(day, fromMin) + i * 30_000;
    const stopped = i % 20 >= 17;
    return {
      vehicleId, gpsTime: t, lng: 120 + (i % 7) * 1e-4, lat: lat0 + i * 0.002, speed: stopped ? 0 : 40, heading: 0, altitude: 5,
      status: stopped ? 2 : 3, alarm: 0, mileage: 1000 + i * 0.22, fuel: 50 - i * 0.01, receivedAt: t + 2000,
    };
  });
}

/** The reference: the raw points of one vehicle-day through the module, with the last valid point before the day. */
function reference<C, R>(module: DayModule<C, R>, all: PositionRow[], vehicleId: number, day: number, settings: Record<string, number> = {}): { row: R; events: DayEvent[] } {
  const start = chinaDayStartMs(day);
  const mine = all.map((r, i) => ({ r, i })).filter((x) => x.r.vehicleId === vehicleId).sort((a, b) => a.r.gpsTime - b.r.gpsTime || a.i - b.i).map((x) => x.r);
  const toPoint = (r: PositionRow): DayPoint => ({ t: r.gpsTime, lng: r.lng, lat: r.lat, speed: r.speed, status: r.status, alarm: r.alarm, mileage: r.mileage, fuel: r.fuel ?? null, receivedAt: r.receivedAt });
  const previous = mine.filter((r) => r.gpsTime < start).map(toPoint).filter(isValidDayPoint).at(-1) ?? null;
  const carry = module.start({ vehicleId, day, dayStart: start, dayEnd: start + DAY_MS, previous, settings });
  const events: DayEvent[] = [];
  for (const r of mine.filter((x) => x.gpsTime >= start && x.gpsTime < start + DAY_MS)) module.step(carry, toPoint(r), events);
  const row = module.finish(carry, events);
  return { row, events };
}

let dataDir: string;
let storage: SqliteStorage;
let now: number;
let engine: SqliteReportEngine;
let writer: BatchedHistoryWriter;
let stored: PositionRow[];

function newEngine(): SqliteReportEngine {
  const e = new SqliteReportEngine({ db: storage.db, clock: () => now, persistMs: 3_600_000, closeAfterMs: 15 * MIN });
  e.register(mileageModule as DayModule<unknown, unknown>);
  e.register(probe as DayModule<unknown, unknown>);
  return e;
}

/** The real append path: the batched writer, its commit hook feeding the engine. */
async function store(rows: PositionRow[], batch = 97): Promise<void> {
  for (let i = 0; i < rows.length; i += batch) {
    for (const r of rows.slice(i, i + batch)) writer.enqueue(r);
    await writer.flush();
  }
  stored.push(...rows);
}

async function mileage(vehicleId: number, day: number): Promise<MileageRow | undefined> {
  return (await engine.days<MileageRow>('mileage', [vehicleId], day, day)).get(vehicleId)?.[0]?.row;
}

beforeEach(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'report-engine-test-'));
  storage = (await openStorage(loadConfig({}, { dataDir, logLevel: 'silent', seedEnabled: false }))).storage as SqliteStorage;
  const db = storage.db;
  let company = db.prepare('SELECT id FROM company ORDER BY id LIMIT 1').pluck().get() as number | undefined;
  if (company === undefined) {
    company = Number(db.prepare("INSERT INTO company (pid, name, path, create_time, update_time) VALUES (NULL, 'root', '/1/', 0, 0)").run().lastInsertRowid);
  }
  await storage.fleet.createVehicles([1, 2, 3].map((i) => ({ vehiidno: `V${i}`, companyId: company, lineId: null, deviceNo: null, vin: '' })));
  // Ids 1, 2, 3 in a fresh database (the helpers below use them).
  expect(db.prepare('SELECT id FROM vehicle ORDER BY id').pluck().all()).toEqual([1, 2, 3]);
  db.prepare('INSERT INTO report_setting (company_id, key, value) VALUES (?, ?, ?)').run(company, 'probe.factor', 3);
  now = at(TODAY, 0) + 10 * MIN; // 00:10 today: yesterday is over but not yet closed
  stored = [];
  engine = newEngine();
  await engine.start();
  writer = new BatchedHistoryWriter(storage.positions, { flushMs: 1_000_000, maxRows: 1_000_000 });
  writer.onCommitted = (rows) => engine.ingest(rows);
});

afterEach(async () => {
  await engine?.close();
  storage.db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('report engine', () => {
  it('keeps each module row of a vehicle-day equal to a recompute from the raw positions, live and saved', async () => {
    // Two vehicles, yesterday 08:00–16:20 and the first minutes of today, interleaved in the batches.
    const rows = [...drive(1, Y, 480, 1000), ...drive(2, Y, 500, 900, 31), ...drive(1, TODAY, 0, 15, 32)];
    rows.sort((a, b) => a.gpsTime - b.gpsTime);
    // Two invalid points and a 20 km jump for vehicle 1.
    rows.push({ ...drive(1, TODAY, 8, 1)[0]!, lng: 0 }, { ...drive(1, TODAY, 9, 1)[0]!, lat: 32.5 }, ...drive(1, TODAY, 10, 3, 32.03));
    await store(rows);

    for (const [v, d] of [[1, Y], [2, Y], [1, TODAY]] as const) {
      const expected = reference(mileageModule, stored, v, d).row;
      expect(await mileage(v, d)).toEqual(expected);
      expect(expected.trackKm).toBeGreaterThan(0);
    }
    // The pair across midnight counts for today (previous = yesterday's last valid point of vehicle 1).
    expect((await mileage(1, TODAY))!.lossCount).toBe(2);
    // Positions keep the fuel level (migration 36) and read it back.
    expect((await storage.positions.range(1, at(Y, 0), at(TODAY, 0), 2)).map((r) => r.fuel)).toEqual([50, 49.99]);
    // Settings of the vehicle's company reach the module's context.
    expect((await engine.days<{ factor: number }>('probe', [1], TODAY, TODAY)).get(1)![0]!.row.factor).toBe(3);

    // Saved rows read back the same, and a recompute from positions changes nothing.
    engine.flushNow();
    const live = await engine.days('mileage', [1, 2], Y, TODAY);
    await engine.recompute(1, Y);
    await engine.recompute(1, TODAY);
    await engine.recompute(2, Y);
    expect(await engine.days('mileage', [1, 2], Y, TODAY)).toEqual(live);
    expect(engine.stats.pointsStepped).toBe(rows.length);
  });

  it('stores events final from step and open from finish; an open event is replaced when the stop ends', async () => {
    await store(drive(1, TODAY, 0, 19)); // stops at point 17, still stopped at 18
    let events = await engine.events('probe', [1], TODAY, TODAY);
    expect(events.map((e) => e.event.kind)).toEqual(['stop', 'open']);
    await store(drive(1, TODAY, 0, 60).slice(19));
    events = await engine.events('probe', [1], TODAY, TODAY, 'stop');
    const expected = reference(probe, stored, 1, TODAY).events.filter((e) => e.kind === 'stop');
    expect(events.map((e) => e.event)).toEqual(expected);
    expect(events).toHaveLength(3);
    // The last stop (point 57) is still running: one open event, not one per save.
    expect((await engine.events('probe', [1], TODAY, TODAY, 'open')).map((e) => e.event.start)).toEqual([at(TODAY, 0) + 57 * 30_000]);
  });

  it('recomputes a closed day on a blind-area upload and an open day on a point older than its last', async () => {
    const first = drive(1, Y, 480, 400);
    const gap = first.filter((_, i) => i >= 100 && i < 200);
    await store(first.filter((_, i) => i < 100 || i >= 200));
    await store(drive(1, TODAY, 0, 10, 31));
    // Close yesterday: quiet for longer than closeAfterMs.
    now += 20 * MIN;
    engine.flushNow();
    expect(engine.openDays).toBe(1);
    const before = (await mileage(1, Y))!;
    // The terminal re-uploads the hour it could not send (0x0704).
    await store(gap);
    await engine.idle();
    const after = (await mileage(1, Y))!;
    expect(after).toEqual(reference(mileageModule, stored, 1, Y).row);
    expect(after.points).toBe(before.points + 100);
    expect(after.trackKm).toBeGreaterThan(before.trackKm);
    expect(storage.db.prepare('SELECT COUNT(*) FROM report_day WHERE stale = 1').pluck().get()).toBe(0);

    // Today: a point older than the last one stepped.
    const early = { ...drive(1, TODAY, 0, 1, 31)[0]!, gpsTime: at(TODAY, 0) + 15_000, lat: 31.001 };
    await store([early]);
    await engine.idle();
    expect(await mileage(1, TODAY)).toEqual(reference(mileageModule, stored, 1, TODAY).row);
    expect(engine.stats.recomputes).toBeGreaterThanOrEqual(2);
  });

  it('a restart resumes open days from their carries plus the points stored after their save, and recomputes a day never saved', async () => {
    await store(drive(1, TODAY, 0, 300));
    await store(drive(2, TODAY, 0, 200, 31));
    engine.flushNow();
    // Vehicle 1 gets more points after the last save; vehicle 3 gets its first points; then the process dies.
    await store(drive(1, TODAY, 0, 400).slice(300));
    await store(drive(3, TODAY, 60, 50, 33));
    writer.onCommitted = undefined;

    const next = newEngine();
    await next.start();
    await next.idle();
    for (const v of [1, 2, 3]) expect((await next.days<MileageRow>('mileage', [v], TODAY, TODAY)).get(v)![0]!.row).toEqual(reference(mileageModule, stored, v, TODAY).row);
    // Vehicle 1's carry took the 100 points stored after its save; vehicle 2's was current; vehicle 3 (no row) was recomputed.
    expect(next.stats.pointsResumed).toBe(100);
    expect(next.stats.recomputes).toBe(1);
    engine = next;
    writer.onCommitted = (rows) => engine.ingest(rows);
    await store(drive(2, TODAY, 0, 260, 31).slice(200));
    expect(await mileage(2, TODAY)).toEqual(reference(mileageModule, stored, 2, TODAY).row);
    expect(await mileage(1, TODAY)).toEqual(reference(mileageModule, stored, 1, TODAY).row);
    expect(next.stats.recomputes).toBe(1);
  });

  it('the periodic save writes carries only; a restart after it answers the same rows and events; the row is written when the day closes', async () => {
    const db = storage.db;
    await store(drive(1, TODAY, 0, 19)); // moving, then stopped from point 17: a final 'stop' (step) and an 'open' one (finish)
    engine.flushNow();
    const dayRows = () => db.prepare('SELECT module, row, carry IS NOT NULL AS carry FROM report_day WHERE vehicle_id = 1 AND day = ? ORDER BY module').all(TODAY);
    expect(dayRows()).toEqual([{ module: 'mileage', row: OPEN_ROW, carry: 1 }, { module: 'probe', row: OPEN_ROW, carry: 1 }]);
    // The step's event is saved with the carry it came from; the open one is not written by the periodic save.
    expect(db.prepare('SELECT kind, open FROM report_event WHERE vehicle_id = 1').all()).toEqual([{ kind: 'stop', open: 0 }]);

    // The process dies after that save; the next start loads the carries.
    writer.onCommitted = undefined;
    const next = newEngine();
    await next.start();
    await next.idle();
    engine = next;
    writer.onCommitted = (rows) => engine.ingest(rows);
    expect(next.stats.recomputes).toBe(0);
    expect(await mileage(1, TODAY)).toEqual(reference(mileageModule, stored, 1, TODAY).row);
    expect((await next.events('probe', [1], TODAY, TODAY)).map((e) => e.event)).toEqual(reference(probe, stored, 1, TODAY).events);
    expect(db.prepare('SELECT kind, open FROM report_event WHERE vehicle_id = 1 ORDER BY rowid').all()).toEqual([{ kind: 'stop', open: 0 }, { kind: 'open', open: 1 }]);

    // The day is over and quiet: its rows are written final, the carries dropped, the open event final.
    now = at(TODAY + 1, 20);
    next.flushNow();
    expect(next.openDays).toBe(0);
    const final = db.prepare('SELECT module, row, carry FROM report_day WHERE vehicle_id = 1 AND day = ? ORDER BY module').all(TODAY) as { module: string; row: string; carry: string | null }[];
    expect(final.map((r) => [r.module, JSON.parse(r.row), r.carry])).toEqual([
      ['mileage', reference(mileageModule, stored, 1, TODAY).row, null], ['probe', reference(probe, stored, 1, TODAY, { 'probe.factor': 3 }).row, null],
    ]);
    expect(db.prepare('SELECT kind, open FROM report_event WHERE vehicle_id = 1 ORDER BY rowid').all()).toEqual([{ kind: 'stop', open: 0 }, { kind: 'open', open: 0 }]);
  });

  it('two nodes on one database (issue 20): a terminal moving from gateway A to B mid-day loses no point, and A\'s later saves and day close never overwrite B\'s', async () => {
    const db = storage.db;
    now = at(TODAY, 13 * 60);
    // Node A: the suite's engine and writer. Node B: its own engine and writer on the same database.
    const a = engine;
    const b = newEngine();
    await b.start();
    const writerB = new BatchedHistoryWriter(storage.positions, { flushMs: 1_000_000, maxRows: 1_000_000 });
    writerB.onCommitted = (rows) => b.ingest(rows);
    const storeOn = async (w: BatchedHistoryWriter, rows: PositionRow[]) => {
      for (const r of rows) w.enqueue(r);
      await w.flush();
      stored.push(...rows);
    };
    try {
      // On A 08:00-09:00, saved; 09:00-10:00 stepped, not saved yet (a save is every 15 min).
      const day = drive(1, TODAY, 8 * 60, 480);
      await storeOn(writer, day.slice(0, 120));
      a.flushNow();
      await storeOn(writer, day.slice(120, 240));
      // The terminal reconnects through the balancer to B: B's first point finds A's row and recomputes the day
      // from the shared positions (A's unsaved hour included).
      await storeOn(writerB, day.slice(240, 360));
      await b.idle();
      expect(b.stats.recomputes).toBe(1);
      expect(await b.days<MileageRow>('mileage', [1], TODAY, TODAY)).toEqual(new Map([[1, [{ day: TODAY, row: reference(mileageModule, stored, 1, TODAY).row }]]]));
      b.flushNow();
      await storeOn(writerB, day.slice(360));

      // A's next save: B saved the day further; A lets it go (old code: A's carry and its hour's 'stop' events written again).
      a.flushNow();
      expect(a.stats.handedOver).toBe(1);
      expect(a.openDays).toBe(0);
      b.flushNow();
      // A node that does not hold the day answers it from the holder's saved carry (as of that save).
      expect((await a.days<MileageRow>('mileage', [1], TODAY, TODAY)).get(1)![0]!.row).toEqual(reference(mileageModule, stored, 1, TODAY).row);
      const stops = reference(probe, stored, 1, TODAY).events.filter((e) => e.kind === 'stop');
      expect(db.prepare("SELECT start_time FROM report_event WHERE vehicle_id = 1 AND module = 'probe' AND kind = 'stop' ORDER BY start_time").pluck().all())
        .toEqual(stops.map((e) => e.start));

      // The day is over and quiet on both: whoever closes last, the final row holds every point of the day.
      now = at(TODAY + 1, 60);
      b.flushNow();
      a.flushNow();
      const final = db.prepare("SELECT row, carry FROM report_day WHERE module = 'mileage' AND vehicle_id = 1 AND day = ?").get(TODAY) as { row: string; carry: string | null };
      expect([JSON.parse(final.row), final.carry]).toEqual([reference(mileageModule, stored, 1, TODAY).row, null]);
      expect((JSON.parse(final.row) as MileageRow).points).toBe(480);
    } finally {
      await b.close();
    }
  });

  it('a node opening a day another node stepped before saving it recomputes it from the positions (issue 20)', async () => {
    now = at(TODAY, 13 * 60);
    const b = newEngine();
    await b.start();
    const writerB = new BatchedHistoryWriter(storage.positions, { flushMs: 1_000_000, maxRows: 1_000_000 });
    writerB.onCommitted = (rows) => b.ingest(rows);
    try {
      const day = drive(1, TODAY, 8 * 60, 200);
      // A steps 100 points and never saves (the terminal leaves within the first 15 minutes of A's day).
      await store(day.slice(0, 100));
      for (const r of day.slice(100)) writerB.enqueue(r);
      await writerB.flush();
      stored.push(...day.slice(100));
      await b.idle();
      // Old code: B opened a fresh carry with its own 100 points only.
      expect((await b.days<MileageRow>('mileage', [1], TODAY, TODAY)).get(1)![0]!.row).toEqual(reference(mileageModule, stored, 1, TODAY).row);
      b.flushNow();
      engine.flushNow(); // A's carry is older: handed over, not written
      expect(engine.stats.handedOver).toBe(1);
      const restarted = newEngine();
      await restarted.start();
      await restarted.idle();
      expect((await restarted.days<MileageRow>('mileage', [1], TODAY, TODAY)).get(1)![0]!.row).toEqual(reference(mileageModule, stored, 1, TODAY).row);
      await restarted.close();
    } finally {
      await b.close();
    }
  });

  it('retention deletes rows and events of days before the first kept day only', async () => {
    await store(drive(1, TODAY - 40, 480, 60));
    await store(drive(1, Y, 480, 60));
    now += 20 * MIN;
    engine.flushNow();
    expect((await engine.days('mileage', [1], TODAY - 40, TODAY)).get(1)!.map((d) => d.day)).toEqual([TODAY - 40, Y]);
    const removed = await engine.deleteBefore(TODAY - 30);
    expect(removed.reportEngineDays).toBe(2); // mileage and probe of TODAY - 40
    // Three stops and the stop still running at the day's end (pushed by finish, final once the day closed).
    expect(removed.reportEngineEvents).toBe(4);
    expect((await engine.days('mileage', [1], TODAY - 40, TODAY)).get(1)!.map((d) => d.day)).toEqual([Y]);
    expect((await engine.events('probe', [1], TODAY - 40, TODAY)).map((e) => [e.day, e.event.kind])).toEqual([[Y, 'stop'], [Y, 'stop'], [Y, 'stop'], [Y, 'open']]);
  });
});
