/**
 * The server's Prometheus metrics (issue 20). One `Registry` per app, never prom-client's global
 * default: tests build many apps in one process, and each must count only its own events.
 *
 * Cost on the hot path: nothing per position. The gateway, history writer and push hub already keep
 * plain counters (`stats`); the metrics below read them at scrape time (`collect()`), turning a
 * counter's growth since the last scrape into `inc()`. Only three things are observed at their event:
 * an HTTP answer (one histogram observation per request), a history flush (one per batch of up to
 * 5,000 rows) and a new alarm (one per alarm, after its transaction committed).
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FastifyInstance } from 'fastify';
import type { CheckpointStats } from '../db/wal-checkpointer.ts';
import type { LiveRuntime } from '../live/runtime.ts';
import type { PushHub } from '../push/hub.ts';

/** Where the figures come from; `push` is read lazily (the hub is created after the ops routes). */
export interface MetricSources {
  readonly live: LiveRuntime;
  readonly push: () => PushHub | undefined;
  /** Issue 20: this node is the cluster's leader (server/ops/leader.ts); absent: 1. */
  readonly leader?: () => boolean;
  /** Issue 20: the position bus of this node (NATS_URL) and what it follows (server/bus/follow-scopes.ts). */
  readonly bus?: { readonly stats: { readonly published: number; readonly received: number }; readonly following?: { roots(): readonly unknown[] } };
  /** The SQLite WAL checkpoint worker's figures (server/db/wal-checkpointer.ts); absent on PostgreSQL. */
  readonly checkpoints?: CheckpointStats;
}

/**
 * HTTP buckets (seconds): the console's calls answer in 1–50 ms, reports and exports in up to seconds;
 * 12 buckets keep the series per route small.
 */
const HTTP_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** History flush buckets (seconds): a 5,000-row transaction takes ≈ 10–50 ms on these machines. */
const FLUSH_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** The methods Fastify routes; anything else is counted as `OTHER` (the label stays bounded). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Label of requests no route matched: one series, whatever URLs scanners try. */
export const UNMATCHED_ROUTE = 'unmatched';

/** A counter that follows a monotonic figure kept elsewhere, read at scrape time. */
function followCounter(registry: Registry, name: string, help: string, read: () => number): void {
  let seen = 0;
  new Counter({
    name, help, registers: [registry],
    collect() {
      const value = read();
      // A figure that went back (a replaced runtime) restarts from it rather than counting down.
      if (value > seen) this.inc(value - seen);
      seen = value;
    },
  });
}

function gauge(registry: Registry, name: string, help: string, read: () => number): void {
  new Gauge({ name, help, registers: [registry], collect() { this.set(read()); } });
}

export class OpsMetrics {
  readonly registry = new Registry();
  private readonly http: Histogram<'method' | 'route' | 'status'>;
  private readonly flush: Histogram;
  private readonly alarms: Counter<'type' | 'level'>;

  constructor(sources: MetricSources) {
    const r = this.registry;
    // Process CPU, memory, event-loop lag, GC, handles: prom-client's standard set, on this registry.
    collectDefaultMetrics({ register: r });
    const { gateway, history } = sources.live;

    gauge(r, 'fleet_gateway_terminals_connected', 'Terminals authenticated on an open JT/T 808 connection.', () => gateway.terminalsConnected);
    gauge(r, 'fleet_gateway_connections_open', 'Open TCP connections of the JT/T 808 gateway (authenticated or not).', () => gateway.stats.connectionsOpen);
    followCounter(r, 'fleet_gateway_reports_total', 'Location reports accepted and queued for history (each 0x0200, each 0x0704 item with a fix).', () => gateway.stats.positions);
    followCounter(r, 'fleet_gateway_frames_total', 'JT/T 808 frames received.', () => gateway.stats.frames);
    gauge(r, 'fleet_gateway_write_backlog_bytes', 'Bytes written to terminals and not yet taken by their sockets.', () => gateway.snapshotStats().writeBacklogBytes);

    followCounter(r, 'fleet_history_rows_written_total', 'Position rows committed to the history table.', () => history.stats.rowsWritten);
    followCounter(r, 'fleet_history_failed_flushes_total', 'History flushes that failed (their rows are kept and retried).', () => history.stats.failedFlushes);
    gauge(r, 'fleet_history_queue_depth', 'Positions queued for history and not yet committed.', () => history.pending);
    const checkpoints = sources.checkpoints;
    if (checkpoints) {
      // The worker's checkpoints (issue 16): a log that keeps growing, or checkpoints taking most of each second, is a disk that cannot keep up.
      followCounter(r, 'fleet_sqlite_checkpoints_total', 'SQLite WAL checkpoints run by the checkpoint worker thread.', () => checkpoints.checkpoints);
      followCounter(r, 'fleet_sqlite_checkpoint_seconds_total', 'Time the checkpoint worker spent checkpointing (its thread, not the event loop).', () => checkpoints.totalMs / 1000);
      gauge(r, 'fleet_sqlite_wal_frames', 'Pages in the SQLite write-ahead log at the last checkpoint (the writer checkpoints itself at 16,384).', () => checkpoints.lastLogFrames);
    }
    this.flush = new Histogram({ name: 'fleet_history_flush_duration_seconds', help: 'Duration of one history flush (one transaction).', buckets: FLUSH_BUCKETS, registers: [r] });

    const pushFigure = (read: (hub: PushHub) => number) => () => {
      const hub = sources.push();
      return hub ? read(hub) : 0;
    };
    gauge(r, 'fleet_push_consumers', 'Consoles connected to the push websocket.', pushFigure((hub) => hub.stats.connections));
    gauge(r, 'fleet_push_consumers_behind', 'Push consumers skipped for being behind (waiting to drain for a fresh snapshot).', pushFigure((hub) => hub.behindCount()));
    followCounter(r, 'fleet_push_bytes_sent_total', 'Bytes the push hub wrote to console websockets.', pushFigure((hub) => hub.stats.bytesSent));
    followCounter(r, 'fleet_push_slow_closed_total', 'Push consumers closed for not reading (4008).', pushFigure((hub) => hub.stats.slowClosed));

    // Zero on a node without NATS_URL: one dashboard for both set-ups.
    const bus = sources.bus;
    followCounter(r, 'fleet_bus_positions_published_total', 'Positions this node\'s gateway published to the stream.', () => bus?.stats.published ?? 0);
    followCounter(r, 'fleet_bus_positions_received_total', 'Positions of other nodes this node received from the stream (only its followed company subtrees).', () => bus?.stats.received ?? 0);
    gauge(r, 'fleet_bus_followed_scopes', 'Company subtrees this node follows on the position stream, one consumer each (all companies counts 1).', () => bus?.following?.roots().length ?? 0);

    gauge(r, 'fleet_leader', '1 when this node runs the cluster\'s once-only jobs (always on the embedded database), else 0.', () => (sources.leader?.() ?? true ? 1 : 0));

    this.alarms = new Counter({ name: 'fleet_alarms_raised_total', help: 'New alarms, by alarm type code and risk level.', labelNames: ['type', 'level'], registers: [r] });
    this.http = new Histogram({
      name: 'fleet_http_request_duration_seconds', help: 'HTTP answer time by method, matched route pattern and status.',
      labelNames: ['method', 'route', 'status'], buckets: HTTP_BUCKETS, registers: [r],
    });
  }

  /** One HTTP answer; `route` is the matched pattern (`/x/:id`), never the raw URL. */
  observeHttp(method: string, route: string | undefined, status: number, seconds: number): void {
    this.http.observe({ method: METHODS.has(method) ? method : 'OTHER', route: route ?? UNMATCHED_ROUTE, status: String(status) }, seconds);
  }

  observeFlush(ms: number): void {
    this.flush.observe(ms / 1000);
  }

  /** A new alarm as the push hub publishes it (fields of `alarmPushData`). */
  observeAlarm(alarm: { readonly [field: string]: unknown }): void {
    // Both labels come from catalogues (alarm type codes, the four risk levels): bounded series.
    const type = Number.isInteger(alarm.alarmType) ? String(alarm.alarmType) : 'unknown';
    const level = typeof alarm.riskLevel === 'string' && alarm.riskLevel.length <= 16 ? alarm.riskLevel : 'unknown';
    this.alarms.inc({ type, level });
  }

  /** The text a scrape gets. */
  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** Times every answer of the app by its matched route (websocket upgrades excluded: their "answer" is the socket's life). */
export function installHttpMetrics(app: FastifyInstance, metrics: OpsMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const config = request.routeOptions.config;
    if (!config.websocket) metrics.observeHttp(request.method, request.is404 ? undefined : request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
