/**
 * Builds the HTTP application: envelope and error handling, validation, auth and the permission
 * guard, every API route, the websocket plugin (push mounts later) and the built console.
 */
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { loadOrCreateSecret, TokenService } from './auth/tokens.ts';
import { mediaDirOf, sharedFilesDirOf, upgradePackagesDirOf, type Config } from './config.ts';
import { openStorage } from './db/open.ts';
import type { Storage } from './db/repositories.ts';
import { installAuth } from './http/auth.ts';
import { installAudit } from './services/audit/index.ts';
import { installConsole } from './http/console.ts';
import { installCommLog } from './services/comm-log/index.ts';
import { installErrorHandler } from './http/errors.ts';
import { loggerOptions } from './http/log.ts';
import { installRoutePolicies } from './http/route.ts';
import { installRoleGate } from './http/roles.ts';
import { attachCommandBus, FOLLOW_OVERLAP_MS, openBus, scopedFollowing, streamedHistory } from './bus/index.ts';
import { attachBusEvents } from './bus/events.ts';
import type { HistorySink } from './live/history.ts';
import type { LiveStore } from './live/store.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { createValidatorCompiler } from './http/validation.ts';
import { createLiveRuntime, type LiveRuntime } from './live/runtime.ts';
import { createMediaRuntime, type MediaRuntime } from './media/runtime.ts';
import { installRetention } from './retention/index.ts';
import { installReportEngine } from './services/report-engine/index.ts';
import { attachTrackReadPool } from './db/read-pool.ts';
import { attachWalCheckpointer } from './db/wal-checkpointer.ts';
import type { SqliteStorage } from './db/sqlite/storage.ts';
import { monitorRoutes } from './services/monitor/index.ts';
import { privRoutes } from './services/priv/index.ts';
import { trackRoutes } from './services/track/index.ts';
import { safeRoutes } from './services/safe/index.ts';
import { reportRoutes } from './services/reports/index.ts';
import { opsCheckRoutes } from './services/ops-check/index.ts';
import { operationReportRoutes } from './services/operation-reports/index.ts';
import { fuelReportRoutes } from './services/fuel-reports/index.ts';
import { deviceReportRoutes } from './services/device-reports/index.ts';
import { passengerReportRoutes } from './services/passenger-reports/index.ts';
import { videoRoutes } from './services/video/index.ts';
import { systemConfigRoutes } from './services/system-config/index.ts';
import { ParamKeys } from '../domain/system-config/params.ts';
import { recordingUploadRoutes } from './services/video/recording-upload.ts';
import { talkRoutes } from './services/video/talk.ts';
import { obdRoutes } from './obd/index.ts';
import { multimediaRoutes } from './services/multimedia/index.ts';
import { dashboardRoutes } from './services/dashboard/index.ts';
import { deviceRegistrationRoutes } from './gateway/registration-routes.ts';
import { registerPush } from './push/index.ts';
import { wallRoutes } from './services/walls/index.ts';
import { photoWallRoutes } from './services/photowall/index.ts';
import { faceRecognitionRoutes } from './services/face-recognition/index.ts';
import { noticeRoutes } from './services/notices/index.ts';
import { accidentRoutes } from './services/accidents/index.ts';
import { appFeedbackRoutes } from './services/app-feedback/index.ts';
import { terminalParamsRoutes } from './services/terminal-params/index.ts';
import { terminalUpgradeRoutes } from './services/terminal-upgrade/index.ts';
import { voiceRoutes } from './services/voice/index.ts';
import { cabSupervisionRoutes } from './services/cab-supervision/index.ts';
import { customerPortraitRoutes } from './services/cab-supervision/portrait.ts';
import { fenceRoutes } from './services/fences/index.ts';
import { routePlanRoutes } from './services/routes/index.ts';
import { tileRoutes } from './services/tiles/index.ts';
import { fleetAssetRoutes } from './services/fleet-assets/index.ts';
import { createFleetSync } from './live/fleet-sync.ts';
import { installOps } from './ops/routes.ts';
import { installLeadership } from './ops/leader.ts';
import { boxStatusRoutes } from './services/box-status/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The storage this app serves from (tests count rows through it). */
    storage: Storage;
    /** Live monitoring: latest-state store, history writer, JT/T 808 gateway (main.ts makes it listen). */
    live: LiveRuntime;
    /** Live video: media hub and TCP media port (main.ts makes it listen). */
    media: MediaRuntime;
  }
}

export interface BuildOptions {
  /** An already opened storage (main.ts opens it to report seeding); otherwise buildApp opens it and closes it with the app. */
  readonly storage?: Storage;
  /** Clock of the live store and gateway (tests inject a test clock). */
  readonly clock?: () => number;
  /** Where the log goes (stdout when absent); tests capture it to check what reaches the log. */
  readonly logStream?: NodeJS.WritableStream;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const owned = options.storage === undefined;
  const storage = options.storage ?? (await openStorage(config)).storage;
  const tokens = new TokenService(loadOrCreateSecret(config.dataDir), config.tokenTtlSeconds);

  const app = Fastify({
    // Secrets (query tokens, credential headers) are redacted from every logged URL and header.
    logger: loggerOptions(config.logLevel, options.logStream),
    trustProxy: config.trustProxy,
    bodyLimit: 10 * 1024 * 1024,
  });
  app.decorate('storage', storage);
  if (owned) app.addHook('onClose', async () => storage.close());
  // Issue 20: which node of a cluster on one PostgreSQL database runs the once-only jobs (always this one on SQLite; server/cluster-jobs.md).
  await installLeadership(app, { config, storage });
  // Long track reads (playback weeks, reports' scans) run in worker threads, off the gateway's event loop.
  const trackReads = attachTrackReadPool(storage);
  app.addHook('preClose', async () => trackReads?.close());
  // WAL checkpoints (and their fsyncs) in a worker thread, not inside a commit on this event loop (db/wal-checkpointer.ts).
  const checkpointer = attachWalCheckpointer((storage as Partial<SqliteStorage>).db);
  app.addHook('preClose', async () => checkpointer?.close());
  // Issue 20 scale-out: the NATS JetStream bus between roles when NATS_URL is set (server/bus; nothing loaded without it).
  const bus = await openBus(config, app.log);
  const followSince = Date.now() - FOLLOW_OVERLAP_MS;
  const gatewaySink = bus && config.roles.has('gateway') ? (h: HistorySink, s: LiveStore) => streamedHistory(h, bus, s) : undefined;
  const live = await createLiveRuntime(config, storage, { clock: options.clock, log: app.log, gatewaySink });
  app.decorate('live', live);
  // preClose runs before any onClose: stop terminals and flush history while storage is still open.
  app.addHook('preClose', async () => live.stop());
  if (bus) {
    // The bus closes after the gateway stopped (its acks drained).
    app.addHook('preClose', async () => bus.close());
    // Commands to a terminal reach the gateway node holding its connection (server/bus/commands.ts); closed after the gateway stopped.
    const commands = await attachCommandBus(config, live.gateway, bus.nodeId, app.log);
    app.addHook('preClose', async () => commands?.close());
  }
  // A push or API node follows the company subtrees its consoles and callers look at into its store, every company while
  // it runs the offline sweep (server/bus/follow-scopes.ts); stopped before the bus closes.
  const following = bus && (config.roles.has('push') || config.roles.has('api')) ? scopedFollowing(bus, live.store, storage.positions, app.log) : undefined;
  if (following) {
    app.addHook('onReady', async () => {
      following.start();
      await following.followAll(app.sweepLeadership.isLeader);
    });
    app.sweepLeadership.onChange((leader) => void following.followAll(leader));
    app.addHook('preClose', async () => following.close());
  }
  const media = createMediaRuntime(config, live.gateway);
  app.decorate('media', media);
  app.addHook('preClose', async () => media.close());
  // Before the routes: export calls use `app.exportFiles`, multimedia adds its sweep to `app.retention`.
  installRetention(app, { config, storage, clock: live.store.clock });
  installReportEngine(app, { config, storage, live }); // issue 18: per vehicle-day report rows kept as positions are stored (modules register on app.reportEngine)

  app.setValidatorCompiler(createValidatorCompiler());
  installErrorHandler(app);
  installRoutePolicies(app);
  // First onRequest hook: the headers are on every answer, a refused call's included.
  installSecurityHeaders(app, { mapSourceOrigins: config.mapSourceOrigins });
  // Before auth: the plugin's hooks must see a refused upgrade too, or its socket is never closed.
  // 1 MiB per websocket message (ws's default is 100 MiB): the largest a console sends is a 1,600-byte
  // intercom frame; a larger message closes that socket (1009) and nothing else.
  await app.register(fastifyWebsocket, { options: { maxPayload: 1 << 20 } });
  installRoleGate(app, config.roles); // issue 20: a node answers only its roles' routes (ROLES; /health and /metrics on every node)
  installAuth(app, { storage, tokens, metricsToken: config.metricsToken });
  // Issue 20: an API call's answer reads this node's store for its caller's companies: followed first (at once when they are).
  if (following) app.addHook('preHandler', async (request) => {
    const scope = request.authContext?.scope ?? request.displayContext?.scope;
    if (scope) await following.touch(scope);
  });
  // Issue 19: every state-changing call of every route below is recorded once, by this hook (services/audit).
  installAudit(app, { config, storage });
  installOps(app, { config, storage, live, bus: bus && { stats: bus.stats, following }, checkpoints: checkpointer?.stats }); // issue 20: /health/live, /health/ready, /metrics (Prometheus) and the HTTP timing hook

  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  privRoutes(api, { config, storage, tokens });
  monitorRoutes(api, { config, storage, tokens, live });
  trackRoutes(api, { config, storage, tokens, live });
  reportRoutes(api, { config, storage, tokens, live });
  operationReportRoutes(api, { storage, clock: live.store.clock, engine: () => (app.hasDecorator('reportEngine') ? app.reportEngine : undefined) }); // issue 18: mileage and operation reports on the report engine
  fuelReportRoutes(api, { storage, clock: live.store.clock, engine: () => (app.hasDecorator('reportEngine') ? app.reportEngine : undefined) }); // issue 18: fuel reports (registers the fuel module)
  deviceReportRoutes(api, { storage, clock: live.store.clock, engine: () => (app.hasDecorator('reportEngine') ? app.reportEngine : undefined) }); // issue 18: device work, online analysis, early-morning reports (registers the device module)
  passengerReportRoutes(api, { storage, clock: live.store.clock, engine: () => (app.hasDecorator('reportEngine') ? app.reportEngine : undefined), gateway: live.gateway, mediaDir: mediaDirOf(config) }); // issue 18: passenger flow (0x1005) and temperature (0x0E30) reports
  registerPush(api, live.store, storage, {}, following && ((scope) => following.hold(scope)));
  // Issue 20: alarms, handlings, terminal contact and fleet changes between nodes (server/bus/events.ts; only with NATS_URL).
  const fleetSync = createFleetSync(storage, live, app.log);
  const busEvents = await attachBusEvents(app, config, { roles: config.roles, store: live.store, push: app.push, fleetSync, alarms: () => (app.hasDecorator('alarms') ? app.alarms : undefined), multimedia: () => (app.hasDecorator('multimedia') ? app.multimedia : undefined), nodeId: bus?.nodeId, followSince, log: app.log });
  await safeRoutes(api, { config, storage, tokens, live }); // issue 5: safety alarms (after push: it publishes there)
  // Issue 19: dictionary and system parameters; pages and services read them live (a change reaches open consoles over push).
  const systemConfig = systemConfigRoutes(api, { storage, defaults: { [ParamKeys.videoDailyLimit]: String(config.videoDailyLimit) } });
  app.decorate('systemConfig', systemConfig);
  systemConfig.onChange((change) => app.push.publishConfig(change));
  videoRoutes(api, { storage, store: live.store, hub: media.hub, dailyLimit: () => systemConfig.number(ParamKeys.videoDailyLimit, config.videoDailyLimit), playback: { hub: media.playback.hub, gateway: live.gateway }, gateway: live.gateway });
  talkRoutes(api, { storage, store: live.store, talk: media.talk, gateway: live.gateway }); // issues 5/6: intercom, reminder sounds, phone callback
  obdRoutes(api, { storage, gateway: live.gateway, live, retentionDays: config.positionRetentionDays }); // issue 5: 0x0705 CAN data for the pop-up's OBD buttons
  multimediaRoutes(api, { config, storage, tokens, live }); // issue 6: snapshots, 0x0800/0x0801 photos, media reports
  app.decorate('dashboard', dashboardRoutes(api, { config, storage, tokens, live })); // issue 14: the operation dashboard's figures (the walls reuse app.dashboard)
  recordingUploadRoutes(api, { config, storage, gateway: live.gateway }); // issue 6: recordings pulled to the server over FTP
  deviceRegistrationRoutes(api, { storage, gateway: live.gateway, fleetSync: busEvents?.fleetSync ?? fleetSync }); // issue 12: terminal registration state and operator reset
  wallRoutes(api, { storage, store: live.store, dashboard: app.dashboard }); // issue 14: /largeScreen walls' data, display credentials, presets
  tileRoutes(api, { config }); // issue 14: street-map PMTiles archives from TILES_DIR (range requests, public)
  fleetAssetRoutes(api, { config, storage, tokens, live, fleetSync: busEvents?.fleetSync ?? fleetSync }); // issue 15: vehicles, devices, drivers, installations, lines, operator logs
  photoWallRoutes(api, { storage, live }); // issue 15: photo walls (after multimedia: snap now uses app.multimedia)
  terminalParamsRoutes(api, { storage, live }); // issue 17: terminal parameters, command records, paramconfig
  terminalUpgradeRoutes(api, { storage, live, packagesDir: upgradePackagesDirOf(config) }); // issue 17: upgrade packages, 0x8108 pushes as command tasks
  voiceRoutes(api, { storage, live, filesDir: sharedFilesDirOf(config, 'audio-resources') }); // issue 19: text templates, audio resources, batch 0x8300 voice dispatch as command tasks
  fenceRoutes(api, { storage, live, alarms: () => (app.hasDecorator('alarms') ? app.alarms : undefined) }); // issue 17: fences, sent to terminals (0x8600-0x8605); reloads the platform evaluation
  routePlanRoutes(api, { storage, live, alarms: () => (app.hasDecorator('alarms') ? app.alarms : undefined) }); // issue 17: planned routes, sent to terminals (0x8606/0x8607); reloads the route evaluation
  boxStatusRoutes(api, { storage, live, retentionDays: config.positionRetentionDays }); // issue 17: slag-truck cargo box state, group 70 alarms (after safe: chains its report listener)
  installCommLog(app, api, { config, storage, live }); // issue 17: communication logs (gateway frame log), device messages, devlogcommand
  faceRecognitionRoutes(api, { storage, live }); // issue 19: terminals' face comparison results (0x0E10), device samples pushed (0x8E11/0x8E12)
  noticeRoutes(api, { storage, push: () => (app.hasDecorator('push') ? app.push : undefined) }); // issue 19: notices (unread count pushed per user), message log, user menu favourites
  accidentRoutes(api, { storage, filesDir: sharedFilesDirOf(config, 'accident-files'), shared: app.leadership.shared }); // issue 19: accidents filed with linked alarms, media and track; publicity cases with evidence files
  opsCheckRoutes(api, { storage, config, live }); // issue 19: ops check KPIs per company and month, analysis and insurer reports (HTML)
  appFeedbackRoutes(api, { storage, config }); // issue 19: feedback threads (app and platform), the drivers'-app API, app push with delivery state
  cabSupervisionRoutes(api, { storage, live, suggestThreshold: () => systemConfig.number('safety.cabSuggestAlarms', 3) }); // issue 19: cab supervision, 0x8300 sends as command tasks, suggestions from driver-state alarms
  customerPortraitRoutes(api, { storage, clock: live.store.clock, config }); // issue 19: a company's month in figures
  if (config.roles.has('api')) await installConsole(app, config.consoleDir);
  return app;
}
