/**
 * Issue 20 failover, on the local scale-out set-up `npm run cluster` starts (tools/cluster/cluster.ts):
 * PostgreSQL, NATS JetStream, gateway nodes gw1 and gw2, api/push nodes api1 and api2, HAProxy in front.
 * - Terminals connect through HAProxy (half on each gateway) and report; gw1 is killed with SIGKILL. Its
 *   terminals reconnect through HAProxy to gw2 as real ones do (ReconnectingTerminal: back-off, sign in
 *   again, resend what was not acknowledged) and report again there; every report any terminal got a
 *   0x8001 for is a row in PostgreSQL (by vehicle and GPS time), and nothing else is.
 * - A console websocket, through HAProxy, on one push node, reconnecting as the console's stream worker
 *   does (ConsoleSocket below); that node is killed with SIGKILL; the console reconnects to the other and
 *   receives live positions again within the bound below.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import WebSocket from 'ws';
import { PushDecoder } from '../../proto/codec.ts';
import { clusterSkipReason, startLocalCluster, type LocalCluster, type NodeName } from '../../tools/cluster/cluster.ts';
import { CHECK } from '../../tools/cluster/haproxy.ts';
import { createTestDatabase, pgSkipReason, type TestDatabase } from '../db/pg/test-db.ts';
import { location } from '../gateway/terminal-client.ts';
import { PUSH_PATH } from '../push/index.ts';
import { ReconnectingTerminal } from './reconnecting-terminal.ts';

const skip = pgSkipReason() || clusterSkipReason();
if (skip) console.warn(`failover.pgtest: skipped: ${skip}`);

/** Terminals in the test: half land on each gateway. */
const N = 8;
const REPORT_EVERY_MS = 500;
/**
 * The console's retry delay: spec §7, 7000 attempts 7000 ms apart, as src/live/stream/socket.ts does it for
 * the monitor (the server may not import console code, so ConsoleSocket repeats that policy).
 */
const CONSOLE_RETRY_MS = 7000;

/**
 * What the console's push connection does (src/live/stream/socket.ts): open the websocket; when it closes,
 * wait CONSOLE_RETRY_MS and open it again with the same token. Nothing else is needed to re-subscribe:
 * the server sends the directory and a snapshot on every connection, then the deltas.
 */
class ConsoleSocket {
  readonly opens: number[] = [];
  private ws: WebSocket | null = null;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(private readonly url: string, private readonly onMessage: (data: Buffer, connection: number) => void) {}

  start(): void {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.on('open', () => this.opens.push(Date.now()));
    ws.on('message', (data: Buffer, binary: boolean) => {
      if (binary) this.onMessage(data, this.opens.length);
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      if (this.ws !== ws || this.disposed) return;
      this.ws = null;
      this.timer = setTimeout(() => this.start(), CONSOLE_RETRY_MS);
    });
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.ws?.close();
  }
}
/**
 * From the kill of the console's push node to the first live position on the other one: the close reaches
 * the console at once (HAProxy closes the client side when the node's socket dies), then the console's
 * fixed 7 s wait, then one connection through HAProxy (the dead node is out after 2 failed checks 1 s
 * apart, ≈ 2 s, well inside the 7 s; a refused connect would be redispatched anyway), the push sign-in and
 * snapshot, and a report (every 500 ms) through gw2 and NATS to the node's 1 s push tick at most. 5 s on top
 * of the 7 s covers that with room for a loaded 2-core machine; it is not a speed figure.
 */
const CONSOLE_RESUME_BOUND_MS = CONSOLE_RETRY_MS + 5000;

async function until<T>(what: string, find: () => T | undefined | false, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = find();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `fleet_push_consumers` of a node, from its own /metrics (loopback: no token needed). */
async function pushConsumers(httpUrl: string): Promise<number> {
  const text = await (await fetch(new URL('/metrics', httpUrl))).text();
  const m = /^fleet_push_consumers(?:\{[^}]*\})? (\S+)$/m.exec(text);
  if (!m) throw new Error('no fleet_push_consumers in /metrics');
  return Number(m[1]);
}

describe.skipIf(skip !== '')('failover through HAProxy: two gateways, two push nodes, NATS and PostgreSQL', () => {
  let tdb: TestDatabase;
  let cluster: LocalCluster;
  let vehicles: { id: number; deviceNo: string }[];
  let terminals: ReconnectingTerminal[] = [];
  /** Every report sent, per vehicle: GPS time → Date.now() when handed to its terminal. */
  const sent = new Map<number, Map<number, number>>();
  const base = Math.floor(Date.now() / 1000) * 1000 - 10 * 60_000;
  let k = 0;
  let reporter: NodeJS.Timeout | undefined;

  const startReporting = () => {
    // One reporter at a time (a test that failed midway left its own running).
    clearInterval(reporter);
    reporter = setInterval(() => {
      k++;
      const time = base + k * 1000;
      terminals.forEach((t, i) => {
        const v = vehicles[i]!;
        sent.get(v.id)!.set(time, Date.now());
        t.report(location({ lng: 121.4 + i * 0.01, lat: 31.2 + k * 0.0001, time, speed: 30 + i }));
      });
    }, REPORT_EVERY_MS);
  };
  const stopReporting = () => clearInterval(reporter);

  beforeAll(async () => {
    tdb = await createTestDatabase();
    cluster = await startLocalCluster({ databaseUrl: tdb.url, seedVehicles: N + 2 });
    const client = new pg.Client({ connectionString: tdb.url });
    await client.connect();
    try {
      // Ids are bigint: pg answers them as strings.
      vehicles = (await client.query<{ id: string; deviceNo: string }>(
        'SELECT id, device_no AS "deviceNo" FROM vehicle WHERE device_no IS NOT NULL ORDER BY id LIMIT $1', [N])).rows
        .map((r) => ({ id: Number(r.id), deviceNo: r.deviceNo }));
    } finally {
      await client.end();
    }
    expect(vehicles).toHaveLength(N);
    for (const v of vehicles) sent.set(v.id, new Map());
    // Four nodes start one after the other on the PostgreSQL bridge: 1.5 to over 4 min each measured with load 14–17
    // on 2 cores (other test runs beside it). A ceiling, not an expectation.
  }, 1_200_000);

  afterAll(async () => {
    stopReporting();
    await Promise.all(terminals.map((t) => t.stop()));
    await cluster?.stop();
    await tdb?.drop();
  }, 60_000);

  it('kill -9 of gateway gw1: its terminals report again through HAProxy to gw2, and every acknowledged report is in PostgreSQL', { timeout: 90_000 }, async () => {
    // One after the other: HAProxy's leastconn alternates the gateways.
    terminals = vehicles.map((v) => new ReconnectingTerminal(cluster.terminalPort, v.deviceNo, cluster.host));
    for (const t of terminals) await t.start();
    const before = await cluster.waitForServers((s) => s.filter((x) => x.backend === 'gateways').reduce((n, x) => n + x.current, 0) === N);
    const sessions = (name: string) => before.find((x) => x.server === name)!.current;
    expect([sessions('gw1'), sessions('gw2')]).toEqual([N / 2, N / 2]);

    startReporting();
    await until('three acknowledged reports per terminal', () => terminals.every((t) => t.acked.length >= 3), 20_000);
    const killedAt = Date.now();
    await cluster.kill('gw1');

    // gw1's terminals (the ones whose connection dropped) sign in again and get reports acknowledged on the new connection.
    const moved = await until('gw1\'s terminals acknowledged again after reconnecting', () => {
      const dropped = terminals.filter((t) => t.drops > 0);
      return dropped.length === N / 2 && dropped.every((t) => t.acked.some((a) => a.connection === 2)) && dropped;
    }, 30_000);
    const stayed = terminals.filter((t) => t.drops === 0);
    expect(stayed).toHaveLength(N / 2);
    for (const t of moved) {
      expect(t.signIns).toHaveLength(2);
      expect(t.signIns[1]!).toBeGreaterThan(killedAt);
      // Acknowledged by gw1 before the kill (these are the reports a crash could have lost).
      expect(t.acked.filter((a) => a.connection === 1 && a.at < killedAt).length).toBeGreaterThanOrEqual(3);
    }
    // HAProxy took gw1 out; gw2 now holds every terminal.
    const after = await cluster.waitForServers((s) => s.some((x) => x.server === 'gw1' && x.status.startsWith('DOWN'))
      && s.find((x) => x.server === 'gw2')!.current === N, (CHECK.fall + 2) * CHECK.interMs + 5000);
    expect(after.find((x) => x.server === 'gw2')!.status).toBe('UP');

    // Quiesce: no new reports; everything sent is acknowledged (resent after the reconnect where needed).
    stopReporting();
    await until('every report acknowledged', () => terminals.every((t) => t.unacknowledged === 0), 20_000);
    for (const t of terminals) expect(t.refused).toEqual([]);

    const client = new pg.Client({ connectionString: tdb.url });
    await client.connect();
    let rows: { vehicleId: string; gpsTime: string }[];
    try {
      rows = (await client.query<{ vehicleId: string; gpsTime: string }>(
        'SELECT vehicle_id AS "vehicleId", gps_time AS "gpsTime" FROM positions WHERE vehicle_id = ANY($1)', [vehicles.map((v) => v.id)])).rows;
    } finally {
      await client.end();
    }
    terminals.forEach((t, i) => {
      const id = vehicles[i]!.id;
      const stored = rows.filter((r) => Number(r.vehicleId) === id).map((r) => Number(r.gpsTime)).sort((a, b) => a - b);
      const acked = [...new Set(t.acked.map((a) => a.location.time))].sort((a, b) => a - b);
      // Every acknowledged report is stored once, and nothing but what the terminal sent (all of it acknowledged by now).
      expect(stored, `vehicle ${id} (${t.phone})`).toEqual(acked);
      expect(acked).toEqual([...sent.get(id)!.keys()].sort((a, b) => a - b));
    });
  });

  it('kill -9 of the push node holding a console: the console reconnects through HAProxy to the other and gets live positions again', { timeout: 60_000 }, async () => {
    const login = await fetch(new URL('/service-priv/login', cluster.consoleUrl), {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-lang': 'en' },
      body: JSON.stringify({ username: 'admin', password: 'admin123', loginType: 'default' }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    expect(token).toBeTruthy();

    const ours = new Set(vehicles.map((v) => v.id));
    const received: { at: number; connection: number; positions: { vehicleId: number; gpsTime: number }[] }[] = [];
    const decoder = new PushDecoder();
    const url = `${cluster.consoleUrl.replace(/^http/, 'ws')}${PUSH_PATH}?token=${encodeURIComponent(token)}`;
    const socket = new ConsoleSocket(url, (data, connection) => {
      const m = decoder.decode(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      if (m.body.type !== 'positions') return;
      const f = m.body.frame;
      const positions = [];
      for (let i = 0; i < f.count; i++) if (ours.has(f.vehicleId[i]!)) positions.push({ vehicleId: f.vehicleId[i]!, gpsTime: f.gpsTime[i]! });
      received.push({ at: Date.now(), connection, positions });
    });
    const opens = socket.opens;
    startReporting();
    try {
      socket.start();
      // A live position (sent after the socket opened) on the first connection.
      const live = (connection: number) => received.find((r) => r.connection === connection
        && r.positions.some((p) => (sent.get(p.vehicleId)?.get(p.gpsTime) ?? 0) > opens[connection - 1]!));
      await until('live positions on the first push connection', () => live(1), 20_000);

      const consumers = await Promise.all((['api1', 'api2'] as const).map((n) => pushConsumers(cluster.node(n).httpUrl)));
      expect(consumers.reduce((a, b) => a + b, 0)).toBe(1);
      const holder: NodeName = consumers[0] === 1 ? 'api1' : 'api2';
      const other: NodeName = holder === 'api1' ? 'api2' : 'api1';

      const killedAt = Date.now();
      await cluster.kill(holder);
      const resumed = await until('live positions after the reconnect', () => live(2), CONSOLE_RESUME_BOUND_MS + 10_000);
      expect(opens).toHaveLength(2);
      // The console waited its retry delay, then came back on the other node.
      expect(opens[1]! - killedAt).toBeGreaterThanOrEqual(CONSOLE_RETRY_MS - 100);
      expect(await pushConsumers(cluster.node(other).httpUrl)).toBe(1);
      expect(resumed.at - killedAt).toBeLessThan(CONSOLE_RESUME_BOUND_MS);
    } finally {
      socket.dispose();
      stopReporting();
    }
  });
});
