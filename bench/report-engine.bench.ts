/**
 * The report engine (issue 18), `npm run bench -- report-engine [--quick]`.
 *
 * Baseline: "read the positions and reduce on request" — today's path for a figure the engine does not
 * keep: for each vehicle and China day of the request, read that day's stored positions (and the last
 * valid point before it) from the same SQLite index and run the SAME day modules over them. It is a
 * fair copy of the alternative because it shares the modules, the rows and the connection; only where
 * the figures come from differs (raw rows vs the engine's `report_day`).
 *
 * Two fleets, each written through the real append path (BatchedHistoryWriter over positions.append,
 * batches of 5,000 as HISTORY_BATCH_ROWS, time-major as reports arrive) with the engine fed by the
 * writer's commit hook, into a temp DB:
 *   - a month: 2,000 vehicles × 31 closed days (quick: 40 vehicles × 31 days);
 *   - a day: 100,000 vehicles × 1 day (quick: 2,000 vehicles).
 * Each vehicle-day is 8 h of driving at one point every 30 s (960 points; quick: 240, every 2 min).
 * Modules registered: SHIPPED_DAY_MODULES (server/services/report-engine/modules.ts, the list installReportEngine
 * registers: mileage, operation, fuel, device); both paths run that same set, the baseline in one pass over
 * each vehicle-day's positions, the engine reading every module's rows.
 * Reads: all the fleet's vehicles over the whole range, twice: first after a restart (connection closed
 * and reopened, a new engine started: SQLite's page cache is cold, the OS file cache is not) and warm.
 * HTTP (what an analyst waits for, the issue's goal "the slowest report over a month of 2,000 vehicles answers in
 * under a second on first request"): after the engine's reads, a real server (buildApp, warmed as server/main.ts
 * warms it) is started on the fleet's data dir and every engine-backed /report list call is timed over HTTP for
 * 500 vehicles (one report's cap) over the whole period, first after the start and warm (bench/load/report-calls.ts);
 * the slowest first call is its own figure. First measured on the month fleet's full database (2026-11-29, load ≈ 20,
 * the measuring process at SCHED_FIFO): every call under 1 s on its first request except the trip list (1.7 s: it
 * worded a place for all 15,500 rows; now only the page's, and the geocoder is loaded at start: 1.1 s loaded).
 * Ingest: rows per CPU-second of the process (user + system) for the day fleet with the engine vs the
 * same rows without it (the writer alone); generating the rows is inside both figures. The engine's
 * saves run every DEFAULT_PERSIST_MS (15 min) of the reports' simulated time (at most once per 5,000-row batch),
 * so a save writes each vehicle about as often as it would live. The quick day fleet reports every 2 min, so a
 * save comes every ~7 points per vehicle (live at 30 s: every 30 points): its ingest ratio is the pessimistic one.
 * Ingest history (quick, 2 rounds each, same machine back to back, load ≈ 2–6): 0.22× / 0.25× when each 5-minute save
 * wrote every module's row, carry and open events; 0.60× / 0.51× with carry-only saves (rows written when a day
 * closes, open events when `events()` reads them) every 15 minutes and the batch grouped per vehicle instead of sorted.
 * Disk: `fill disk bytes per position` is the data dir's size over its rows (positions with their indexes and
 * the engine's rows), the figure the full run's disk is planned from.
 *
 * The full run (no --quick) — NOT run yet; planned from the quick run of 2026-11-28 (round 1, machine shared by
 * ~6 engineers, wall ≈ 10× CPU): quick day fleet 480,000 rows at 16,449 rows/CPU-s with the engine (all four
 * modules) vs 82,458 without (0.20×; 56–63 k rows/CPU-s since the carry-only saves of 2026-11-29); disk 117 B/position
 * (month, 240 points/day) and 162 B/position (day fleet: 2,000 vehicles' rows interleaved; 123 B since).
 * Full sizes are 200× the quick rows: month 2,000 × 31 × 960 = 59.5 M rows,
 * day 100,000 × 960 = 96 M rows (and the same 96 M again without the engine for the ingest baseline).
 *   - Duration, one round on a quiet 2-core machine (planned at the old 16.4 k rows per CPU-s; shorter since):
 *     month fill ≈ 60 min (59.5 M / 16.4 k rows per CPU-s),
 *     day fill ≈ 100 min with the engine + ≈ 20 min without, reads: the engine's a few seconds, the baseline's
 *     (every position read and reduced, first and warm) ≈ 30 min for the month and ≈ 50 min for the day.
 *     ≈ 4.5 h per round: run `npm run bench -- report-engine --rounds 1` at a session's start, nothing else running.
 *   - Disk (os.tmpdir(); set TMPDIR to a disk with room): month ≈ 7 GB (deleted before the day fleet starts),
 *     day ≈ 16 GB with the engine + ≈ 11 GB without it at the same time: ≈ 30 GB free needed at the peak.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DayEvent } from '../domain/report-day/module.ts';
import { isValidDayPoint } from '../domain/report-day/valid.ts';
import { chinaDayIndex, chinaDayStartMs, DAY_MS } from '../domain/track/days.ts';
import { loadConfig } from '../server/config.ts';
import { openStorage } from '../server/db/open.ts';
import type { PositionRow } from '../server/db/repositories.ts';
import type { SqliteStorage } from '../server/db/sqlite/storage.ts';
import { BatchedHistoryWriter } from '../server/live/history.ts';
import { dayPoint, DEFAULT_PERSIST_MS, SqliteReportEngine } from '../server/services/report-engine/engine.ts';
import { SHIPPED_DAY_MODULES } from '../server/services/report-engine/modules.ts';
import { ReportEngineStore } from '../server/services/report-engine/store.ts';
import { BENCH_ADMIN_PASSWORD, timeReportCalls } from './load/report-calls.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const BATCH = 5000;
/** Exactly the modules the server's engine runs (installReportEngine registers this list). */
const MODULES = SHIPPED_DAY_MODULES;

/** Bytes of the files of a data dir (the SQLite database, its WAL and shm). */
function diskBytes(dir: string): number {
  return readdirSync(dir).reduce((n, f) => n + statSync(path.join(dir, f)).size, 0);
}

interface Fleet {
  readonly label: string;
  readonly vehicles: number;
  readonly days: number;
  readonly points: number;
  readonly stepMs: number;
}

function row(vehicleId: number, day: number, i: number, stepMs: number): PositionRow {
  const t = chinaDayStartMs(day) + 8 * 3_600_000 + i * stepMs + (vehicleId % 1000);
  const stopped = i % 40 >= 36;
  return {
    vehicleId, gpsTime: t, lng: 100 + (vehicleId % 200) * 0.1 + (i % 7) * 1e-4, lat: 25 + (vehicleId % 97) * 0.1 + i * 0.001, speed: stopped ? 0 : 45,
    heading: 0, altitude: 5, status: stopped ? 2 : 3, alarm: 0, mileage: 10_000 + day + i * 0.11, fuel: 60 - i * 0.01, receivedAt: t + 1500,
  };
}

async function open(dataDir: string): Promise<SqliteStorage> {
  // The first administrator (made at the first open) gets a known password: the report calls log in with it.
  return (await openStorage(loadConfig({}, { dataDir, logLevel: 'silent', seedEnabled: false, adminPassword: BENCH_ADMIN_PASSWORD }))).storage as SqliteStorage;
}

async function addVehicles(storage: SqliteStorage, n: number): Promise<void> {
  const db = storage.db;
  let company = db.prepare('SELECT id FROM company ORDER BY id LIMIT 1').pluck().get() as number | undefined;
  company ??= Number(db.prepare("INSERT INTO company (pid, name, path, create_time, update_time) VALUES (NULL, 'root', '/1/', 0, 0)").run().lastInsertRowid);
  for (let i = 0; i < n; i += 5000) {
    await storage.fleet.createVehicles(Array.from({ length: Math.min(5000, n - i) }, (_, k) => ({ vehiidno: `B${i + k + 1}`, companyId: company, lineId: null, deviceNo: null, vin: '' })));
  }
}

/** Writes the fleet time-major through the writer; answers rows and CPU ms. */
async function fill(storage: SqliteStorage, fleet: Fleet, firstDay: number, engine: SqliteReportEngine | undefined, clock: { now: number }): Promise<{ rows: number; cpuMs: number; wallMs: number }> {
  const writer = new BatchedHistoryWriter(storage.positions, { flushMs: 1_000_000, maxRows: 1_000_000_000 });
  if (engine) writer.onCommitted = (rows) => engine.ingest(rows);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let rows = 0;
  let lastSave = clock.now;
  for (let d = 0; d < fleet.days; d++) {
    for (let i = 0; i < fleet.points; i++) {
      for (let v = 1; v <= fleet.vehicles; v++) {
        const r = row(v, firstDay + d, i, fleet.stepMs);
        writer.enqueue(r);
        if (writer.pending >= BATCH) {
          clock.now = r.gpsTime + 30_000;
          await writer.flush();
          // The engine's save timer (DEFAULT_PERSIST_MS) in the reports' simulated time.
          if (engine && clock.now - lastSave >= DEFAULT_PERSIST_MS) {
            engine.flushNow();
            lastSave = clock.now;
          }
        }
        rows++;
      }
    }
  }
  await writer.flush();
  const cpu = process.cpuUsage(cpu0);
  return { rows, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - t0 };
}

/** The baseline: each vehicle-day's positions read and reduced on request. */
function reduceOnRequest(storage: SqliteStorage, vehicles: number, fromDay: number, toDay: number): number {
  const store = new ReportEngineStore(storage.db);
  let rows = 0;
  for (let v = 1; v <= vehicles; v++) {
    for (let day = fromDay; day <= toDay; day++) {
      const dayStart = chinaDayStartMs(day);
      const prevRow = store.previous(v, dayStart, (r) => isValidDayPoint(dayPoint(r)));
      const previous = prevRow && dayPoint(prevRow);
      const context = { vehicleId: v, day, dayStart, dayEnd: dayStart + DAY_MS, previous, settings: {} };
      const carries = MODULES.map((m) => m.start(context));
      const events: DayEvent[] = [];
      let n = 0;
      for (const r of store.dayPositions(v, dayStart, dayStart + DAY_MS)) {
        const p = dayPoint(r);
        for (let m = 0; m < MODULES.length; m++) MODULES[m]!.step(carries[m], p, events);
        n++;
      }
      if (n > 0) {
        for (let m = 0; m < MODULES.length; m++) MODULES[m]!.finish(carries[m], events);
        rows++;
      }
    }
  }
  return rows;
}

async function measure(fleet: Fleet, compareIngest: boolean): Promise<BenchRecord[]> {
  const name = (what: string) => `report-engine ${fleet.label}: ${what}`;
  // A full round takes hours: each figure is also logged as soon as it is measured (stderr), so a run
  // stopped in its second fleet still leaves the first fleet's figures.
  const records: BenchRecord[] = [];
  const publish = (...items: BenchRecord[]) => {
    for (const r of items) process.stderr.write(`[report-engine ${new Date().toISOString()}] ${r.name} · ${r.metric}: ${r.value}${r.baseline === undefined ? '' : ` (baseline ${r.baseline})`}\n`);
    records.push(...items);
  };
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'report-engine-bench-'));
    dirs.push(d);
    return d;
  };
  try {
    const today = chinaDayIndex(Date.now());
    const firstDay = today - fleet.days - 1;
    const lastDay = firstDay + fleet.days - 1;
    const ids = Array.from({ length: fleet.vehicles }, (_, i) => i + 1);
    const clock = { now: chinaDayStartMs(firstDay) };
    const mk = (storage: SqliteStorage) => {
      const e = new SqliteReportEngine({ db: storage.db, clock: () => clock.now, persistMs: 3_600_000 });
      for (const m of MODULES) e.register(m);
      return e;
    };

    const dataDir = dir();
    let storage = await open(dataDir);
    await addVehicles(storage, fleet.vehicles);
    let engine = mk(storage);
    await engine.start();
    const withEngine = await fill(storage, fleet, firstDay, engine, clock);
    clock.now = chinaDayStartMs(today) + 3_600_000;
    engine.flushNow();
    await engine.close();
    const bytes = diskBytes(dataDir);
    publish(
      { name: name('fill'), metric: 'disk bytes per position (positions, indexes, engine rows)', value: bytes / withEngine.rows, unit: 'B' },
      { name: name('fill'), metric: 'positions', value: withEngine.rows, unit: 'rows' },
      { name: name('fill'), metric: 'vehicle-days', value: fleet.vehicles * fleet.days, unit: 'days' },
    );

    if (compareIngest) {
      const plain = await open(dir());
      await addVehicles(plain, fleet.vehicles);
      const without = await fill(plain, fleet, firstDay, undefined, { now: 0 });
      plain.db.close();
      const a = withEngine.rows / (withEngine.cpuMs / 1000);
      const b = without.rows / (without.cpuMs / 1000);
      publish(
        { name: name('ingest'), metric: 'rows / CPU-s, engine on', value: a, unit: 'rows/s', baseline: b, ratio: a / b },
        { name: name('ingest'), metric: 'wall ms, engine on', value: withEngine.wallMs, unit: 'ms', baseline: without.wallMs, ratio: withEngine.wallMs / without.wallMs },
      );
    }

    // Restart: a new connection (cold page cache), a new engine started on it; then the reads.
    storage.db.close();
    storage = await open(dataDir);
    const s0 = performance.now();
    engine = mk(storage);
    await engine.start();
    await engine.idle();
    const startMs = performance.now() - s0;
    // Every shipped module's rows (what all the reports together read), as the baseline reduces all of them.
    const readAll = async () => {
      const counts: number[] = [];
      for (const m of MODULES) {
        let n = 0;
        for (const list of (await engine.days(m.key, ids, firstDay, lastDay)).values()) n += list.length;
        counts.push(n);
      }
      return counts;
    };
    const t1 = performance.now();
    const firstCounts = await readAll();
    const firstMs = performance.now() - t1;
    const t2 = performance.now();
    await readAll();
    const warmMs = performance.now() - t2;
    firstCounts.forEach((n, m) => {
      if (n !== fleet.vehicles * fleet.days) throw new Error(`engine answered ${n} of ${fleet.vehicles * fleet.days} vehicle-days of '${MODULES[m]!.key}'`);
    });
    const got = fleet.vehicles * fleet.days;
    await engine.close();
    process.stderr.write(`[report-engine ${new Date().toISOString()}] ${name('read')}: engine start ${startMs} ms, first ${firstMs} ms, warm ${warmMs} ms; the baseline's reads follow\n`);

    // What an analyst waits for: every engine-backed /report list call over HTTP on a server started on this data dir.
    storage.db.close();
    const calls = await timeReportCalls(dataDir, fleet.vehicles, firstDay, lastDay);
    for (const c of calls) {
      const call = name(`HTTP ${c.path.replace(/^\/service-[a-z]+\//, '')}, ${Math.min(fleet.vehicles, 500)} vehicles`);
      publish({ name: call, metric: 'first after start', value: c.firstMs, unit: 'ms' }, { name: call, metric: 'warm', value: c.warmMs, unit: 'ms' }, { name: call, metric: 'rows', value: c.rows, unit: 'rows' });
    }
    const slowest = calls.reduce((a, b) => (b.firstMs > a.firstMs ? b : a));
    process.stderr.write(`[report-engine] slowest report call first after start: ${slowest.method} ${slowest.path} ${slowest.firstMs.toFixed(0)} ms\n`);
    publish({ name: name('HTTP slowest report call'), metric: 'first after start (goal < 1,000 ms)', value: slowest.firstMs, unit: 'ms' });

    // The baseline on a fresh connection too, then warm.
    storage = await open(dataDir);
    const b1 = performance.now();
    const reduced = reduceOnRequest(storage, fleet.vehicles, firstDay, lastDay);
    const baseFirstMs = performance.now() - b1;
    const b2 = performance.now();
    reduceOnRequest(storage, fleet.vehicles, firstDay, lastDay);
    const baseWarmMs = performance.now() - b2;
    if (reduced !== got) throw new Error(`baseline reduced ${reduced} vehicle-days, engine ${got}`);
    storage.db.close();

    publish(
      { name: name('restart'), metric: 'engine start', value: startMs, unit: 'ms' },
      { name: name('read'), metric: 'first after restart', value: firstMs, unit: 'ms', baseline: baseFirstMs, ratio: firstMs / baseFirstMs },
      { name: name('read'), metric: 'warm', value: warmMs, unit: 'ms', baseline: baseWarmMs, ratio: warmMs / baseWarmMs },
    );
    return records;
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

export async function run(args: BenchArgs): Promise<BenchRecord[]> {
  const month: Fleet = args.quick
    ? { label: 'month (quick: 40 vehicles × 31 days)', vehicles: 40, days: 31, points: 240, stepMs: 120_000 }
    : { label: 'month (2,000 vehicles × 31 days)', vehicles: 2000, days: 31, points: 960, stepMs: 30_000 };
  const day: Fleet = args.quick
    ? { label: 'day (quick: 2,000 vehicles)', vehicles: 2000, days: 1, points: 240, stepMs: 120_000 }
    : { label: 'day (100,000 vehicles)', vehicles: 100_000, days: 1, points: 960, stepMs: 30_000 };
  // BENCH_FLEET=month|day runs one fleet (a full round of both takes hours on a 2-core machine).
  const only = process.env.BENCH_FLEET;
  if (only !== undefined && only !== 'month' && only !== 'day') throw new Error(`BENCH_FLEET is 'month' or 'day', not '${only}'`);
  return [...(only === 'day' ? [] : await measure(month, false)), ...(only === 'month' ? [] : await measure(day, true))];
}
