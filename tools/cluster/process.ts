/**
 * A long-lived helper process of the local cluster (nats-server, haproxy): started with the parent-death
 * signal set (util-linux `setpriv --pdeathsig KILL`, when present), so it dies with the process that
 * started it even when that one is killed outright; its output kept (the last 64 KiB) for error messages.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

const SETPRIV = '/usr/bin/setpriv';
const KEPT_LOG = 64 * 1024;

export interface ManagedProcess {
  readonly name: string;
  readonly proc: ChildProcess;
  /** The last 64 KiB of its stdout and stderr. */
  log(): string;
  readonly exited: Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
}

export interface StartOptions {
  /** Ready once this is true of its output so far (e.g. a "ready" line)... */
  readonly readyLine?: (log: string) => boolean;
  /** ...or once this probe (polled every 100 ms) resolves true. */
  readonly probe?: () => Promise<boolean>;
  /** @default 20_000 */
  readonly timeoutMs?: number;
  /** Each line of its output, as it comes. */
  readonly onLine?: (line: string) => void;
}

export async function startManaged(name: string, file: string, args: readonly string[], options: StartOptions = {}): Promise<ManagedProcess> {
  const [cmd, argv] = existsSync(SETPRIV) ? [SETPRIV, ['--pdeathsig', 'KILL', '--', file, ...args]] : [file, [...args]];
  const proc = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  let partial = '';
  let gone = false;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => {
    gone = true;
    resolve();
  }));
  const read = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    log = (log + text).slice(-KEPT_LOG);
    if (!options.onLine) return;
    const lines = (partial + text).split('\n');
    partial = lines.pop()!;
    for (const l of lines) options.onLine(l);
  };
  proc.stdout!.on('data', read);
  proc.stderr!.on('data', read);
  const stop = async (graceMs = 5000) => {
    if (gone) return;
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  const timeoutMs = options.timeoutMs ?? 20_000;
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (gone) throw new Error(`${name} exited before it was ready (${proc.exitCode ?? proc.signalCode}):\n${log.slice(-2000)}`);
    if (options.readyLine?.(log)) break;
    if (options.probe && (await options.probe().catch(() => false))) break;
    if (Date.now() > end) {
      await stop();
      throw new Error(`${name} was not ready within ${timeoutMs / 1000} s:\n${log.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { name, proc, log: () => log, exited, stop };
}
