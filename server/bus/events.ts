/**
 * What travels between nodes besides positions (issue 20): alarms, alarm handlings, terminal contact and
 * fleet changes. Nothing here imports NATS: `attachBusEvents` loads events-nats.ts only when NATS_URL is set.
 *
 * Each is published where a single node would have handed it on in-process, and applied on the other
 * nodes where that hand-off would have landed:
 * - **Alarms and handlings** (push/hub.ts `relay`): the alarm service's `publishAlarm` (0x0200 alarm bits and
 *   attachments, platform rules) and the safe routes' `publishHandled` (confirm, close, board steps) go to
 *   this node's consoles and to the bus; a push node hands another node's to `deliverAlarm` /
 *   `deliverHandled`, the same fan-out with the same company scoping, so its consoles get the same messages.
 * - **Contact** (live/store.ts `onContact`): a gateway node batches the contacts its terminals make without a
 *   position (heartbeats, answers, any message) per CONTACT_FLUSH_MS and publishes the latest time per
 *   vehicle; a push node `touch`es them. Offline is a timeout on every node (no contact for 3 minutes,
 *   domain/vehicle/state.ts; a disconnect marks nothing), so a push node holding the gateway's contact
 *   times marks a vehicle offline when the gateway's node would, at most one flush later.
 * - **Fleet changes** (live/fleet-sync.ts): the vehicles and devices a management call changed, published
 *   after the local FleetSync ran (after the commit); every other node runs its own FleetSync on them (they
 *   re-read the shared database): the live store's slots and companies, the gateway directory's device →
 *   vehicle entries (and its auth codes: a registration reset on an API node ends the authentication a
 *   gateway node holds). Every node follows these; only push nodes follow the rest.
 * - **Alarm rules** (alarms/service.ts `rulesRelay`): a fence, route or alarm-settings call re-reads them on
 *   its node and publishes which; every other node re-reads the same from the shared database, so the gateway
 *   node evaluating the reports raises fence, route and speed alarms by the rules just saved. On the fleet
 *   subject, in the same order as fleet changes.
 * - **Photos stored** (services/multimedia/capture.ts `storedRelay`): the gateway node that received a
 *   terminal's 0x0801 and stored it (the `media_item` row in the shared database, the file in the shared
 *   MEDIA_DIR) publishes the vehicle, channel, terminal media id and row id; every other node hands it to its
 *   multimedia service's `storedElsewhere`, which reads the row only when one of its snapshots waits for that
 *   photo (or asked that channel lately: the photo may come before the 0x0805 naming it), or it asked that
 *   vehicle for an upload of stored photos (then attributed to the user who asked). So a snapshot asked on an
 *   API node answers the photos the gateway node received, and an upload's photos are that user's, as on one node. On the fleet subject, which every
 *   node follows (a node follows one subject filter: nats-server 2.9), applied at once, not behind fleet changes.
 *
 * Events a node published itself are skipped when they come back. Contacts applied from the bus are
 * not published again.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config, Role } from '../config.ts';
import type { FleetSync } from '../live/fleet-sync.ts';
import type { LiveStore } from '../live/store.ts';
import type { AlarmRules, AlarmService } from '../alarms/service.ts';
import type { MultimediaService, StoredPhoto } from '../services/multimedia/capture.ts';
import type { AlarmHandled, AlarmMessage, PushHub } from '../push/hub.ts';

export type BusEvent =
  | { readonly kind: 'alarm'; readonly companyPath: string; readonly alarm: AlarmMessage }
  | { readonly kind: 'handled'; readonly companyPath: string; readonly handled: AlarmHandled }
  /** The latest contact time (epoch ms, the gateway's clock) of each vehicle heard from since the last batch. */
  | { readonly kind: 'contacts'; readonly vehicleIds: readonly number[]; readonly times: readonly number[] }
  | { readonly kind: 'fleet'; readonly vehicleIds: readonly number[]; readonly deviceNos: readonly string[] }
  /** Fences (all, or these ids), routes or alarm settings changed: a node evaluating reports re-reads them. */
  | { readonly kind: 'rules'; readonly what: AlarmRules; readonly ids: readonly number[] | undefined }
  /** A photo (0x0801) the publishing node stored: its row is in the shared database, its file in MEDIA_DIR. */
  | ({ readonly kind: 'media' } & StoredPhoto);

export interface EventBusStats {
  /** Events handed to the bus by this node. */
  published: number;
  /** Of those, persisted in the stream (PubAck received). */
  persisted: number;
  /** Publishes that failed and were sent again. */
  retried: number;
  /** Other nodes' events applied here. */
  received: number;
  /** Own events seen on the stream and skipped. */
  skippedOwn: number;
}

export interface EventBus {
  readonly nodeId: string;
  readonly stats: EventBusStats;
  /** Publishes without waiting; a failed publish is sent again until it is persisted or the bus closes. */
  publish(event: BusEvent): void;
  /** Follows other nodes' events from `sinceMs` (epoch ms): every kind, or only fleet changes. */
  follow(sinceMs: number, only: 'fleet' | undefined, apply: (event: BusEvent) => void): Promise<void>;
  /** Stops following, waits (bounded) for outstanding PubAcks, closes the connection. */
  close(): Promise<void>;
}

/** How often a gateway node publishes its terminals' contacts (the most a push node's lastContact lags). */
export const CONTACT_FLUSH_MS = 1000;
/** Vehicles per contact message (≈ 14 bytes each: well under NATS's 1 MB default max payload). */
export const CONTACT_BATCH_MAX = 10_000;

/** A gateway node's contacts, the latest per vehicle, published every CONTACT_FLUSH_MS. */
export class ContactBatcher {
  private pending = new Map<number, number>();
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(private readonly publish: (event: BusEvent) => void, flushMs = CONTACT_FLUSH_MS) {
    this.timer = setInterval(() => this.flush(), flushMs);
    this.timer.unref();
  }

  note(vehicleId: number, at: number): void {
    const before = this.pending.get(vehicleId);
    if (before === undefined || at > before) this.pending.set(vehicleId, at);
  }

  flush(): void {
    if (this.pending.size === 0) return;
    const all = [...this.pending];
    this.pending = new Map();
    for (let i = 0; i < all.length; i += CONTACT_BATCH_MAX) {
      const part = all.slice(i, i + CONTACT_BATCH_MAX);
      this.publish({ kind: 'contacts', vehicleIds: part.map((p) => p[0]), times: part.map((p) => p[1]) });
    }
  }

  /** Stops the timer after one last flush. */
  stop(): void {
    clearInterval(this.timer);
    this.flush();
  }
}

export interface EventDeps {
  readonly roles: ReadonlySet<Role>;
  readonly store: Pick<LiveStore, 'touch' | 'clock' | 'onContact'>;
  readonly push: Pick<PushHub, 'relay' | 'deliverAlarm' | 'deliverHandled'>;
  /** This node's own FleetSync (what the management calls ran before this module published). */
  readonly fleetSync: FleetSync;
  /** This node's alarm service once the safety routes made it (undefined before, and in bare set-ups). */
  readonly alarms?: () => Pick<AlarmService, 'fencesChanged' | 'routesChanged' | 'reloadSettings' | 'rulesRelay'> | undefined;
  /** This node's multimedia service once its routes made it (undefined before, and in bare set-ups). */
  readonly multimedia?: () => Pick<MultimediaService, 'storedRelay' | 'storedElsewhere'> | undefined;
  readonly log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** Hooks one node's hub, store and FleetSync to the events bus (see the header). */
export class BusEventLink {
  /** The FleetSync the management calls use: this node's, then the bus. */
  readonly fleetSync: FleetSync;
  private readonly contacts: ContactBatcher | undefined;
  /** True while contacts from the bus are applied: they are not published again. */
  private applyingRemote = false;
  /** True while another node's alarm-rules change is applied: it is not published again. */
  private applyingRules = false;
  /** Fleet changes from the bus, applied one after the other in arrival order. */
  private fleetChain: Promise<void> = Promise.resolve();

  constructor(
    readonly bus: EventBus,
    private readonly deps: EventDeps,
  ) {
    const { push, store, fleetSync: local } = deps;
    push.relay = {
      alarm: (companyPath, alarm) => bus.publish({ kind: 'alarm', companyPath, alarm }),
      handled: (companyPath, handled) => bus.publish({ kind: 'handled', companyPath, handled }),
    };
    if (deps.roles.has('gateway')) {
      const contacts = new ContactBatcher((e) => bus.publish(e));
      this.contacts = contacts;
      store.onContact = (vehicleId, at) => {
        if (!this.applyingRemote) contacts.note(vehicleId, at);
      };
    }
    this.fleetSync = {
      async vehiclesChanged(vehicleIds) {
        await local.vehiclesChanged(vehicleIds);
        if (vehicleIds.length > 0) bus.publish({ kind: 'fleet', vehicleIds: [...vehicleIds], deviceNos: [] });
      },
      async devicesChanged(deviceNos) {
        await local.devicesChanged(deviceNos);
        if (deviceNos.length > 0) bus.publish({ kind: 'fleet', vehicleIds: [], deviceNos: [...deviceNos] });
      },
    };
  }

  /** Follows from `sinceMs`: a push node every event, any other node the fleet changes (and rules, photos). */
  start(sinceMs: number): Promise<void> {
    const alarms = this.deps.alarms?.();
    if (alarms) {
      alarms.rulesRelay = (what, ids) => {
        if (!this.applyingRules) this.bus.publish({ kind: 'rules', what, ids: ids === undefined ? undefined : [...ids] });
      };
    }
    const multimedia = this.deps.multimedia?.();
    if (multimedia) multimedia.storedRelay = (photo) => this.bus.publish({ kind: 'media', ...photo });
    return this.bus.follow(sinceMs, this.deps.roles.has('push') ? undefined : 'fleet', (e) => this.apply(e));
  }

  /** Another node's event. */
  apply(e: BusEvent): void {
    const { push, store, fleetSync } = this.deps;
    switch (e.kind) {
      case 'alarm':
        push.deliverAlarm(e.companyPath, e.alarm);
        return;
      case 'handled':
        push.deliverHandled(e.companyPath, e.handled);
        return;
      case 'contacts': {
        // The gateway's time (what a single node would have kept), never ahead of this node's clock.
        const now = store.clock();
        this.applyingRemote = true;
        try {
          for (let i = 0; i < e.vehicleIds.length; i++) store.touch(e.vehicleIds[i]!, Math.min(e.times[i]!, now));
        } finally {
          this.applyingRemote = false;
        }
        return;
      }
      case 'fleet':
        // FleetSync re-reads the shared database and logs its own failures (it never throws).
        this.fleetChain = this.fleetChain.then(async () => {
          if (e.deviceNos.length > 0) await fleetSync.devicesChanged(e.deviceNos);
          if (e.vehicleIds.length > 0) await fleetSync.vehiclesChanged(e.vehicleIds);
        });
        return;
      case 'rules': {
        // In the same chain as fleet changes: a fence written right after its vehicle was created finds it.
        const alarms = this.deps.alarms?.();
        if (!alarms) return;
        this.fleetChain = this.fleetChain.then(async () => {
          // Re-read here, not published again (the node that made the change did): the relay is told
          // synchronously, at the start of each call, while this flag is up.
          let reading: Promise<void> | undefined;
          this.applyingRules = true;
          try {
            if (e.what === 'fences') alarms.fencesChanged(e.ids);
            else if (e.what === 'routes') alarms.routesChanged();
            else reading = alarms.reloadSettings();
          } catch (err) {
            this.deps.log?.error({ err, what: e.what }, 'bus: re-reading the alarm rules another node changed failed');
          } finally {
            this.applyingRules = false;
          }
          await reading?.catch((err: unknown) => this.deps.log?.error({ err, what: e.what }, 'bus: re-reading the alarm rules another node changed failed'));
        });
        return;
      }
      case 'media': {
        // At once: a snapshot waits for it (its budget runs), and it depends on no fleet change.
        const photo: StoredPhoto = { vehicleId: e.vehicleId, channel: e.channel, deviceMediaId: e.deviceMediaId, itemId: e.itemId };
        this.deps.multimedia?.()?.storedElsewhere(photo).catch((err: unknown) => {
          this.deps.log?.error({ err, ...photo }, 'bus: a photo another node stored could not be read');
        });
      }
    }
  }

  /** Publishes the last contacts, unhooks, waits for fleet changes being applied, closes the bus. */
  async stop(): Promise<void> {
    this.contacts?.stop();
    this.deps.store.onContact = undefined;
    this.deps.push.relay = undefined;
    const alarms = this.deps.alarms?.();
    if (alarms) alarms.rulesRelay = undefined;
    const multimedia = this.deps.multimedia?.();
    if (multimedia) multimedia.storedRelay = undefined;
    await this.fleetChain;
    await this.bus.close();
  }
}

/**
 * Issue 20: connects the events bus when NATS_URL is set (undefined without it; NATS is not loaded then),
 * follows it once the app is ready and stops it when the app closes.
 */
export async function attachBusEvents(app: FastifyInstance, config: Config, deps: EventDeps & { readonly nodeId?: string; readonly followSince: number }): Promise<BusEventLink | undefined> {
  if (!config.natsUrl) return undefined;
  const { connectNatsEvents } = await import('./events-nats.ts');
  let bus: EventBus;
  try {
    bus = await connectNatsEvents({ servers: config.natsUrl, nodeId: deps.nodeId ?? randomBytes(6).toString('base64url'), log: deps.log });
  } catch (err) {
    throw new Error(`NATS_URL: could not connect to ${config.natsUrl.replace(/\/\/[^@/]*@/g, '//…@')} or set up the event stream: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const link = new BusEventLink(bus, deps);
  app.addHook('onReady', async () => link.start(deps.followSince));
  // onClose runs after every preClose (the gateway's and the alarm service's stops: their last contacts and
  // alarms still go out), and before the storage's own onClose (registered earlier, run later).
  app.addHook('onClose', async () => link.stop());
  return link;
}
