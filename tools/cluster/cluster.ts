/**
 * The local scale-out set-up (issue 20), on loopback: PostgreSQL, `nats-server -js`, two gateway nodes
 * (ROLES=gateway), two api/push nodes (ROLES=api,push), all `server/main.ts` on the shared database and
 * bus, and HAProxy in front (terminals over TCP to the gateways, the console over HTTP to the api/push
 * nodes, health-checked on `/health/ready`). `npm run cluster` (main.ts) runs it with a simulated fleet;
 * `server/cluster/failover.pgtest.ts` runs it and kills nodes. Configuration and data in one temp dir.
 *
 * PostgreSQL is the tests' throwaway cluster (server/db/pg/test-cluster.ts: Debian's binaries, temp dir,
 * fsync off) unless a database URL is given; the nodes are started as the crash tests start them
 * (server/ops/crash-harness.ts). nats-server and haproxy run with the parent-death signal (process.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findNatsServer, natsSkipReason } from '../../server/bus/test-nats.ts';
import { freePort, pgUnavailableReason, startCluster, type PgCluster } from '../../server/db/pg/test-cluster.ts';
import { killHard, startCrashServer, stopClean, type CrashServer } from '../../server/ops/crash-harness.ts';
import { CHECK, findHaproxy, haproxyConfig, haproxySkipReason, serverStates, type ServerState } from './haproxy.ts';
import { startManaged, type ManagedProcess } from './process.ts';

export type NodeName = 'gw1' | 'gw2' | 'api1' | 'api2';
export const GATEWAYS: readonly NodeName[] = ['gw1', 'gw2'];
export const API_NODES: readonly NodeName[] = ['api1', 'api2'];
const ROLES_OF: Record<NodeName, string> = { gw1: 'gateway', gw2: 'gateway', api1: 'api,push', api2: 'api,push' };

export interface ClusterOptions {
  /** An existing, empty database (the tests: one of the server-pg cluster); unset, a throwaway cluster of its own. */
  readonly databaseUrl?: string;
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** HAProxy's ports; 0 (the default) picks free ones. */
  readonly terminalPort?: number;
  readonly httpPort?: number;
  readonly statsPort?: number;
  /** Vehicles the first node seeds the new database with. @default 20 */
  readonly seedVehicles?: number;
  /** Node log level. @default 'warn' */
  readonly logLevel?: string;
  /** Each output line of a node or helper process, by its name. */
  readonly onOutput?: (name: string, line: string) => void;
  /** Progress of the start, one line a step. */
  readonly onStep?: (line: string) => void;
  /** Aborted while starting: what has started is stopped at once, and the start rejects. */
  readonly signal?: AbortSignal;
}

export interface ClusterNode {
  readonly name: NodeName;
  readonly roles: string;
  readonly server: CrashServer;
  /** The node's own HTTP address (health, metrics; console and API on api nodes). */
  readonly httpUrl: string;
  /** Its JT/T 808 port (gateways), else 0. */
  readonly gatewayPort: number;
  readonly dataDir: string;
}

export interface LocalCluster {
  readonly dir: string;
  readonly databaseUrl: string;
  /** A TCP URL of the database for psql (when the cluster runs its own PostgreSQL). */
  readonly databaseTcpUrl?: string;
  readonly natsUrl: string;
  /** Through HAProxy. */
  readonly consoleUrl: string;
  readonly terminalPort: number;
  readonly statsUrl: string;
  readonly host: string;
  readonly nodes: ReadonlyMap<NodeName, ClusterNode>;
  node(name: NodeName): ClusterNode;
  /** `kill -9` of one node; resolves once it is gone. */
  kill(name: NodeName): Promise<void>;
  /** HAProxy's view of every node. */
  servers(): Promise<ServerState[]>;
  /** Waits until HAProxy's view satisfies `ok` (polled every 100 ms). */
  waitForServers(ok: (s: ServerState[]) => boolean, timeoutMs?: number): Promise<ServerState[]>;
  /** What runs where, for a person. */
  describe(): string;
  /** Stops everything it started (nodes cleanly, then SIGKILL after 15 s) and deletes the temp dir. */
  stop(): Promise<void>;
}

/** Why the cluster cannot start here ('' when it can); under CI a missing binary throws instead. */
export function clusterSkipReason(): string {
  const pgReason = pgUnavailableReason();
  if (pgReason && process.env.CI === 'true') throw new Error(`${pgReason}. CI installs PostgreSQL in .ci/run; it must not skip.`);
  return pgReason ?? (natsSkipReason() || haproxySkipReason());
}

export async function startLocalCluster(options: ClusterOptions = {}): Promise<LocalCluster> {
  const host = options.host ?? '127.0.0.1';
  const step = options.onStep ?? (() => undefined);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fleet-cluster-'));
  const children = new Set<ChildProcess>();
  const nodes = new Map<NodeName, ClusterNode>();
  const helpers: ManagedProcess[] = [];
  let pgCluster: PgCluster | undefined;
  let stopping: Promise<void> | undefined;

  const stop = () => {
    stopping ??= (async () => {
      // The balancer first (no new connections), then the nodes (they commit and acknowledge what they hold),
      // then the bus and the database they were using.
      const haproxy = helpers.find((h) => h.name === 'haproxy');
      await haproxy?.stop();
      await Promise.all([...nodes.values()].map(async (n) => {
        if (n.server.proc.exitCode !== null || n.server.proc.signalCode !== null) return;
        const timer = setTimeout(() => n.server.proc.kill('SIGKILL'), 15_000);
        await stopClean(n.server);
        clearTimeout(timer);
      }));
      for (const c of children) c.kill('SIGKILL');
      for (const h of helpers) await h.stop();
      pgCluster?.stop();
      rmSync(dir, { recursive: true, force: true });
    })();
    return stopping;
  };

  // A node being started is killed at once (its start then fails), so an abort does not wait minutes for it.
  options.signal?.addEventListener('abort', () => {
    for (const c of children) c.kill('SIGKILL');
  }, { once: true });
  const check = () => {
    if (options.signal?.aborted) throw new Error('stopped while starting');
  };

  try {
    const skip = clusterSkipReason();
    if (skip) throw new Error(skip);

    let databaseUrl = options.databaseUrl;
    let databaseTcpUrl: string | undefined;
    if (!databaseUrl) {
      step('PostgreSQL: a throwaway cluster (initdb)…');
      pgCluster = await startCluster();
      const admin = new pg.Client({ connectionString: pgCluster.url('postgres') });
      await admin.connect();
      try {
        await admin.query("CREATE DATABASE fleet TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'");
      } finally {
        await admin.end();
      }
      databaseUrl = pgCluster.url('fleet');
      databaseTcpUrl = pgCluster.tcpUrl('fleet');
    }

    check();
    step('NATS: nats-server -js…');
    const natsPort = await freePort();
    const natsDir = path.join(dir, 'nats');
    mkdirSync(natsDir);
    helpers.push(await startManaged('nats', findNatsServer()!, ['-a', host, '-p', String(natsPort), '-js', '-sd', natsDir, '-n', 'fleet-local'], {
      readyLine: (log) => log.includes('Server is ready'),
      onLine: (line) => options.onOutput?.('nats', line),
    }));
    const natsUrl = `nats://${host}:${natsPort}`;

    // One JWT key for the api nodes: a session token signed by one is accepted by the other (a console
    // that fails over keeps its sign-in). Production: the same secret.key in every api node's DATA_DIR.
    const secret = randomBytes(48).toString('base64');
    // One media directory for all nodes, as the shared mount of a real cluster: photos a gateway stores are served by the api nodes.
    const mediaDir = path.join(dir, 'media');
    mkdirSync(mediaDir);
    const env = (name: NodeName): Record<string, string> => ({
      DATABASE_URL: databaseUrl, NATS_URL: natsUrl, ROLES: ROLES_OF[name], HOST: host, MEDIA_DIR: mediaDir,
      SEED_VEHICLES: String(options.seedVehicles ?? 20), LOG_LEVEL: options.logLevel ?? 'warn',
      // Behind HAProxy (option forwardfor): the login throttle and address rules see the browser's address.
      TRUST_PROXY: '1',
    });
    const startNode = async (name: NodeName) => {
      const dataDir = path.join(dir, name);
      mkdirSync(dataDir);
      writeFileSync(path.join(dataDir, 'secret.key'), secret, { mode: 0o600 });
      // On a loaded machine a node on the PostgreSQL bridge can take minutes to start (1.5 to over 4 min measured with
      // load 14–17 on 2 cores): a ceiling, not an expectation.
      const server = await startCrashServer(dataDir, children, { env: env(name), startTimeoutMs: 300_000 });
      const forward = (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) options.onOutput?.(name, line);
      };
      server.proc.stdout!.on('data', forward);
      server.proc.stderr!.on('data', forward);
      nodes.set(name, { name, roles: ROLES_OF[name], server, httpUrl: server.apiUrl, gatewayPort: server.gatewayPort, dataDir });
    };
    // The first node creates the schema and seeds it; the others find it made. One at a time: nodes starting
    // together on PostgreSQL wait on each other's start-up writes (the permission registry) past the lock timeout.
    check();
    step('node api1 (ROLES=api,push): creating and seeding the database…');
    await startNode('api1');
    for (const name of ['gw1', 'gw2', 'api2'] as const) {
      check();
      step(`node ${name} (ROLES=${ROLES_OF[name]})…`);
      await startNode(name);
    }

    const portOf = (url: string) => Number(new URL(url).port);
    const layout = {
      host,
      terminalPort: options.terminalPort || (await freePort()),
      httpPort: options.httpPort || (await freePort()),
      statsPort: options.statsPort || (await freePort()),
      gateways: GATEWAYS.map((n) => ({ name: n, port: nodes.get(n)!.gatewayPort, healthPort: portOf(nodes.get(n)!.httpUrl) })),
      apiNodes: API_NODES.map((n) => ({ name: n, port: portOf(nodes.get(n)!.httpUrl), healthPort: portOf(nodes.get(n)!.httpUrl) })),
    };
    const cfg = path.join(dir, 'haproxy.cfg');
    writeFileSync(cfg, haproxyConfig(layout));
    const statsUrl = `http://${host}:${layout.statsPort}/`;
    check();
    step('HAProxy…');
    const haproxyBin = findHaproxy()!;
    helpers.push(await startManaged('haproxy', haproxyBin, ['-db', '-f', cfg], {
      probe: async () => (await serverStates(statsUrl)).length === 4,
      onLine: (line) => options.onOutput?.('haproxy', line),
    }));

    const servers = () => serverStates(statsUrl);
    const waitForServers = async (ok: (s: ServerState[]) => boolean, timeoutMs = 20_000) => {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const s = await servers();
        if (ok(s)) return s;
        if (Date.now() > end) throw new Error(`HAProxy's servers did not reach the expected state within ${timeoutMs} ms: ${s.map((x) => `${x.server} ${x.status} ${x.current}`).join(', ')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    // Health checks `rise` in a row before a server takes traffic.
    await waitForServers((s) => s.every((x) => x.status === 'UP'), 10_000 + CHECK.interMs * CHECK.rise * 4);

    const consoleUrl = `http://${host}:${layout.httpPort}`;
    const describe = () => {
      const lines = [
        `Console (through HAProxy): ${consoleUrl}/bcmp-web/   (admin / admin123)`,
        `Terminals (through HAProxy, JT/T 808 over TCP): ${host}:${layout.terminalPort}`,
        `HAProxy stats: ${statsUrl}   (config: ${cfg})`,
        ...[...nodes.values()].map((n) => `  ${n.name.padEnd(4)} ROLES=${n.roles.padEnd(9)} pid ${String(n.server.proc.pid).padEnd(7)} http ${n.httpUrl}${n.gatewayPort ? `   gateway tcp://${host}:${n.gatewayPort}` : ''}`),
        `NATS JetStream: ${natsUrl}   (store ${natsDir})`,
        `PostgreSQL: ${databaseTcpUrl ?? databaseUrl}`,
        `Data dirs (one per node), NATS store, haproxy.cfg: ${dir}`,
      ];
      return lines.join('\n');
    };
    return {
      dir, databaseUrl, databaseTcpUrl, natsUrl, consoleUrl, terminalPort: layout.terminalPort, statsUrl, host, nodes,
      node: (name) => nodes.get(name)!,
      kill: (name) => killHard(nodes.get(name)!.server),
      servers, waitForServers, describe, stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
