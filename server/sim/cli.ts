/**
 * `npm run sim -- --vehicles N --rate HZ --host H --port P --seed S [--data-dir DIR]`
 *
 * Runs a simulated fleet against a JT/T 808 gateway and prints a stats line every 10 s. With
 * --data-dir the terminals are the provisioned vehicles of DIR/fleet.sqlite (read-only); without it,
 * device numbers are generated and the gateway must have autoRegister on.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { generatedTerminals, readProvisionedTerminals } from './fleet-source.ts';
import { startSimulator } from './simulator.ts';
import { errorCount, type SimStats } from './terminal.ts';

const USAGE = `Usage: npm run sim -- [--vehicles N] [--rate HZ] [--host H] [--port P] [--seed S] [--data-dir DIR]
  --vehicles N     terminals to simulate (default 2000; with --data-dir, at most the vehicles in the database)
  --rate HZ        reports per second per vehicle with ACC on, at most 1 (default 0.1 = every 10 s)
  --parked S       report interval with ACC off, seconds (default 60)
  --host H         gateway host (default 127.0.0.1)
  --port P         gateway port (default $GATEWAY_PORT or 7611)
  --seed S         integer seed: the same seed gives the same traffic (default 1)
  --data-dir DIR   use the device numbers of the vehicles in DIR/fleet.sqlite
  --offset K       skip the first K vehicles / generated numbers (several processes sharing a fleet)
  --stats S        seconds between stats lines (default 10)`;

export interface CliOptions {
  vehicles: number | undefined;
  rateHz: number;
  parkedIntervalS: number;
  host: string;
  port: number;
  seed: number;
  dataDir: string | undefined;
  offset: number;
  statsS: number;
  ipc: boolean;
}

function num(name: string, raw: string | undefined, fallback: number, check: (n: number) => boolean, what: string): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || !check(n)) throw new Error(`--${name} must be ${what}, got "${raw}"`);
  return n;
}

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      vehicles: { type: 'string' },
      rate: { type: 'string' },
      parked: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      seed: { type: 'string' },
      'data-dir': { type: 'string' },
      offset: { type: 'string' },
      stats: { type: 'string' },
      ipc: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) throw new HelpRequested();
  const int = (n: number) => Number.isInteger(n);
  return {
    vehicles: values.vehicles === undefined ? undefined : num('vehicles', values.vehicles, 0, (n) => int(n) && n >= 1 && n <= 200_000, 'an integer from 1 to 200000'),
    rateHz: num('rate', values.rate, 0.1, (n) => n > 0 && n <= 1, 'a number of reports per second above 0 and at most 1'),
    parkedIntervalS: num('parked', values.parked, 60, (n) => int(n) && n >= 1 && n <= 300, 'an integer from 1 to 300 seconds'),
    host: values.host ?? '127.0.0.1',
    port: num('port', values.port ?? env.GATEWAY_PORT, 7611, (n) => int(n) && n >= 1 && n <= 65535, 'an integer from 1 to 65535'),
    seed: num('seed', values.seed, 1, (n) => int(n) && n >= 0 && n <= 0xffffffff, 'a non-negative 32-bit integer'),
    dataDir: values['data-dir'],
    offset: num('offset', values.offset, 0, (n) => int(n) && n >= 0 && n <= 10_000_000, 'a non-negative integer'),
    statsS: num('stats', values.stats, 10, (n) => n > 0 && n <= 3600, 'a number of seconds from 1 to 3600'),
    ipc: values.ipc ?? false,
  };
}

class HelpRequested extends Error {}

export function formatStats(s: SimStats, previous: SimStats | null, seconds: number): string {
  const rate = previous ? ((s.reportsSent - previous.reportsSent) / seconds).toFixed(1) : '-';
  const time = new Date().toISOString().slice(11, 19);
  return (
    `[sim ${time}] terminals ${s.terminals} (never online ${s.neverOnline}) connected ${s.connected} authenticated ${s.authenticated} ` +
    `reports ${s.reportsSent} (${rate}/s) re-uploaded ${s.batchItemsSent} in ${s.batchesSent} heartbeats ${s.heartbeatsSent} ` +
    `acks ${s.acks} errors ${errorCount(s)} (nacks ${s.nacks}, refused ${s.registerFailures + s.authFailures}, connect ${s.connectErrors}, drops ${s.drops})`
  );
}

async function main(): Promise<void> {
  let opts: CliOptions;
  try {
    opts = parseCli(process.argv.slice(2));
  } catch (err) {
    if (err instanceof HelpRequested) {
      process.stdout.write(`${USAGE}\n`);
      return;
    }
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}\n`);
    process.exit(2);
  }
  const wanted = opts.vehicles ?? 2000;
  const terminals = opts.dataDir ? readProvisionedTerminals(opts.dataDir, wanted, opts.offset) : generatedTerminals(wanted, opts.offset);
  if (terminals.length === 0) throw new Error(`the database in ${opts.dataDir} has no vehicles`);
  if (opts.dataDir && terminals.length < wanted && opts.vehicles !== undefined) {
    process.stderr.write(`[sim] ${opts.dataDir} has ${terminals.length} vehicles; simulating those\n`);
  }
  const sim = startSimulator({
    host: opts.host, port: opts.port, terminals, rateHz: opts.rateHz, parkedIntervalS: opts.parkedIntervalS, seed: opts.seed,
    // Generated numbers keep no codes between runs: they unregister (0x0003) when stopped, so the next
    // run may register them again (the gateway refuses a registered terminal's 0x0100 with result 3).
    unregisterOnStop: !opts.dataDir,
  });
  process.stdout.write(
    `[sim] ${terminals.length} terminals → ${opts.host}:${opts.port}, ${opts.rateHz} Hz with ACC on, seed ${opts.seed}` +
      `${opts.dataDir ? `, vehicles of ${opts.dataDir}` : ', generated device numbers (gateway needs autoRegister)'}\n`,
  );
  let previous: SimStats | null = null;
  const statsTimer = setInterval(() => {
    process.stdout.write(`${formatStats(sim.stats, previous, opts.statsS)}\n`);
    previous = { ...sim.stats };
  }, opts.statsS * 1000);
  // Under spawnSimulatorProcess: the parent reads counters over IPC.
  const ipcTimer = opts.ipc && process.send ? setInterval(() => process.send?.({ type: 'stats', stats: sim.stats }), 500) : undefined;
  if (opts.ipc) process.send?.({ type: 'ready', stats: sim.stats });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(statsTimer);
    if (ipcTimer) clearInterval(ipcTimer);
    await sim.stop();
    process.stdout.write(`${formatStats(sim.stats, null, opts.statsS)}\n[sim] stopped\n`);
    if (opts.ipc) process.send?.({ type: 'stats', stats: sim.stats });
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  process.on('disconnect', () => void stop());
}

// Run only as the entry point (tests import parseCli).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`[sim] ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
