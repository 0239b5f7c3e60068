/**
 * Issue 20 scale-out, events between nodes over NATS JetStream (server/bus/events.ts): three `server/main.ts`
 * processes on one PostgreSQL database and one NATS server (`nats-server -js`, started here). Node A runs
 * only the gateway (ROLES=gateway), nodes B and C the API and push (ROLES=api,push), each with an
 * administrator's console and the east branch's console.
 * - An alarm raised on A reaches the consoles of B and C as the message a single node sends (the same body
 *   as the catch-up read from the database), and only consoles whose companies hold the vehicle.
 * - An alarm handled on B reaches the consoles of C (and one handled on C those of B), scoped alike.
 * - A terminal on A that only sends heartbeats is online on B and C with A's contact time, so after it
 *   disconnects B and C mark it offline when A would (offline is 3 minutes without contact on every node).
 * - Vehicles created, moved to another company and deleted through B's API reach A's terminal directory
 *   (a terminal refused for want of a vehicle registers once B installed its device on one) and C's store.
 * - An operator's registration reset on B ends the terminal's authentication on A (its connection closes).
 * - A fence drawn on B is evaluated by A (the alarm-rules event): A's terminal leaving it raises 13006.
 * - A fourth push node D whose only console is the east branch's follows only the east branch's subject: another
 *   company's position never reaches it (its /metrics count), the east one does (follow-scopes.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vinCheckDigit } from '../../domain/fleet/vin.ts';
import { MSG, REGISTER_RESULT } from '../gateway/jt808/index.ts';
import { location, TestTerminal } from '../gateway/terminal-client.ts';
import { startCrashServer, stopClean, type CrashServer } from '../ops/crash-harness.ts';
import { PgSyncDb } from '../db/pg/sync-db.ts';
import { createTestDatabase, pgSkipReason, type TestDatabase } from '../db/pg/test-db.ts';
import type { AlarmHandled } from '../push/hub.ts';
import { connectPush, type PushTestClient } from '../push/test-client.ts';
import { natsSkipReason, startNats, type TestNats } from './test-nats.ts';

const skip = pgSkipReason() || natsSkipReason();
if (skip) console.warn(`two-node-events.pgtest: skipped: ${skip}`);

const OVERSPEED = 1 << 1; // alarm type 12001

interface Reply<T> { status: number; code: number; data: T }

async function call<T>(apiUrl: string, method: string, callPath: string, token: string, body?: unknown): Promise<Reply<T>> {
  const headers: Record<string, string> = { 'x-lang': 'en', 'x-jwt': token };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(new URL(callPath, apiUrl), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const parsed = (await r.json()) as { code?: number; data: T };
  return { status: r.status, code: parsed.code ?? r.status, data: parsed.data };
}

async function login(apiUrl: string, username: string, password: string): Promise<string> {
  const r = await fetch(new URL('/service-priv/login', apiUrl), {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password, loginType: 'default' }),
  });
  return ((await r.json()) as { data: { token: string } }).data.token;
}

/** A valid VIN (check digit in place 9) for a sequence number. */
function vin(seq: number): string {
  const draft = `LFV2A21K0${String(seq).padStart(8, '0')}`;
  return `${draft.slice(0, 8)}${vinCheckDigit(draft)}${draft.slice(9)}`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;

/** Retries `attempt` every 250 ms until it answers something, for at most `ms`. */
async function eventually<T>(attempt: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await attempt();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(250);
  }
}

type AlarmData = { id: number; vehicleId: number; alarmType: number } & Record<string, unknown>;
const alarmsOf = (c: PushTestClient): AlarmData[] => c.received.flatMap((m) => (m.kind === 'alarm' ? [m.data as AlarmData] : []));
const handledOf = (c: PushTestClient): AlarmHandled[] => c.received.flatMap((m) => (m.kind === 'alarmHandled' ? [m.data] : []));
const positionOf = (c: PushTestClient, vehicleId: number, gpsTime: number) =>
  c.received.some((m) => m.kind === 'positions' && m.vehicles.some((v) => v.vehicleId === vehicleId && v.gpsTime === gpsTime)) || undefined;

async function console_(apiUrl: string, token: string, query: Record<string, string> = {}): Promise<PushTestClient> {
  const c = await connectPush(apiUrl, token, query);
  await c.waitFor(() => c.received.some((m) => m.kind === 'positions'));
  return c;
}

describe.skipIf(skip !== '')('alarms, contact and fleet changes between nodes on NATS JetStream and PostgreSQL', () => {
  let tdb: TestDatabase;
  let nats: TestNats;
  const dirs: string[] = [];
  const children = new Set<ChildProcess>();
  const clients: PushTestClient[] = [];
  const terminals: TestTerminal[] = [];
  let nodeA: CrashServer;
  let nodeB: CrashServer;
  let nodeC: CrashServer;
  let nodeD: CrashServer | undefined;
  let east: { id: number; path: string };
  let inEast: { id: number; deviceNo: string }[];
  let outside: { id: number; deviceNo: string }[];
  const tokens = { adminB: '', adminC: '', eastB: '', eastC: '' };
  const consoles = {} as Record<keyof typeof tokens, PushTestClient>;

  const open = async (node: CrashServer, token: string, query: Record<string, string> = {}) => {
    const c = await console_(node.apiUrl, token, query);
    clients.push(c);
    return c;
  };
  const terminal = async (deviceNo: string) => {
    const t = await TestTerminal.connect(nodeA.gatewayPort, deviceNo);
    terminals.push(t);
    return t;
  };

  beforeAll(async () => {
    tdb = await createTestDatabase();
    nats = await startNats();
    // No auto-registration (a seeded database turns it on): an unknown or unassigned device is refused.
    const env = { DATABASE_URL: tdb.url, SEED_VEHICLES: '12', NATS_URL: nats.url, GATEWAY_AUTO_REGISTER: '0' };
    for (const name of ['gw', 'push-b', 'push-c']) dirs.push(mkdtempSync(path.join(tmpdir(), `fleet-evt-${name}-`)));
    // One after the other: A makes the schema and seeds; two starting together time out on each other's start-up writes.
    // 600 s each: on the loaded 2-core machine a node on the PostgreSQL bridge once took over the default 120 s.
    const start = (i: number, roles: string) => startCrashServer(dirs[i]!, children, { env: { ...env, ROLES: roles }, startTimeoutMs: 600_000 });
    nodeA = await start(0, 'gateway');
    nodeB = await start(1, 'api,push');
    nodeC = await start(2, 'api,push');
    const db = new PgSyncDb(tdb.url);
    try {
      east = db.prepare('SELECT c.id AS id, c.path AS path FROM user u JOIN company c ON c.id = u.company_id WHERE u.username = ?').get('branch') as typeof east;
      const vehicles = db.prepare('SELECT v.id AS id, v.device_no AS deviceNo, c.path AS path FROM vehicle v JOIN company c ON c.id = v.company_id WHERE v.device_no IS NOT NULL ORDER BY v.id')
        .all() as { id: number; deviceNo: string; path: string }[];
      inEast = vehicles.filter((v) => v.path.startsWith(east.path));
      outside = vehicles.filter((v) => !v.path.startsWith(east.path));
    } finally {
      db.close();
    }
    expect(inEast.length).toBeGreaterThanOrEqual(1);
    expect(outside.length).toBeGreaterThanOrEqual(3);
    // Each node signs its own tokens (its DATA_DIR's secret): each console signs in on its node.
    [tokens.adminB, tokens.eastB, tokens.adminC, tokens.eastC] = await Promise.all([
      login(nodeB.apiUrl, 'admin', 'admin123'), login(nodeB.apiUrl, 'branch', 'branch123'),
      login(nodeC.apiUrl, 'admin', 'admin123'), login(nodeC.apiUrl, 'branch', 'branch123'),
    ]);
    [consoles.adminB, consoles.eastB, consoles.adminC, consoles.eastC] = await Promise.all([
      open(nodeB, tokens.adminB), open(nodeB, tokens.eastB), open(nodeC, tokens.adminC), open(nodeC, tokens.eastC),
    ]);
  }, 1_900_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await Promise.all(terminals.map((t) => t.close().catch(() => undefined)));
    for (const n of [nodeA, nodeB, nodeC, nodeD]) if (n) await stopClean(n).catch(() => undefined);
    for (const c of children) c.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await nats?.stop();
    await tdb?.drop();
  });

  let alarmOut: AlarmData;
  let alarmIn: AlarmData;

  it('an alarm raised on gateway A reaches the consoles of push nodes B and C as a single node sends it, only where its company is in scope', { timeout: 60_000 }, async () => {
    const vOut = outside[0]!;
    const vIn = inEast[0]!;
    const t0 = seconds(Date.now()) - 2000;
    for (const v of [vOut, vIn]) {
      const t = await terminal(v.deviceNo);
      await t.login();
      expect((await t.report(location({ lng: 121.5, lat: 31.2, time: t0, speed: 70 }))).result).toBe(0);
      expect((await t.report(location({ lng: 121.5, lat: 31.2, time: t0 + 1000, speed: 70, alarm: OVERSPEED }))).result).toBe(0);
    }
    const { adminB, adminC, eastB, eastC } = consoles;
    const find = (c: PushTestClient, vehicleId: number) => c.waitFor(() => alarmsOf(c).find((a) => a.vehicleId === vehicleId && a.alarmType === 12001), 10_000);
    alarmOut = await find(adminB, vOut.id);
    alarmIn = await find(adminB, vIn.id);
    expect(await find(adminC, vOut.id)).toEqual(alarmOut);
    expect(await find(adminC, vIn.id)).toEqual(alarmIn);
    expect(await find(eastB, vIn.id)).toEqual(alarmIn);
    expect(await find(eastC, vIn.id)).toEqual(alarmIn);
    expect(alarmOut).toMatchObject({ vehicleId: vOut.id, alarmType: 12001, alarmName: expect.any(String), popup: expect.any(Boolean) });
    const live = adminB.received.find((m) => m.kind === 'alarm' && (m.data as AlarmData).id === alarmOut.id)!;
    expect(live.headers.commandType).toBe('alarm');
    // The same body a single node sends: what the catch-up reads back from the database for a reconnecting console.
    const again = await open(nodeB, tokens.adminB, { alarmsAfter: String(Math.min(alarmOut.id, alarmIn.id) - 1) });
    const replay = again.received.find((m) => m.kind === 'alarmReplay');
    expect(replay?.kind === 'alarmReplay' && replay.data.alarms).toEqual(expect.arrayContaining([alarmOut, alarmIn]));
    // Scoping: the east branch's consoles never get the other company's alarm.
    await sleep(500);
    for (const c of [eastB, eastC]) expect(alarmsOf(c).filter((a) => a.id === alarmOut.id)).toEqual([]);
  });

  it('an alarm handled on B reaches the consoles of C, and one handled on C those of B, scoped alike', { timeout: 60_000 }, async () => {
    expect(alarmOut && alarmIn).toBeTruthy();
    const { adminB, adminC, eastB, eastC } = consoles;
    const onB = await call<{ updated: number }>(nodeB.apiUrl, 'PUT', '/service-safe/alarmInfo/handle_status', tokens.adminB, { ids: [alarmOut.id], dealType: 1, dealContent: 'called the driver' });
    expect(onB.data.updated).toBe(1);
    const handledOut = await adminC.waitFor(() => handledOf(adminC).find((h) => h.alarmIds.includes(alarmOut.id)), 10_000);
    expect(handledOut).toMatchObject({ alarmIds: [alarmOut.id], dealStatus: 2, boardItemId: null });
    expect(await adminB.waitFor(() => handledOf(adminB).find((h) => h.alarmIds.includes(alarmOut.id)))).toEqual(handledOut);

    const onC = await call<{ updated: number }>(nodeC.apiUrl, 'PUT', '/service-safe/alarmInfo/handle_status', tokens.adminC, { ids: [alarmIn.id], dealType: 1, dealContent: 'checked the video' });
    expect(onC.data.updated).toBe(1);
    for (const c of [adminB, eastB, eastC]) {
      expect(await c.waitFor(() => handledOf(c).find((h) => h.alarmIds.includes(alarmIn.id)), 10_000)).toMatchObject({ alarmIds: [alarmIn.id], dealStatus: 2 });
    }
    await sleep(500);
    for (const c of [eastB, eastC]) expect(handledOf(c).filter((h) => h.alarmIds.includes(alarmOut.id))).toEqual([]);
  });

  it('a terminal on A that only sends heartbeats is online on B and C with A\'s contact time; after it disconnects, no later contact', { timeout: 60_000 }, async () => {
    const v = outside[1]!;
    const { adminB, adminC } = consoles;
    const t = await terminal(v.deviceNo);
    const started = Date.now();
    await t.login();
    // Online on B and C within a contact flush: a delta with a contact time, no position ever reported.
    for (const c of [adminB, adminC]) {
      const seen = await c.waitFor(() => {
        for (const m of c.received) if (m.kind === 'positions' && m.at >= started) for (const x of m.vehicles) if (x.vehicleId === v.id && x.lastContact >= seconds(started)) return x;
        return undefined;
      }, 5000);
      expect(seen.lastContact).toBeLessThanOrEqual(Date.now());
    }
    await sleep(1500);
    const sent = Date.now();
    const reply = await t.request({ msgId: MSG.HEARTBEAT });
    const replied = Date.now();
    expect(reply.result).toBe(0);
    await t.close();
    // Past a contact flush: a fresh console's snapshot holds the node's contact time of the vehicle.
    await sleep(2500);
    for (const [node, token] of [[nodeB, tokens.adminB], [nodeC, tokens.adminC]] as const) {
      const fresh = await open(node, token);
      const snap = fresh.received.find((m) => m.kind === 'positions');
      const row = snap?.kind === 'positions' ? snap.vehicles.find((x) => x.vehicleId === v.id) : undefined;
      // The heartbeat's arrival on A (whole seconds on the wire): offline 3 minutes after it, as on a single node.
      expect(row?.lastContact).toBeGreaterThanOrEqual(seconds(sent));
      expect(row?.lastContact).toBeLessThanOrEqual(replied);
    }
  });

  it('a vehicle created on B with the device a terminal on A was refused for: A registers it, C\'s consoles see it; moved, then deleted', { timeout: 90_000 }, async () => {
    const { adminB, adminC, eastC } = consoles;
    const deviceNo = `0177${String(Date.now() % 1e8).padStart(8, '0')}`;
    expect((await call(nodeB.apiUrl, 'POST', '/service-priv/device', tokens.adminB, { deviceNo })).status).toBe(200);
    const t = await terminal(deviceNo);
    // A reads the device from the database and keeps it: installed on no vehicle, refused.
    expect((await t.register()).result).toBe(REGISTER_RESULT.NO_VEHICLE);
    const plate = `沪E${String(Date.now() % 1e5).padStart(5, '0')}`;
    const created = await call<{ id: number }>(nodeB.apiUrl, 'POST', '/service-priv/vehicle', tokens.adminB, { vehiidno: plate, vin: vin(Date.now() % 1e8), deviceNo });
    expect(created.status).toBe(200);
    const vehicleId = created.data.id;
    // A's directory follows B's change (FleetSync runs after B answered): the terminal registers.
    const reg = await eventually(async () => {
      const r = await t.register();
      return r.result === REGISTER_RESULT.OK ? r : undefined;
    }, 10_000, 'the terminal registers on A');
    expect((await t.authenticate(reg.authCode)).result).toBe(0);
    // C learned of the vehicle (its directory addition), and both push nodes show its position from A.
    const entry = await adminC.waitFor(() => adminC.received.flatMap((m) => (m.kind === 'directory' ? m.vehicles : [])).find((x) => x.vehicleId === vehicleId), 10_000);
    expect(entry).toMatchObject({ plate, deviceNo });
    const time = seconds(Date.now());
    expect((await t.report(location({ lng: 121.3, lat: 31.1, time, speed: 20 }))).result).toBe(0);
    for (const c of [adminB, adminC]) await c.waitFor(() => positionOf(c, vehicleId, time), 5000);

    // Moved to the east branch on B: C's store follows, so the east console on C sees its next positions.
    const moved = await call<{ moved: number }>(nodeB.apiUrl, 'POST', '/service-priv/vehicle/modifyVehiCompany', tokens.adminB, { ids: [vehicleId], companyId: east.id });
    expect(moved.data.moved).toBe(1);
    let next = time;
    await eventually(async () => {
      next += 1000;
      expect((await t.report(location({ lng: 121.31, lat: 31.11, time: next, speed: 20 }))).result).toBe(0);
      await sleep(300);
      return positionOf(eastC, vehicleId, next);
    }, 10_000, 'the east console on C sees the moved vehicle');

    // A vehicle without history created in the east branch then deleted on B: C adds it, then forgets it (the
    // east console's snapshot; a forgotten slot is in no branch's scope).
    const other = await call<{ id: number }>(nodeB.apiUrl, 'POST', '/service-priv/vehicle', tokens.adminB, {
      vehiidno: `沪F${String(Date.now() % 1e5).padStart(5, '0')}`, vin: vin((Date.now() + 7) % 1e8), companyId: east.id,
    });
    expect(other.status).toBe(200);
    await eastC.waitFor(() => eastC.received.some((m) => m.kind === 'directory' && m.vehicles.some((x) => x.vehicleId === other.data.id)) || undefined, 10_000);
    const inSnapshot = async () => {
      const c = await open(nodeC, tokens.eastC);
      const snap = c.received.find((m) => m.kind === 'positions');
      c.close();
      return snap?.kind === 'positions' && snap.vehicles.some((x) => x.vehicleId === other.data.id);
    };
    expect(await inSnapshot()).toBe(true);
    expect((await call(nodeB.apiUrl, 'DELETE', '/service-priv/vehicle', tokens.adminB, { ids: [other.data.id] })).status).toBe(200);
    await eventually(async () => ((await inSnapshot()) ? undefined : true), 10_000, 'C forgets the deleted vehicle');
  });

  it('an operator\'s registration reset on B ends the terminal\'s authentication on gateway A (the attack: a voided terminal kept reporting on A until it reconnected)', { timeout: 60_000 }, async () => {
    const v = outside[2]!;
    const t = await terminal(v.deviceNo);
    await t.login();
    const time = seconds(Date.now());
    expect((await t.report(location({ lng: 121.2, lat: 31.2, time, speed: 10 }))).result).toBe(0);
    const reset = await call<{ registered: boolean }>(nodeB.apiUrl, 'POST', '/service-priv/device/resetRegistration', tokens.adminB, { vehicleId: v.id });
    expect(reset.status).toBe(200);
    expect(reset.data.registered).toBe(false);
    // A closes the connection once B's fleet change reaches it: the terminal must register afresh.
    await Promise.race([t.closed, sleep(10_000).then(() => { throw new Error('A kept the voided terminal connected for 10 s'); })]);
  });

  it('a fence drawn on B is evaluated by gateway A at once: A\'s terminal leaving it raises 13006, seen on B\'s console (the gap: A kept the fences it loaded at start)', { timeout: 60_000 }, async () => {
    const v = outside[outside.length - 1]!;
    const t = await terminal(v.deviceNo);
    await t.login();
    const made = await call<{ id: number }>(nodeB.apiUrl, 'POST', '/service-monitor/fence', tokens.adminB, {
      name: '跨节点离场', geometry: { shape: 'circle', center: [113.3, 23.1], radius: 200 },
      rule: { alarmIn: false, alarmOut: true, forbidIn: false, forbidOut: false, maxSpeed: null, overspeedSeconds: 10, startTime: null, endTime: null },
      vehicleIds: [v.id],
    });
    expect(made.status).toBe(200);
    const { adminB } = consoles;
    // The rule reaches A over the bus (milliseconds); report in, then ~1 km east (out, past the hysteresis), until A raises it.
    const raised = await eventually(async () => {
      const at = seconds(Date.now());
      await t.report(location({ lng: 113.3, lat: 23.1, time: at - 2000, speed: 20 }));
      await t.report(location({ lng: 113.31, lat: 23.1, time: at - 1000, speed: 20 }));
      await sleep(500);
      return alarmsOf(adminB).find((a) => a.vehicleId === v.id && a.alarmType === 13006);
    }, 15_000, 'A raises the leave-fence alarm of the fence drawn on B');
    expect(raised.vehicleId).toBe(v.id);
  });

  it('a push node whose only console is the east branch\'s receives the east branch\'s positions and never another company\'s (push nodes subscribe per company subject)', { timeout: 700_000 }, async () => {
    dirs.push(mkdtempSync(path.join(tmpdir(), 'fleet-evt-push-d-')));
    // Started last: B holds the offline sweep (which follows every company), D does not.
    nodeD = await startCrashServer(dirs.at(-1)!, children, { env: { DATABASE_URL: tdb.url, NATS_URL: nats.url, GATEWAY_AUTO_REGISTER: '0', ROLES: 'api,push' }, startTimeoutMs: 600_000 });
    const eastD = await open(nodeD, await login(nodeD.apiUrl, 'branch', 'branch123'));
    const metric = async (name: string) => {
      const text = await (await fetch(new URL('/metrics', nodeD!.apiUrl))).text();
      const m = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
      if (!m) throw new Error(`no ${name} in D's /metrics`);
      return Number(m[1]);
    };
    expect(await metric('fleet_bus_followed_scopes')).toBe(1);
    await sleep(1000);
    const before = await metric('fleet_bus_positions_received_total');
    // Another company's report: through the stream to B's administrator, not to D.
    const tOut = await terminal(outside[0]!.deviceNo);
    await tOut.login();
    const outTime = seconds(Date.now());
    expect((await tOut.report(location({ lng: 121.6, lat: 31.3, time: outTime, speed: 30 }))).result).toBe(0);
    await eventually(async () => positionOf(consoles.adminB, outside[0]!.id, outTime), 10_000, 'B\'s administrator sees the other company\'s report');
    await sleep(500);
    expect(await metric('fleet_bus_positions_received_total')).toBe(before);
    // The east branch's report reaches D's console.
    const tIn = await terminal(inEast[0]!.deviceNo);
    await tIn.login();
    const inTime = seconds(Date.now());
    expect((await tIn.report(location({ lng: 121.7, lat: 31.3, time: inTime, speed: 30 }))).result).toBe(0);
    await eventually(async () => positionOf(eastD, inEast[0]!.id, inTime), 10_000, 'D\'s east console sees the east report');
    expect(await metric('fleet_bus_positions_received_total')).toBe(before + 1);
  });
});
