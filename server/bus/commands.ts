/**
 * Commands to terminals across nodes (issue 20 scale-out), on NATS core request/reply. Loaded only when
 * NATS_URL is set (index.ts `attachCommandBus` imports it lazily); a single node never loads it and its
 * gateway answers every command from its own connections as before.
 *
 * Routing: one subject per vehicle, `fleet.cmd.<vehicleId>`. The gateway node on which the vehicle's
 * terminal is authenticated subscribes to it at each authentication (the gateway's reachability
 * listener) and unsubscribes when the terminal stops being reachable there (connection closed, logged
 * out, authenticated elsewhere, device moved). So a request meeting no subscriber ("no responders",
 * answered by the NATS server at once) means no gateway holds the terminal: `offline`, exactly what a
 * single node answers. Services address vehicles, not devices, so the API node needs no device
 * directory; the gateway resolves the vehicle to its connection as it always did.
 *
 * A request carries the structured message (msgpackr, 64-bit integers as bigint both ways: the
 * alarm-flag fields of 0x9201/0x9206 are bigints) and the caller's timeout; the gateway node sends it
 * on the terminal's connection through its in-process commander (`gateway.local`, never back to the
 * bus) and replies with the outcome: the 0x0001 result, the answer message, offline or timeout, and the
 * platform serial used. The caller waits for the reply a little longer than the gateway waits for the
 * terminal (REPLY_MARGIN_MS; with a JT/T 808 §4.4 retransmission policy, its whole schedule plus
 * LONG_SEND_ALLOWANCE_MS for the sending); no reply by then (the gateway node died meanwhile) is a
 * `timeout`. `onSerial` is called when the reply arrives, not when the frame leaves as on one node.
 *
 * Last authentication wins across nodes as within one: a gateway node announces each authentication on
 * `fleet.term.auth` (node, device, vehicle, time); another gateway node still holding that device on an
 * older authentication releases it (`gateway.displace`), which unsubscribes its vehicle. Until that
 * notice lands (milliseconds) two gateways may answer one request; the first reply is taken. The time
 * compared is each node's clock: nodes must keep NTP time (a skew longer than a reconnect keeps the old,
 * usually dead, connection subscribed until its idle timeout).
 *
 * Presence, for the synchronous `isReachable` checks of the services (a console's "offline" refusal
 * before sending, the online flags of lists, command tasks sent at once): every node keeps which vehicle
 * is reachable on which other gateway node, from the same `fleet.term.auth` notices and `fleet.term.gone`
 * (no longer reachable there). Core NATS is at-most-once, so each gateway node also sends a beat every
 * BEAT_MS with the count of its reachable vehicles: a node whose view of that gateway counts otherwise
 * asks it for its list (`fleet.term.list.<node>`), a gateway silent for BEATS_LOST beats is forgotten
 * (crashed), and one stopping says so (`fleet.term.bye`). A starting node asks every gateway for its
 * list. A stale "reachable" costs nothing worse than single-node behaviour: the command then meets no
 * responders and answers offline.
 *
 * Terminal messages that complete a command later are handled where the terminal is connected: every
 * node registers the same handlers on its gateway, so the gateway node runs them against the shared
 * database. What that covers and what it does not, across nodes:
 * - 0x1206 (a recording upload finished, after a 0x9206): the task in the database is settled by the
 *   gateway node; the serial it matches by is stored when the 0x9206's reply returns (see `onSerial`).
 *   The FTP credentials it revokes are the gateway node's receiver's; a separate media node's receiver
 *   keeps them until its idle sweep.
 * - Queued command tasks (parameters, upgrades, voice, ...) are sent by the gateway node's task service
 *   when the terminal authenticates there (shared task tables); one created on an API node for a terminal
 *   reachable elsewhere is sent at once over the bus. Both at the same instant could send a task twice.
 * - 0x0801 photos of a snapshot (0x8801 → 0x0805 over the bus): stored by the gateway node (the
 *   `media_item` row in the shared database, the file in MEDIA_DIR, the directory every node mounts at one
 *   path), which publishes each on the events bus (events.ts, kind `media`); the API node that asked
 *   resolves its waiting snapshot from that event, reading the row, and attributes the photos to its
 *   request as one node does. Photos of a stored-media upload asked on an API node (0x8805 / 0x8803) come
 *   the same way: the asking node, told by the same event, attributes them to the user who asked (its
 *   `expectUpload` memory). Until that attribution the gateway node's row reads as the terminal's own
 *   capture (source 'event'): an asking node that dies meanwhile leaves it so.
 * - Upgrade packages (0x8108) are read from their file by the gateway node, in ITS OWN upgrade-packages
 *   directory (MEDIA_DIR/upgrade-packages, `upgradeDir`): the request names the file as the API node that took
 *   the upload sees it, and the gateway keeps only its name (the package's SHA-256). So the shared mount may sit
 *   at another path on each node, and a bus message cannot make a gateway send a terminal any other file of its
 *   machine. A gateway whose MEDIA_DIR is not the shared one fails the send there (logged) and the command ends
 *   unanswered. Test: two-node-commands.pgtest.ts (the API node's mount path gone before the push).
 *
 * Its own connection, apart from the position stream's: a command's round trip never queues behind a
 * burst of position publishes or the stream consumer's flow control.
 */
import path from 'node:path';
import { connect, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { Packr } from 'msgpackr';
import type { Jt808Gateway } from '../gateway/server.ts';
import type { Jt808Message, Jt808MessageInput } from '../gateway/jt808/index.ts';
import { UPGRADE_MSG, type UpgradePackage } from '../gateway/jt808/upgrade.ts';
import type { CommandOutcome, RemoteTerminals, RequestOutcome } from '../gateway/types.ts';

export const COMMAND_SUBJECT_PREFIX = 'fleet.cmd';
export const AUTH_SUBJECT = 'fleet.term.auth';
export const GONE_SUBJECT = 'fleet.term.gone';
export const BEAT_SUBJECT = 'fleet.term.beat';
export const BYE_SUBJECT = 'fleet.term.bye';
export const LIST_SUBJECT_PREFIX = 'fleet.term.list';
/** Bumped when a message's shape changes; a node ignores (or answers an error to) another version. */
export const COMMAND_CODEC_VERSION = 1;
/** How much longer the caller waits for the reply than the gateway waits for the terminal. */
export const REPLY_MARGIN_MS = 2000;
/** Added to a retransmitted (long) message's wait for the time its sub-packages take to send. */
export const LONG_SEND_ALLOWANCE_MS = 5 * 60_000;
export const BEAT_MS = 5000;
/** A gateway node not heard for this many beats is taken as gone, with its terminals. */
export const BEATS_LOST = 3;
/** Vehicle ids per message of a list answer (a NATS message is at most 1 MB by default). */
const LIST_CHUNK = 20_000;
/** How long a node gathers gateways' lists at most, and how long a silence ends the gathering from all of them. */
const LIST_WAIT_MS = 2000;
const LIST_STALL_MS = 300;

/** 64-bit integers unpack as bigint (they are packed only from bigints; numbers above 32 bits travel as float64). */
const codec = new Packr({ useRecords: false, int64AsType: 'bigint' });

type Log = { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

/** What travels to the gateway node: a 0x0001-answered command or a request for an answer message. */
type WireRequest =
  | { v: number; op: 'command'; message: Jt808MessageInput; timeoutMs: number }
  | { v: number; op: 'request'; message: Jt808MessageInput; answerId: number; timeoutMs: number };

/** What comes back: the outcome as the gateway's in-process commander answered it, or its error. */
interface WireReply {
  v: number;
  kind: 'reply' | 'answer' | 'offline' | 'timeout' | 'error';
  result?: number;
  retransmissions?: number;
  message?: Jt808Message;
  serial?: number;
  error?: string;
}

/** Longest the gateway node can wait for the terminal on this message: the caller waits this plus the margin. */
export function gatewayWaitMs(message: Jt808MessageInput, timeoutMs: number): number {
  const policy = 'retransmit' in message ? (message.retransmit as { timeoutMs: number; retries: number } | undefined) : undefined;
  if (!policy) return timeoutMs;
  // JT/T 808 §4.4: T(n+1) = T(n) × (n+1) after the n-th retransmission, N of them; then the answer's own wait.
  let t = policy.timeoutMs;
  let total = t;
  for (let n = 1; n <= policy.retries; n++) {
    t *= n + 1;
    total += t;
  }
  return total + timeoutMs + LONG_SEND_ALLOWANCE_MS;
}

export function encodeRequest(r: WireRequest): Uint8Array {
  return codec.pack(r);
}

export function decodeRequest(data: Uint8Array): WireRequest {
  const r = codec.unpack(data) as Partial<WireRequest> | undefined;
  if (!r || typeof r !== 'object' || r.v !== COMMAND_CODEC_VERSION || (r.op !== 'command' && r.op !== 'request') || typeof r.message !== 'object'
    || r.message === null || typeof r.timeoutMs !== 'number' || (r.op === 'request' && typeof r.answerId !== 'number')) {
    throw new Error(`bus: not a command request of codec version ${COMMAND_CODEC_VERSION}`);
  }
  return r as WireRequest;
}

export function encodeReply(outcome: CommandOutcome | RequestOutcome, serial: number | undefined): Uint8Array {
  const reply: WireReply = { v: COMMAND_CODEC_VERSION, kind: outcome.kind };
  if (outcome.kind === 'reply') reply.result = outcome.result;
  if (outcome.kind === 'answer') reply.message = outcome.message;
  if (outcome.kind === 'timeout' && outcome.retransmissions !== undefined) reply.retransmissions = outcome.retransmissions;
  if (serial !== undefined) reply.serial = serial;
  return codec.pack(reply);
}

/** The outcome and serial of a reply; throws the gateway node's error (as the in-process send would have thrown). */
export function decodeReply(data: Uint8Array): { outcome: CommandOutcome | RequestOutcome; serial: number | undefined } {
  const r = codec.unpack(data) as WireReply | undefined;
  if (!r || typeof r !== 'object' || r.v !== COMMAND_CODEC_VERSION) throw new Error(`bus: not a command reply of codec version ${COMMAND_CODEC_VERSION}`);
  const serial = typeof r.serial === 'number' ? r.serial : undefined;
  switch (r.kind) {
    case 'reply':
      if (typeof r.result !== 'number') break;
      return { outcome: { kind: 'reply', result: r.result }, serial };
    case 'answer':
      if (typeof r.message !== 'object' || r.message === null) break;
      return { outcome: { kind: 'answer', message: r.message }, serial };
    case 'offline':
      return { outcome: { kind: 'offline' }, serial };
    case 'timeout':
      return { outcome: typeof r.retransmissions === 'number' ? { kind: 'timeout', retransmissions: r.retransmissions } : { kind: 'timeout' }, serial };
    case 'error':
      throw new Error(`gateway node: ${r.error ?? 'the command failed'}`);
  }
  throw new Error('bus: a command reply without its outcome');
}

export interface CommandBusStats {
  /** Commands this node sent to another gateway node (requests), by how they ended. */
  sent: number;
  offline: number;
  timedOut: number;
  /** Commands other nodes sent through this gateway node. */
  served: number;
  /** Vehicles with a command subscription on this node (reachable here). */
  subscribed: number;
  /** Authentications here released because the terminal authenticated later on another node. */
  displaced: number;
  /** Lists asked of a gateway node because its beat's count differed from this node's view. */
  resyncs: number;
}

export interface CommandBus extends RemoteTerminals {
  readonly nodeId: string;
  readonly stats: CommandBusStats;
  /** Vehicles this node knows reachable on other gateway nodes. */
  readonly remoteReachable: number;
  close(): Promise<void>;
}

export interface CommandBusOptions {
  readonly servers: string;
  readonly nodeId: string;
  /** This node runs the gateway role: it serves commands for its terminals and announces them. */
  readonly serve: boolean;
  readonly log?: Log;
  /** Beat period (tests shorten it). @default BEAT_MS */
  readonly beatMs?: number;
  /** Where this node finds upgrade packages (config.ts `upgradePackagesDirOf`); a 0x8108's file is read there by its name. */
  readonly upgradeDir?: string;
}

/** A served command's upgrade package read from this node's own `upgradeDir`, by its file name only (see the header). */
export function ownPackageFile(message: Jt808MessageInput, upgradeDir: string | undefined): Jt808MessageInput {
  if (message.msgId !== UPGRADE_MSG.ISSUE || upgradeDir === undefined) return message;
  const m = message as UpgradePackage;
  return m.file ? { ...m, file: { path: path.join(upgradeDir, path.basename(m.file.path)), size: m.file.size } } : m;
}

/**
 * Connects and attaches to `gateway`: its commands for vehicles not connected here go over the bus, and
 * (with `serve`) the vehicles connected here answer other nodes' commands.
 */
export async function connectCommandBus(gateway: Jt808Gateway, options: CommandBusOptions): Promise<CommandBus> {
  const nc = await connect({
    servers: options.servers.split(','),
    name: `fleet-cmd-${options.nodeId}`,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
  });
  const bus = new NatsCommandBus(nc, gateway, options);
  await bus.start();
  gateway.attachRemote(bus);
  return bus;
}

/** Another gateway node's reachable vehicles, as this node knows them. */
interface RemoteNode {
  readonly vehicles: Set<number>;
  lastBeat: number;
}

class NatsCommandBus implements CommandBus {
  readonly nodeId: string;
  readonly stats: CommandBusStats = { sent: 0, offline: 0, timedOut: 0, served: 0, subscribed: 0, displaced: 0, resyncs: 0 };
  /** This node's command subscriptions, by vehicle. */
  private readonly subscriptions = new Map<number, Subscription>();
  /** Which other gateway node each vehicle is reachable on. */
  private readonly where = new Map<number, string>();
  private readonly nodes = new Map<string, RemoteNode>();
  private readonly listing = new Set<string>();
  private readonly subs: Subscription[] = [];
  private beat: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly nc: NatsConnection,
    private readonly gateway: Jt808Gateway,
    private readonly options: CommandBusOptions,
  ) {
    this.nodeId = options.nodeId;
  }

  get remoteReachable(): number {
    return this.where.size;
  }

  async start(): Promise<void> {
    this.on(AUTH_SUBJECT, (m) => this.onAuth(m));
    this.on(GONE_SUBJECT, (m) => this.onGone(m));
    this.on(BEAT_SUBJECT, (m) => this.onBeat(m));
    this.on(BYE_SUBJECT, (m) => this.onBye(m));
    const beatMs = this.options.beatMs ?? BEAT_MS;
    if (this.options.serve) {
      this.on(`${LIST_SUBJECT_PREFIX}.${this.nodeId}`, (m) => this.answerList(m));
      this.on(`${LIST_SUBJECT_PREFIX}.all`, (m) => this.answerList(m));
      this.gateway.onReachability((vehicleId, phone) => this.guard(() => (phone === null ? this.unreachable(vehicleId) : this.reachable(vehicleId, phone))));
      // Terminals already connected (none at start; the gateway listens after the app is built).
      for (const r of this.gateway.reachableHere()) this.reachable(r.vehicleId, r.phone);
    }
    this.beat = setInterval(() => this.guard(() => this.tick(beatMs)), beatMs);
    this.beat.unref();
    // Our subscriptions are in before anything is asked or announced.
    await this.nc.flush();
    await this.gatherLists(`${LIST_SUBJECT_PREFIX}.all`);
  }

  // ---- caller side ----------------------------------------------------------------------------

  isReachable(vehicleId: number): boolean {
    return this.where.has(vehicleId);
  }

  async sendCommand(vehicleId: number, message: Jt808MessageInput, timeoutMs = 10_000, onSerial?: (serial: number) => void): Promise<CommandOutcome> {
    const got = await this.ask(vehicleId, { v: COMMAND_CODEC_VERSION, op: 'command', message, timeoutMs }, gatewayWaitMs(message, timeoutMs), onSerial);
    return got.kind === 'answer' ? { kind: 'reply', result: 0 } : got;
  }

  request(vehicleId: number, message: Jt808MessageInput, answerId: number, timeoutMs = 10_000): Promise<RequestOutcome> {
    return this.ask(vehicleId, { v: COMMAND_CODEC_VERSION, op: 'request', message, answerId, timeoutMs }, gatewayWaitMs(message, timeoutMs));
  }

  private async ask(vehicleId: number, req: WireRequest, waitMs: number, onSerial?: (serial: number) => void): Promise<CommandOutcome | RequestOutcome> {
    if (this.closed) return { kind: 'offline' };
    this.stats.sent++;
    let msg: Msg;
    try {
      msg = await this.nc.request(`${COMMAND_SUBJECT_PREFIX}.${vehicleId}`, encodeRequest(req), { timeout: waitMs + REPLY_MARGIN_MS });
    } catch (err) {
      // No gateway subscribed to the vehicle: no gateway holds its terminal.
      if (isNoResponders(err)) {
        this.stats.offline++;
        this.forget(vehicleId);
        return { kind: 'offline' };
      }
      // No reply in time: the gateway node went away mid-command (or the bus is down).
      this.stats.timedOut++;
      this.options.log?.warn({ err, vehicleId, msgId: req.message.msgId }, 'bus: no reply from the gateway node to a command');
      return { kind: 'timeout' };
    }
    const { outcome, serial } = decodeReply(msg.data);
    if (serial !== undefined) onSerial?.(serial);
    if (outcome.kind === 'offline') this.stats.offline++;
    return outcome;
  }

  // ---- gateway side ---------------------------------------------------------------------------

  private reachable(vehicleId: number, phone: string): void {
    if (this.closed) return;
    if (!this.subscriptions.has(vehicleId)) {
      this.subscriptions.set(vehicleId, this.nc.subscribe(`${COMMAND_SUBJECT_PREFIX}.${vehicleId}`, {
        callback: (err, m) => {
          if (!err) this.serve(vehicleId, m);
        },
      }));
      this.stats.subscribed = this.subscriptions.size;
    }
    // Elsewhere it may still be held on an older authentication: last one wins.
    this.nc.publish(AUTH_SUBJECT, codec.pack([COMMAND_CODEC_VERSION, this.nodeId, phone, vehicleId, Date.now()]));
  }

  private unreachable(vehicleId: number): void {
    const sub = this.subscriptions.get(vehicleId);
    if (!sub) return;
    sub.unsubscribe();
    this.subscriptions.delete(vehicleId);
    this.stats.subscribed = this.subscriptions.size;
    if (!this.closed) this.nc.publish(GONE_SUBJECT, codec.pack([COMMAND_CODEC_VERSION, this.nodeId, vehicleId]));
  }

  /** One command for a terminal connected here: sent on its connection, the outcome replied. */
  private serve(vehicleId: number, m: Msg): void {
    this.stats.served++;
    void (async () => {
      let serial: number | undefined;
      try {
        const req = decodeRequest(m.data);
        const outcome = req.op === 'command'
          ? await this.gateway.local.sendCommand(vehicleId, ownPackageFile(req.message, this.options.upgradeDir), req.timeoutMs, (s) => { serial = s; })
          : await this.gateway.local.request(vehicleId, ownPackageFile(req.message, this.options.upgradeDir), req.answerId, req.timeoutMs);
        m.respond(encodeReply(outcome, serial));
      } catch (err) {
        this.options.log?.warn({ err, vehicleId }, 'bus: serving a command failed');
        m.respond(codec.pack({ v: COMMAND_CODEC_VERSION, kind: 'error', error: err instanceof Error ? err.message : String(err) } satisfies WireReply));
      }
    })().catch((err: unknown) => this.options.log?.error({ err }, 'bus: a command reply could not be sent'));
  }

  private answerList(m: Msg): void {
    if (!m.reply) return;
    const ids = [...this.subscriptions.keys()];
    for (let i = 0; i < ids.length; i += LIST_CHUNK) m.respond(codec.pack([COMMAND_CODEC_VERSION, this.nodeId, ids.slice(i, i + LIST_CHUNK)]));
    // A gateway with no terminals still answers (the asker clears its view of it); an empty message ends the list.
    if (ids.length === 0) m.respond(codec.pack([COMMAND_CODEC_VERSION, this.nodeId, []]));
    m.respond(new Uint8Array(0));
  }

  // ---- presence -------------------------------------------------------------------------------

  private onAuth(m: Msg): void {
    const [v, node, phone, vehicleId, at] = codec.unpack(m.data) as [number, string, string, number, number];
    if (v !== COMMAND_CODEC_VERSION || node === this.nodeId) return;
    this.place(vehicleId, node);
    if (this.options.serve && this.gateway.displace(phone, at)) this.stats.displaced++;
  }

  private onGone(m: Msg): void {
    const [v, node, vehicleId] = codec.unpack(m.data) as [number, string, number];
    if (v !== COMMAND_CODEC_VERSION || node === this.nodeId) return;
    if (this.where.get(vehicleId) === node) this.forget(vehicleId);
  }

  private onBeat(m: Msg): void {
    const [v, node, count] = codec.unpack(m.data) as [number, string, number];
    if (v !== COMMAND_CODEC_VERSION || node === this.nodeId) return;
    const known = this.nodeOf(node);
    known.lastBeat = Date.now();
    if (known.vehicles.size !== count && !this.listing.has(node)) {
      this.stats.resyncs++;
      void this.gatherLists(`${LIST_SUBJECT_PREFIX}.${node}`, node);
    }
  }

  private onBye(m: Msg): void {
    const [v, node] = codec.unpack(m.data) as [number, string];
    if (v !== COMMAND_CODEC_VERSION || node === this.nodeId) return;
    this.dropNode(node);
  }

  private tick(beatMs: number): void {
    if (this.options.serve) this.nc.publish(BEAT_SUBJECT, codec.pack([COMMAND_CODEC_VERSION, this.nodeId, this.subscriptions.size]));
    const lost = Date.now() - beatMs * BEATS_LOST;
    for (const [node, n] of this.nodes) if (n.lastBeat < lost) this.dropNode(node);
  }

  /**
   * Asks for gateway lists (all gateways, or one) and replaces what this node knew of each answering
   * gateway with its list. Changes announced meanwhile are applied on top (a list is a snapshot).
   */
  private async gatherLists(subject: string, only?: string): Promise<void> {
    if (only) this.listing.add(only);
    try {
      const got = new Map<string, number[]>();
      // One gateway: its list ends with an empty message (sentinel). All of them: until they fall silent.
      const replies = await this.nc.requestMany(subject, new Uint8Array(0), only ? { strategy: 'sentinel', maxWait: LIST_WAIT_MS, noMux: true } : { strategy: 'stall', stall: LIST_STALL_MS, maxWait: LIST_WAIT_MS, noMux: true });
      for await (const r of replies) {
        if (r.data.length === 0) continue;
        const [v, node, ids] = codec.unpack(r.data) as [number, string, number[]];
        if (v !== COMMAND_CODEC_VERSION || node === this.nodeId) continue;
        let list = got.get(node);
        if (!list) got.set(node, (list = []));
        list.push(...ids);
      }
      for (const [node, ids] of got) {
        const n = this.nodeOf(node);
        const listed = new Set(ids);
        for (const id of [...n.vehicles]) if (!listed.has(id)) this.forget(id);
        for (const id of ids) this.place(id, node);
        n.lastBeat = Date.now();
      }
    } catch (err) {
      if (!isNoResponders(err) && !this.closed) this.options.log?.warn({ err, subject }, 'bus: asking the gateway nodes for their terminals failed');
    } finally {
      if (only) this.listing.delete(only);
    }
  }

  private nodeOf(node: string): RemoteNode {
    let n = this.nodes.get(node);
    if (!n) this.nodes.set(node, (n = { vehicles: new Set(), lastBeat: Date.now() }));
    return n;
  }

  private place(vehicleId: number, node: string): void {
    const before = this.where.get(vehicleId);
    if (before !== undefined && before !== node) this.nodes.get(before)?.vehicles.delete(vehicleId);
    this.where.set(vehicleId, node);
    this.nodeOf(node).vehicles.add(vehicleId);
  }

  private forget(vehicleId: number): void {
    const node = this.where.get(vehicleId);
    if (node === undefined) return;
    this.where.delete(vehicleId);
    this.nodes.get(node)?.vehicles.delete(vehicleId);
  }

  private dropNode(node: string): void {
    const n = this.nodes.get(node);
    if (!n) return;
    for (const id of n.vehicles) if (this.where.get(id) === node) this.where.delete(id);
    this.nodes.delete(node);
  }

  private on(subject: string, handle: (m: Msg) => void): void {
    this.subs.push(this.nc.subscribe(subject, {
      callback: (err, m) => {
        if (!err) this.guard(() => handle(m));
      },
    }));
  }

  private guard(run: () => void): void {
    try {
      run();
    } catch (err) {
      this.options.log?.warn({ err }, 'bus: a terminal presence message could not be handled');
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.beat) clearInterval(this.beat);
    if (this.options.serve) this.nc.publish(BYE_SUBJECT, codec.pack([COMMAND_CODEC_VERSION, this.nodeId]));
    // Drain: replies of commands being served still go out (the gateway stopped first: they end offline).
    await this.nc.drain().catch(() => undefined);
  }
}

function isNoResponders(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if ((e as { isNoResponders?: () => boolean }).isNoResponders?.() === true || e.constructor.name === 'NoRespondersError') return true;
  }
  return false;
}
