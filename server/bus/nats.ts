/**
 * The bus on NATS JetStream (issue 20), loaded only when NATS_URL is set (index.ts).
 *
 * Stream `FLEET_POS`, subjects `fleet.pos.<companyId>`, file storage, limits retention with a max age of
 * STREAM_MAX_AGE_MS: the stream is the hand-off between a gateway and the push nodes, not the archive
 * (PostgreSQL is). A gateway publishes each position asynchronously (many publishes in flight, no
 * round trip per report on the event loop) and its terminal's 0x8001 waits, in order, for the PubAcks:
 * a terminal is acknowledged only once its report is persisted in the stream (AckTracker).
 *
 * A failed publish (no PubAck within PUBLISH_TIMEOUT_MS, a stream error) is sent again after a pause,
 * holding the acks meanwhile (the terminal may also resend after its own timeout). A retry whose first
 * try was in fact stored gives a duplicate in the stream; a live view applying a position twice is
 * harmless, and PostgreSQL keeps one row per (vehicle, GPS time). So no `Nats-Msg-Id` header per message.
 *
 * Following: an ordered consumer (ephemeral, no acks, flow-controlled, recreated by the client from the
 * last stream sequence it saw after a gap or a reconnect). A push node needs every position in order,
 * for itself, while it runs; after a restart it loads the latest positions from the database and follows
 * from then. A durable consumer would keep per-node state on the server and cost an ack per message for
 * nothing a live view needs.
 */
import { DeliverPolicy, DiscardPolicy, jetstream, jetstreamManager, JetStreamApiError, RetentionPolicy, StorageType, type ConsumerMessages, type JetStreamClient } from '@nats-io/jetstream';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { AckTracker } from './acks.ts';
import { decodePosition, encodePosition } from './codec.ts';
import type { BusPosition, BusStats, PositionBus } from './types.ts';

export const STREAM_NAME = 'FLEET_POS';
export const SUBJECT_PREFIX = 'fleet.pos';
/** Positions older than this leave the stream (a push node starting later reads the database instead). */
export const STREAM_MAX_AGE_MS = 5 * 60_000;
export const PUBLISH_TIMEOUT_MS = 5000;
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
  const nc = await connect({
    servers: options.servers.split(','),
    name: `fleet-${options.nodeId}`,
    // Keep trying for ever: a node outlives a NATS restart; acks wait meanwhile.
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
  });
  try {
    await ensureStream(nc);
  } catch (err) {
    await nc.close().catch(() => undefined);
    throw err;
  }
  const bus = new NatsPositionBus(nc, jetstream(nc), options);
  connections.set(bus, nc);
  return bus;
}

/** The connection of a bus made here: other bus modules (events-nats.ts) share it instead of opening their own. */
const connections = new WeakMap<PositionBus, NatsConnection>();

/** The NATS connection under `bus` (undefined for a bus not made by connectNatsBus, e.g. a test double). */
export function natsConnectionOf(bus: PositionBus): NatsConnection | undefined {
  return connections.get(bus);
}

async function ensureStream(nc: NatsConnection): Promise<void> {
  const jsm = await jetstreamManager(nc);
  // What an existing stream can be changed to (storage and retention are fixed at creation).
  const updatable = { subjects: [`${SUBJECT_PREFIX}.>`], discard: DiscardPolicy.Old, max_age: nanos(STREAM_MAX_AGE_MS) };
  try {
    // Idempotent when the stream exists with this configuration (two nodes starting together).
    await jsm.streams.add({ name: STREAM_NAME, storage: StorageType.File, retention: RetentionPolicy.Limits, ...updatable });
  } catch (err) {
    if (!(err instanceof JetStreamApiError && err.code === STREAM_NAME_IN_USE)) throw err;
    await jsm.streams.update(STREAM_NAME, updatable);
  }
}

class NatsPositionBus implements PositionBus {
  readonly nodeId: string;
  readonly stats: BusStats = { published: 0, persisted: 0, retried: 0, received: 0, skippedOwn: 0 };
  private readonly acks: AckTracker;
  private following: ConsumerMessages | undefined;
  private closed = false;

  constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly options: NatsBusOptions,
  ) {
    this.nodeId = options.nodeId;
    this.acks = new AckTracker((err) => options.log?.error({ err }, 'bus: an acknowledgement callback failed'));
  }

  publish(position: BusPosition): void {
    const seq = this.acks.next();
    this.stats.published++;
    this.send(seq, `${SUBJECT_PREFIX}.${position.companyId}`, encodePosition(this.nodeId, position), RETRY_FIRST_MS);
  }

  afterPersisted(callback: () => void): void {
    this.acks.after(callback);
  }

  drain(maxMs: number): Promise<boolean> {
    return this.acks.settled(maxMs);
  }

  async follow(sinceMs: number, apply: (position: BusPosition) => void): Promise<void> {
    const consumer = await this.js.consumers.get(STREAM_NAME, {
      deliver_policy: DeliverPolicy.StartTime,
      opt_start_time: new Date(sinceMs).toISOString(),
    });
    const messages = await consumer.consume();
    this.following = messages;
    void (async () => {
      for await (const m of messages) {
        let decoded;
        try {
          decoded = decodePosition(m.data);
        } catch (err) {
          this.options.log?.warn({ err, subject: m.subject }, 'bus: a message on the position stream was not a position');
          continue;
        }
        if (decoded.origin === this.nodeId) {
          this.stats.skippedOwn++;
          continue;
        }
        this.stats.received++;
        try {
          apply(decoded.position);
        } catch (err) {
          this.options.log?.error({ err }, 'bus: applying a position failed');
        }
      }
    })().catch((err: unknown) => {
      if (!this.closed) this.options.log?.error({ err }, 'bus: following the position stream stopped');
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (!(await this.acks.settled(PUBLISH_TIMEOUT_MS))) {
      this.options.log?.warn({ unacknowledged: this.acks.sent - this.acks.acknowledged }, 'bus: closing with positions the stream has not acknowledged (their terminals were not acknowledged either)');
    }
    this.closed = true;
    await this.following?.close().catch(() => undefined);
    await this.nc.drain().catch(() => undefined);
  }

  private send(seq: number, subject: string, data: Uint8Array, retryMs: number): void {
    this.js.publish(subject, data, { timeout: PUBLISH_TIMEOUT_MS }).then(
      () => {
        this.stats.persisted++;
        this.acks.ack(seq);
      },
      (err: unknown) => {
        if (this.closed) return;
        this.stats.retried++;
        this.options.log?.warn({ err, subject, retryMs }, 'bus: publish not acknowledged by the stream; sending again');
        setTimeout(() => this.send(seq, subject, data, Math.min(retryMs * 2, RETRY_MAX_MS)), retryMs).unref();
      },
    );
  }
}
