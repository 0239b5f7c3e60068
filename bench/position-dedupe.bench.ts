/**
 * Position write cost of the resend dedupe (issue 20 part B, migration 53), `npm run bench -- position-dedupe`:
 * the history writer's batches (2,000 rows, one transaction each, interleaved across 2,000 vehicles as
 * they arrive, each row its own GPS second) into a fresh `positions` table with
 * - baseline: the old non-unique index on (vehicle_id, gps_time) and a plain INSERT;
 * - the unique index of migration 53 and INSERT OR IGNORE (every row new: the normal case);
 * - the same with 1 % of the rows resent (already stored: skipped).
 * The three are run alternately in one process, best of the rounds; ratio = rows/s ÷ the baseline's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqlite, type SqliteDb } from '../server/db/sqlite.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const TABLE = `CREATE TABLE positions (
  vehicle_id INTEGER NOT NULL, gps_time INTEGER NOT NULL, lng REAL NOT NULL, lat REAL NOT NULL, speed REAL NOT NULL,
  heading INTEGER NOT NULL, altitude INTEGER NOT NULL, status INTEGER NOT NULL, alarm INTEGER NOT NULL, mileage REAL,
  fuel REAL, received_at INTEGER NOT NULL)`;

type Variant = 'old' | 'unique' | 'unique+1%resent';

function measure(dir: string, variant: Variant, rows: number, vehicles: number): number {
  const file = path.join(dir, `${variant.replace(/\W/g, '')}-${Math.random().toString(36).slice(2)}.sqlite`);
  const db: SqliteDb = openSqlite(file);
  try {
    db.exec(TABLE);
    db.exec(variant === 'old'
      ? 'CREATE INDEX positions_vehicle_time ON positions(vehicle_id, gps_time)'
      : 'CREATE UNIQUE INDEX positions_vehicle_time ON positions(vehicle_id, gps_time)');
    const insert = db.prepare(`INSERT ${variant === 'old' ? '' : 'OR IGNORE '}INTO positions (vehicle_id, gps_time, lng, lat, speed, heading, altitude, status, alarm, mileage, fuel, received_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    let skipped = 0;
    const write = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const v = 1 + (i % vehicles);
        // Each vehicle's n-th row is its n-th second; 1 % of the rows repeat the vehicle's previous second.
        let n = Math.floor(i / vehicles);
        if (variant === 'unique+1%resent' && i % 100 === 99 && n > 0) n--;
        const t = 1_780_000_000_000 + n * 1000;
        if (insert.run(v, t, 121.4 + v / 1e4, 31.2, 40, 90, 10, 3, 0, 1234.5, 50, t).changes === 0) skipped++;
      }
    });
    const BATCH = 2000;
    const started = performance.now();
    for (let i = 0; i < rows; i += BATCH) write(i, Math.min(rows, i + BATCH));
    const ms = performance.now() - started;
    if (variant === 'unique+1%resent' && skipped === 0) throw new Error('no row was skipped');
    return (rows / ms) * 1000;
  } finally {
    db.close();
  }
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-dedupe-'));
  const rows = quick ? 200_000 : 1_000_000;
  const rounds = quick ? 3 : 5;
  const best: Record<Variant, number> = { old: 0, unique: 0, 'unique+1%resent': 0 };
  try {
    for (let r = 0; r < rounds; r++) {
      for (const v of Object.keys(best) as Variant[]) best[v] = Math.max(best[v], measure(dir, v, rows, 2000));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return (Object.keys(best) as Variant[]).map((v) => ({
    name: `position write (${rows.toLocaleString('en')} rows, batches of 2,000): ${v}`,
    metric: 'rows/s', value: best[v], unit: 'rows/s', baseline: best.old, ratio: best[v] / best.old,
  }));
}
