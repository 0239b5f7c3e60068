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
  const stop = () => cluster.stop();
  // An interrupted run (Ctrl-C) must not leave a postgres process and its temp dir behind.
  process.once('SIGINT', stop);
  return () => {
    process.off('SIGINT', stop);
    stop();
  };
}
