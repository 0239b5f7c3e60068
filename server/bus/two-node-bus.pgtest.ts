/**
 * Issue 20 scale-out, gateway node → push node over NATS JetStream: two `server/main.ts` processes on one
 * PostgreSQL database and one NATS server (`nats-server -js`, started here). Node A runs only the gateway
 * (ROLES=gateway), node B only the API and push (ROLES=api,push). A terminal on A reports; a console on B
 * receives that vehicle's position within one second. A's acknowledgement waits for the stream: with the
 * NATS server frozen, the database commit alone does not release it.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../gateway/jt808/index.ts';
import { location, TestTerminal } from '../gateway/terminal-client.ts';
import { startCrashServer, stopClean, type CrashServer } from '../ops/crash-harness.ts';
import { PgSyncDb } from '../db/pg/sync-db.ts';
import { createTestDatabase, pgSkipReason, type TestDatabase } from '../db/pg/test-db.ts';
import { connectPush, type PushTestClient } from '../push/test-client.ts';
import { natsSkipReason, startNats, type TestNats } from './test-nats.ts';

const skip = pgSkipReason() || natsSkipReason();
if (skip) console.warn(`two-node-bus.pgtest: skipped: ${skip}`);

async function api<T>(apiUrl: string, method: string, callPath: string, body?: unknown, token?: string): Promise<{ status: number; code: number; data: T }> {
  const headers: Record<string, string> = { 'x-lang': 'en' };
  if (token) headers['x-jwt'] = token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(new URL(callPath, apiUrl), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const parsed = (await r.json()) as { code?: number; data: T };
  return { status: r.status, code: parsed.code ?? r.status, data: parsed.data };
}

describe.skipIf(skip !== '')('a gateway node and a push node on NATS JetStream and PostgreSQL', () => {
  let tdb: TestDatabase;
  let nats: TestNats;
  const dirs: string[] = [];
  const children = new Set<ChildProcess>();
  let nodeA: CrashServer;
  let nodeB: CrashServer;
  let vehicle: { id: number; deviceNo: string };
  let terminal: TestTerminal;
  let viewer: PushTestClient;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    nats = await startNats();
    const env = { DATABASE_URL: tdb.url, SEED_VEHICLES: '5', NATS_URL: nats.url };
    dirs.push(mkdtempSync(path.join(tmpdir(), 'fleet-gw-')), mkdtempSync(path.join(tmpdir(), 'fleet-push-')));
    // One after the other: B finds the schema A made.
    nodeA = await startCrashServer(dirs[0]!, children, { env: { ...env, ROLES: 'gateway' } });
    nodeB = await startCrashServer(dirs[1]!, children, { env: { ...env, ROLES: 'api,push' } });
    const db = new PgSyncDb(tdb.url);
    try {
      vehicle = db.prepare('SELECT id, device_no AS deviceNo FROM vehicle ORDER BY id LIMIT 1').get() as { id: number; deviceNo: string };
    } finally {
      db.close();
    }
    const login = await api<{ token: string }>(nodeB.apiUrl, 'POST', '/service-priv/login', { username: 'admin', password: 'admin123', loginType: 'default' });
    expect(login.code).toBe(200);
    viewer = await connectPush(nodeB.apiUrl, login.data.token);
    // The snapshot of B's store is in before the report, so what comes next is a delta.
    await viewer.waitFor(() => viewer.received.some((m) => m.kind === 'positions'));
    terminal = await TestTerminal.connect(nodeA.gatewayPort, vehicle.deviceNo);
    await terminal.login();
  }, 240_000);

  afterAll(async () => {
    viewer?.close();
    await terminal?.close().catch(() => undefined);
    for (const n of [nodeA, nodeB]) if (n) await stopClean(n).catch(() => undefined);
    for (const c of children) c.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await nats?.stop();
    await tdb?.drop();
  });

  it('each node serves only its roles: A no console routes, B no terminal port; both ready', async () => {
    expect(nodeB.gatewayPort).toBe(0);
    expect((await api(nodeA.apiUrl, 'POST', '/service-priv/login', { username: 'admin', password: 'admin123', loginType: 'default' })).status).toBe(404);
    await expect(connectPush(nodeA.apiUrl, 'any')).rejects.toMatchObject({ status: 404 });
    const readyA = await api<never>(nodeA.apiUrl, 'GET', '/health/ready');
    const readyB = await api<never>(nodeB.apiUrl, 'GET', '/health/ready');
    expect(readyA.status).toBe(200);
    expect(readyB.status).toBe(200);
    const a = await (await fetch(new URL('/health/ready', nodeA.apiUrl))).json();
    const b = await (await fetch(new URL('/health/ready', nodeB.apiUrl))).json();
    expect(a).toMatchObject({ checks: { gateway: 'up', push: 'off' } });
    expect(b).toMatchObject({ checks: { gateway: 'off', push: 'up' } });
  });

  it('a position reported to gateway node A reaches a console on push node B within one second', { timeout: 30_000 }, async () => {
    const time = Math.floor(Date.now() / 1000) * 1000;
    const started = Date.now();
    expect((await terminal.report(location({ lng: 121.4737, lat: 31.2304, time, speed: 42 }))).result).toBe(0);
    const seen = await viewer.waitFor(() => {
      for (const m of viewer.received) {
        if (m.kind !== 'positions') continue;
        const v = m.vehicles.find((x) => x.vehicleId === vehicle.id && x.gpsTime === time);
        if (v) return { at: m.at, v };
      }
      return undefined;
    }, 5000);
    expect(seen.v.lng).toBeCloseTo(121.4737, 6);
    expect(seen.v.lat).toBeCloseTo(31.2304, 6);
    expect(seen.v.speed).toBeCloseTo(42, 3);
    expect(seen.at - started).toBeLessThan(1000);
  });

  it('A acknowledges a report only once the stream persisted it (NATS frozen: no ack, though the database committed)', { timeout: 30_000 }, async () => {
    const time = Math.floor(Date.now() / 1000) * 1000 + 1000;
    nats.pause();
    let serial: number;
    try {
      serial = terminal.send({ msgId: MSG.LOCATION, ...location({ lng: 121.5, lat: 31.25, time, speed: 10 }) });
      // Well past the history flush (100 ms): the row is committed, the PubAck cannot come.
      await new Promise((r) => setTimeout(r, 1500));
      expect(terminal.replies.filter((r) => r.replySerial === serial)).toEqual([]);
      const db = new PgSyncDb(tdb.url);
      try {
        const row = db.prepare('SELECT count(*) AS n FROM positions WHERE vehicle_id = ? AND gps_time = ?').get(vehicle.id, time) as { n: number | string };
        expect(Number(row.n)).toBe(1);
      } finally {
        db.close();
      }
    } finally {
      nats.resume();
    }
    expect((await terminal.replyTo(serial, 15_000)).result).toBe(0);
    await viewer.waitFor(() => viewer.received.some((m) => m.kind === 'positions' && m.vehicles.some((v) => v.vehicleId === vehicle.id && v.gpsTime === time)), 10_000);
  });
});
