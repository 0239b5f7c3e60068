/**
 * `npm run cluster`: the scale-out mode on one machine (issue 20). Starts the local cluster (cluster.ts:
 * PostgreSQL, NATS JetStream, two gateway nodes, two api/push nodes, HAProxy in front) and a simulated
 * fleet reporting to HAProxy's terminal port, prints what runs where and, every 10 s, the fleet's and
 * HAProxy's counters. Ctrl-C or SIGTERM stops everything it started.
 *
 *   npm run cluster [-- --vehicles 100 --seed-vehicles 200 --http-port 8080 --terminal-port 7611 --stats-port 8404]
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startSimulator, type RunningSimulator, type TerminalSpec } from '../../server/sim/index.ts';
import { clusterSkipReason, startLocalCluster, type LocalCluster } from './cluster.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

const USAGE = `usage: npm run cluster [-- --vehicles N] [--seed-vehicles N] [--http-port P] [--terminal-port P] [--stats-port P] [--rate HZ]
  --vehicles        simulated terminals reporting through HAProxy (default 100; at most --seed-vehicles)
  --seed-vehicles   vehicles seeded into the new database (default 200)
  --http-port       console through HAProxy (default 8080)
  --terminal-port   JT/T 808 terminals through HAProxy (default 7611)
  --stats-port      HAProxy's stats page (default 8404)
  --rate            reports per second per driving vehicle (default 0.1)`;

function intArg(value: string | undefined, fallback: number, name: string, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}, got "${value}"\n${USAGE}`);
  return n;
}

/** The first `limit` vehicles with a device, as terminals the gateways know (codes of earlier registrations kept). */
async function provisionedTerminals(databaseUrl: string, limit: number): Promise<TerminalSpec[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const r = await client.query<{ deviceNo: string; plate: string; authCode: string | null }>(
      `SELECT v.device_no AS "deviceNo", v.vehiidno AS plate, NULLIF(t.auth_code, '') AS "authCode"
       FROM vehicle v LEFT JOIN terminal t ON t.device_no = v.device_no
       WHERE v.device_no IS NOT NULL ORDER BY v.id LIMIT $1`, [limit]);
    return r.rows;
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      vehicles: { type: 'string' }, 'seed-vehicles': { type: 'string' }, 'http-port': { type: 'string' },
      'terminal-port': { type: 'string' }, 'stats-port': { type: 'string' }, rate: { type: 'string' }, help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const seedVehicles = intArg(values['seed-vehicles'], 200, 'seed-vehicles', 1, 100_000);
  const vehicles = intArg(values.vehicles, Math.min(100, seedVehicles), 'vehicles', 0, seedVehicles);
  const httpPort = intArg(values['http-port'], 8080, 'http-port', 1, 65535);
  const terminalPort = intArg(values['terminal-port'], 7611, 'terminal-port', 1, 65535);
  const statsPort = intArg(values['stats-port'], 8404, 'stats-port', 1, 65535);
  const rateHz = values.rate === undefined ? 0.1 : Number(values.rate);
  if (!(rateHz > 0 && rateHz <= 1)) throw new Error(`--rate must be above 0 and at most 1 report per second, got "${values.rate}"`);

  const skip = clusterSkipReason();
  if (skip) throw new Error(skip);
  if (!existsSync(path.join(ROOT, 'dist', 'console', 'index.html'))) {
    process.stdout.write('No built console in dist/console: building it first (npm run build)…\n');
    const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run build failed');
  }

  // Filled as things start; a signal stops whatever is there by then.
  const running: { starting?: Promise<LocalCluster>; cluster?: LocalCluster; sim?: RunningSimulator; timer?: NodeJS.Timeout; stopping?: boolean } = {};
  const abort = new AbortController();
  const stopAll = async (signal: NodeJS.Signals) => {
    if (running.stopping) return;
    running.stopping = true;
    process.stdout.write(`\n${signal}: stopping the simulated fleet, HAProxy, the nodes, NATS and PostgreSQL…\n`);
    clearInterval(running.timer);
    // Still starting: what has started is stopped by the start itself.
    abort.abort();
    await running.sim?.stop();
    const cluster = running.cluster ?? (await running.starting?.catch(() => undefined));
    await cluster?.stop();
    process.stdout.write('stopped.\n');
    process.exit(0);
  };
  process.once('SIGINT', (s) => void stopAll(s));
  process.once('SIGTERM', (s) => void stopAll(s));
  // `npm run cluster` ends on a SIGTERM without passing it on: this process then has a new parent, and stops too.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void stopAll('SIGHUP');
  }, 1000).unref();

  const started = Date.now();
  running.starting = startLocalCluster({
    httpPort, terminalPort, statsPort, seedVehicles, signal: abort.signal,
    onStep: (line) => process.stdout.write(`${line}\n`),
    // The nodes log warnings and errors only (LOG_LEVEL=warn); nats-server's start-up banner is left out.
    onOutput: (name, line) => {
      if (name !== 'nats' || /\[(WRN|ERR|FTL)\]/.test(line)) process.stdout.write(`[${name}] ${line}\n`);
    },
  });
  const cluster = await running.starting.catch((err: unknown) => {
    if (running.stopping) return undefined;
    throw err;
  });
  if (!cluster || running.stopping) return;
  running.cluster = cluster;
  let terminals: TerminalSpec[];
  try {
    terminals = await provisionedTerminals(cluster.databaseUrl, vehicles);
    if (terminals.length > 0) running.sim = startSimulator({ host: cluster.host, port: cluster.terminalPort, terminals, rateHz });
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  process.stdout.write([
    '',
    `Scale-out on one machine, up in ${((Date.now() - started) / 1000).toFixed(0)} s:`,
    cluster.describe(),
    `Simulated fleet: ${terminals.length} terminals reporting to ${cluster.host}:${cluster.terminalPort} (HAProxy → gw1 / gw2)`,
    '',
    'Try a failover: kill -9 the pid of gw1 (its terminals reconnect through HAProxy to gw2) or of the api node',
    'holding your console (it reconnects to the other within its 7 s retry). Ctrl-C stops everything.',
    '',
  ].join('\n'));

  running.timer = setInterval(() => {
    void cluster.servers().then((servers) => {
      const s = running.sim?.stats;
      const fleet = s ? `fleet: ${s.authenticated}/${s.terminals} online, ${s.reportsSent} reports, ${s.acks} acked, ${s.drops} drops` : 'fleet: off';
      const nodes = servers.map((x) => `${x.server} ${x.status} ${x.current}`).join(', ');
      process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${fleet} | HAProxy (server state sessions): ${nodes}\n`);
    }).catch((err: unknown) => process.stdout.write(`HAProxy stats unavailable: ${(err as Error).message}\n`));
  }, 10_000);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
