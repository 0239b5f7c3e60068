/**
 * Scale-out bus (issue 20): what the NATS JetStream bus and PostgreSQL cost against today's default, one
 * process on embedded SQLite, and what that projects for 1,000,000 terminals.
 *
 * The two set-ups, fresh for every round (each its own database), in alternating order between rounds:
 * - single node (the baseline: what `npm start` runs today): one `server/main.ts` process, all roles, SQLite
 *   in its DATA_DIR (WAL, synchronous NORMAL: the default);
 * - bus: gateway node A (`ROLES=gateway`) publishing every position to NATS JetStream (Debian's
 *   `nats-server -js`, one server, file storage) and writing it to PostgreSQL (Debian's postgresql, a
 *   cluster started here), push node B (`ROLES=api,push`) following the stream, consoles on B.
 *   PostgreSQL runs with fsync and full-page writes on and synchronous_commit off: like SQLite's WAL
 *   with synchronous NORMAL, a commit does not wait for its flush to disk, a crash of the writer loses
 *   nothing committed, a power loss may lose the last moments but corrupts nothing. Both stores are on
 *   the same disk (this machine's /tmp).
 * Every server is a child process started as `npm start` starts it (server/ops/crash-harness.ts); the
 * terminals and consoles run in their own child processes, so their CPU is never counted as a server's.
 *
 * Why the baseline is fair: it is the same program on the same machine under the same load in the same
 * round, with the store and durability it ships with; the bus side is charged for every process it needs
 * (gateway, push node, NATS, every PostgreSQL process), measured from /proc (bench/load/bus-cpu.ts).
 *
 * Figures:
 * 1. Positions stored per second, terminals reporting as fast as they are acknowledged: the gateway
 *    bench's load children (bench/gateway.bench.ts --load-child: N real JT/T 808 terminals over TCP, each
 *    keeping a window of 8 reports in flight, the next window once all 8 are answered). Rows committed in
 *    the window (the node's fleet_history_rows_written_total), acknowledged positions per second, the
 *    rows in the store at the end against the acknowledged ones (acknowledged but not stored must be 0),
 *    and each process's CPU per 1,000 positions.
 * 2. Report → console latency: M terminals reporting once a second each (bench/load/fanout-terminals.ts),
 *    from the frame written to the terminal's socket to the position decoded by a console
 *    (bench/load/push-clients.ts) on the single node, and on push node B for a terminal on gateway A
 *    (A → NATS → B), p50 and p99; and each process's CPU per 1,000 positions at this paced load.
 * 3. The projection for 1,000,000 terminals reporting every 30 s (33,333 positions/s), from the bus side's
 *    CPU per position: see PROJECTION_ASSUMPTIONS below and ARCHITECTURE.md "What 1,000,000 terminals need".
 * Without `nats-server` or PostgreSQL's binaries the bus side cannot run: the bench then says why and
 * reports nothing (a round with only a baseline would compare nothing).
 * Full: 1,000 saturating terminals for 15 s, 2,000 paced terminals for 15 s; `--quick`: 300 for 5 s, 500
 * for 6 s. On a shared, loaded 2-core machine the absolute figures move from round to round: read ratios.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { natsSkipReason, startNats, type TestNats } from '../server/bus/test-nats.ts';
import { pgUnavailableReason, startCluster, type PgCluster } from '../server/db/pg/test-cluster.ts';
import { startCrashServer, stopClean, type CrashServer } from '../server/ops/crash-harness.ts';
import { cpuDelta, sampleCpu, type CpuRoot } from './load/bus-cpu.ts';
import { frameToDecoded, login, nextMessage as nextChildMessage, percentile } from './load/common.ts';
import type { FanoutTerminalsStart } from './load/fanout-terminals.ts';
import type { PushClientsOptions, PushClientsResult } from './load/push-clients.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

/** The written-down assumptions of the 1,000,000-terminal projection (also in ARCHITECTURE.md). */
export const PROJECTION = {
  terminals: 1_000_000,
  /** JT/T 808 terminals in motion commonly report every 30 s (the platform's default interval). */
  reportSeconds: 30,
  /** A process is provisioned to be at most this busy, leaving room for bursts and a reconnect storm. */
  utilisation: 0.5,
  /** Terminal connections one gateway process holds (file descriptors, memory); not measured at this size. */
  terminalsPerGateway: 50_000,
  /** Stream replicas in production (R3); the bench runs one server (R1), so NATS CPU is multiplied by this. */
  natsReplicas: 3,
} as const;

const LOAD_WINDOW = 8;
const here = path.dirname(fileURLToPath(import.meta.url));

/** Which kind of set-up goes first alternates between rounds (issue 16: no side always runs on a fresh machine). */
let roundNo = 0;

interface Setup {
  readonly kind: 'single' | 'bus';
  /** The node holding the terminals. */
  readonly gateway: CrashServer;
  /** The node serving the consoles (the same as `gateway` on a single node). */
  readonly push: CrashServer;
  readonly roots: readonly CpuRoot[];
  /** Seeded vehicles by id: [terminal number, vehicle id]. */
  vehicles(): Promise<[string, number][]>;
  /** Position rows of vehicles with id ≤ maxId. */
  countPositions(maxId: number): Promise<number>;
  /** Bytes of the positions table (all partitions, indexes included), NaN where not measured. */
  positionBytes(): Promise<number>;
  stop(): Promise<void>;
}

function serverEnv(vehicles: number): Record<string, string> {
  return { SEED_VEHICLES: String(vehicles), SEED_FLEETS_PER_BRANCH: '4' };
}

/** A node creating and seeding the PostgreSQL database took over 120 s on this loaded 2-core machine. */
const START_TIMEOUT_MS = 600_000;

async function startSingle(vehicles: number, children: Set<ChildProcess>): Promise<Setup> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fleet-bus-bench-single-'));
  let node: CrashServer | undefined;
  let db: Database.Database | undefined;
  const stop = async () => {
    db?.close();
    if (node) await stopClean(node).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    node = await startCrashServer(dir, children, { env: serverEnv(vehicles), startTimeoutMs: START_TIMEOUT_MS });
    const store = new Database(path.join(dir, 'fleet.sqlite'), { readonly: true, fileMustExist: true });
    db = store;
    const n = node;
    return {
      kind: 'single', gateway: n, push: n, roots: [{ label: 'single node', pid: n.proc.pid! }],
      vehicles: async () => (store.prepare("SELECT device_no AS d, id FROM vehicle WHERE device_no IS NOT NULL AND device_no <> '' ORDER BY id").all() as { d: string; id: number }[]).map((r) => [r.d, r.id]),
      countPositions: async (maxId) => (store.prepare('SELECT count(*) AS n FROM positions WHERE vehicle_id <= ?').get(maxId) as { n: number }).n,
      positionBytes: async () => NaN,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function startBus(vehicles: number, children: Set<ChildProcess>): Promise<Setup> {
  const dirs = [mkdtempSync(path.join(tmpdir(), 'fleet-bus-bench-gw-')), mkdtempSync(path.join(tmpdir(), 'fleet-bus-bench-push-'))];
  let cluster: PgCluster | undefined;
  let nats: TestNats | undefined;
  const nodes: CrashServer[] = [];
  let client: pg.Client | undefined;
  const stop = async () => {
    await client?.end().catch(() => undefined);
    for (const n of nodes) await stopClean(n).catch(() => undefined);
    await nats?.stop();
    cluster?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  };
  try {
    cluster = await startCluster({ durable: true });
    const admin = new pg.Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    try {
      await admin.query("CREATE DATABASE fleet_bench TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'");
    } finally {
      await admin.end();
    }
    const url = cluster.url('fleet_bench');
    nats = await startNats();
    const env = { ...serverEnv(vehicles), DATABASE_URL: url, NATS_URL: nats.url };
    // One after the other: B finds the schema and seed A made.
    nodes.push(await startCrashServer(dirs[0]!, children, { env: { ...env, ROLES: 'gateway' }, startTimeoutMs: START_TIMEOUT_MS }));
    nodes.push(await startCrashServer(dirs[1]!, children, { env: { ...env, ROLES: 'api,push' }, startTimeoutMs: START_TIMEOUT_MS }));
    const c = new pg.Client({ connectionString: url });
    client = c;
    await c.connect();
    const postmaster = Number(readFileSync(path.join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return {
      kind: 'bus', gateway: nodes[0]!, push: nodes[1]!,
      roots: [
        { label: 'gateway A', pid: nodes[0]!.proc.pid! },
        { label: 'push B', pid: nodes[1]!.proc.pid! },
        { label: 'NATS', pid: nats.proc.pid! },
        { label: 'PostgreSQL', pid: postmaster },
      ],
      vehicles: async () => (await c.query<{ d: string; id: number }>("SELECT device_no AS d, id FROM vehicle WHERE device_no IS NOT NULL AND device_no <> '' ORDER BY id")).rows.map((r) => [r.d, Number(r.id)]),
      countPositions: async (maxId) => Number((await c.query<{ n: string }>('SELECT count(*) AS n FROM positions WHERE vehicle_id <= $1', [maxId])).rows[0]!.n),
      positionBytes: async () => Number((await c.query<{ b: string | null }>(
        "SELECT sum(pg_total_relation_size(inhrelid)) AS b FROM pg_inherits WHERE inhparent = 'positions'::regclass",
      )).rows[0]!.b ?? NaN),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Rows the node committed so far, and its event loop's delay p99 (ms) since the previous scrape
 * (prom-client resets the delay histogram at each collection): from its /metrics, which answers a scrape
 * from this machine without METRICS_TOKEN.
 */
async function scrape(node: CrashServer): Promise<{ rows: number; loopP99: number }> {
  const text = await (await fetch(new URL('/metrics', node.apiUrl))).text();
  const rows = /^fleet_history_rows_written_total (\d+)/m.exec(text);
  if (!rows) throw new Error(`no fleet_history_rows_written_total in ${node.apiUrl}/metrics:\n${text.slice(0, 500)}`);
  const loop = /^nodejs_eventloop_lag_p99_seconds ([\d.e+-]+)/m.exec(text);
  return { rows: Number(rows[1]), loopP99: loop ? Number(loop[1]) * 1000 : NaN };
}

type ChildMessage = { type: string; message?: string; loginMs?: number; failed?: number; acks?: number; delays?: number[]; sent?: number; sentAt?: [number, number, number][]; result?: PushClientsResult };

function spawnChild(file: string, args: string[], children: Set<ChildProcess>): ChildProcess {
  const proc = fork(path.join(here, file), args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
  return proc;
}

const nextMessage = (proc: ChildProcess, type: string) => nextChildMessage<ChildMessage>(proc, type);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Each server process's CPU over a measuring window, by label (CpuRoot). */
interface ProcessCpu {
  /** CPU ms per 1,000 positions. */
  cpuPer1000: Map<string, number>;
  /** Share of a core. */
  cpuShare: Map<string, number>;
}

function processCpu(cpuMs: Map<string, number>, positions: number, wallMs: number): ProcessCpu {
  return {
    cpuPer1000: new Map([...cpuMs].map(([k, ms]) => [k, positions > 0 ? (ms / positions) * 1000 : NaN])),
    cpuShare: new Map([...cpuMs].map(([k, ms]) => [k, ms / wallMs])),
  };
}

interface Throughput extends ProcessCpu {
  terminals: number;
  loginFailed: number;
  /** Rows committed per second in the window. */
  storedPerSecond: number;
  /** Acknowledged reports per second, from the first window sent to the stop. */
  ackedPerSecond: number;
  acked: number;
  stored: number;
  ackP50: number;
  ackP99: number;
  /** The gateway node's event-loop delay p99 over the window, ms. */
  loopP99: number;
}

/** Figure 1: terminals as fast as they are acknowledged (bench/gateway.bench.ts's load children). */
async function saturate(s: Setup, devices: [string, number][], seconds: number, senders: number, children: Set<ChildProcess>): Promise<Throughput> {
  const maxId = devices[devices.length - 1]![1];
  const per = Math.ceil(devices.length / senders);
  const procs: ChildProcess[] = [];
  const ready: Promise<ChildMessage>[] = [];
  for (let i = 0; i < senders; i++) {
    const child = spawnChild('gateway.bench.ts', ['--load-child'], children);
    procs.push(child);
    ready.push(nextMessage(child, 'ready'));
    child.send({ type: 'start', port: s.gateway.gatewayPort, devices: devices.slice(i * per, (i + 1) * per).map((d) => d[0]), window: LOAD_WINDOW });
  }
  try {
    const logins = await Promise.all(ready);
    const loginFailed = logins.reduce((n, r) => n + (r.failed ?? 0), 0);
    const before = await s.countPositions(maxId);
    const go = performance.now();
    for (const child of procs) child.send({ type: 'go' });
    await sleep(Math.min(2000, (seconds * 1000) / 3));
    const scrape0 = await scrape(s.gateway);
    const cpu0 = sampleCpu(s.roots);
    const t0 = performance.now();
    await sleep(seconds * 1000);
    const scrape1 = await scrape(s.gateway);
    const cpu = cpuDelta(cpu0, sampleCpu(s.roots));
    const wallMs = performance.now() - t0;
    const stopped = procs.map((c) => nextMessage(c, 'stopped'));
    for (const child of procs) child.send({ type: 'stop' });
    const results = await Promise.all(stopped);
    const sendMs = performance.now() - go;
    const acked = results.reduce((n, r) => n + (r.acks ?? 0), 0);
    const delays = results.flatMap((r) => r.delays ?? []).sort((a, b) => a - b);
    // Every acknowledged report was committed before its answer; the wait only lets late ones land.
    await sleep(1500);
    const stored = (await s.countPositions(maxId)) - before;
    const rows = scrape1.rows - scrape0.rows;
    return {
      terminals: devices.length, loginFailed,
      storedPerSecond: rows / (wallMs / 1000), ackedPerSecond: acked / (sendMs / 1000), acked, stored,
      ackP50: percentile(delays, 50), ackP99: percentile(delays, 99),
      ...processCpu(cpu, rows, wallMs),
      loopP99: scrape1.loopP99,
    };
  } finally {
    for (const child of procs) child.kill();
  }
}

interface Paced extends ProcessCpu {
  terminals: number;
  loginFailed: number;
  sentPerSecond: number;
  p50: number;
  p99: number;
  samples: number;
  clientErrors: number;
}

/** Figure 2: terminals once a second each, consoles decoding on the push node (bench/fanout.bench.ts's children). */
async function paced(s: Setup, devices: [string, number][], consoles: number, seconds: number, children: Set<ChildProcess>): Promise<Paced> {
  const sampleEvery = Math.max(1, Math.floor(devices.length / 100));
  const baseSec = Math.floor(Date.now() / 1000) - 5;
  const token = await login(s.push.apiUrl, 'admin', 'admin123');
  const terminals = spawnChild('load/fanout-terminals.ts', ['--child'], children);
  let consolesProc: ChildProcess | undefined;
  try {
    const signedIn = nextMessage(terminals, 'ready');
    terminals.send({ cmd: 'connect', gatewayPort: s.gateway.gatewayPort, vehicles: devices, sampleEvery, baseSec } satisfies FanoutTerminalsStart);
    const ready = await signedIn;
    const opts: PushClientsOptions = { url: `${s.push.apiUrl.replace(/^http/, 'ws')}/ws-service/websocket`, token, clients: consoles, sampleEvery };
    const c = spawnChild('load/push-clients.ts', ['--child', JSON.stringify(opts)], children);
    consolesProc = c;
    await nextMessage(c, 'ready');
    const started = nextMessage(terminals, 'started');
    terminals.send({ cmd: 'start' });
    await started;
    // Warm-up: two full rounds, so every vehicle has a previous position everywhere.
    await sleep(2500);
    const recording = nextMessage(terminals, 'recording');
    terminals.send({ cmd: 'record' });
    await recording;
    const cpu0 = sampleCpu(s.roots);
    const t0 = performance.now();
    c.send({ cmd: 'start' });
    await sleep(seconds * 1000);
    const sentP = nextMessage(terminals, 'result');
    terminals.send({ cmd: 'stop' });
    const cpu = cpuDelta(cpu0, sampleCpu(s.roots));
    const wallMs = performance.now() - t0;
    const sent = await sentP;
    // Reports in flight reach the consoles within the latency window.
    await sleep(1500);
    const decodedP = nextMessage(c, 'result');
    c.send({ cmd: 'stop' });
    const result = (await decodedP).result!;
    const latencies = frameToDecoded(sent.sentAt!, result.samples, baseSec);
    const positions = sent.sent ?? 0;
    return {
      terminals: devices.length, loginFailed: ready.failed ?? 0, sentPerSecond: positions / (wallMs / 1000),
      p50: percentile(latencies, 50), p99: percentile(latencies, 99), samples: latencies.length, clientErrors: result.errors,
      ...processCpu(cpu, positions, wallMs),
    };
  } finally {
    terminals.kill();
    consolesProc?.kill();
  }
}

interface Side {
  saturated: Throughput;
  paced: Paced;
  bytesPerRow: number;
}

async function measureSide(kind: 'single' | 'bus', sizes: Sizes, children: Set<ChildProcess>): Promise<Side> {
  const t0 = performance.now();
  const s = kind === 'single' ? await startSingle(sizes.saturated + sizes.paced, children) : await startBus(sizes.saturated + sizes.paced, children);
  try {
    process.stdout.write(`  ${kind}: started in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    const all = await s.vehicles();
    if (all.length < sizes.saturated + sizes.paced) throw new Error(`${kind}: ${all.length} vehicles with a terminal, ${sizes.saturated + sizes.paced} needed`);
    // Separate vehicles: the saturating terminals date their reports ahead of the paced ones' clock.
    const p = await paced(s, all.slice(sizes.saturated, sizes.saturated + sizes.paced), sizes.consoles, sizes.pacedSeconds, children);
    process.stdout.write(`  ${kind}: paced ${p.sentPerSecond.toFixed(0)} reports/s, frame → console p50 ${p.p50.toFixed(1)} ms p99 ${p.p99.toFixed(1)} ms (${p.samples} samples)\n`);
    const t = await saturate(s, all.slice(0, sizes.saturated), sizes.saturatedSeconds, sizes.senders, children);
    const cpu = [...t.cpuShare].map(([k, v]) => `${k} ${(v * 100).toFixed(0)} %`).join(', ');
    process.stdout.write(`  ${kind}: ${t.storedPerSecond.toFixed(0)} stored/s, ${t.acked} acked, ${t.stored} stored; CPU ${cpu}\n`);
    return { saturated: t, paced: p, bytesPerRow: (await s.positionBytes()) / Math.max(1, await s.countPositions(Number.MAX_SAFE_INTEGER)) };
  } finally {
    await s.stop();
  }
}

interface Sizes {
  saturated: number;
  saturatedSeconds: number;
  senders: number;
  paced: number;
  pacedSeconds: number;
  consoles: number;
}

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/** The 1,000,000-terminal projection from the bus side's CPU per position (the larger of the two loads, per process). */
export function project(perPositionMs: ReadonlyMap<string, number>): { label: string; value: number; unit: string }[] {
  const rate = PROJECTION.terminals / PROJECTION.reportSeconds;
  const busy = (label: string) => ((perPositionMs.get(label) ?? NaN) * rate) / 1000;
  const gatewayCores = busy('gateway A');
  const gateways = Math.max(Math.ceil(gatewayCores / PROJECTION.utilisation), Math.ceil(PROJECTION.terminals / PROJECTION.terminalsPerGateway));
  return [
    { label: 'positions/s to carry', value: rate, unit: 'pos/s' },
    { label: 'gateway CPU busy', value: gatewayCores, unit: 'cores' },
    { label: `gateway processes (≤ ${PROJECTION.utilisation * 100} % busy, ≤ ${PROJECTION.terminalsPerGateway / 1000}k terminals each)`, value: gateways, unit: 'processes' },
    { label: 'push node CPU busy following the whole stream (each push node)', value: busy('push B'), unit: 'cores' },
    { label: `NATS CPU busy (R1 measured × ${PROJECTION.natsReplicas} replicas)`, value: busy('NATS') * PROJECTION.natsReplicas, unit: 'cores' },
    { label: 'PostgreSQL CPU busy (inserts only)', value: busy('PostgreSQL'), unit: 'cores' },
  ];
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const skip = pgUnavailableReason() ?? natsSkipReason();
  if (skip) {
    process.stdout.write(`  bus bench skipped: ${skip}\n`);
    return [];
  }
  const sizes: Sizes = quick
    ? { saturated: 300, saturatedSeconds: 5, senders: 1, paced: 500, pacedSeconds: 6, consoles: 2 }
    : { saturated: 1000, saturatedSeconds: 15, senders: 2, paced: 2000, pacedSeconds: 15, consoles: 5 };
  const children = new Set<ChildProcess>();
  const sides = new Map<'single' | 'bus', Side>();
  const order: ('single' | 'bus')[] = roundNo++ % 2 === 0 ? ['single', 'bus'] : ['bus', 'single'];
  try {
    for (const kind of order) sides.set(kind, await measureSide(kind, sizes, children));
  } finally {
    for (const c of children) c.kill('SIGKILL');
  }
  const one = sides.get('single')!;
  const bus = sides.get('bus')!;
  const tName = `stored positions/s, ${sizes.saturated} terminals as fast as acked (bus: gateway → NATS + PostgreSQL; baseline: single node on SQLite)`;
  const pName = `report → console, ${sizes.paced} terminals at 1 Hz, ${sizes.consoles} consoles (bus: gateway A → NATS → push B)`;
  const ratio = (value: number, baseline: number) => ({ value, baseline, ratio: value / baseline });
  const records: BenchRecord[] = [
    { name: tName, metric: 'positions stored/s', unit: 'pos/s', ...ratio(bus.saturated.storedPerSecond, one.saturated.storedPerSecond) },
    { name: tName, metric: 'positions acknowledged/s', unit: 'pos/s', ...ratio(bus.saturated.ackedPerSecond, one.saturated.ackedPerSecond) },
    { name: tName, metric: 'ack delay p50 (window of 8 → last ack)', unit: 'ms', ...ratio(bus.saturated.ackP50, one.saturated.ackP50) },
    { name: tName, metric: 'ack delay p99 (window of 8 → last ack)', unit: 'ms', ...ratio(bus.saturated.ackP99, one.saturated.ackP99) },
    { name: tName, metric: 'all processes CPU per 1,000 stored', unit: 'CPU ms', ...ratio(sum(bus.saturated.cpuPer1000), sum(one.saturated.cpuPer1000)) },
    { name: tName, metric: 'bus: acked but not stored (must be 0)', unit: 'count', value: Math.max(0, bus.saturated.acked - bus.saturated.stored) },
    { name: tName, metric: 'single: acked but not stored (must be 0)', unit: 'count', value: Math.max(0, one.saturated.acked - one.saturated.stored) },
    { name: tName, metric: 'bus: rows stored at the end', unit: 'rows', value: bus.saturated.stored },
    { name: tName, metric: 'bus: positions acknowledged', unit: 'count', value: bus.saturated.acked },
    { name: tName, metric: 'terminals failed to sign in (both)', unit: 'count', value: bus.saturated.loginFailed + one.saturated.loginFailed },
    { name: tName, metric: 'gateway event-loop delay p99', unit: 'ms', ...ratio(bus.saturated.loopP99, one.saturated.loopP99) },
    { name: tName, metric: 'PostgreSQL bytes per position row (table + indexes)', unit: 'B', value: bus.bytesPerRow },
  ];
  for (const [label, ms] of one.saturated.cpuPer1000) records.push({ name: tName, metric: `${label} CPU per 1,000 stored`, unit: 'CPU ms', value: ms });
  for (const [label, ms] of bus.saturated.cpuPer1000) records.push({ name: tName, metric: `${label} CPU per 1,000 stored`, unit: 'CPU ms', value: ms });
  for (const [label, share] of [...one.saturated.cpuShare, ...bus.saturated.cpuShare]) records.push({ name: tName, metric: `${label} CPU`, unit: '% of a core', value: share * 100 });
  records.push(
    { name: pName, metric: 'frame → decoded p50', unit: 'ms', ...ratio(bus.paced.p50, one.paced.p50) },
    { name: pName, metric: 'frame → decoded p99', unit: 'ms', ...ratio(bus.paced.p99, one.paced.p99) },
    { name: pName, metric: 'bus added p50', unit: 'ms', value: bus.paced.p50 - one.paced.p50 },
    { name: pName, metric: 'bus added p99', unit: 'ms', value: bus.paced.p99 - one.paced.p99 },
    { name: pName, metric: 'reports written by terminals', unit: 'reports/s', ...ratio(bus.paced.sentPerSecond, one.paced.sentPerSecond) },
    { name: pName, metric: 'all processes CPU per 1,000 reports', unit: 'CPU ms', ...ratio(sum(bus.paced.cpuPer1000), sum(one.paced.cpuPer1000)) },
    { name: pName, metric: 'latency samples (bus)', unit: 'count', value: bus.paced.samples },
    { name: pName, metric: 'latency samples (single)', unit: 'count', value: one.paced.samples },
    { name: pName, metric: 'client decode errors (both)', unit: 'count', value: bus.paced.clientErrors + one.paced.clientErrors },
  );
  for (const [label, ms] of [...one.paced.cpuPer1000, ...bus.paced.cpuPer1000]) records.push({ name: pName, metric: `${label} CPU per 1,000 reports`, unit: 'CPU ms', value: ms });
  // Per process the larger CPU per position of the two loads: the paced one pays a read per report and
  // the timers of an idle-ish server, the saturated one batches; 1,000,000 terminals sit in between.
  const perPosition = new Map([...bus.saturated.cpuPer1000].map(([k, v]) => [k, Math.max(v, bus.paced.cpuPer1000.get(k) ?? 0) / 1000]));
  const jName = `projection: ${PROJECTION.terminals.toLocaleString('en-US')} terminals every ${PROJECTION.reportSeconds} s (assumptions: bench/bus.bench.ts, ARCHITECTURE.md)`;
  for (const p of project(perPosition)) records.push({ name: jName, metric: p.label, unit: p.unit, value: p.value });
  records.push({
    name: jName, metric: 'PostgreSQL position storage per day', unit: 'GB/day',
    value: (bus.bytesPerRow * (PROJECTION.terminals / PROJECTION.reportSeconds) * 86_400) / 1e9,
  });
  return records;
}
