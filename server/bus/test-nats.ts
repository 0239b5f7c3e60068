/**
 * A throwaway NATS server with JetStream for tests (issue 20): Debian's `nats-server` on a free loopback
 * port, its store in a temp dir. Stopped by `stop()` (afterAll), and on SIGTERM/SIGINT of the test
 * process; a process killed outright cannot stop it, so it runs under `timeout` and dies within
 * NATS_TEST_MAX_SECONDS anyway.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../db/pg/test-cluster.ts';

/** The longest a test NATS server lives, whatever happens to the test process. */
export const NATS_TEST_MAX_SECONDS = 900;

/** $NATS_SERVER, else Debian's /usr/sbin/nats-server, else one on PATH. */
export function findNatsServer(): string | undefined {
  const candidates = [process.env.NATS_SERVER, '/usr/sbin/nats-server', '/usr/bin/nats-server', ...(process.env.PATH ?? '').split(':').map((d) => d && path.join(d, 'nats-server'))];
  return candidates.find((c): c is string => !!c && existsSync(c));
}

/**
 * Why NATS tests cannot run here ('' when they can). Under CI (which installs it) a missing binary is
 * an error, never a skip.
 */
export function natsSkipReason(): string {
  if (findNatsServer()) return '';
  const reason = 'nats-server not found: install Debian\'s nats-server (apt-get install nats-server) or set NATS_SERVER';
  if (process.env.CI === 'true') throw new Error(`${reason}. CI installs it in .ci/run; it must not skip.`);
  return reason;
}

export interface TestNats {
  readonly url: string;
  readonly proc: ChildProcess;
  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

export async function startNats(): Promise<TestNats> {
  const bin = findNatsServer();
  if (!bin) throw new Error(natsSkipReason() || 'nats-server not found');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fleet-nats-'));
  const port = await freePort();
  // `timeout` leads its own process group (nats-server in it): signals to the group reach both.
  const proc = spawn('timeout', ['--kill-after=5', String(NATS_TEST_MAX_SECONDS), bin, '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir, '-n', 'fleet-test'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  let gone = false;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => {
    gone = true;
    resolve();
  }));
  const signalGroup = (signal: NodeJS.Signals) => {
    if (gone || proc.pid === undefined) return;
    try {
      process.kill(-proc.pid, signal);
    } catch {
      // Already gone.
    }
  };
  const onSignal = (signal: NodeJS.Signals) => {
    signalGroup('SIGCONT');
    signalGroup('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    // Nobody else handles the signal: end as Node would have without this listener.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  const stop = async () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    signalGroup('SIGCONT');
    signalGroup('SIGTERM');
    const timer = setTimeout(() => signalGroup('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`nats-server did not start within 20 s:\n${log.slice(-2000)}`)), 20_000);
      const read = (chunk: Buffer) => {
        log += chunk.toString('utf8');
        if (log.includes('Server is ready')) {
          clearTimeout(timer);
          resolve();
        }
      };
      proc.stdout!.on('data', read);
      proc.stderr!.on('data', read);
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`nats-server exited before it was ready:\n${log.slice(-2000)}`));
      });
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `nats://127.0.0.1:${port}`, proc, pause: () => signalGroup('SIGSTOP'), resume: () => signalGroup('SIGCONT'), stop };
}
