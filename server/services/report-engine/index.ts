/**
 * Wiring of the report engine into the app (issue 18): one engine per server over the storage's SQLite
 * connection, fed by the history writer after each committed batch, read by the report routes through
 * `app.reportEngine` (api.ts). Modules register here or in app wiring before the app is ready.
 */
import type { FastifyInstance } from 'fastify';
import { mileageModule } from '../../../domain/report-day/mileage.ts';
import type { DayModule } from '../../../domain/report-day/module.ts';
import { retentionCutoffs } from '../../../domain/retention/policy.ts';
import type { Config } from '../../config.ts';
import type { Storage } from '../../db/repositories.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import { retentionPolicy } from '../../retention/index.ts';
import { SqliteReportEngine } from './engine.ts';

export { SqliteReportEngine } from './engine.ts';

export function installReportEngine(app: FastifyInstance, deps: { config: Config; storage: Storage; live: LiveRuntime; persistMs?: number }): SqliteReportEngine {
  const db = (deps.storage as Partial<SqliteStorage>).db;
  if (!db) throw new Error('report engine: needs the SQLite storage');
  const engine = new SqliteReportEngine({ db, clock: deps.live.store.clock, persistMs: deps.persistMs, log: app.log });
  engine.register(mileageModule as DayModule<unknown, unknown>);
  app.decorate('reportEngine', engine);
  deps.live.history.onCommitted = (rows) => engine.ingest(rows);

  // Rollups follow REPORT_RETENTION_DAYS, like report_vehicle_day.
  const policy = retentionPolicy(deps.config);
  let halted = false;
  app.retention.add({
    name: 'report-engine',
    sweep: async () => {
      halted = false;
      const firstKept = retentionCutoffs(deps.live.store.clock(), policy).reportDay;
      return firstKept === null ? { reportEngineDays: 0, reportEngineEvents: 0 } : engine.deleteBefore(firstKept, () => halted);
    },
    halt: () => {
      halted = true;
    },
  });

  app.addHook('onReady', async () => engine.start());
  // Registered after the live runtime's preClose (which flushes history into the engine): then save.
  app.addHook('preClose', async () => engine.close());
  return engine;
}
