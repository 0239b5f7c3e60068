/**
 * Global set-up of the `server-on-pg` project: the throwaway cluster of global-setup.ts, and the list of
 * what this run leaves out (suite.ts) printed at its start, with the reasons.
 */
import type { TestProject } from 'vitest/node';
import clusterSetup from './global-setup.ts';
import { pgSuitePlan, SQLITE_ONLY_TESTS } from './suite.ts';

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const plan = pgSuitePlan(project.config.root);
  const lines = [
    `server-on-pg: ${plan.include.length} server test files on PostgreSQL; ${plan.storeIndependent.length} open no storage (left to the server project); SQLite-only, skipped:`,
    ...plan.sqliteOnly.map((s) => `  ${s.file}: ${s.reason}`),
    ...Object.entries(SQLITE_ONLY_TESTS).flatMap(([file, tests]) => Object.entries(tests).map(([name, reason]) => `  ${file} > ${name}: ${reason}`)),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return clusterSetup(project);
}
