/**
 * Global set-up of the `server-pg` vitest project: one throwaway PostgreSQL cluster for the whole run
 * (test-cluster.ts), its socket URL handed to the test files through `provide`/`inject`. Without the
 * binaries the project's files skip with the reason printed, except under CI, which installs them
 * (.ci/run) and so must never skip silently.
 */
import type { TestProject } from 'vitest/node';
import { pgUnavailableReason, startCluster } from './test-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Socket dir and port of the test cluster; empty dir when PostgreSQL is unavailable. */
    pgCluster: { dir: string; port: number; skipReason: string };
  }
}

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const reason = pgUnavailableReason();
  if (reason) {
    if (process.env.CI === 'true') throw new Error(`server-pg: ${reason}. CI installs PostgreSQL in .ci/run; it must not skip.`);
    process.stdout.write(`server-pg: SKIPPED, ${reason}\n`);
    project.provide('pgCluster', { dir: '', port: 0, skipReason: reason });
    return undefined;
  }
  const started = Date.now();
  const cluster = await startCluster();
  process.stdout.write(`server-pg: PostgreSQL test cluster up in ${((Date.now() - started) / 1000).toFixed(1)} s (${cluster.dir})\n`);
  project.provide('pgCluster', { dir: cluster.dir, port: cluster.port, skipReason: '' });
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    cluster.stop();
  };
  // An interrupted run (Ctrl-C, or a SIGTERM from a CI timeout or a parent) must not leave a postgres
  // process and its temp dir behind. A listener takes away Node's default of dying of the signal: when
  // no other listener (vitest's) handles it, the process ends of it once the cluster is down.
  const onSignal = (signal: NodeJS.Signals) => {
    stop();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return stop;
}
