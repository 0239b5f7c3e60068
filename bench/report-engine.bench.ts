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
 * Measured at full size (bench/RESULTS.md, one entry per fleet): the month on 2026-11-29 07:22 (above); the day fleet on
 * 2026-11-29: fill 95 min with the engine, I/O-bound (100,000 vehicles' rows interleaved make the index inserts random;
 * the process ~50 % of its core, in disk wait the rest), 100 B per position; engine start 5.8 s; every module's rows for
 * 100,000 vehicle-days 6.4 s first after restart (baseline 603 s), 5.4 s warm (baseline 528 s); every engine-backed /report
 * call for 500 vehicles ≤ 74 ms first. Its ingest comparison (a second, no-engine fill as long again) was not run at full
 * size: the quick day fleet's ratio stands (0.46× rows per CPU-s).
 * Phases (the full day fleet's fill and reads together take longer than one working session here, ≈ 100 min of
 * fill with the engine at the I/O-bound rate seen on 2026-11-29 and as long again without it):
 *   BENCH_FLEET=day BENCH_PHASE=fill BENCH_FLEET_DIR=/work/bench-fleets npm run bench -- report-engine --rounds 1
 *   BENCH_FLEET=day BENCH_PHASE=read BENCH_FLEET_DIR=/work/bench-fleets npm run bench -- report-engine --rounds 1
 * `fill` writes the fleet (and the ingest comparison) into BENCH_FLEET_DIR/<fleet>/ with bench-fill.json (the fill's
 * figures and the day it took as today) and stops; `read` restarts on that data (engine start, engine reads, HTTP
 * calls, the baseline's reads) and publishes the fill's figures from the record beside its own. Default `all`: both in
 * one run in a temp directory removed at the end.
 * The full run (no --quick) — planned before the month was measured (2026-11-29, above); planned from the quick run of 2026-11-28 (round 1, machine shared by
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
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/**
 * What a fill leaves in a kept fleet directory (BENCH_FLEET_DIR), so a later run reads the same data: the full
 * day fleet's fill and reads together take longer than one working session on a 2-core machine.
 */
interface FillRecord {
  readonly label: string;
  readonly vehicles: number;
  readonly days: number;
  readonly points: number;
  /** The China day the fill took as today (the fleet's days are the ones before it). */
  readonly today: number;
  readonly rows: number;
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly bytes: number;
  readonly filledAt: string;
  readonly ingest?: { readonly rowsPerCpuS: number; readonly baselineRowsPerCpuS: number; readonly wallMs: number; readonly baselineWallMs: number };
}

const FILL_RECORD = 'bench-fill.json';

/**
 * BENCH_PHASE: `all` (default) fills and reads in one run; `fill` fills (and compares ingest) into the kept directory
 * and stops; `read` reads a fleet a `fill` run left there. BENCH_FLEET_DIR: the kept directory (one sub-directory
 * per fleet); without it the data lives in a temp directory removed at the end, and `fill`/`read` are refused.
 */
function phaseOptions(): { phase: 'all' | 'fill' | 'read'; keepDir: string | undefined } {
  const phase = process.env.BENCH_PHASE ?? 'all';
  if (phase !== 'all' && phase !== 'fill' && phase !== 'read') throw new Error(`BENCH_PHASE is 'all', 'fill' or 'read', not '${phase}'`);
  const keepDir = process.env.BENCH_FLEET_DIR || undefined;
  if (phase !== 'all' && keepDir === undefined) throw new Error(`BENCH_PHASE=${phase} needs BENCH_FLEET_DIR (where the filled fleet is kept between runs)`);
  return { phase, keepDir };
}

async function measure(fleet: Fleet, compareIngest: boolean, quick: boolean): Promise<BenchRecord[]> {
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
  const { phase, keepDir } = phaseOptions();
  try {
    const ids = Array.from({ length: fleet.vehicles }, (_, i) => i + 1);
    const dataDir = keepDir ? path.join(keepDir, `${fleet.days === 1 ? 'day' : 'month'}${quick ? '-quick' : ''}`) : dir();
    const recordFile = path.join(dataDir, FILL_RECORD);
    const clock = { now: 0 };
    const mk = (storage: SqliteStorage) => {
      const e = new SqliteReportEngine({ db: storage.db, clock: () => clock.now, persistMs: 3_600_000 });
      for (const m of MODULES) e.register(m);
      return e;
    };
    const publishFill = (f: FillRecord) => {
      publish(
        { name: name('fill'), metric: 'disk bytes per position (positions, indexes, engine rows)', value: f.bytes / f.rows, unit: 'B' },
        { name: name('fill'), metric: 'positions', value: f.rows, unit: 'rows' },
        { name: name('fill'), metric: 'vehicle-days', value: f.vehicles * f.days, unit: 'days' },
      );
      if (f.ingest) {
        publish(
          { name: name('ingest'), metric: 'rows / CPU-s, engine on', value: f.ingest.rowsPerCpuS, unit: 'rows/s', baseline: f.ingest.baselineRowsPerCpuS, ratio: f.ingest.rowsPerCpuS / f.ingest.baselineRowsPerCpuS },
          { name: name('ingest'), metric: 'wall ms, engine on', value: f.ingest.wallMs, unit: 'ms', baseline: f.ingest.baselineWallMs, ratio: f.ingest.wallMs / f.ingest.baselineWallMs },
        );
      }
    };

    let filled: FillRecord;
    let storage: SqliteStorage;
    let engine: SqliteReportEngine;
    if (phase === 'read') {
      if (!existsSync(recordFile)) throw new Error(`BENCH_PHASE=read: no filled fleet in ${dataDir} (run BENCH_PHASE=fill first)`);
      filled = JSON.parse(readFileSync(recordFile, 'utf8')) as FillRecord;
      if (filled.vehicles !== fleet.vehicles || filled.days !== fleet.days || filled.points !== fleet.points) {
        throw new Error(`BENCH_PHASE=read: ${dataDir} holds ${filled.label}, not ${fleet.label}`);
      }
      process.stderr.write(`[report-engine] reading the fleet filled ${filled.filledAt} in ${dataDir}; its fill figures are that run's\n`);
      publishFill(filled);
      storage = await open(dataDir);
    } else {
      if (keepDir) {
        rmSync(dataDir, { recursive: true, force: true });
        mkdirSync(dataDir, { recursive: true });
      }
      const today = chinaDayIndex(Date.now());
      const firstDay = today - fleet.days - 1;
      clock.now = chinaDayStartMs(firstDay);
      storage = await open(dataDir);
      await addVehicles(storage, fleet.vehicles);
      engine = mk(storage);
      await engine.start();
      const withEngine = await fill(storage, fleet, firstDay, engine, clock);
      clock.now = chinaDayStartMs(today) + 3_600_000;
      engine.flushNow();
      await engine.close();
      filled = {
        label: fleet.label, vehicles: fleet.vehicles, days: fleet.days, points: fleet.points, today,
        rows: withEngine.rows, cpuMs: withEngine.cpuMs, wallMs: withEngine.wallMs, bytes: diskBytes(dataDir), filledAt: new Date().toISOString(),
      };
      if (compareIngest) {
        const plain = await open(dir());
        await addVehicles(plain, fleet.vehicles);
        const without = await fill(plain, fleet, firstDay, undefined, { now: 0 });
        plain.db.close();
        rmSync(dirs.pop()!, { recursive: true, force: true }); // its disk is needed by nothing after this figure
        filled = {
          ...filled,
          ingest: { rowsPerCpuS: withEngine.rows / (withEngine.cpuMs / 1000), baselineRowsPerCpuS: without.rows / (without.cpuMs / 1000), wallMs: withEngine.wallMs, baselineWallMs: without.wallMs },
        };
      }
      storage.db.close();
      if (keepDir) writeFileSync(recordFile, `${JSON.stringify(filled, null, 2)}\n`);
      publishFill(filled);
      if (phase === 'fill') return records;
      storage = await open(dataDir);
    }
    const firstDay = filled.today - fleet.days - 1;
    const lastDay = firstDay + fleet.days - 1;
    clock.now = chinaDayStartMs(filled.today) + 3_600_000;

    // Restart: a new connection (cold page cache), a new engine started on it; then the reads.
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
  return [...(only === 'day' ? [] : await measure(month, false, args.quick)), ...(only === 'month' ? [] : await measure(day, true, args.quick))];
}
