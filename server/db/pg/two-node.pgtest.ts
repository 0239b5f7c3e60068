/**
 * Two server processes (`server/main.ts`, as `npm run dev` starts it) on one PostgreSQL database
 * (DATABASE_URL), each with its own DATA_DIR and ports: a terminal reports to node 1's gateway, and node 2's
 * track API answers that position. Node 1 creates and seeds the schema; node 2 finds it made.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { location, TestTerminal } from '../../gateway/terminal-client.ts';
import { startCrashServer, stopClean, type CrashServer } from '../../ops/crash-harness.ts';
import { PgSyncDb } from './sync-db.ts';
import { createTestDatabase, pgSkipReason, type TestDatabase } from './test-db.ts';

const skip = pgSkipReason();
if (skip) console.warn(`two-node.pgtest: skipped: ${skip}`);

async function api<T>(apiUrl: string, method: string, callPath: string, body?: unknown, token?: string): Promise<{ code: number; data: T }> {
  const headers: Record<string, string> = { 'x-lang': 'en' };
  if (token) headers['x-jwt'] = token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(new URL(callPath, apiUrl), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const parsed = (await r.json()) as { code?: number; data: T };
  return { code: parsed.code ?? r.status, data: parsed.data };
}

describe.skipIf(skip !== '')('two nodes on one PostgreSQL database', () => {
  let tdb: TestDatabase;
  const dirs: string[] = [];
  const children = new Set<ChildProcess>();
  let node1: CrashServer;
  let node2: CrashServer;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const env = { DATABASE_URL: tdb.url, SEED_VEHICLES: '5' };
    dirs.push(mkdtempSync(path.join(tmpdir(), 'fleet-node1-')), mkdtempSync(path.join(tmpdir(), 'fleet-node2-')));
    // One after the other: node 2 must find the schema node 1 made (a concurrent start waits on the advisory lock).
    node1 = await startCrashServer(dirs[0]!, children, { env });
    node2 = await startCrashServer(dirs[1]!, children, { env });
  }, 240_000);

  afterAll(async () => {
    for (const n of [node1, node2]) if (n) await stopClean(n).catch(() => undefined);
    for (const c of children) c.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await tdb?.drop();
  });

  it('a position reported to node 1 is answered by node 2\'s track API', { timeout: 120_000 }, async () => {
    const db = new PgSyncDb(tdb.url);
    const vehicle = (() => {
      try {
        return db.prepare('SELECT id, device_no AS deviceNo FROM vehicle WHERE device_no IS NOT NULL ORDER BY id LIMIT 1').get() as { id: number; deviceNo: string };
      } finally {
        db.close();
      }
    })();
    const terminal = await TestTerminal.connect(node1.gatewayPort, vehicle.deviceNo);
    try {
      await terminal.login();
      const time = Math.floor(Date.now() / 1000) * 1000 - 60_000;
      // Acknowledged (result 0) only after the row is committed (group commit, server/live/history.ts).
      expect((await terminal.report(location({ lng: 121.4737, lat: 31.2304, time, speed: 42 }))).result).toBe(0);

      const login = await api<{ token: string }>(node2.apiUrl, 'POST', '/service-priv/login', { username: 'admin', password: 'admin123', loginType: 'default' });
      expect(login.code).toBe(200);
      const q = new URLSearchParams({ vehicleId: String(vehicle.id), startTime: String(time - 3_600_000), endTime: String(time + 3_600_000) });
      const trail = await api<{ records: { lng: number; lat: number; gpsTime: number; speed: number }[] }>(node2.apiUrl, 'GET', `/service-monitor/trail?${q}`, undefined, login.data.token);
      expect(trail.code).toBe(200);
      expect(trail.data.records).toEqual([expect.objectContaining({ lng: 121.4737, lat: 31.2304, gpsTime: time, speed: 42 })]);
    } finally {
      await terminal.close();
    }
  });
});
