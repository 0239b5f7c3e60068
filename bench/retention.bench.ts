/**
 * Retention and disk sizing (issue 12 §5), `npm run bench -- retention`:
 * 1. Bytes per stored position: a fleet's day of positions from the deterministic simulator (server/sim)
 *    written with the gateway's writer (`positions.append`, batches of 5,000 as HISTORY_BATCH_ROWS),
 *    interleaved vehicle by vehicle as they arrive; then VACUUM and the file size, the table and index
 *    pages (dbstat), and the per-vehicle-day blocks (`track_block`) the playback builds.
 * 2. The retention sweep over all of it (every row is past POSITION_RETENTION_DAYS): total time, the
 *    longest single step, and the event loop's longest stall while it runs (monitorEventLoopDelay),
 *    with the default rollups-first policy (each deleted vehicle-day's report rollup is computed first, in
 *    the server's worker thread: its wait is not a stall of the event loop).
 * Two fleets: at the usual 10 s interval (≥ 1 M positions) and at 1 Hz (86,400 points a vehicle-day).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { chinaDayIndex, chinaDayStartMs } from '../domain/track/days.ts';
import { loadConfig } from '../server/config.ts';
import { openStorage } from '../server/db/open.ts';
import type { PositionRow } from '../server/db/repositories.ts';
import type { SqliteStorage } from '../server/db/sqlite/storage.ts';
import { DataRetention } from '../server/retention/data-retention.ts';
import { retentionCutoffs } from '../domain/retention/policy.ts';
import { retentionPolicy } from '../server/retention/index.ts';
import { RollupWorker } from '../server/retention/rollups.ts';
import { emissionRow } from '../server/sim/history.ts';
import { VehicleProgram } from '../server/sim/vehicle.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const DAY_MS = 86_400_000;
const WRITER_BATCH = 5000;

interface Fleet {
  readonly label: string;
  readonly vehicles: number;
  readonly intervalMs: number;
}

async function measure(fleet: Fleet): Promise<BenchRecord[]> {
  const name = (what: string) => `retention ${fleet.label}: ${what}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-retention-bench-'));
  const config = loadConfig({}, { dataDir, logLevel: 'silent', seedEnabled: false });
  const { storage: opened } = await openStorage(config);
  const storage = opened as SqliteStorage;
  const db = storage.db;
  const file = db.name;
  const records: BenchRecord[] = [];
  try {
    // One whole China day, 200 days ago: past the default 180 days, so the sweep deletes all of it.
    const day = chinaDayIndex(Date.now()) - 200;
    const start = chinaDayStartMs(day);
    const programs = Array.from({ length: fleet.vehicles }, (_, i) => new VehicleProgram({
      seed: 1, deviceNo: `02${String(i).padStart(10, '0')}`, startMs: start, intervalMs: fleet.intervalMs, parkedIntervalMs: fleet.intervalMs,
      rates: { offlinePerDay: 0, blindPerDrivingDay: 0, neverOnlineShare: 0 },
    }));
    const t0 = performance.now();
    let rows = 0;
    let batch: PositionRow[] = [];
    // Minute by minute across the fleet, as reports arrive and the writer flushes them.
    for (let m = start + 60_000; m <= start + DAY_MS; m += 60_000) {
      for (let k = 0; k < programs.length; k++) {
        const p = programs[k]!;
        while (p.nextAt < m) {
          const r = emissionRow(k + 1, p.step());
          if (r) batch.push(r);
        }
      }
      if (batch.length >= WRITER_BATCH || m === start + DAY_MS) {
        await storage.positions.append(batch);
        rows += batch.length;
        batch = [];
      }
    }
    records.push(
      { name: name('fill'), metric: 'positions written', value: rows, unit: 'rows' },
      { name: name('fill'), metric: 'write time', value: performance.now() - t0, unit: 'ms' },
    );

    const pages = () => new Map((db.prepare("SELECT name, SUM(pgsize) AS bytes FROM dbstat WHERE name IN ('positions', 'positions_vehicle_time', 'track_block') GROUP BY name")
      .all() as { name: string; bytes: number }[]).map((r) => [r.name, r.bytes]));
    const vacuum = () => {
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.exec('VACUUM');
      db.pragma('wal_checkpoint(TRUNCATE)');
      return statSync(file).size;
    };
    // As the writer left it (pages as appends and index splits filled them), then compacted.
    db.pragma('wal_checkpoint(TRUNCATE)');
    const live = statSync(file).size;
    const size = vacuum();
    const p1 = pages();
    const table = p1.get('positions') ?? 0;
    const index = p1.get('positions_vehicle_time') ?? 0;
    records.push(
      { name: name('size'), metric: 'file as written / position', value: live / rows, unit: 'B' },
      { name: name('size'), metric: 'file after VACUUM', value: size, unit: 'B' },
      { name: name('size'), metric: 'table bytes / position', value: table / rows, unit: 'B' },
      { name: name('size'), metric: 'index bytes / position', value: index / rows, unit: 'B' },
      { name: name('size'), metric: 'table+index / position', value: (table + index) / rows, unit: 'B' },
    );

    // The playback's day blocks: one per vehicle-day once someone plays it back (or a report reads it).
    for (let v = 1; v <= fleet.vehicles; v++) storage.tracks.readTrackSync(v, start, start + DAY_MS, 10_000_000);
    const blockBytes = db.prepare('SELECT SUM(LENGTH(data)) FROM track_block').pluck().get() as number;
    const sizeWithBlocks = vacuum();
    const blockPages = pages().get('track_block') ?? 0;
    records.push(
      { name: name('size'), metric: 'block data / position', value: blockBytes / rows, unit: 'B' },
      { name: name('size'), metric: 'block pages / position', value: blockPages / rows, unit: 'B' },
      { name: name('size'), metric: 'file / position, blocks', value: sizeWithBlocks / rows, unit: 'B' },
    );

    // The sweep, with the event loop watched: its longest stall is what the gateway would feel. Worst
    // case: no block left (a day nobody played back), so each rollup reads its day from the index.
    db.exec('DELETE FROM track_block');
    const policy = retentionPolicy(config);
    // Rollups as the server computes them: in its worker thread, on a connection of its own.
    const worker = new RollupWorker({ file: db.name }, (now) => retentionCutoffs(now, policy).positionDay ?? -Infinity);
    const retention = new DataRetention({ storage, policy, clock: Date.now, rollupDay: worker.rollupDay(Date.now) });
    // The noise floor first: the same watch over an idle second (the shared machine's own stalls).
    const idle = monitorEventLoopDelay({ resolution: 1 });
    idle.enable();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    idle.disable();
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    const s0 = performance.now();
    const r = await retention.sweep();
    const sweepMs = performance.now() - s0;
    h.disable();
    await worker.close();
    // Every vehicle here has been silent 200 days: its newest row stays (where it was last seen).
    if (r.positions !== rows - fleet.vehicles) throw new Error(`sweep deleted ${r.positions} of ${rows} positions`);
    records.push(
      { name: name('sweep'), metric: 'positions deleted', value: r.positions, unit: 'rows' },
      { name: name('sweep'), metric: 'rollup days computed', value: r.rollupsComputed, unit: 'days' },
      { name: name('sweep'), metric: 'total time', value: sweepMs, unit: 'ms' },
      { name: name('sweep'), metric: 'statements', value: r.steps, unit: 'steps' },
      { name: name('sweep'), metric: 'longest delete step', value: r.longestStepMs, unit: 'ms' },
      { name: name('sweep'), metric: 'longest rollup wait', value: r.longestRollupMs, unit: 'ms' },
      { name: name('sweep'), metric: 'longest delete step CPU', value: r.longestStepCpuMs, unit: 'ms' },
      { name: name('sweep'), metric: 'event loop max delay', value: h.max / 1e6, unit: 'ms' },
      { name: name('sweep'), metric: 'event loop p99 delay', value: h.percentile(99) / 1e6, unit: 'ms' },
      { name: name('sweep'), metric: 'event loop p50 delay', value: h.percentile(50) / 1e6, unit: 'ms' },
      { name: name('idle'), metric: 'event loop max delay', value: idle.max / 1e6, unit: 'ms' },
      { name: name('idle'), metric: 'event loop p99 delay', value: idle.percentile(99) / 1e6, unit: 'ms' },
    );
  } finally {
    storage.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return records;
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  return [
    ...(await measure({ label: '10 s', vehicles: quick ? 12 : 120, intervalMs: 10_000 })),
    ...(await measure({ label: '1 Hz', vehicles: quick ? 1 : 5, intervalMs: 1000 })),
  ];
}
