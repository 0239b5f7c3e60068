/**
 * Wiring of the report engine into the app (issue 18): one engine per server over the storage's SQLite
 * connection, fed by the history writer after each committed batch, read by the report routes through
 * `app.reportEngine` (api.ts). Modules register here or in app wiring before the app is ready.
 */
import type { FastifyInstance } from 'fastify';
import { retentionCutoffs } from '../../../domain/retention/policy.ts';
import type { Config } from '../../config.ts';
import type { Storage } from '../../db/repositories.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import { retentionPolicy } from '../../retention/index.ts';
import { SqliteReportEngine } from './engine.ts';
import { HeartbeatSeen } from './seen.ts';
import { MSG } from '../../gateway/jt808/index.ts';
import { chinaDayStartMs } from '../../../domain/track/days.ts';
import { SHIPPED_DAY_MODULES } from './modules.ts';

export { SqliteReportEngine } from './engine.ts';

export function installReportEngine(app: FastifyInstance, deps: { config: Config; storage: Storage; live: LiveRuntime; persistMs?: number }): SqliteReportEngine {
  const db = (deps.storage as Partial<SqliteStorage>).db;
  if (!db) throw new Error('report engine: needs the SQLite storage');
  const engine = new SqliteReportEngine({ db, clock: deps.live.store.clock, persistMs: deps.persistMs, log: app.log });
  for (const m of SHIPPED_DAY_MODULES) engine.register(m);
  app.decorate('reportEngine', engine);
  deps.live.history.onCommitted = (rows) => engine.ingest(rows);

  // Heartbeats of authenticated terminals (the gateway calls handlers only for those): contact without positions.
  const seen = new HeartbeatSeen(db);
  engine.seen = seen;
  deps.live.gateway.handleTerminalMessage(MSG.HEARTBEAT, ({ vehicleId }) => seen.heartbeat(vehicleId, deps.live.store.clock()));

  // Rollups follow REPORT_RETENTION_DAYS, like report_vehicle_day.
  const policy = retentionPolicy(deps.config);
  let halted = false;
  app.retention.add({
    name: 'report-engine',
    sweep: async () => {
      halted = false;
      const firstKept = retentionCutoffs(deps.live.store.clock(), policy).reportDay;
      if (firstKept === null) return { reportEngineDays: 0, reportEngineEvents: 0, heartbeatSpans: 0 };
      const heartbeatSpans = seen.deleteBefore(chinaDayStartMs(firstKept));
      return { ...(await engine.deleteBefore(firstKept, () => halted)), heartbeatSpans };
    },
    halt: () => {
      halted = true;
    },
  });

  app.addHook('onReady', async () => {
    // After a restart a terminal that was only heartbeating is online from its last heartbeat (as from a last position).
    for (const { vehicleId, at } of seen.lastSeen()) deps.live.store.touch(vehicleId, at);
    seen.start();
    await engine.start();
  });
  // Registered after the live runtime's preClose (which flushes history into the engine): then save.
  app.addHook('preClose', async () => {
    seen.close();
    await engine.close();
  });
  return engine;
}
