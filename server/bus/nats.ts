/**
 * The bus on NATS JetStream (issue 20), loaded only when NATS_URL is set (index.ts).
 *
 * Stream `FLEET_POS`, subjects `fleet.pos.<company path>._` (subjects.ts), file storage, limits retention with a max age of
 * STREAM_MAX_AGE_MS: the stream is the hand-off between a gateway and the push nodes, not the archive
 * (PostgreSQL is). A gateway publishes each position asynchronously (many publishes in flight, no
 * round trip per report on the event loop) and its terminal's 0x8001 waits, in order, for the PubAcks:
 * a terminal is acknowledged only once its report is persisted in the stream (AckTracker). Positions of
 * one company subject reported within PUBLISH_BATCH_MS go as one message (codec.ts: a publish costs far
 * more than a position); the wait adds nothing a terminal sees, since its 0x8001 also waits for the
 * database commit, batched every HISTORY_FLUSH_MS (100 ms by default).
 *
 * A failed publish (no PubAck within PUBLISH_TIMEOUT_MS, a stream error) is sent again after a pause,
 * holding the acks meanwhile (the terminal may also resend after its own timeout). A retry whose first
 * try was in fact stored gives a duplicate in the stream; a live view applying a position twice is
 * harmless, and PostgreSQL keeps one row per (vehicle, GPS time). So no `Nats-Msg-Id` header per message.
 *
 * Following: an ordered consumer per followed scope (ephemeral, no acks, flow-controlled, recreated by the
 * client from the last stream sequence it saw after a gap or a reconnect), filtered to the scope's subtree
 * (follow-scopes.ts decides which scopes a node follows). A push node needs its scopes' positions in order,
 * for itself, while it runs; after a restart it loads the latest positions from the database and follows
 * from then. A durable consumer would keep per-node state on the server and cost an ack per message for
 * nothing a live view needs.
 */
import { DeliverPolicy, DiscardPolicy, jetstream, jetstreamManager, JetStreamApiError, RetentionPolicy, StorageType, type ConsumerMessages, type JetStreamClient, type OrderedConsumerOptions } from '@nats-io/jetstream';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { AckTracker } from './acks.ts';
import type { Scope } from '../db/scope.ts';
import { decodePositions, encodePositions } from './codec.ts';
import { positionSubject, scopeFilter, SUBJECT_PREFIX } from './subjects.ts';
import type { BusPosition, BusStats, Following, PositionBus } from './types.ts';

export const STREAM_NAME = 'FLEET_POS';
export { SUBJECT_PREFIX } from './subjects.ts';
/** Positions older than this leave the stream (a push node starting later reads the database instead). */
export const STREAM_MAX_AGE_MS = 5 * 60_000;
export const PUBLISH_TIMEOUT_MS = 5000;
/** How long a gateway gathers a company subject's positions into one message (well under the history flush). */
export const PUBLISH_BATCH_MS = 10;
/** A subject's batch is sent at once when it holds this many (≈ 28 KB: far under NATS's 1 MB max payload). */
export const PUBLISH_BATCH_MAX = 500;
/** Pause before a failed publish is sent again, doubling up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5000;
/** A stream with this name and another configuration already exists (JetStream API error code). */
const STREAM_NAME_IN_USE = 10058;

export interface NatsBusOptions {
  readonly servers: string;
  readonly nodeId: string;
  readonly log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** Connects, makes sure the stream exists with this configuration, and answers the bus. */
export async function connectNatsBus(options: NatsBusOptions): Promise<PositionBus> {
  const nc = await connectWithStream(options.servers, `fleet-${options.nodeId}`, STREAM_NAME, SUBJECT_PREFIX);
  return new NatsPositionBus(nc, jetstream(nc), options);
}

/**
 * A connection to NATS_URL (a comma list) that keeps reconnecting for ever (a node outlives a NATS restart;
 * acks wait meanwhile), once stream `stream` exists with this configuration (`ensureStream`); closed again when it cannot be made.
 */
export async function connectWithStream(servers: string, name: string, stream: string, prefix: string): Promise<NatsConnection> {
  const nc = await connect({ servers: servers.split(','), name, maxReconnectAttempts: -1, reconnectTimeWait: 500 });
  try {
    await ensureStream(nc, stream, prefix);
  } catch (err) {
    await nc.close().catch(() => undefined);
    throw err;
  }
  return nc;
}

/** Makes sure stream `name` holds `<prefix>.>` on file storage with limits retention and STREAM_MAX_AGE_MS. */
async function ensureStream(nc: NatsConnection, name: string, prefix: string): Promise<void> {
  const jsm = await jetstreamManager(nc);
  // What an existing stream can be changed to (storage and retention are fixed at creation).
  const updatable = { subjects: [`${prefix}.>`], discard: DiscardPolicy.Old, max_age: nanos(STREAM_MAX_AGE_MS) };
  try {
    // Idempotent when the stream exists with this configuration (two nodes starting together).
    await jsm.streams.add({ name, storage: StorageType.File, retention: RetentionPolicy.Limits, ...updatable });
  } catch (err) {
    if (!(err instanceof JetStreamApiError && err.code === STREAM_NAME_IN_USE)) throw err;
    await jsm.streams.update(name, updatable);
  }
}

export interface PersistOptions {
  readonly stats: { persisted: number; retried: number };
  /** What `stats.persisted` counts the message as (the positions of a batch; 1 when absent). */
  readonly count?: number;
  /** True once the bus closed: a failed publish is not sent again. */
  closed(): boolean;
  /** The stream stored it. */
  stored(): void;
  readonly log?: { warn(obj: object, msg: string): void };
}

/**
 * Publishes `data` until the stream stored it (PubAck within PUBLISH_TIMEOUT_MS): a failed try is sent
 * again after RETRY_FIRST_MS, doubling up to RETRY_MAX_MS, until the bus closes.
 */
export function publishPersisted(js: JetStreamClient, subject: string, data: Uint8Array, o: PersistOptions, retryMs = RETRY_FIRST_MS): void {
  js.publish(subject, data, { timeout: PUBLISH_TIMEOUT_MS }).then(
    () => {
      o.stats.persisted += o.count ?? 1;
      o.stored();
    },
    (err: unknown) => {
      if (o.closed()) return;
      o.stats.retried++;
      o.log?.warn({ err, subject, retryMs }, 'bus: publish not acknowledged by the stream; sending again');
      setTimeout(() => publishPersisted(js, subject, data, o, Math.min(retryMs * 2, RETRY_MAX_MS)), retryMs).unref();
    },
  );
}

export interface FollowOptions<D extends { readonly origin: string }> {
  readonly stream: string;
  /** Epoch ms the ordered consumer starts from. */
  readonly sinceMs: number;
  /** One subject filter (nats-server 2.9 takes one); the whole stream without it. */
  readonly filter?: string;
  /** Messages this node published (`origin`) are skipped. */
  readonly nodeId: string;
  readonly stats: { received: number; skippedOwn: number };
  /** What `stats` count a decoded message as (the positions of a batch; 1 when absent). */
  count?(decoded: D): number;
  /** What a message should be, for the log ('position', 'event'). */
  readonly what: string;
  /** Throws on a message that is not one. */
  decode(data: Uint8Array): D;
  apply(decoded: D): void;
  closed(): boolean;
  readonly log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * Follows a stream from `sinceMs` with an ordered consumer and applies every message another node
 * published, in stream order; a message that does not decode is logged and skipped, a failing `apply`
 * logged. Answers the messages iterator (its `close` stops following).
 */
export async function followStream<D extends { readonly origin: string }>(js: JetStreamClient, o: FollowOptions<D>): Promise<ConsumerMessages> {
  const config: Partial<OrderedConsumerOptions> = { deliver_policy: DeliverPolicy.StartTime, opt_start_time: new Date(o.sinceMs).toISOString() };
  if (o.filter !== undefined) config.filter_subjects = o.filter;
  const consumer = await js.consumers.get(o.stream, config);
  const messages = await consumer.consume();
  void (async () => {
    for await (const m of messages) {
      let decoded: D;
      try {
        decoded = o.decode(m.data);
      } catch (err) {
        o.log?.warn({ err, subject: m.subject }, `bus: a message on ${o.stream} was not a ${o.what}`);
        continue;
      }
      const n = o.count?.(decoded) ?? 1;
      if (decoded.origin === o.nodeId) {
        o.stats.skippedOwn += n;
        continue;
      }
      o.stats.received += n;
      try {
        o.apply(decoded);
      } catch (err) {
        o.log?.error({ err }, `bus: applying a ${o.what} failed`);
      }
    }
  })().catch((err: unknown) => {
    if (!o.closed()) o.log?.error({ err }, `bus: following ${o.stream} stopped`);
  });
  return messages;
}

class NatsPositionBus implements PositionBus {
  readonly nodeId: string;
  readonly stats: BusStats = { published: 0, persisted: 0, retried: 0, received: 0, skippedOwn: 0 };
  private readonly acks: AckTracker;
  private readonly following = new Set<ConsumerMessages>();
  /** Positions waiting for their subject's message (PUBLISH_BATCH_MS), with their ack numbers. */
  private readonly batches = new Map<string, { readonly positions: BusPosition[]; readonly seqs: number[] }>();
  private batchTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly options: NatsBusOptions,
  ) {
    this.nodeId = options.nodeId;
    this.acks = new AckTracker((err) => options.log?.error({ err }, 'bus: an acknowledgement callback failed'));
  }

  publish(position: BusPosition, companyPath: string): void {
    const subject = positionSubject(companyPath);
    // A vehicle the store knows always has its company's path; a deleted one's slot has none: not published.
    if (subject === undefined) return;
    this.stats.published++;
    let batch = this.batches.get(subject);
    if (!batch) this.batches.set(subject, (batch = { positions: [], seqs: [] }));
    batch.positions.push(position);
    batch.seqs.push(this.acks.next());
    if (batch.positions.length >= PUBLISH_BATCH_MAX) this.send(subject);
    else if (!this.batchTimer) {
      this.batchTimer = setTimeout(() => this.sendAll(), PUBLISH_BATCH_MS);
      this.batchTimer.unref();
    }
  }

  /** Publishes a subject's gathered positions as one message; their acks are released when the stream stored it. */
  private send(subject: string): void {
    const batch = this.batches.get(subject);
    if (!batch) return;
    this.batches.delete(subject);
    publishPersisted(this.js, subject, encodePositions(this.nodeId, batch.positions), {
      stats: this.stats, count: batch.positions.length, closed: () => this.closed, log: this.options.log,
      stored: () => {
        for (const seq of batch.seqs) this.acks.ack(seq);
      },
    });
  }

  private sendAll(): void {
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    for (const subject of [...this.batches.keys()]) this.send(subject);
  }

  afterPersisted(callback: () => void): void {
    this.acks.after(callback);
  }

  drain(maxMs: number): Promise<boolean> {
    this.sendAll();
    return this.acks.settled(maxMs);
  }

  async follow(scope: Scope, sinceMs: number, apply: (position: BusPosition) => void): Promise<Following> {
    let stopped = false;
    const messages = await followStream(this.js, {
      stream: STREAM_NAME, sinceMs, filter: scopeFilter(scope), nodeId: this.nodeId, stats: this.stats, what: 'position', log: this.options.log,
      closed: () => this.closed || stopped, decode: decodePositions, count: (d) => d.positions.length,
      apply: (d) => {
        for (const p of d.positions) apply(p);
      },
    });
    this.following.add(messages);
    return {
      close: async () => {
        stopped = true;
        this.following.delete(messages);
        await messages.close().catch(() => undefined);
      },
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.sendAll();
    if (!(await this.acks.settled(PUBLISH_TIMEOUT_MS))) {
      this.options.log?.warn({ unacknowledged: this.acks.sent - this.acks.acknowledged }, 'bus: closing with positions the stream has not acknowledged (their terminals were not acknowledged either)');
    }
    this.closed = true;
    await Promise.all([...this.following].map((m) => m.close().catch(() => undefined)));
    await this.nc.drain().catch(() => undefined);
  }

}
