/**
 * The events bus on NATS JetStream (issue 20, events.ts), loaded only when NATS_URL is set.
 *
 * Stream `FLEET_EVT`, file storage, limits retention, the same max age as FLEET_POS (STREAM_MAX_AGE_MS):
 * - `fleet.evt.alarm.<companyId>`, `fleet.evt.handled.<companyId>`: alarms and handlings, one subject per
 *   company (the alarm's own, the last id of its path) like positions, so a node could follow some only.
 * - `fleet.evt.contact`: a gateway node's contact batches (one per CONTACT_FLUSH_MS at most).
 * - `fleet.evt.fleet`: vehicles and devices a management call changed, alarm-rule changes and stored photos
 *   (every node follows it).
 *
 * JetStream rather than core NATS: a push node must not silently miss an alarm. Core NATS delivers only to
 * subscribers connected at that moment, so an alarm published while a push node reconnects (a NATS
 * restart, a network blip) would be gone for it, and its consoles would learn of the alarm only on their
 * own next reconnect (the hub's catch-up reads the database). The stream keeps each event for the max age,
 * and the ordered consumer resumes after a gap or reconnect from the last sequence it saw: every event
 * once, in order. Likewise a fleet change a gateway missed would leave its directory wrong until a restart.
 * A publisher retries until the stream stored it (PubAck); an alarm is in the database before it is
 * published, so a gateway killed before its PubAck loses only the live push (the consoles' catch-up has it).
 *
 * A separate connection from the position bus: this one closes last (after the gateway's and the alarm
 * service's stops), the position bus closes with the gateway.
 */
import { jetstream, type ConsumerMessages, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { decodeEvent, encodeEvent } from './events-codec.ts';
import type { BusEvent, EventBus, EventBusStats } from './events.ts';
import { connectWithStream, followStream, publishPersisted, PUBLISH_TIMEOUT_MS } from './nats.ts';

export const EVENT_STREAM_NAME = 'FLEET_EVT';
export const EVENT_SUBJECT_PREFIX = 'fleet.evt';
export const FLEET_SUBJECT = `${EVENT_SUBJECT_PREFIX}.fleet`;

export interface NatsEventsOptions {
  readonly servers: string;
  readonly nodeId: string;
  readonly log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** The company id a subject names: the last id of the company path ('/1/3/12/' → 12), 0 when there is none. */
export function companyOfPath(companyPath: string): number {
  const ids = companyPath.split('/').filter(Boolean);
  const last = Number(ids.at(-1));
  return Number.isInteger(last) && last > 0 ? last : 0;
}

export function eventSubject(e: BusEvent): string {
  switch (e.kind) {
    case 'alarm': return `${EVENT_SUBJECT_PREFIX}.alarm.${companyOfPath(e.companyPath)}`;
    case 'handled': return `${EVENT_SUBJECT_PREFIX}.handled.${companyOfPath(e.companyPath)}`;
    case 'contacts': return `${EVENT_SUBJECT_PREFIX}.contact`;
    case 'fleet':
    case 'rules':
    case 'media': return FLEET_SUBJECT; // every node follows these, in one order
  }
}

/** Connects, makes sure the stream exists with this configuration, and answers the events bus. */
export async function connectNatsEvents(options: NatsEventsOptions): Promise<EventBus> {
  const nc = await connectWithStream(options.servers, `fleet-events-${options.nodeId}`, EVENT_STREAM_NAME, EVENT_SUBJECT_PREFIX);
  return new NatsEventBus(nc, jetstream(nc), options);
}

class NatsEventBus implements EventBus {
  readonly nodeId: string;
  readonly stats: EventBusStats = { published: 0, persisted: 0, retried: 0, received: 0, skippedOwn: 0 };
  private following: ConsumerMessages | undefined;
  private closed = false;
  /** Published and not yet persisted. */
  private outstanding = 0;
  private readonly drained = new Set<() => void>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly options: NatsEventsOptions,
  ) {
    this.nodeId = options.nodeId;
  }

  publish(event: BusEvent): void {
    if (this.closed) return;
    this.stats.published++;
    this.outstanding++;
    publishPersisted(this.js, eventSubject(event), encodeEvent(this.nodeId, event), {
      stats: this.stats, closed: () => this.closed, log: this.options.log,
      stored: () => {
        if (--this.outstanding === 0) for (const done of [...this.drained]) done();
      },
    });
  }

  async follow(sinceMs: number, only: 'fleet' | undefined, apply: (event: BusEvent) => void): Promise<void> {
    this.following = await followStream(this.js, {
      stream: EVENT_STREAM_NAME, sinceMs, filter: only === 'fleet' ? FLEET_SUBJECT : undefined, nodeId: this.nodeId, stats: this.stats, what: 'event',
      log: this.options.log, closed: () => this.closed, decode: decodeEvent, apply: (d) => apply(d.event),
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (!(await this.settled(PUBLISH_TIMEOUT_MS))) {
      this.options.log?.warn({ unacknowledged: this.outstanding }, 'bus: closing with events the stream has not acknowledged (other nodes miss them live)');
    }
    this.closed = true;
    await this.following?.close().catch(() => undefined);
    await this.nc.drain().catch(() => undefined);
  }

  /** True once every event published so far is persisted, false after `maxMs`. */
  private settled(maxMs: number): Promise<boolean> {
    if (this.outstanding === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        this.drained.delete(done);
        resolve(ok);
      };
      const done = () => finish(true);
      const timer = setTimeout(() => finish(false), maxMs);
      this.drained.add(done);
    });
  }
}
