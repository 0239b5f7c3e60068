/**
 * Runs the simulator in a child process (benchmarks: the terminals' CPU must not be charged to the
 * gateway under test). The child is server/sim/cli.ts with --ipc; it posts its counters twice a second.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { emptyStats, type SimStats } from './terminal.ts';

export interface SpawnSimulatorOptions {
  readonly port: number;
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** Terminals to run (with dataDir: at most the vehicles in its database). */
  readonly vehicles: number;
  /** @default 0.1 */
  readonly rateHz?: number;
  /** @default 60 */
  readonly parkedIntervalS?: number;
  /** @default 1 */
  readonly seed?: number;
  /** Use the provisioned vehicles of this data dir (see fleet-source.ts). */
  readonly dataDir?: string;
  /**
   * Skip this many vehicles / generated numbers: processes sharing one large fleet take disjoint
   * ranges (one process holds at most ~`ulimit -n` sockets). @default 0
   */
  readonly offset?: number;
  /** Forward the child's stdout/stderr lines here. @default ignored */
  readonly onOutput?: (line: string) => void;
}

export interface SimulatorProcess {
  readonly child: ChildProcess;
  /** Latest counters from the child (updated twice a second). */
  readonly stats: SimStats;
  /** Resolves once the child has created its terminals. */
  readonly ready: Promise<void>;
  /** Stops the terminals (logout, close) and waits for the child to exit; resolves with its exit code. */
  stop(): Promise<number | null>;
}

const CLI = path.join(import.meta.dirname, 'cli.ts');

export function spawnSimulatorProcess(opts: SpawnSimulatorOptions): SimulatorProcess {
  const args = ['--ipc', '--vehicles', String(opts.vehicles), '--port', String(opts.port), '--host', opts.host ?? '127.0.0.1'];
  if (opts.rateHz !== undefined) args.push('--rate', String(opts.rateHz));
  if (opts.parkedIntervalS !== undefined) args.push('--parked', String(opts.parkedIntervalS));
  if (opts.seed !== undefined) args.push('--seed', String(opts.seed));
  if (opts.dataDir !== undefined) args.push('--data-dir', opts.dataDir);
  if (opts.offset !== undefined) args.push('--offset', String(opts.offset));
  const child = fork(CLI, args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  const stats = emptyStats();
  const forward = (data: Buffer) => {
    if (!opts.onOutput) return;
    for (const line of data.toString('utf8').split('\n')) if (line) opts.onOutput(line);
  };
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (m: { type?: string; stats?: SimStats }) => {
      if (m.stats) Object.assign(stats, m.stats);
      if (m.type === 'ready') resolve();
    });
    void exited.then((code) => reject(new Error(`simulator process exited with code ${code} before it was ready`)));
  });
  ready.catch(() => undefined);
  return {
    child,
    stats,
    ready,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
