/**
 * The audit hook's cost (issue 19): CPU time of the process per state-changing call with the audit
 * hook pair (row built per call, batched inserts of audit_log + audit_target, flushed every 250 ms and
 * at the end, flush time included) against the same Fastify app without it, on the same route, body
 * and answer, through `app.inject` (no sockets: the difference is the hook and the writer, not the network).
 * Body: `{ids: [1..5], remark}` (five targets per row). Database: a file under the temp dir with every
 * migration applied (the insert's sub-selects read `user` and `company`), WAL as in the server.
 * A third figure: CPU per call of an UNAUDITED route (a GET list) on the app with the hook installed against
 * the app without it — what the hook costs the calls it does not record (zero once it is attached per route).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { migrate } from '../server/db/migrations.ts';
import { openSqlite } from '../server/db/sqlite.ts';
import { installRoutePolicies } from '../server/http/route.ts';
import { installAuditHook } from '../server/services/audit/hook.ts';
import { AuditWriter } from '../server/services/audit/writer.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

let runNo = 0;

async function measure(audited: boolean, calls: number, dir: string, read = false): Promise<{ cpuUs: number; wallMs: number; rows: number }> {
  const db = openSqlite(path.join(dir, `${audited ? 'a' : 'b'}-${++runNo}.db`));
  migrate(db);
  const app = Fastify({ logger: false });
  installRoutePolicies(app);
  const writer = new AuditWriter(db);
  if (audited) installAuditHook(app, writer);
  app.put('/service-priv/vehicle', { config: { permission: '/information/vehicle:update' } }, async () => ({ code: 200, msg: 'ok', data: { id: 1 } }));
  app.get('/service-priv/vehicle/page', { config: { permission: '/information/vehicle' } }, async () => ({ code: 200, msg: 'ok', data: { records: [{ id: 1 }], total: 1 } }));
  await app.ready();
  const body = { ids: [1, 2, 3, 4, 5], remark: 'bench' };
  const one = read
    ? () => app.inject({ method: 'GET', url: '/service-priv/vehicle/page?current=1&size=10&ids=1' })
    : () => app.inject({ method: 'PUT', url: '/service-priv/vehicle', payload: body });
  // Warm-up: compile the statements, JIT the paths.
  for (let i = 0; i < 200; i++) await one();
  await writer.flush();
  const startCpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < calls; i++) await one();
  await writer.flush();
  const cpu = process.cpuUsage(startCpu);
  const wallMs = performance.now() - started;
  const rows = (db.prepare('SELECT COUNT(*) AS n FROM audit_log').get() as { n: number }).n;
  await app.close();
  db.close();
  return { cpuUs: (cpu.user + cpu.system) / calls, wallMs: wallMs / calls, rows };
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const calls = quick ? 3_000 : 10_000;
  const dir = mkdtempSync(path.join(tmpdir(), 'audit-bench-'));
  try {
    // Alternate, three of each, and keep each side's best: the machine is shared, noise only adds time.
    const bases: Awaited<ReturnType<typeof measure>>[] = [];
    const audits: Awaited<ReturnType<typeof measure>>[] = [];
    for (let r = 0; r < 3; r++) {
      bases.push(await measure(false, calls, dir));
      audits.push(await measure(true, calls, dir));
    }
    const readBases: Awaited<ReturnType<typeof measure>>[] = [];
    const readHooked: Awaited<ReturnType<typeof measure>>[] = [];
    for (let r = 0; r < 3; r++) {
      readBases.push(await measure(false, calls, dir, true));
      readHooked.push(await measure(true, calls, dir, true));
    }
    for (const a of audits) if (a.rows !== calls + 200) throw new Error(`audit rows ${a.rows}, expected ${calls + 200}`);
    for (const a of readHooked) if (a.rows !== 0) throw new Error(`an unaudited GET wrote ${a.rows} audit rows`);
    const best = (xs: typeof bases, k: 'cpuUs' | 'wallMs') => Math.min(...xs.map((x) => x[k]));
    const baseline = best(bases, 'cpuUs');
    const audit = { cpuUs: best(audits, 'cpuUs'), wallMs: best(audits, 'wallMs') };
    const base = { wallMs: best(bases, 'wallMs') };
    return [
      { name: 'audit: CPU per state-changing call, hook + batched write', metric: 'cpu', value: +audit.cpuUs.toFixed(1), unit: 'µs/call', baseline: +baseline.toFixed(1), ratio: +(audit.cpuUs / baseline).toFixed(2) },
      { name: 'audit: wall time per call (inject)', metric: 'wall', value: +(audit.wallMs * 1000).toFixed(1), unit: 'µs/call', baseline: +(base.wallMs * 1000).toFixed(1), ratio: +(audit.wallMs / base.wallMs).toFixed(2) },
      { name: 'audit: CPU per unaudited GET, hook installed', metric: 'cpu', value: +best(readHooked, 'cpuUs').toFixed(1), unit: 'µs/call', baseline: +best(readBases, 'cpuUs').toFixed(1), ratio: +(best(readHooked, 'cpuUs') / best(readBases, 'cpuUs')).toFixed(2) },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
