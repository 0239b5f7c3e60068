import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { pgSuitePlan } from './server/db/pg/suite.ts';

export default defineConfig({
  plugins: [react()],
  define: { __ROUTER_VARIANT__: JSON.stringify('main') },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // Vitest's default on 2 cores is one worker (cores − 1); two keep both cores busy in CI. With two files
          // sharing the cores a jsdom render or a whole-tree scan can pass 5 s: a timeout is not a speed check here.
          maxWorkers: 2,
          testTimeout: 20_000,
          include: ['domain/**/*.test.ts', 'src/**/*.test.{ts,tsx}', 'workers/**/*.test.ts', 'proto/**/*.test.ts', 'tools/**/*.test.ts', 'bench/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          // Two workers: most server tests wait on sockets and timers, so a second file overlaps that waiting
          // (CI on 2 cores ran them one at a time for ~20 min). e2e stays one file at a time (software WebGL).
          maxWorkers: 2,
          include: ['server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'server-pg',
          // The server against PostgreSQL (issue 20): one throwaway cluster per run (server/db/pg/global-setup.ts),
          // a database per file. `*.pgtest.ts` keeps these files out of the SQLite `server` project.
          maxWorkers: 2,
          include: ['server/**/*.pgtest.ts'],
          environment: 'node',
          globalSetup: ['server/db/pg/global-setup.ts'],
          setupFiles: ['server/db/pg/setup-file.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server-on-pg',
          // The `server` project's own files with their storage on PostgreSQL (issue 20, `npm run test:server-on-pg`):
          // which files and why the others not, server/db/pg/suite.ts; a database per data dir, suite-setup.ts.
          maxWorkers: 2,
          include: pgSuitePlan(fileURLToPath(new URL('.', import.meta.url))).include,
          environment: 'node',
          globalSetup: ['server/db/pg/suite-global-setup.ts'],
          setupFiles: ['server/db/pg/suite-setup.ts'],
          // Every statement is a blocking round trip to PostgreSQL (CONTEXT.md): a server start or a seeded
          // request takes several times its SQLite time on 2 loaded cores. Not a speed check either.
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
