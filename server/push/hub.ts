/**
 * The push hub: fans live positions out to console websockets (contract in the live-monitoring notes).
 *
 * Per connection: the vehicle directory and a snapshot on connect, then position deltas. Deltas are
 * coalesced per vehicle: a vehicle is sent at most once per `minIntervalMs` (1 s), on the next tick
 * (every `tickMs`, 50 ms) after it changed — so a 1 Hz terminal is forwarded within one tick instead of
 * waiting for a 1 s batch. One frame is encoded per company scope and tick and the same bytes go to
 * every console of that scope (frames are self-contained, see proto/position.proto).
 *
 * Slow consumers (server/push/CONTEXT.md "Slow consumers"): above `highWaterBytes` buffered (the socket's
 * real `bufferedAmount`), a connection stops getting deltas, and its stored alarms are withheld instead of
 * queued; once it drains below `lowWaterBytes` it gets a fresh snapshot, and an alarm catch-up (the same
 * `alarmReplay` a reconnect gets: the newest ALARM_REPLAY_MAX since the last alarm it got, the rest
 * counted as `missed`, which the console shows with a link to the alarm list). Only a connection that
 * stops READING is closed (4008): no bytes drained for `maxBehindMs` while behind, or above
 * `maxBufferedBytes`. One that is merely behind a burst but keeps reading is never closed.
 *
 * Alarm catch-up: every connection first gets one `alarmReplay` message from the alarm store (the
 * cursor `lastId`; on a reconnect that names `alarmsAfter`, the alarms of its scope raised since, at most
 * ALARM_REPLAY_MAX, the newest, with the count of older ones that did not fit). Live alarms published
 * while that read runs are held and sent after it, and any whose id the replay already covered is
 * skipped: no duplicate, no hole (proto/README.md "Alarms across a reconnect").
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { deriveState, type VehicleState } from '../../domain/vehicle/state.ts';
import { Commands, DirectoryKind, FrameKind, PushEncoder, type DirectoryEntry, type PositionSource } from '../../proto/codec.ts';
import { jsonDirectory, jsonEnvelope, jsonPositions } from '../../proto/json.ts';
import { pathInScope, type Scope } from '../db/scope.ts';

/** What the hub reads from the latest-state store (server/live/store.ts LiveStore, contract L1 → L3). */
export interface PushStore {
  readonly count: number;
  readonly columns: {
    readonly vehicleId: Int32Array; readonly companyId: Int32Array; readonly lng: Float64Array; readonly lat: Float64Array;
    readonly speed: Float32Array; readonly heading: Uint16Array; readonly statusFlags: Uint32Array; readonly alarmFlags: Uint32Array;
    readonly gpsTime: Float64Array; readonly lastContact: Float64Array;
  };
  companyPathOf(slot: number): string;
  onChange(listener: (slot: number) => void): () => void;
  readonly clock: () => number;
}

/** Plates and terminal numbers of the vehicles a console may see. */
export interface DirectorySource {
  inScope(scope: Scope): Promise<DirectoryEntry[]>;
  byIds(vehicleIds: readonly number[]): Promise<DirectoryEntry[]>;
}

export interface PushOptions {
  /** Flush period. @default 50 */
  tickMs: number;
  /** A vehicle is sent at most once per this period (1 Hz coalescing). @default 1000 */
  minIntervalMs: number;
  /** Buffered bytes above which a connection stops getting deltas. @default 2 MiB (≈ two 100k snapshots) */
  highWaterBytes: number;
  /** Buffered bytes below which a connection that fell behind gets its fresh snapshot. @default 256 KiB */
  lowWaterBytes: number;
  /** Buffered bytes above which a connection is closed (alarms included, memory is bounded). @default 32 MiB */
  maxBufferedBytes: number;
  /**
   * A connection that is behind (or has alarms withheld) and drained no byte for this long is closed:
   * it stopped reading. Progress, not lateness: a console behind a burst that keeps reading stays.
   * @default 30000
   */
  maxBehindMs: number;
  /**
   * Cork console sockets around a run of alarm messages (one writev per console per stored batch).
   * On by default since issue 16: measured the fair way (bench/alarm-push.bench.ts, the shipped mode
   * against one write per message, ABBA in one process) it costs 1.34–1.48× less server CPU per alarm,
   * and the end-to-end storm never showed it worse. `false` is the benchmarks' baseline. @default true
   */
  corkAlarms: boolean;
}

export const DEFAULT_PUSH_OPTIONS: PushOptions = {
  tickMs: 50, minIntervalMs: 1000, highWaterBytes: 2 << 20, lowWaterBytes: 256 << 10, maxBufferedBytes: 32 << 20, maxBehindMs: 30_000, corkAlarms: true,
};

/** Close codes the console understands (4000–4999 are application codes). */
export const PushClose = { SlowConsumer: 4008, ServerClosing: 1001 } as const;

export interface PushStats {
  connections: number;
  deltaFrames: number;
  snapshots: number;
  /** Snapshots sent to connections that had fallen behind. */
  resnapshots: number;
  /** Connections closed because they stopped reading (or exceeded maxBufferedBytes). */
  slowClosed: number;
  /** Stored alarms not queued to a connection under pressure (each is in a later catch-up or its `missed`). */
  alarmsWithheld: number;
  /** Catch-ups sent to connections that had alarms withheld, once they drained. */
  alarmCatchUps: number;
  alarms: number;
  /** Alarms sent in catch-up replays. */
  alarmsReplayed: number;
  /** Live alarms not sent because the connection's replay already held them. */
  alarmsDeduplicated: number;
  /** Corked alarm batches written out (one per synchronous publishing run). */
  alarmFlushes: number;
  /** `alarmHandled` messages sent (one per console in scope and company of a handling). */
  handled: number;
  bytesSent: number;
  /** Vehicles forwarded in deltas. */
  positions: number;
}

export interface AlarmMessage {
  readonly [field: string]: unknown;
}

/**
 * The most alarms one catch-up replays: the largest client-held list of the spec (safety and
 * online-reminder events, 500 each, §8); a console cannot hold more, so more would only cost bytes.
 */
export const ALARM_REPLAY_MAX = 500;
/** Older missed alarms are counted up to this many (the count is a bounded read, see AlarmCatchUp). */
export const ALARM_GAP_COUNT_CAP = 100_000;

/** `commandBody.data` of the `alarmReplay` message. */
export interface AlarmReplay {
  /** The `alarmsAfter` the console sent; null on a first connect (nothing is replayed then). */
  readonly after: number | null;
  /** Every alarm with an id up to this one is accounted for: the console's next `alarmsAfter`. */
  readonly lastId: number;
  /** Alarms of the connection's scope with after < id ≤ lastId, oldest first, at most ALARM_REPLAY_MAX. */
  readonly alarms: readonly AlarmMessage[];
  /** Alarms after `after` older than the first replayed one that were not sent (the gap). */
  readonly missed: number;
  /** `missed` hit ALARM_GAP_COUNT_CAP: at least that many. */
  readonly missedCapped: boolean;
}

/**
 * `commandBody.data` of the `alarmHandled` message (proto/README.md "Alarm handlings"): an operator
 * handled alarms (list, pop-up, board) or took a step on a board item. One message per company of the
 * handled alarms, sent like an alarm to every console whose scope holds that company, so the other
 * consoles refresh their list rows, board counts and pop-up queue within a second.
 */
export interface AlarmHandled {
  /** The alarms of this company whose processing state changed (empty for a board step that handled none). */
  readonly alarmIds: readonly number[];
  /** Their new processing state (DealStatus), null when no alarm changed. */
  readonly dealStatus: number | null;
  /** The board item a board step was taken on; null for a handling from the list or the pop-up. */
  readonly boardItemId: number | null;
  /** Who handled: that operator's own pop-up keeps the alarm it handled on screen (next steps). */
  readonly userId: number;
  readonly time: number;
}

/** Reads a catch-up from the alarm store (server/push/index.ts builds it over storage.alarms). */
export interface AlarmReplaySource {
  since(scope: Scope, afterId: number | undefined): Promise<AlarmReplay>;
}

type Mode = 'pending' | 'live' | 'behind';

/** A message held during a catch-up read: a handling must not overtake the replayed alarm it handles. */
type Held = { readonly alarm: AlarmMessage } | { readonly handled: AlarmHandled };

/** How long a scope's directory is reused by new connections (new vehicles invalidate it at once). */
const DIRECTORY_TTL_MS = 60_000;

interface CachedDirectory {
  entries: DirectoryEntry[];
  binary?: Uint8Array;
  json?: string;
}

interface Client {
  readonly ws: WebSocket;
  readonly json: boolean;
  readonly group: Group;
  mode: Mode;
  closing: boolean;
  /** Live alarms (and handlings) published while the catch-up read runs, sent right after it in order; null otherwise. */
  held: Held[] | null;
  /** Live alarms with an id ≤ this were in the catch-up replay (−∞: no replay). */
  alarmFloor: number;
  /** Every alarm with an id up to this one was sent to this connection or replayed to it (its catch-up cursor). */
  alarmCursor: number;
  /** Stored alarms withheld under pressure since the last catch-up; > 0: every newer one is withheld too. */
  withheld: number;
  /** Bytes handed to the socket (frame headers included): `queued − bufferedAmount` is what it drained. */
  queued: number;
  /** The most it had drained at the last check, and when that grew (store clock): the stall rule. */
  drained: number;
  progressAt: number;
  /** The signed-in user of this console (per-user messages); undefined for a wall's display credential. */
  readonly userId: number | undefined;
}

interface Group {
  readonly key: string;
  readonly scope: Scope;
  readonly clients: Set<Client>;
  /** companyId → inside the scope; cleared every tick (companies can move). */
  readonly companies: Map<number, boolean>;
  /** The snapshot built since the last tick, shared by connections asking before the next one. */
  snapshot?: { at: number; rows: number[]; binary?: Uint8Array; json?: string };
}

const OPEN = 1;

export class PushHub {
  readonly stats: PushStats = {
    connections: 0, deltaFrames: 0, snapshots: 0, resnapshots: 0, slowClosed: 0, alarmsWithheld: 0, alarmCatchUps: 0, alarms: 0, alarmsReplayed: 0, alarmsDeduplicated: 0, alarmFlushes: 0, handled: 0,
    bytesSent: 0, positions: 0,
  };
  private options: PushOptions;
  private readonly groups = new Map<string, Group>();
  private readonly directories = new Map<string, { at: number; count: number; value: Promise<CachedDirectory> }>();
  private readonly encoder = new PushEncoder();
  private dirtyFlag = new Uint8Array(1024);
  private lastSent = new Float64Array(1024).fill(-Infinity);
  /** Motion state per slot (deriveState without the offline rule, the worker derives offline). */
  private motion = new Uint8Array(1024);
  private dirty: number[] = [];
  /** Sockets corked by publishAlarm, uncorked together on the next tick. */
  private readonly corked = new Map<Client, Duplex>();
  private knownCount: number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly unsubscribe: () => void;
  /** Called after each tick with the slots sent (the fan-out benchmark measures latency from it). */
  onTick: ((now: number, sent: number) => void) | undefined;
  /** Called once per published alarm, before the fan-out (the alarm counter of server/ops/metrics.ts). */
  onAlarm: ((alarm: AlarmMessage) => void) | undefined;
  /**
   * Issue 20: hands every alarm and handling published on this node to the other push nodes
   * (server/bus/events.ts, set only with NATS_URL). What arrives from them goes to `deliverAlarm` /
   * `deliverHandled`: this node's consoles only, not relayed again, not counted as raised here.
   */
  relay: { alarm(companyPath: string, alarm: AlarmMessage): void; handled(companyPath: string, handled: AlarmHandled): void } | undefined;

  constructor(
    private readonly store: PushStore,
    private readonly directory: DirectorySource,
    options: Partial<PushOptions> = {},
    /** Without one (the benchmarks' bare hub) no catch-up message is sent. */
    private readonly alarmSource?: AlarmReplaySource,
  ) {
    this.options = { ...DEFAULT_PUSH_OPTIONS, ...options };
    this.knownCount = store.count;
    this.unsubscribe = store.onChange((slot) => this.markDirty(slot));
  }

  /** Connections currently skipped for being behind (waiting to drain for a fresh snapshot). */
  behindCount(): number {
    let n = 0;
    for (const g of this.groups.values()) for (const c of g.clients) if (c.mode === 'behind') n++;
    return n;
  }

  setOptions(options: Partial<PushOptions>): void {
    const restart = options.tickMs !== undefined && options.tickMs !== this.options.tickMs;
    this.options = { ...this.options, ...options };
    if (restart && this.timer) {
      this.stop();
      this.start();
    }
  }

  /** Whether ticks run (readiness, server/ops/health.ts). */
  get running(): boolean {
    return this.timer !== undefined;
  }

  /** performance.now() when the ticks last started: readiness counts a hub just started as ticking (its first tick is tickMs away). */
  startedAt = -Infinity;

  start(): void {
    if (this.timer) return;
    this.startedAt = performance.now();
    this.timer = setInterval(() => this.tick(), this.options.tickMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  close(): void {
    this.stop();
    this.unsubscribe();
    for (const g of this.groups.values()) for (const c of g.clients) c.ws.close(PushClose.ServerClosing, 'server closing');
  }

  /**
   * Adds a connection: sends the alarm catch-up (`alarmsAfter`: the highest alarm id this console
   * received before it lost its connection), the directory, then a snapshot, then deltas. Alarms
   * published during the catch-up read are sent right after it, and those published while the
   * directory loads right away (never held back longer or dropped).
   */
  async connect(ws: WebSocket, scope: Scope, json: boolean, alarmsAfter?: number, userId?: number): Promise<void> {
    const group = this.groupOf(scope);
    const client: Client = {
      ws, json, group, mode: 'pending', closing: false, held: null, alarmFloor: -Infinity, userId,
      alarmCursor: -Infinity, withheld: 0, queued: 0, drained: 0, progressAt: this.store.clock(),
    };
    group.clients.add(client);
    this.stats.connections++;
    ws.on('close', () => {
      group.clients.delete(client);
      this.stats.connections--;
      if (group.clients.size === 0) this.groups.delete(group.key);
    });
    if (this.alarmSource) await this.replayAlarms(client, alarmsAfter);
    const dir = await this.cachedDirectory(group);
    if (ws.readyState !== OPEN) return;
    this.send(client, json ? (dir.json ??= jsonDirectory(DirectoryKind.Full, dir.entries)) : (dir.binary ??= this.encoder.directory(DirectoryKind.Full, dir.entries)));
    this.sendSnapshot(client, this.store.clock());
  }

  /**
   * One catch-up: live alarms are held while the store is read (the read and the alarm service's
   * commit-then-publish may interleave), the replay goes out, then the held alarms the replay did not
   * already carry. An alarm committed before the read but published after it is in the replay and
   * skipped live (its id ≤ lastId); one committed after the read has a higher id and goes out live.
   */
  private async replayAlarms(client: Client, alarmsAfter: number | undefined): Promise<void> {
    client.held = [];
    try {
      const replay = await this.alarmSource!.since(client.group.scope, alarmsAfter);
      // Only a reconnect (or a catch-up) sets the floor: on a first connect nothing was replayed, so nothing may be skipped.
      if (alarmsAfter !== undefined) client.alarmFloor = replay.lastId;
      client.alarmCursor = Math.max(client.alarmCursor, replay.lastId);
      if (client.ws.readyState !== OPEN) return;
      this.send(client, client.json ? jsonEnvelope(Commands.alarmReplay, replay) : this.encoder.json(Commands.alarmReplay, { data: replay }));
      this.stats.alarmsReplayed += replay.alarms.length;
    } finally {
      const held = client.held;
      client.held = null;
      for (const m of held) {
        if ('alarm' in m) this.sendAlarm(client, m.alarm);
        else this.sendHandled(client, m.handled);
      }
    }
  }

  /**
   * The directory of a scope, shared by connections for DIRECTORY_TTL_MS (a 100k-vehicle directory
   * costs ≈ 1.3 s of SQLite on these machines: 50 consoles reconnecting must not pay it 50 times).
   */
  private cachedDirectory(group: Group): Promise<CachedDirectory> {
    const now = Date.now();
    let hit = this.directories.get(group.key);
    if (!hit || now - hit.at > DIRECTORY_TTL_MS || hit.count !== this.store.count) {
      const entries = this.directory.inScope(group.scope).then((list) => ({ entries: list }) as CachedDirectory);
      hit = { at: now, count: this.store.count, value: entries };
      this.directories.set(group.key, hit);
      entries.catch(() => this.directories.delete(group.key));
    }
    return hit.value;
  }

  /**
   * Sends an alarm to every console whose scope holds `companyPath`: one message per alarm (the wire
   * format consumers parse). With `corkAlarms` (the default, see PushOptions) each console socket is
   * corked on its first alarm of a synchronous run and uncorked on the next tick: the batch leaves in
   * one writev per console instead of two writes per alarm. A console above `highWaterBytes` buffered
   * does not get it queued: it is withheld (with every later one) until the console drained, then the
   * console gets one catch-up from the store (`withhold`, `catchUp`). Never silently dropped.
   */
  publishAlarm(companyPath: string, alarm: AlarmMessage): void {
    this.onAlarm?.(alarm);
    this.relay?.alarm(companyPath, alarm);
    this.deliverAlarm(companyPath, alarm);
  }

  /** `publishAlarm` to this node's consoles only (an alarm another node raised, from the bus). */
  deliverAlarm(companyPath: string, alarm: AlarmMessage): void {
    let binary: Uint8Array | undefined;
    let text: string | undefined;
    const id = alarmIdOf(alarm);
    for (const g of this.groups.values()) {
      if (!pathInScope(g.scope, companyPath)) continue;
      for (const c of g.clients) {
        if (c.closing) continue;
        if (c.held) {
          c.held.push({ alarm });
          continue;
        }
        if (id <= c.alarmFloor) {
          this.stats.alarmsDeduplicated++;
          continue;
        }
        if (this.withhold(c, id)) continue;
        if (this.options.corkAlarms) this.cork(c);
        if (c.json) this.send(c, (text ??= jsonEnvelope(Commands.alarm, alarm)));
        else this.send(c, (binary ??= this.encoder.json(Commands.alarm, { data: alarm })));
        this.stats.alarms++;
        if (id > c.alarmCursor && Number.isFinite(id)) c.alarmCursor = id;
      }
    }
  }

  /**
   * Tells every console whose scope holds `companyPath` that alarms of that company were handled (or a
   * board item changed). Rare next to alarms (one per operator action), so never corked; held during
   * a connection's catch-up read like alarms, so it cannot arrive before the replayed alarm it handles.
   */
  publishHandled(companyPath: string, handled: AlarmHandled): void {
    this.relay?.handled(companyPath, handled);
    this.deliverHandled(companyPath, handled);
  }

  /** `publishHandled` to this node's consoles only (a handling done on another node, from the bus). */
  deliverHandled(companyPath: string, handled: AlarmHandled): void {
    let binary: Uint8Array | undefined;
    let text: string | undefined;
    for (const g of this.groups.values()) {
      if (!pathInScope(g.scope, companyPath)) continue;
      for (const c of g.clients) {
        if (c.closing) continue;
        if (c.held) {
          c.held.push({ handled });
          continue;
        }
        if (c.json) this.send(c, (text ??= jsonEnvelope(Commands.alarmHandled, handled)));
        else this.send(c, (binary ??= this.encoder.json(Commands.alarmHandled, { data: handled })));
        this.stats.handled++;
      }
    }
  }

  /**
   * Sends `data` to every open console of one user (issue 19: the header's unread notice count), in any
   * mode. Rare (one per publish, read or withdrawal) and self-contained (the full count, not a delta), so
   * it is neither held during a catch-up nor replayed: a console that missed one reads the count over HTTP.
   * Walks every connection: a few hundred consoles per server, a few publishes a day.
   */
  publishToUser(userId: number, data: { readonly unread: number; readonly noticeId: number | null }): number {
    let sent = 0;
    let binary: Uint8Array | undefined;
    let text: string | undefined;
    for (const g of this.groups.values()) {
      for (const c of g.clients) {
        if (c.closing || c.userId !== userId) continue;
        if (c.json) this.send(c, (text ??= jsonEnvelope(Commands.noticeUnread, data)));
        else this.send(c, (binary ??= this.encoder.json(Commands.noticeUnread, { data })));
        sent++;
      }
    }
    return sent;
  }

  /**
   * Tells every open console that the dictionary or the system parameters changed (issue 19,
   * server/services/system-config): `{topic, version}`, and the console refetches that part. Rare (an
   * administrator's save), self-contained (a console that missed one refetches on reconnect), so never held
   * or replayed. Answers how many consoles it went to.
   */
  publishConfig(change: { readonly topic: string; readonly version: number }): number {
    let sent = 0;
    let binary: Uint8Array | undefined;
    let text: string | undefined;
    for (const g of this.groups.values()) {
      for (const c of g.clients) {
        if (c.closing) continue;
        if (c.json) this.send(c, (text ??= jsonEnvelope(Commands.configChanged, change)));
        else this.send(c, (binary ??= this.encoder.json(Commands.configChanged, { data: change })));
        sent++;
      }
    }
    return sent;
  }

  private sendHandled(c: Client, handled: AlarmHandled): void {
    if (c.closing) return;
    this.send(c, c.json ? jsonEnvelope(Commands.alarmHandled, handled) : this.encoder.json(Commands.alarmHandled, { data: handled }));
    this.stats.handled++;
  }

  /** One held alarm to one connection (after its catch-up), unless the catch-up carried it. */
  private sendAlarm(c: Client, alarm: AlarmMessage): void {
    if (c.closing) return;
    const id = alarmIdOf(alarm);
    if (id <= c.alarmFloor) {
      this.stats.alarmsDeduplicated++;
      return;
    }
    if (this.withhold(c, id)) return;
    this.send(c, c.json ? jsonEnvelope(Commands.alarm, alarm) : this.encoder.json(Commands.alarm, { data: alarm }));
    this.stats.alarms++;
    if (id > c.alarmCursor && Number.isFinite(id)) c.alarmCursor = id;
  }

  /**
   * Backpressure for alarms: a console whose socket holds more than `highWaterBytes` unsent (its real
   * `bufferedAmount`, corked bytes included) gets no more alarm messages queued; they stay in the store
   * and reach it in one catch-up once it drained (`catchUp`). Once one is withheld every later one is
   * too, so the catch-up (everything after the cursor) keeps the order. Only a stored alarm (with an id)
   * on a hub with a store to read back from can be withheld; anything else is queued as before.
   */
  private withhold(c: Client, id: number): boolean {
    if (!this.alarmSource || !Number.isFinite(id) || !Number.isFinite(c.alarmCursor)) return false;
    if (c.withheld === 0 && c.ws.bufferedAmount <= this.options.highWaterBytes) return false;
    c.withheld++;
    this.stats.alarmsWithheld++;
    return true;
  }

  /**
   * The alarms withheld from a console that has drained: one `alarmReplay` after its cursor, exactly
   * what a reconnect gets (the newest ALARM_REPLAY_MAX, older ones counted as `missed`: the console shows
   * "N more, see alarm processing" and the alarm list holds every one). Newer alarms published during the
   * read are held and sent after it. A failed read closes the socket (1011) so the console reconnects with
   * its cursor and gets the same catch-up then, rather than running on with a silent hole.
   */
  private catchUp(c: Client): void {
    const after = c.alarmCursor;
    c.withheld = 0;
    this.stats.alarmCatchUps++;
    this.replayAlarms(c, after).catch(() => {
      if (c.closing) return;
      c.closing = true;
      c.ws.close(1011, 'alarm catch-up failed: reconnect');
    });
  }

  /** Corks a console's socket until the end of this synchronous run (nested corks of ws's sender are counted). */
  private cork(c: Client): void {
    if (this.corked.has(c)) return;
    const socket = (c.ws as unknown as { _socket?: Duplex | null })._socket;
    if (!socket || socket.destroyed) return;
    socket.cork();
    this.corked.set(c, socket);
    if (this.corked.size === 1) process.nextTick(this.uncorkAll);
  }

  private readonly uncorkAll = (): void => {
    for (const socket of this.corked.values()) socket.uncork();
    this.corked.clear();
    this.stats.alarmFlushes++;
  };

  /** One flush: deltas of vehicles due, snapshots for drained connections, slow-consumer checks. */
  tick(): void {
    const now = this.store.clock();
    this.ensureCapacity(this.store.count);
    if (this.store.count > this.knownCount) this.announceNewVehicles(this.knownCount, this.store.count);
    for (const g of this.groups.values()) {
      g.companies.clear();
      // A snapshot from before this tick's deltas would miss them for a connection that skipped them.
      g.snapshot = undefined;
    }

    const due = this.takeDue(now);
    let sent = 0;
    if (due.length > 0 && this.groups.size > 0) {
      const src = this.source();
      for (const g of this.groups.values()) {
        const rows = due.filter((slot) => this.inGroup(g, slot));
        if (rows.length === 0) continue;
        let binary: Uint8Array | undefined;
        let text: string | undefined;
        for (const c of g.clients) {
          if (c.mode !== 'live' || c.closing) continue;
          if (c.ws.bufferedAmount > this.options.highWaterBytes) {
            c.mode = 'behind';
            continue;
          }
          if (c.json) this.send(c, (text ??= jsonPositions(FrameKind.Delta, now, src, rows, rows.length)));
          else this.send(c, (binary ??= this.encoder.positions(FrameKind.Delta, now, src, rows, rows.length)));
          this.stats.deltaFrames++;
          this.stats.positions += rows.length;
        }
        sent += rows.length;
      }
    }
    this.serveSlowConsumers(now);
    this.onTick?.(now, sent);
  }

  /**
   * Per connection and tick: progress (bytes the socket drained since the last check), then for a
   * connection under pressure (behind on deltas, or alarms withheld): closed when it stopped reading
   * (no progress for `maxBehindMs`) or holds more than `maxBufferedBytes`; once drained to `lowWaterBytes`,
   * a fresh snapshot and the alarm catch-up. Lateness alone never closes: a console behind a burst that
   * keeps reading catches up.
   */
  private serveSlowConsumers(now: number): void {
    for (const g of this.groups.values()) {
      for (const c of g.clients) {
        if (c.closing) continue;
        const buffered = c.ws.bufferedAmount;
        const drained = c.queued - buffered;
        if (drained > c.drained || buffered === 0) {
          c.drained = Math.max(c.drained, drained);
          c.progressAt = now;
        }
        if (c.mode !== 'behind' && c.withheld === 0) continue;
        if (buffered > this.options.maxBufferedBytes || now - c.progressAt > this.options.maxBehindMs) {
          this.closeSlow(c);
        } else if (buffered <= this.options.lowWaterBytes) {
          if (c.withheld > 0 && c.held === null) this.catchUp(c);
          if (c.mode === 'behind') {
            this.sendSnapshot(c, now);
            this.stats.resnapshots++;
          }
        }
      }
    }
  }

  private closeSlow(c: Client): void {
    c.closing = true;
    this.stats.slowClosed++;
    c.ws.close(PushClose.SlowConsumer, 'slow consumer: reconnect for a fresh snapshot');
    // The close frame waits behind the buffered data; free the memory if the peer never reads it.
    setTimeout(() => c.ws.terminate(), 5000).unref();
  }

  private sendSnapshot(c: Client, now: number): void {
    // Connections of one scope that need a snapshot between two ticks share it (a 100k snapshot costs
    // ≈ 50 ms to sort and encode; 50 consoles reconnecting after a restart must not pay it 50 times).
    const g = c.group;
    if (!g.snapshot) {
      const store = this.store;
      const rows: number[] = [];
      for (let slot = 0; slot < store.count; slot++) if (this.inGroup(g, slot)) rows.push(slot);
      const ids = store.columns.vehicleId;
      rows.sort((a, b) => ids[a]! - ids[b]!);
      for (const slot of rows) this.motion[slot] = motionOf(store, slot);
      g.snapshot = { at: now, rows };
    }
    const snap = g.snapshot;
    const src = this.source();
    const data = c.json
      ? (snap.json ??= jsonPositions(FrameKind.Snapshot, now, src, snap.rows, snap.rows.length))
      : (snap.binary ??= this.encoder.positions(FrameKind.Snapshot, now, src, snap.rows, snap.rows.length));
    this.send(c, data);
    c.mode = 'live';
    this.stats.snapshots++;
  }

  private send(c: Client, data: Uint8Array | string): void {
    if (c.ws.readyState !== OPEN) return;
    c.ws.send(data, { binary: typeof data !== 'string' });
    const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    this.stats.bytesSent += bytes;
    // The websocket frame header of a server frame (unmasked): what bufferedAmount counts besides the payload.
    c.queued += bytes + (bytes < 126 ? 2 : bytes < 65_536 ? 4 : 10);
  }

  private markDirty(slot: number): void {
    if (slot >= this.dirtyFlag.length) this.ensureCapacity(slot + 1);
    if (this.dirtyFlag[slot] === 1) return;
    this.dirtyFlag[slot] = 1;
    this.dirty.push(slot);
  }

  /** Dirty slots whose last send is at least minIntervalMs ago, sorted by vehicle id; others stay dirty. */
  private takeDue(now: number): number[] {
    const due: number[] = [];
    const keep: number[] = [];
    const min = this.options.minIntervalMs;
    for (const slot of this.dirty) {
      if (now - this.lastSent[slot]! >= min) {
        due.push(slot);
        this.dirtyFlag[slot] = 0;
        this.lastSent[slot] = now;
        this.motion[slot] = motionOf(this.store, slot);
      } else keep.push(slot);
    }
    this.dirty = keep;
    const ids = this.store.columns.vehicleId;
    due.sort((a, b) => ids[a]! - ids[b]!);
    return due;
  }

  private inGroup(g: Group, slot: number): boolean {
    if (g.scope.all) return true;
    const companyId = this.store.columns.companyId[slot]!;
    let inside = g.companies.get(companyId);
    if (inside === undefined) {
      inside = pathInScope(g.scope, this.store.companyPathOf(slot));
      g.companies.set(companyId, inside);
    }
    return inside;
  }

  private announceNewVehicles(from: number, to: number): void {
    this.knownCount = to;
    const ids = Array.from(this.store.columns.vehicleId.subarray(from, to));
    void this.directory.byIds(ids).then((entries) => {
      const paths = new Map<number, string>();
      for (let slot = from; slot < to; slot++) paths.set(this.store.columns.vehicleId[slot]!, this.store.companyPathOf(slot));
      for (const g of this.groups.values()) {
        const mine = entries.filter((e) => pathInScope(g.scope, paths.get(e.vehicleId) ?? ''));
        if (mine.length === 0) continue;
        for (const c of g.clients) {
          if (c.mode === 'pending' || c.closing) continue;
          this.send(c, c.json ? jsonDirectory(DirectoryKind.Additions, mine) : this.encoder.directory(DirectoryKind.Additions, mine));
        }
      }
    }, () => undefined);
  }

  private source(): PositionSource {
    const c = this.store.columns;
    return { vehicleId: c.vehicleId, lng: c.lng, lat: c.lat, speed: c.speed, heading: c.heading, state: this.motion, alarmFlags: c.alarmFlags, gpsTime: c.gpsTime, lastContact: c.lastContact };
  }

  private groupOf(scope: Scope): Group {
    const key = scope.all ? '*' : scope.rootPath;
    let g = this.groups.get(key);
    if (!g) {
      g = { key, scope, clients: new Set(), companies: new Map() };
      this.groups.set(key, g);
    }
    return g;
  }

  private ensureCapacity(n: number): void {
    if (n <= this.dirtyFlag.length) return;
    let size = this.dirtyFlag.length;
    while (size < n) size *= 2;
    const grow = <T extends Uint8Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.dirtyFlag = grow(this.dirtyFlag, (k) => new Uint8Array(k));
    this.motion = grow(this.motion, (k) => new Uint8Array(k));
    this.lastSent = grow(this.lastSent, (k) => new Float64Array(k).fill(-Infinity));
  }
}

/** A stored alarm's id; a message without one (tests, older publishers) is never taken for a replayed one. */
function alarmIdOf(alarm: AlarmMessage): number {
  return typeof alarm.id === 'number' ? alarm.id : Infinity;
}

/** deriveState with `now = lastContact`: driving, parking or idling, or never online. */
function motionOf(store: PushStore, slot: number): VehicleState {
  const c = store.columns;
  const contact = c.lastContact[slot]!;
  return deriveState(contact, Number.isFinite(contact) ? contact : 0, c.speed[slot]!, c.statusFlags[slot]!);
}
