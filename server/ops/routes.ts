/**
 * Operations endpoints (issue 20), outside the spec's call catalogue:
 * - `GET /health/live`: the process answers (public: load balancers and orchestrators call it);
 * - `GET /health/ready`: 200 when database, gateway and push hub are up, 503 naming the part that is
 *   down (public, up/down only: health.ts);
 * - `GET /metrics`: Prometheus text format, policy `'metrics'` (a bearer token or loopback, access.ts).
 * Contract: server/API.md "Operations: health and metrics".
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Storage } from '../db/repositories.ts';
import { BatchedHistoryWriter } from '../live/history.ts';
import type { LiveRuntime } from '../live/runtime.ts';
import type { PushHub } from '../push/hub.ts';
import { HealthCheck } from './health.ts';
import { installHttpMetrics, OpsMetrics, type MetricSources } from './metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's metrics registry (tests read it; /metrics serves it). */
    opsMetrics: OpsMetrics;
  }
}

export const HEALTH_LIVE_PATH = '/health/live';
export const HEALTH_READY_PATH = '/health/ready';
export const METRICS_PATH = '/metrics';

export interface OpsDeps {
  readonly config: Config;
  readonly storage: Storage;
  readonly live: LiveRuntime;
  readonly bus?: MetricSources['bus'];
  readonly checkpoints?: MetricSources['checkpoints'];
}

/** Install before the API routes: the HTTP histogram's hook then times every route of the app. */
export function installOps(app: FastifyInstance, deps: OpsDeps): OpsMetrics {
  // The hub is registered after this (registerPush); read it once it exists.
  const push = (): PushHub | undefined => (app.hasDecorator('push') ? app.push : undefined);
  const metrics = new OpsMetrics({ live: deps.live, push, leader: () => app.leadership.isLeader, bus: deps.bus, checkpoints: deps.checkpoints });
  app.decorate('opsMetrics', metrics);
  // prom-client's default metrics keep process-wide observers (GC, event-loop delay) that hold their registry
  // for ever; emptying it at close lets the registry's collect callbacks, and the app they read, be collected.
  app.addHook('onClose', async () => metrics.registry.clear());
  installHttpMetrics(app, metrics);
  // One observation per committed batch (≤ HISTORY_BATCH_ROWS rows), not per position.
  if (deps.live.history instanceof BatchedHistoryWriter) deps.live.history.onFlushed = (_rows, ms) => metrics.observeFlush(ms);
  const health = new HealthCheck({ storage: deps.storage, live: deps.live, push, log: app.log, roles: deps.config.roles, leader: () => app.leadership.isLeader });
  app.addHook('onReady', async () => {
    const hub = push();
    if (hub) hub.onAlarm = (alarm) => metrics.observeAlarm(alarm);
    if (hub) health.watchPush(hub);
    // Issue 20: a report's 0x8001 also waits for the alarm rows it raised (server/alarms/service.ts `commits`).
    if (app.hasDecorator('alarms')) deps.live.history.addBarrier?.(app.alarms.commits);
  });

  app.get(HEALTH_LIVE_PATH, { config: { permission: 'public' } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get(HEALTH_READY_PATH, { config: { permission: 'public' } }, async (_request, reply) => {
    const readiness = health.readiness();
    reply.header('cache-control', 'no-store');
    return reply.status(readiness.status === 'ok' ? 200 : 503).send(readiness);
  });
  app.get(METRICS_PATH, { config: { permission: 'metrics' } }, async (_request, reply) => {
    const { contentType, body } = await metrics.text();
    reply.header('cache-control', 'no-store');
    return reply.type(contentType).send(body);
  });
  return metrics;
}
