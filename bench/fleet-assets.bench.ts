/**
 * Machine affairs at the scale (issue 15), against baselines run in the same process:
 *
 * 1. Import: a 10,000-row vehicle .xlsx through the real job path (multipart `vehicle/v3/batchimp`,
 *    status polled every 50 ms until done: read, every row checked, one transaction) → rows/s, against
 *    the same number of rows created one call per row (`POST /service-priv/vehicle`: one transaction
 *    each with the same rules and change-log row) → rows/s. Beside it the longest event-loop stall
 *    while the import ran (monitorEventLoopDelay; the write transaction holds the loop for its length)
 *    and the slowest status answer.
 * 2. The vehicle list at 100,000 vehicles (`storage.vehicles.page`, the query behind
 *    `GET /service-priv/vehicle`): page 1, a deep page (4,000 of 25), a keyword search and a company
 *    subtree, against a baseline that reads every row and filters, sorts and slices in JS (a list
 *    without SQL paging). Each figure is the median of several calls; the HTTP answer time of our call
 *    is given too.
 * Figures are measured, never asserted (shared, noisy machines): compare the ratios of one run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import type { SqliteStorage } from '../server/db/sqlite/storage.ts';
import { ALL_COMPANIES, subtreeScope } from '../server/db/scope.ts';
import { plateOf, validVin, vehicleImportFile, vehicleRows } from '../e2e/vehicle-import-fixture.ts';
import { login } from './load/common.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

interface Server {
  app: FastifyInstance;
  base: string;
  close(): Promise<void>;
}

async function start(seedVehicles: number): Promise<Server> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-fleet-assets-'));
  const config = loadConfig({}, { dataDir, port: 0, host: '127.0.0.1', logLevel: 'warn', seedVehicles, seedFleetsPerBranch: 4, consoleDir: path.join(dataDir, 'no-console') });
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return {
    app, base: `http://127.0.0.1:${address.port}`,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface JobState { phase: string; imported?: number; problems?: unknown[] }

/** One file through the job path: upload, then the status every 50 ms until the task ends. */
async function importJob(base: string, token: string, file: Buffer): Promise<{ taskId: string; state: JobState; slowestStatus: number }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), 'vehicles.xlsx');
  const started = await (await fetch(`${base}/service-priv/vehicle/v3/batchimp`, { method: 'POST', headers: { 'x-jwt': token }, body: form })).json() as { code: number; msg: string; data: { taskId: string } };
  if (started.code !== 200) throw new Error(`import start: ${started.code} ${started.msg}`);
  let state: JobState = { phase: 'reading' };
  let slowestStatus = 0;
  while (!['done', 'refused', 'failed'].includes(state.phase)) {
    await sleep(50);
    const s0 = performance.now();
    const answer = await (await fetch(`${base}/service-priv/vehicle/batch/status?taskId=${started.data.taskId}`, { headers: { 'x-jwt': token } })).json() as { data: JobState };
    slowestStatus = Math.max(slowestStatus, performance.now() - s0);
    state = answer.data;
  }
  return { taskId: started.data.taskId, state, slowestStatus };
}

/** The import part alone (`baseline: false` skips the one-create-per-row run: the write hold and the stall are ours alone). */
export async function importBench(quick: boolean, { baseline: withBaseline = true } = {}): Promise<BenchRecord[]> {
  const rows = quick ? 2000 : 10_000;
  const server = await start(10);
  try {
    const token = await login(server.base, 'admin', 'admin123');
    const file = await vehicleImportFile({ prefix: 'BJ', rows, serialBase: 1_000_000 });
    // Warm-up: one small import first, so neither side pays the first-call costs (schema compiles, lazy modules).
    await importJob(server.base, token, await vehicleImportFile({ prefix: 'WU', rows: 50, serialBase: 9_000_000 }));

    // Ours: the job path, as the console drives it.
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const t0 = performance.now();
    const { taskId, state, slowestStatus } = await importJob(server.base, token, file);
    const jobMs = performance.now() - t0;
    loop.disable();
    if (state.phase !== 'done' || state.imported !== rows) throw new Error(`import ended ${state.phase}: ${JSON.stringify(state.problems?.slice(0, 3))}`);
    // How long the one write transaction held the loop (the job keeps it; the status call does not show it).
    const admin = (server.app.storage as SqliteStorage).db.prepare("SELECT id FROM user WHERE username = 'admin'").get() as { id: number };
    const writeMs = server.app.importJobs.own(admin.id, 'vehicle', taskId).writeMs ?? NaN;
    const ourRecords: BenchRecord[] = [
      { name: 'vehicle import, job path', metric: 'wall time', value: jobMs, unit: 'ms' },
      { name: 'vehicle import, write transaction', metric: 'loop held', value: writeMs, unit: 'ms' },
      { name: 'vehicle import, write transaction', metric: 'per row', value: writeMs / rows, unit: 'ms' },
      { name: 'vehicle import, event loop', metric: 'longest stall', value: loop.max / 1e6, unit: 'ms' },
      { name: 'vehicle import, status calls meanwhile', metric: 'slowest answer', value: slowestStatus, unit: 'ms' },
    ];
    if (!withBaseline) return ourRecords;

    // Baseline: the same count of rows, one create call (one transaction) each.
    const baseRows = vehicleRows({ prefix: 'PR', rows, serialBase: 2_000_000 });
    const b0 = performance.now();
    for (const [plate, plateColor, vin, vehicleType, status, remark] of baseRows) {
      const res = await fetch(`${server.base}/service-priv/vehicle`, {
        method: 'POST', headers: { 'x-jwt': token, 'content-type': 'application/json' },
        body: JSON.stringify({ vehiidno: plate, plateColor, vin, vehicleType, status, remark }),
      });
      const body = await res.json() as { code: number; msg: string };
      if (body.code !== 200) throw new Error(`create ${String(plate)}: ${body.code} ${body.msg}`);
    }
    const baseMs = performance.now() - b0;
    const ours = rows / (jobMs / 1000);
    const baseline = rows / (baseMs / 1000);
    return [
      { name: `vehicle import ${rows.toLocaleString('en-US')} rows (.xlsx ${Math.round(file.length / 1024)} KB)`, metric: 'rows/s, job path', value: ours, unit: 'rows/s', baseline, ratio: ours / baseline },
      { name: 'vehicle import, one create per row', metric: 'wall time', value: baseMs, unit: 'ms' },
      ...ourRecords,
    ];
  } finally {
    await server.close();
  }
}

interface Row { id: number; vehiidno: string; vin: string; device_no: string | null; company_id: number; path: string }

async function pagingBench(quick: boolean): Promise<BenchRecord[]> {
  const total = quick ? 20_000 : 100_000;
  const server = await start(10);
  try {
    const storage = server.app.storage as SqliteStorage;
    const db = storage.db;
    const fleets = db.prepare("SELECT id, path FROM company WHERE path LIKE '/%/%/%/' ORDER BY id").all() as { id: number; path: string }[];
    const branch = db.prepare("SELECT id, path FROM company WHERE path LIKE '/%/%/' AND path NOT LIKE '/%/%/%/' ORDER BY id LIMIT 1").get() as { id: number; path: string };
    const insert = db.prepare(`INSERT INTO vehicle (vehiidno, plate_color, company_id, vin, vehicle_type, status, remark, create_time, update_time)
                               VALUES (?, 1, ?, ?, 'truck', 1, '', ?, ?)`);
    const now = Date.now();
    db.transaction(() => {
      for (let i = 0; i < total; i++) insert.run(plateOf('P', i), fleets[i % fleets.length]!.id, validVin(3_000_000 + i), now, now);
    })();
    const count = (db.prepare('SELECT count(*) n FROM vehicle').get() as { n: number }).n;
    db.exec('ANALYZE');

    // Baseline: every row read, then filter + sort + slice in JS.
    const all = db.prepare('SELECT v.id, v.vehiidno, v.vin, v.device_no, v.company_id, c.path FROM vehicle v JOIN company c ON c.id = v.company_id');
    const jsPage = (current: number, size: number, keep: (r: Row) => boolean) => {
      const rows = (all.all() as Row[]).filter(keep).sort((a, b) => (a.vehiidno < b.vehiidno ? -1 : a.vehiidno > b.vehiidno ? 1 : 0));
      return { total: rows.length, records: rows.slice((current - 1) * size, current * size) };
    };
    const keyword = 'P0999';
    const matches = (r: Row) => r.vehiidno.includes(keyword) || r.vin.includes(keyword) || (r.device_no ?? '').includes(keyword);
    const cases = [
      { label: 'page 1 of 25', current: 1, size: 25, scope: ALL_COMPANIES, filters: {}, query: 'current=1&size=25', keep: () => true },
      { label: 'deep page 4,000 of 25', current: 4000, size: 25, scope: ALL_COMPANIES, filters: {}, query: 'current=4000&size=25', keep: () => true },
      { label: `keyword "${keyword}"`, current: 1, size: 25, scope: ALL_COMPANIES, filters: { keyword }, query: `current=1&size=25&keyword=${encodeURIComponent(keyword)}`, keep: matches },
      { label: 'company subtree (a branch), page 1', current: 1, size: 25, scope: subtreeScope(branch.id, branch.path), filters: {}, query: `current=1&size=25&companyId=${branch.id}`, keep: (r: Row) => r.path.startsWith(branch.path) },
    ];
    const token = await login(server.base, 'admin', 'admin123');
    const runs = quick ? 3 : 7;
    const out: BenchRecord[] = [{ name: `vehicle list at ${count.toLocaleString('en-US')} vehicles`, metric: 'rows', value: count, unit: 'vehicles' }];
    for (const c of cases) {
      const oursMs: number[] = [];
      const baseMs: number[] = [];
      const httpMs: number[] = [];
      let oursTotal = 0;
      let baseTotal = 0;
      for (let i = 0; i < runs; i++) {
        let t = performance.now();
        const page = await storage.vehicles.page(c.scope, { current: c.current, size: c.size, ...c.filters });
        oursMs.push(performance.now() - t);
        oursTotal = page.total;
        t = performance.now();
        baseTotal = jsPage(c.current, c.size, c.keep).total;
        baseMs.push(performance.now() - t);
        t = performance.now();
        const res = await fetch(`${server.base}/service-priv/vehicle?${c.query}`, { headers: { 'x-jwt': token } });
        const body = await res.json() as { code: number; data: { total: number } };
        if (body.code !== 200) throw new Error(`list ${c.query}: ${body.code}`);
        httpMs.push(performance.now() - t);
      }
      if (oursTotal !== baseTotal) throw new Error(`${c.label}: the list counts ${oursTotal}, the baseline ${baseTotal}`);
      const ours = median(oursMs);
      const baseline = median(baseMs);
      out.push({ name: `vehicle list, ${c.label} (${oursTotal.toLocaleString('en-US')} match)`, metric: 'repository page', value: ours, unit: 'ms', baseline, ratio: baseline / ours });
      out.push({ name: `vehicle list, ${c.label}`, metric: 'GET answer (HTTP)', value: median(httpMs), unit: 'ms' });
    }
    return out;
  } finally {
    await server.close();
  }
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  return [...await importBench(quick), ...await pagingBench(quick)];
}
