/**
 * Alarm statistics (issue 5): the aggregate calls' GROUP BY queries over a month of a fleet's alarms
 * inside three months of stored alarms, with the `alarm_stats` covering index (migration 11) against
 * the same queries on the alarm indexes of migration 5 only (the baseline, same process, same data).
 * Scopes: the whole forest (administrator) and one branch's subtree.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config.ts';
import { openStorage } from '../server/db/open.ts';
import { ALL_COMPANIES, subtreeScope, type Scope } from '../server/db/scope.ts';
import type { SqliteStorage } from '../server/db/sqlite/storage.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const DAY_MS = 86_400_000;
const TYPES = [12001, 10001, 10002, 10003, 10004, 10006, 10007, 10032, 11004, 17001];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const alarms = quick ? 200_000 : 1_000_000;
  const runs = quick ? 3 : 5;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-alarm-stats-bench-'));
  const config = loadConfig({}, { dataDir, logLevel: 'silent', seedVehicles: 2000 });
  const { storage: opened } = await openStorage(config);
  const storage = opened as SqliteStorage;
  const db = storage.db;
  const records: BenchRecord[] = [];
  try {
    const vehicles = db.prepare('SELECT v.id, v.company_id, v.device_no FROM vehicle v ORDER BY v.id').all() as { id: number; company_id: number; device_no: string }[];
    const now = Date.now();
    const insert = db.prepare(`INSERT INTO alarm (vehicle_id, device_no, company_id, alarm_type, source, start_time, last_time, count, lng, lat, speed, risk_level, deal_status, create_time)
                               VALUES (?, ?, ?, ?, 'bit', ?, ?, ?, 121.5, 31.2, 60, 'medium', ?, ?)`);
    // Deterministic spread over the last 90 days (a 32-bit LCG).
    let seed = 1;
    const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    db.transaction(() => {
      for (let i = 0; i < alarms; i++) {
        const v = vehicles[Math.floor(rnd() * vehicles.length)]!;
        const t = now - Math.floor(rnd() * 90 * DAY_MS);
        insert.run(v.id, v.device_no, v.company_id, TYPES[Math.floor(rnd() * TYPES.length)]!, t, t, 1 + Math.floor(rnd() * 3), rnd() < 0.6 ? 0 : 2, t);
      }
    })();
    db.exec('ANALYZE');
    const branch = db.prepare("SELECT id, path FROM company WHERE pid <> 0 ORDER BY id LIMIT 1").get() as { id: number; path: string };
    const scopes: [string, Scope][] = [['all', ALL_COMPANIES], ['branch', subtreeScope(branch.id, branch.path)]];
    const filter = { startTime: now - 30 * DAY_MS, endTime: now };
    const stats = storage.alarmStats;
    const queries = {
      type: (s: Scope) => stats.byType(s, filter),
      date: (s: Scope) => stats.byDate(s, filter),
      vehicle: (s: Scope) => stats.byVehicle(s, filter),
      company: (s: Scope) => stats.byCompany(s, filter),
    };
    const measure = async (fn: () => Promise<unknown>) => {
      await fn(); // warm the page cache: each side is measured warm
      const ms: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        await fn();
        ms.push(performance.now() - t0);
      }
      return median(ms);
    };
    const withIndex = new Map<string, number>();
    for (const [scopeName, scope] of scopes) for (const [q, fn] of Object.entries(queries)) withIndex.set(`${q}/${scopeName}`, await measure(() => fn(scope)));
    // Baseline: the same statements without the covering index (migration 5's indexes only).
    db.exec('DROP INDEX alarm_stats');
    for (const [scopeName, scope] of scopes) {
      for (const [q, fn] of Object.entries(queries)) {
        const base = await measure(() => fn(scope));
        const value = withIndex.get(`${q}/${scopeName}`)!;
        records.push({ name: `alarm-stats ${q} by ${scopeName}, 30 of 90 days`, metric: `median of ${runs}, ${alarms} alarms`, value, unit: 'ms', baseline: base, ratio: base / value });
      }
    }
  } finally {
    storage.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return records;
}
