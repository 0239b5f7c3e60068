/**
 * One-off timing of the daily rollup (the figure in the issue report): 2,000 vehicles × 7 complete
 * days of synthetic history at one report a minute (plus the day before, for context), computed cold (nothing
 * cached), then warm (all from report_vehicle_day). Rows go in vehicle by vehicle, or time-major with
 * `interleaved` (as the gateway writes them: each vehicle's rows spread over the table).
 * Run: node --import tsx server/services/reports/measure-rollup.ts [vehicles] [intervalSeconds] [interleaved] [mmap]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chinaDayIndex, chinaDayStartMs, DAY_MS } from '../../../domain/track/days.ts';
import { loadConfig } from '../../config.ts';
import { openStorage } from '../../db/open.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { ReportEngine } from './rollup.ts';
import { SqliteReportStore } from './store.ts';

const vehicles = Number(process.argv[2] ?? 2000);
const intervalS = Number(process.argv[3] ?? 60);
const interleaved = process.argv.includes('interleaved');
/** `mmap`: memory-mapped reads (PRAGMA mmap_size 4 GiB), to compare with the connection's defaults. */
const mmap = process.argv.includes('mmap');
const days = 7;
const dataDir = mkdtempSync(path.join(tmpdir(), 'rollup-measure-'));
try {
  const config = loadConfig({}, { dataDir, seedVehicles: vehicles, logLevel: 'silent' });
  const { storage } = await openStorage(config);
  const db = (storage as SqliteStorage).db;
  const ids = (await storage.terminals.allVehicles()).map((v) => v.vehicleId);
  const today = chinaDayIndex(Date.now());
  const first = today - days;
  const from = chinaDayStartMs(first - 1);
  const to = chinaDayStartMs(today);
  const insert = db.prepare(`INSERT INTO positions (vehicle_id, gps_time, lng, lat, speed, heading, altitude, status, alarm, mileage, received_at)
                             VALUES (?, ?, ?, ?, ?, 0, 0, 0, 0, NULL, ?)`);
  let rows = 0;
  const t0 = performance.now();
  // 40 km/h north-east half the time, parked otherwise; a drift spike every 500 reports.
  const pos = new Map(ids.map((id) => [id, { lng: 116 + (id % 100) / 50, lat: 30 + Math.floor(id / 100) / 50 }]));
  const write = (id: number, k: number) => {
    const p = pos.get(id)!;
    const t = from + k * intervalS * 1000;
    const moving = Math.floor(k / 120) % 2 === 0;
    if (moving) {
      p.lng += ((40 / 3600) * intervalS * 0.7) / 95;
      p.lat += ((40 / 3600) * intervalS * 0.7) / 111;
    }
    insert.run(id, t, k % 500 === 250 ? p.lng + 1 : p.lng, p.lat, moving ? 40 : 0, t);
    rows++;
  };
  const steps = Math.floor((to - from) / (intervalS * 1000));
  if (interleaved) {
    for (let k0 = 0; k0 < steps; k0 += 60) db.transaction(() => { for (let k = k0; k < Math.min(steps, k0 + 60); k++) for (const id of ids) write(id, k); })();
  } else {
    for (const id of ids) db.transaction(() => { for (let k = 0; k < steps; k++) write(id, k); })();
  }
  const insertS = (performance.now() - t0) / 1000;
  console.log(`history: ${vehicles} vehicles × ${days + 1} days at ${intervalS} s${interleaved ? ', interleaved' : ''}${mmap ? ', mmap' : ''} = ${rows.toLocaleString()} rows (written in ${insertS.toFixed(1)} s)`);

  if (mmap) db.pragma('mmap_size = 4294967296');
  const engine = new ReportEngine(storage, new SqliteReportStore(db), Date.now);
  let t1 = performance.now();
  const cold = await engine.days(ids, first, today - 1);
  const coldS = (performance.now() - t1) / 1000;
  t1 = performance.now();
  await engine.days(ids, first, today - 1);
  const warmS = (performance.now() - t1) / 1000;
  // Within RECOUNT_AFTER_MS the stored days are not counted again.
  t1 = performance.now();
  await engine.days(ids, first, today - 1);
  const warm2S = (performance.now() - t1) / 1000;
  const sample = cold.get(ids[0]!)![0]!;
  console.log(`rollup ${vehicles} vehicles × ${days} days: cold ${coldS.toFixed(2)} s (${(rows / coldS / 1e6).toFixed(2)} M rows/s over all rows), warm ${(warmS * 1000).toFixed(0)} ms (with the late-row count), then ${(warm2S * 1000).toFixed(0)} ms`);
  console.log(`sample day: ${JSON.stringify(sample)}; day length ${DAY_MS} ms`);
  storage.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
