/**
 * The safety-alarm calls (`/service-safe`, and the alarm calls of `/service-command`) and the alarm
 * generation they serve: creates the AlarmService, hooks it to the gateway's live reports and the
 * periodic offline sweep, publishes through the push hub. server/API.md "Safety alarms".
 */
import { AlarmService } from '../../alarms/service.ts';
import type { App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import type { ServiceDeps } from '../deps.ts';
import { aggregateRoutes } from './aggregate.ts';
import { driverSignIn } from './drivers.ts';
import { alarmRoutes, outcomeCode, TERMINAL_REPLY_TIMEOUT_MS, TEXT_FLAGS } from './alarms.ts';
import { MSG } from '../../gateway/jt808/index.ts';
import { analysisRoutes } from './analysis.ts';
import { appraisalRoutes } from './appraisal.ts';
import { boardRoutes } from './board.ts';
import { settingsRoutes } from './settings.ts';
import { retentionCutoffs } from '../../../domain/retention/policy.ts';
import { retentionPolicy } from '../../retention/index.ts';
import { sharedReportEngine } from '../reports/shared-engine.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { sqliteFenceSource } from '../../db/sqlite/fences.ts';
import { sqliteRouteSource } from '../routes/store.ts';
import { ALL_COMPANIES } from '../../db/scope.ts';
import { sendRecorded } from '../command-tasks/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Alarm generation (tests drive its sweep and wait for its writes). */
    alarms: AlarmService;
  }
}

/** Registers the calls; needs `app.push` (register after the push channel). */
export async function safeRoutes(app: App, deps: ServiceDeps & { readonly live: LiveRuntime }): Promise<AlarmService> {
  const { storage, live } = deps;
  const db = (storage as SqliteStorage).db;
  const service = new AlarmService(storage, live.store, app.push, {
    log: app.log,
    offlineWhen: () => app.sweepLeadership.isLeader, // issue 20: one node of a cluster raises offline alarms
    fences: sqliteFenceSource(db), // issue 17: the stored fences the platform evaluates
    routes: sqliteRouteSource(db, deps.config.routeNightWindow), // issue 17: the stored routes (13010, 13003, 12006, 13011)
    // TTS linkage: spoken and shown on the terminal's screen, as the pop-up's ttsReminder does by hand.
    // Kept as a command record under the platform (user id null), like an operator's TTS (issue 17).
    speak: async (vehicleId, text, alarmId) => {
      const msg = { msgId: MSG.TEXT, flags: TEXT_FLAGS.tts | TEXT_FLAGS.display, textType: 1, text };
      const label = (await storage.terminals.labels(ALL_COMPANIES, [vehicleId])).get(vehicleId);
      const what = { fun: 'tts', content: { text, types: ['tts', 'display'], alarmId, linkage: true }, user: { id: null, name: '' } };
      return outcomeCode(label ? await sendRecorded(db, live.gateway, label, msg, what, TERMINAL_REPLY_TIMEOUT_MS) : await live.gateway.sendCommand(vehicleId, msg, TERMINAL_REPLY_TIMEOUT_MS));
    },
  });
  await service.init();
  app.decorate('alarms', service);
  live.gateway.onReport = (vehicleId, report, edition) => service.onReport(vehicleId, report, edition);
  // Issue 20: a terminal moving between gateway nodes (failover, balancer) keeps its open alarms: read back at its authentication.
  if (app.leadership.shared) live.gateway.onAuthenticated((vehicleId) => void service.adoptVehicle(vehicleId));
  app.addHook('onReady', async () => service.start());
  // Issue 20: a node that takes over the offline sweep takes over the offline alarms its predecessor left open.
  app.sweepLeadership.onChange((leader) => {
    if (leader) service.adoptOpenOffline().catch((err: unknown) => app.log.warn({ err }, 'offline alarms could not be taken over'));
  });
  // Before the live runtime's preClose flushes history and storage closes: no writes after close.
  app.addHook('preClose', async () => {
    live.gateway.onReport = undefined;
    await service.stop();
  });
  settingsRoutes(app, { storage, alarms: service });
  alarmRoutes(app, { storage, gateway: live.gateway, db, clock: live.store.clock, push: app.push });
  aggregateRoutes(app, { storage, clock: live.store.clock });
  driverSignIn(live.gateway, storage, live.store.clock); // 0x0702: the driver the statistics attribute alarms to
  // Vehicle appraisal and analysis reports: km and running days from the positioning rollup (report_vehicle_day).
  // keptFrom: days past position retention keep their stored rollups (see reports/index.ts), not recomputed to zero.
  const keptFrom = () => retentionCutoffs(live.store.clock(), retentionPolicy(deps.config)).positionDay ?? -Infinity;
  const reportEngine = sharedReportEngine(storage, live.store.clock, keptFrom); // the app's one engine (reports/shared-engine.ts)
  appraisalRoutes(app, { storage, engine: reportEngine });
  analysisRoutes(app, { storage, engine: reportEngine });
  boardRoutes(app, { storage, clock: live.store.clock, push: app.push });
  return service;
}
