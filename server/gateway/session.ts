/**
 * One terminal connection of the JT/T 808 gateway: its frames, the terminals authenticated on it,
 * its sub-package reassembly, its reply serials, and the platform requests sent on it awaiting answers.
 *
 * THE RULE of this file: nothing changes a terminal's state unless THIS connection authenticated as
 * that terminal (0x0102 with its current code). `authed` is the only way from a message to a vehicle:
 * a report, a sub-package, an answer (0x0001, 0x1205, 0x0805 ...) or an extension message (0x0801,
 * 0x0702, 0x0705, 0x1206) from a phone not in `authed` is answered 0x8001 result 1 and goes nowhere.
 * Sub-packages are reassembled per connection, and only for an authenticated phone. Answers settle
 * only the requests sent on this connection to that terminal. Registration (0x0100) is the directory's
 * decision (directory.ts) and never touches a registered terminal.
 *
 * A device installed on no vehicle (issue 15: auto-registered, or unbound by an installation record)
 * may authenticate: its messages are acknowledged and stored nowhere (counted). Its entry is shared
 * with the directory, so once an operator installs it on a vehicle the next report goes there.
 *
 * Other rules (server/API.md "JT/T 808 gateway"):
 * - A report is acknowledged only after the history transaction holding its positions committed
 *   (group commit, issue 20): the replies of a step that queued positions wait for that commit, and
 *   every later reply of the connection waits behind them, so replies keep their order.
 * - Bad frames are counted and dropped; one with a verified header gets result 2.
 * - Frames are handled in order: an asynchronous step (register, a cache miss, a handler's promise)
 *   holds the later frames of this connection.
 * - When the socket's unsent replies pass `maxBuffered`, reading pauses until they drain (a terminal
 *   that does not read its acks slows itself down, not the server).
 * - A platform message over one body (0x8108 upgrade packages) goes as sub-packages built from a body
 *   read by offset (the package stays on disk, read with fs.promises off the event loop's thread, 32
 *   sub-packages per read), paced by the socket draining; it is kept (as that reader, not bytes) for
 *   LONG_SEND_KEEP_MS so a terminal's 0x0005 gets exactly the sub-packages it lists, sent again with
 *   their original serials.
 * - A message carrying a retransmission policy (0x8108: the terminal's 0x0002 / 0x0003 or the server's
 *   defaults) is sent again whole, same serials, while the terminal does not answer its first serial
 *   (JT/T 808 §4.4: answer timeout T after the last sub-package left, T(n+1) = T(n) × (n+1), N
 *   retransmissions); after the last timeout it ends as `timeout` with `retransmissions: N`. A 0x0005
 *   for it restarts the current timeout (the terminal is alive and completing it).
 */
import type net from 'node:net';
import type { LiveStore } from '../live/store.ts';
import {
  bcc,
  decodeBody,
  decodeFrame,
  encodeBody,
  encodeFrame,
  encodeFrameBody,
  encodeFrames,
  encodeReply,
  escapeFrame,
  FrameSplitter,
  headerLength,
  MSG,
  Reassembler,
  RESULT,
  type FrameResult,
  type Jt808Header,
  type Jt808Message,
  type Jt808MessageInput,
  type ProtocolEdition,
  type ReassemblerOptions,
  type Register,
} from './jt808/index.ts';
import type { DeviceGatewayStats, TerminalDirectory, TerminalEntry } from './directory.ts';
import type { LiveApplier } from './live-apply.ts';
import type { FrameLogSink } from './frame-log.ts';
import type { CommandOutcome, GatewayLog, GatewayStats, RequestOutcome, TerminalMessageHandler } from './types.ts';
import { MAX_BODY_LENGTH } from './jt808/header.ts';
import { UPGRADE_MSG, upgradeBodySource, type BodySource, type Retransmission } from './jt808/upgrade.ts';

/** How long a sub-packaged platform message can be asked for again (0x0005): a slow link's whole send and then some. */
export const LONG_SEND_KEEP_MS = 30 * 60_000;
/** Long sends kept per connection (older ones are forgotten first). */
const LONG_SENDS_MAX = 4;
const NOTHING = new Uint8Array(0);

/** Sub-packages are written while the socket holds less than this; then the send waits for 'drain'. */
const LONG_SEND_HIGH_WATER = 256 * 1024;
/** Sub-packages read from the body at once (one asynchronous file read per ~32 KiB). */
const LONG_SEND_READ_PACKAGES = 32;

interface LongSend {
  readonly init: { phone: string; serial: number; version: ProtocolEdition; protocolVersion: number; msgId: number };
  readonly source: BodySource;
  readonly total: number;
  readonly until: number;
  /** §4.4 retransmission while the terminal has not answered; null: none (no policy, answered, settled). */
  retry: RetryState | null;
}

interface RetryState {
  readonly policy: Retransmission;
  /** Retransmissions so far (n). */
  sent: number;
  /** The answer timeout now in force, T(n + 1). */
  timeoutMs: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** The last retransmission's timeout passed unanswered. */
  readonly giveUp: (retransmissions: number) => void;
}

/** What a session needs from its gateway. */
export interface SessionHost {
  readonly stats: GatewayStats;
  readonly deviceStats: DeviceGatewayStats;
  readonly log: GatewayLog | undefined;
  readonly store: LiveStore;
  readonly directory: TerminalDirectory;
  readonly live: LiveApplier;
  readonly handlers: ReadonlyMap<number, TerminalMessageHandler>;
  readonly maxBuffered: number;
  readonly reassembly: ReassemblerOptions;
  /** Issue 17: the communication log (frame-log.ts), when on; sees every frame both ways. */
  frameLog?: FrameLogSink;
  isStopping(): boolean;
  /** `entry` authenticated on `session`: it becomes the vehicle's reachable session (another one loses the terminal). */
  bind(session: TerminalSession, entry: TerminalEntry, header: Jt808Header): void;
  /** After the 0x8001 of a successful 0x0102 is queued: tells the gateway's listeners. */
  announce(session: TerminalSession, entry: TerminalEntry): void;
  /** `entry` is no longer authenticated on `session`. */
  unbind(session: TerminalSession, entry: TerminalEntry): void;
  closed(session: TerminalSession): void;
}

/** Where a platform message goes: a terminal authenticated on this session. */
export interface SessionTarget {
  readonly vehicleId: number;
  readonly phone: string;
  readonly version: ProtocolEdition;
  readonly protocolVersion: number;
}

interface PendingRequest {
  readonly answerId: number;
  readonly resolve: (outcome: RequestOutcome) => void;
  /** The terminal's 0x0001 OK for a retransmitted message: its answer timeout starts now. */
  readonly accepted?: () => void;
}

/** Terminal messages the session handles itself (others need a registered handler or an awaiting request). */
function isCore(msgId: number): boolean {
  return msgId === MSG.HEARTBEAT || msgId === MSG.LOGOUT || msgId === MSG.LOCATION || msgId === MSG.BATCH_LOCATION || msgId === MSG.TERMINAL_RESPONSE
    || msgId === MSG.TERMINAL_RESEND_REQUEST;
}

export class TerminalSession {
  private readonly splitter = new FrameSplitter();
  /** Terminals (phone keys) authenticated on this connection: the only way from a message to a vehicle. */
  private readonly authed = new Map<string, TerminalEntry>();
  private readonly reassembler: Reassembler;
  /** Reassembler counters already added to the gateway's stats. */
  private readonly counted = { completed: 0, abandoned: 0, evicted: 0 };
  private serial = 0;
  /** Frames waiting while an asynchronous step (register, a cache miss) runs; null when idle. */
  private backlog: Uint8Array[] | null = null;
  private writePaused = false;
  /** Replies gathered while one chunk is processed, written with one write. */
  private out: Uint8Array[] | null = null;
  /** Unescaped 0x8001 frame for the connection's terminal; serial, body and checksum are patched per reply. */
  private ackTemplate: Uint8Array | null = null;
  private ackKey = '';
  /** Set when the current step queued history rows: its replies wait for their commit. */
  private uncommitted = false;
  /** Reply writes waiting for a history commit; while any is, later replies queue behind it. */
  private held = 0;
  /** Platform messages waiting for their 0x0001, by `vehicleId:serial` (sent on this connection only). */
  private readonly awaiting = new Map<string, (result: number) => void>();
  /** Requests waiting for their answer message, by `vehicleId:serial` (sent on this connection only). */
  private readonly requests = new Map<string, PendingRequest>();
  /** Sub-packaged platform messages a terminal may ask for again (0x0005), by `phone:first serial`. */
  private readonly longSends = new Map<string, LongSend>();

  constructor(
    readonly socket: net.Socket,
    private readonly host: SessionHost,
  ) {
    this.reassembler = new Reassembler(host.reassembly);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('drain', () => this.writable());
    socket.on('error', () => undefined); // resets from terminals are routine; 'close' follows
    socket.on('close', () => this.onClose());
  }

  get remoteAddress(): string | undefined {
    return this.socket.remoteAddress;
  }

  get open(): boolean {
    return !this.socket.destroyed;
  }

  get garbageBytes(): number {
    return this.splitter.stats.garbageBytes;
  }

  get reassemblyBytes(): number {
    return this.reassembler.bytes;
  }

  /** True while `phone` is authenticated on this connection. */
  holds(phone: string): boolean {
    return this.authed.has(phone);
  }

  /**
   * Ends the terminal's authentication on this connection: its incomplete sub-packaged messages are
   * dropped and the requests sent to it here end as offline (their answers can no longer arrive).
   */
  release(phone: string): void {
    const entry = this.authed.get(phone);
    if (!entry) return;
    this.authed.delete(phone);
    this.reassembler.dropPhone(phone);
    this.syncReassemblyStats();
    if (entry.vehicleId !== null) this.settleAllOffline(entry.vehicleId);
    this.host.unbind(this, entry);
  }

  /**
   * The terminal authenticated here as `phone` now belongs to another vehicle (or none): what was sent
   * to it for the previous vehicle can no longer be answered for that vehicle and ends as offline.
   */
  vehicleChanged(phone: string, previousVehicleId: number | null): void {
    if (!this.authed.has(phone) || previousVehicleId === null) return;
    this.settleAllOffline(previousVehicleId);
  }

  /** True when no terminal is authenticated here any more. */
  get empty(): boolean {
    return this.authed.size === 0;
  }

  end(): void {
    this.socket.end();
  }

  /** Periodic: asks for missing sub-packages (0x8003) and drops abandoned messages; forgets old long sends. */
  tick(now: number): void {
    for (const [k, l] of this.longSends) if (l.until <= now) this.longSends.delete(k);
    if (this.reassembler.size === 0) return;
    for (const ask of this.reassembler.tick(now)) {
      this.host.stats.resendRequests++;
      this.send(encodeReply(ask.header, this.nextSerial(), { msgId: MSG.RESEND_REQUEST, firstSerial: ask.firstSerial, packageIds: ask.packageIds }));
    }
    this.syncReassemblyStats();
  }

  /** Sends a platform message that the terminal answers with message `answerId`, matched by reply serial. */
  request(target: SessionTarget, message: Jt808MessageInput, answerId: number, timeoutMs: number): Promise<RequestOutcome> {
    if (!this.open || !this.authed.has(target.phone)) return Promise.resolve({ kind: 'offline' });
    const serial = this.nextSerial();
    const key = `${target.vehicleId}:${serial}`;
    const policy = retransmissionOf(message);
    return new Promise<RequestOutcome>((resolve) => {
      // `long` (the send, declared below) is only read by callbacks that run after it is assigned.
      let timer: ReturnType<typeof setTimeout> | undefined;
      // With retransmission the answer's wait starts once the terminal accepted the whole (0x0001 OK);
      // until then the retransmission schedule decides (a slow link's send does not eat the wait).
      const wait = () => {
        timer ??= setTimeout(() => {
          this.requests.delete(key);
          stopRetry(long);
          resolve({ kind: 'timeout' });
        }, timeoutMs);
        timer.unref();
      };
      if (!policy) wait();
      this.requests.set(key, {
        answerId,
        resolve: (outcome) => {
          clearTimeout(timer);
          stopRetry(long);
          resolve(outcome);
        },
        accepted: wait,
      });
      const long = this.sendLong({ phone: target.phone, serial, version: target.version, protocolVersion: target.protocolVersion || 1 }, message, policy && ((retransmissions) => {
        const r = this.requests.get(key);
        if (!r) return;
        this.requests.delete(key);
        r.resolve({ kind: 'timeout', retransmissions });
      }));
    });
  }

  /** Sends a platform message and waits for the terminal's 0x0001 with its serial. */
  command(target: SessionTarget, message: Jt808MessageInput, timeoutMs: number, onSerial?: (serial: number) => void): Promise<CommandOutcome> {
    if (!this.open || !this.authed.has(target.phone)) return Promise.resolve({ kind: 'offline' });
    const serial = this.nextSerial();
    onSerial?.(serial);
    const key = `${target.vehicleId}:${serial}`;
    const policy = retransmissionOf(message);
    return new Promise<CommandOutcome>((resolve) => {
      // With retransmission the schedule is the wait (its last timeout ends it), not `timeoutMs`.
      const timer = policy ? undefined : setTimeout(() => {
        this.awaiting.delete(key);
        resolve({ kind: 'timeout' });
      }, timeoutMs);
      timer?.unref();
      this.awaiting.set(key, (result) => {
        clearTimeout(timer);
        stopRetry(long);
        resolve(result < 0 ? { kind: 'offline' } : { kind: 'reply', result });
      });
      const long = this.sendLong({ phone: target.phone, serial, version: target.version, protocolVersion: target.protocolVersion || 1 }, message, policy && ((retransmissions) => {
        if (!this.awaiting.delete(key)) return;
        resolve({ kind: 'timeout', retransmissions });
      }));
    });
  }

  // ---- input -------------------------------------------------------------------------------

  private receive(chunk: Buffer): void {
    if (this.host.isStopping()) return;
    const { stats } = this.host;
    const before = this.splitter.stats;
    const tooShort = before.tooShort, tooLong = before.tooLong, escapes = before.escapeErrors;
    this.out = [];
    this.splitter.push(chunk, (frame) => this.frame(frame));
    const after = this.splitter.stats;
    countBad(stats, 'tooShort', after.tooShort - tooShort);
    countBad(stats, 'tooLong', after.tooLong - tooLong);
    countBad(stats, 'escape', after.escapeErrors - escapes);
    this.flushOut();
    this.checkBackpressure();
  }

  private frame(frame: Uint8Array): void {
    this.host.frameLog?.record(0, frame);
    if (this.backlog !== null) {
      this.backlog.push(frame);
      return;
    }
    const pending = this.handle(frame);
    if (pending) this.waitFor(pending);
  }

  /** Runs an asynchronous step, holding later frames of the connection so order is kept. */
  private waitFor(pending: Promise<void>): void {
    this.backlog = [];
    this.socket.pause();
    const failed = (err: unknown) => this.host.log?.warn({ err }, 'gateway: terminal message failed');
    const drain = async (): Promise<void> => {
      await pending.catch(failed);
      const backlog = this.backlog ?? [];
      while (backlog.length > 0 && !this.host.isStopping() && !this.socket.destroyed) {
        const next = this.handle(backlog.shift()!);
        if (next) await next.catch(failed);
      }
      this.backlog = null;
      this.checkBackpressure();
      if (!this.writePaused && !this.host.isStopping()) this.socket.resume();
    };
    void drain();
  }

  /** Handles one frame; answers a promise when the step is asynchronous. */
  private handle(frame: Uint8Array): Promise<void> | undefined {
    this.host.stats.frames++;
    const r = decodeFrame(frame);
    if (r.kind === 'fragment') return this.fragment(r.header, r.body);
    return this.dispatch(r);
  }

  /** One sub-package: kept only for a terminal authenticated here, in this connection's reassembler. */
  private fragment(header: Jt808Header, body: Uint8Array): Promise<void> | undefined {
    if (!this.authed.has(header.phone)) {
      this.host.stats.unauthenticated++;
      this.reply(header, RESULT.FAIL);
      return undefined;
    }
    const pushed = this.reassembler.push(header, body, Date.now());
    if (pushed === 'held') return undefined;
    if (pushed === 'invalid') {
      countBad(this.host.stats, 'package');
      this.reply(header, RESULT.BAD_MESSAGE);
      return undefined;
    }
    if (pushed === 'refused') {
      this.host.stats.reassemblyRefused++;
      this.syncReassemblyStats();
      this.reply(header, RESULT.FAIL);
      return undefined;
    }
    this.syncReassemblyStats();
    // The whole message carries the first package's header (its serial is what the reply names).
    return this.dispatch(decodeBody(pushed.header, pushed.body));
  }

  private dispatch(r: FrameResult): Promise<void> | undefined {
    const { stats } = this.host;
    if (r.kind === 'fragment') return undefined; // decodeBody never answers this; keeps the type narrow
    if (r.kind === 'error') {
      countBad(stats, r.error.code);
      if (r.header) this.reply(r.header, RESULT.BAD_MESSAGE);
      return undefined;
    }
    const { header } = r;
    if (r.kind === 'unsupported') {
      stats.unsupported++;
      const entry = this.authed.get(header.phone);
      if (entry && entry.vehicleId !== null) this.host.store.touch(entry.vehicleId);
      this.reply(header, RESULT.UNSUPPORTED);
      return undefined;
    }
    const message = r.message;
    if (message.msgId === MSG.REGISTER) return this.register(header, message);
    if (message.msgId === MSG.AUTHENTICATE) return this.authenticate(header, message.authCode);
    if (!isCore(message.msgId) && !this.host.handlers.has(message.msgId) && !this.isAwaitedAnswer(message.msgId)) {
      // Platform-side messages (0x8001, 0x8100, 0x8203, 0x8300) make no sense from a terminal.
      stats.unsupported++;
      this.reply(header, RESULT.UNSUPPORTED);
      return undefined;
    }
    // THE RULE: past this line a message acts only as a terminal authenticated on this connection.
    const entry = this.authed.get(header.phone);
    if (!entry) {
      stats.unauthenticated++;
      this.reply(header, RESULT.FAIL);
      return undefined;
    }
    return this.fromTerminal(entry, header, message);
  }

  /** A message of `entry`, a terminal authenticated on this connection. */
  private fromTerminal(entry: TerminalEntry, header: Jt808Header, message: Jt808Message): Promise<void> | undefined {
    const { store, live } = this.host;
    const vehicleId = entry.vehicleId;
    if (vehicleId === null) return this.unassigned(entry, header, message);
    switch (message.msgId) {
      case MSG.LOCATION:
        live.location(vehicleId, message, header.version);
        this.uncommitted = true;
        this.reply(header, RESULT.OK);
        return undefined;
      case MSG.BATCH_LOCATION:
        live.batch(vehicleId, message, header.version);
        this.uncommitted = true;
        this.reply(header, RESULT.OK);
        return undefined;
      case MSG.TERMINAL_RESPONSE: {
        store.touch(vehicleId);
        const key = `${vehicleId}:${message.replySerial}`;
        const resolve = this.awaiting.get(key);
        if (resolve) {
          this.awaiting.delete(key);
          resolve(message.result);
        }
        // A request's 0x0001 OK only says "received": its answer message follows. Anything else ends it.
        const request = this.requests.get(key);
        if (request && message.result !== RESULT.OK) {
          this.requests.delete(key);
          request.resolve({ kind: 'reply', result: message.result });
        }
        // Answered: no more retransmission of that message (any result; a refusal is an answer).
        stopRetry(this.longSends.get(`${header.phone}:${message.replySerial}`));
        if (request && message.result === RESULT.OK) request.accepted?.();
        return undefined;
      }
      case MSG.HEARTBEAT:
        store.touch(vehicleId);
        // A registered heartbeat handler (the report engine's contact spans) learns of it; acknowledged OK either way.
        return this.extension(header, vehicleId, message);
      case MSG.TERMINAL_RESEND_REQUEST: {
        store.touch(vehicleId);
        // Exactly the listed sub-packages of a long send to this terminal on this connection; one we no longer hold (or never sent) is result 1.
        const long = this.longSends.get(`${header.phone}:${message.firstSerial}`);
        const ids = long ? message.packageIds.filter((k) => k >= 1 && k <= long.total) : [];
        if (!long || ids.length !== message.packageIds.length) {
          this.reply(header, RESULT.FAIL);
          return undefined;
        }
        this.reply(header, RESULT.OK);
        this.host.stats.subpackagesResent += ids.length;
        // Read asynchronously; later frames of this connection wait (order kept). The terminal is
        // completing the message: a retransmission timeout in force starts again after the resend.
        return (async () => {
          for (const k of ids) {
            const part = await long.source.read((k - 1) * MAX_BODY_LENGTH, MAX_BODY_LENGTH);
            this.send(this.packageFrame(long, k, part));
          }
          if (long.retry?.timer !== undefined) this.armRetry(long);
        })();
      }
      case MSG.LOGOUT:
        return this.unregister(entry, header);
      default:
        store.touch(vehicleId);
        this.settleRequest(vehicleId, message);
        return this.extension(header, vehicleId, message);
    }
  }

  /**
   * A message of an authenticated device installed on no vehicle: acknowledged (the terminal keeps its
   * session and need not retry), counted, stored nowhere — no vehicle, no history, no handler.
   */
  private unassigned(entry: TerminalEntry, header: Jt808Header, message: Jt808Message): Promise<void> | undefined {
    if (message.msgId === MSG.LOGOUT) return this.unregister(entry, header);
    this.host.deviceStats.unassignedMessages++;
    if (message.msgId !== MSG.TERMINAL_RESPONSE) this.reply(header, RESULT.OK);
    return undefined;
  }

  /** 0x0003 terminal unregistration: the auth code is void; the terminal must register again. */
  private async unregister(entry: TerminalEntry, header: Jt808Header): Promise<void> {
    if (entry.vehicleId !== null) this.host.store.touch(entry.vehicleId);
    // Unauthenticated at once, so nothing after it on this connection acts as the terminal.
    this.release(header.phone);
    await this.host.directory.unregister(entry, 'terminal');
    this.reply(header, RESULT.OK);
  }

  private async register(header: Jt808Header, msg: Register): Promise<void> {
    const { result, authCode } = await this.host.directory.register(header.phone, msg, this.socket.remoteAddress);
    this.send(encodeReply(header, this.nextSerial(), { msgId: MSG.REGISTER_RESPONSE, replySerial: header.serial, result, authCode }));
  }

  private authenticate(header: Jt808Header, authCode: string): Promise<void> | undefined {
    const { directory, stats } = this.host;
    const decide = (entry: TerminalEntry | undefined, rechecked = false): Promise<void> | undefined => {
      // Issue 20: with other gateway nodes on the database, the cached code may be stale either way: the terminal
      // registered there after this node cached it, or an operator's reset or the terminal's 0x0003 there voided it.
      // So the code is read from the database at every authentication (one read per connection), not only on a refusal.
      if (entry && !rechecked && directory.shared) return directory.refreshCode(entry).then((e) => decide(e, true));
      if (entry && directory.accepts(entry, authCode)) {
        this.authed.set(header.phone, entry);
        this.host.bind(this, entry, header);
        stats.authenticated++;
        if (entry.vehicleId !== null) this.host.store.touch(entry.vehicleId);
        directory.markAuthenticated(entry);
        this.reply(header, RESULT.OK);
        this.host.announce(this, entry);
      } else {
        stats.authFailed++;
        this.reply(header, RESULT.FAIL);
      }
      return undefined;
    };
    const cached = directory.cached(header.phone);
    if (cached) return decide(cached);
    return directory.lookup(header.phone).then((e) => decide(e));
  }

  /** Runs the registered handler of a terminal message and acknowledges it. */
  private extension(header: Jt808Header, vehicleId: number, message: Jt808Message): Promise<void> | undefined {
    const handler = this.host.handlers.get(message.msgId);
    if (!handler) {
      this.reply(header, RESULT.OK);
      return undefined;
    }
    const send = (m: Jt808MessageInput) => this.send(encodeReply(header, this.nextSerial(), m));
    const finish = (r: number | 'replied' | void) => {
      if (r !== 'replied') this.reply(header, r ?? RESULT.OK);
    };
    const failed = (err: unknown) => {
      this.host.log?.warn({ err, msgId: message.msgId }, 'gateway: terminal message handler failed');
      this.reply(header, RESULT.FAIL);
    };
    try {
      const r = handler({ vehicleId, header, message, send });
      if (r instanceof Promise) return r.then(finish, failed);
      finish(r);
    } catch (err) {
      failed(err);
    }
    return undefined;
  }

  /** Resolves the request this message answers: same reply serial, else the oldest waiting for its id. */
  private settleRequest(vehicleId: number, message: Jt808Message): void {
    const replySerial = (message as { replySerial?: unknown }).replySerial;
    let key: string | undefined;
    if (typeof replySerial === 'number') {
      const k = `${vehicleId}:${replySerial}`;
      if (this.requests.get(k)?.answerId === message.msgId) key = k;
    } else {
      const prefix = `${vehicleId}:`;
      for (const [k, r] of this.requests) {
        if (r.answerId === message.msgId && k.startsWith(prefix)) {
          key = k;
          break;
        }
      }
    }
    if (key === undefined) return;
    const request = this.requests.get(key)!;
    this.requests.delete(key);
    request.resolve({ kind: 'answer', message });
  }

  private isAwaitedAnswer(msgId: number): boolean {
    for (const r of this.requests.values()) if (r.answerId === msgId) return true;
    return false;
  }

  /** The requests and commands sent here to a vehicle end as offline (or all of them when the connection closed). */
  private settleAllOffline(vehicleId?: number): void {
    const prefix = vehicleId === undefined ? '' : `${vehicleId}:`;
    for (const [k, r] of [...this.requests]) {
      if (!k.startsWith(prefix)) continue;
      this.requests.delete(k);
      r.resolve({ kind: 'offline' });
    }
    for (const [k, resolve] of [...this.awaiting]) {
      if (!k.startsWith(prefix)) continue;
      this.awaiting.delete(k);
      resolve(-1);
    }
  }

  private onClose(): void {
    for (const phone of [...this.authed.keys()]) this.release(phone);
    this.settleAllOffline();
    for (const long of this.longSends.values()) stopRetry(long);
    this.longSends.clear();
    this.reassembler.clear();
    this.syncReassemblyStats();
    this.host.closed(this);
  }

  private syncReassemblyStats(): void {
    const s = this.reassembler.stats;
    const { stats } = this.host;
    stats.reassembled += s.completed - this.counted.completed;
    stats.reassemblyAbandoned += s.abandoned - this.counted.abandoned;
    stats.reassemblyEvicted += s.evicted - this.counted.evicted;
    this.counted.completed = s.completed;
    this.counted.abandoned = s.abandoned;
    this.counted.evicted = s.evicted;
  }

  // ---- output ------------------------------------------------------------------------------

  private nextSerial(): number {
    this.serial = (this.serial + 1) & 0xffff;
    return this.serial;
  }

  private checkBackpressure(): void {
    if (!this.writePaused && this.socket.writableLength > this.host.maxBuffered) {
      this.writePaused = true;
      this.host.stats.backpressurePauses++;
      this.socket.pause();
      // 'drain' comes only after a write() that returned false: the queue reached the socket's highWaterMark (16 KiB
      // on Node 20, 64 KiB on Node 22). Paused below it, nothing would resume the terminal (on Node 22 a gateway
      // with maxBuffered under 64 KiB stalled for good): an empty write's callback runs once everything queued
      // before it is written.
      if (!this.socket.writableNeedDrain) this.socket.write(NOTHING, () => this.writable());
    }
  }

  /** The replies queued when reading paused are written: read the terminal again (unless a step holds its frames). */
  private writable(): void {
    if (!this.writePaused) return;
    this.writePaused = false;
    if (this.backlog === null && !this.host.isStopping() && !this.socket.destroyed) this.socket.resume();
  }

  /**
   * A platform message whose body may pass the 1023-byte limit (0x8108 upgrade packages): sent as
   * sub-packages with consecutive serials from `init.serial` (the terminal answers the first one's), so
   * the serials it used are skipped here. With `giveUp` (the message has a retransmission policy) it is
   * sent again while unanswered, and `giveUp` runs after the last timeout. Answers the send kept for
   * 0x0005 and retransmission; undefined for a one-frame message without a policy (sent at once).
   */
  private sendLong(init: { phone: string; serial: number; version: ProtocolEdition; protocolVersion: number }, message: Jt808MessageInput, giveUp?: (retransmissions: number) => void): LongSend | undefined {
    const source = bodySourceOf(message, init.version);
    const policy = giveUp ? retransmissionOf(message) : undefined;
    if (source.length <= MAX_BODY_LENGTH && source.body !== undefined && !policy) {
      this.send(encodeFrames({ ...init, msgId: message.msgId }, source.body)[0]!);
      return undefined;
    }
    const total = Math.max(1, Math.ceil(source.length / MAX_BODY_LENGTH));
    if (total > 0xffff) throw new Error(`body of ${source.length} bytes needs ${total} packages (max 65535)`);
    this.serial = (init.serial + total - 1) & 0xffff;
    const long: LongSend = {
      init: { ...init, msgId: message.msgId }, source, total, until: Date.now() + LONG_SEND_KEEP_MS,
      retry: policy && giveUp ? { policy, sent: 0, timeoutMs: policy.timeoutMs, timer: undefined, giveUp } : null,
    };
    this.longSends.set(`${init.phone}:${init.serial}`, long);
    while (this.longSends.size > LONG_SENDS_MAX) this.longSends.delete(this.longSends.keys().next().value!);
    this.pumpAndArm(long);
    return long;
  }

  /** Sends the whole message, then (with a retransmission policy still in force) starts its answer timeout. */
  private pumpAndArm(long: LongSend): void {
    void this.pump(long).then((complete) => {
      if (complete && long.retry) this.armRetry(long);
    }).catch((err: unknown) => this.host.log?.warn({ err }, 'gateway: long send failed'));
  }

  /**
   * The answer timeout T(n+1) from now. When it passes unanswered: the whole message again (same
   * serials) with T(n+2) = T(n+1) × (n+2), or, after the last of the N retransmissions, `giveUp`.
   */
  private armRetry(long: LongSend): void {
    const r = long.retry;
    if (!r) return;
    clearTimeout(r.timer);
    r.timer = setTimeout(() => {
      r.timer = undefined;
      if (long.retry !== r || this.socket.destroyed) return;
      if (r.sent >= r.policy.retries) {
        long.retry = null;
        r.giveUp(r.sent);
        return;
      }
      r.sent++;
      r.timeoutMs *= r.sent + 1;
      this.host.log?.warn({ phone: long.init.phone, serial: long.init.serial, msgId: long.init.msgId, retransmission: r.sent }, 'gateway: no answer, message sent again (JT/T 808 §4.4)');
      this.pumpAndArm(long);
    }, r.timeoutMs);
    r.timer.unref();
  }

  /**
   * Writes a long send's sub-packages in order, read 32 at a time with one asynchronous read, waiting
   * for the socket to drain past the high-water mark. Written at once, never held behind acks waiting
   * for a commit: held bytes are not in `writableLength`, so holding them would read the whole package
   * into memory. Answers true when the last sub-package has left the process (the socket drained).
   */
  private async pump(long: LongSend): Promise<boolean> {
    for (let k = 1; k <= long.total; k += LONG_SEND_READ_PACKAGES) {
      if (this.socket.destroyed) return false;
      const last = Math.min(long.total, k + LONG_SEND_READ_PACKAGES - 1);
      const bytes = await long.source.read((k - 1) * MAX_BODY_LENGTH, (last - k + 1) * MAX_BODY_LENGTH);
      if (this.socket.destroyed) return false;
      for (let j = k; j <= last; j++) {
        const at = (j - k) * MAX_BODY_LENGTH;
        const frame = this.packageFrame(long, j, bytes.subarray(at, Math.min(bytes.length, at + MAX_BODY_LENGTH)));
        this.host.frameLog?.record(1, frame);
        this.socket.write(frame);
      }
      if (this.socket.writableLength > LONG_SEND_HIGH_WATER) await this.drained();
    }
    if (this.socket.writableLength > 0 && !this.socket.destroyed) await this.drained();
    return !this.socket.destroyed;
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.socket.off('drain', done);
        this.socket.off('close', done);
        resolve();
      };
      this.socket.on('drain', done);
      this.socket.on('close', done);
    });
  }

  /** Sub-package k (1-based) of a long send, with its original serial (a one-frame message: the plain frame). */
  private packageFrame(long: LongSend, k: number, part: Uint8Array): Uint8Array {
    if (long.total === 1) return encodeFrames({ ...long.init }, part)[0]!;
    return encodeFrame({ ...long.init, serial: (long.init.serial + k - 1) & 0xffff, packageTotal: long.total, packageIndex: k }, part);
  }

  /** Queues bytes for the socket: gathered per chunk (one write for many acks), else written at once. */
  private send(bytes: Uint8Array): void {
    if (this.socket.destroyed) return;
    this.host.frameLog?.record(1, bytes);
    if (this.out) this.out.push(bytes);
    else this.emit(bytes);
  }

  private flushOut(): void {
    const out = this.out;
    this.out = null;
    if (!out || out.length === 0 || this.socket.destroyed) return;
    this.emit(out.length === 1 ? out[0]! : Buffer.concat(out));
  }

  /**
   * Writes replies, or holds them until the history commit when this step queued positions (or
   * earlier replies are still held: order is kept). One held write per chunk, so the acks of a
   * chunk still go out in one write, now once per flush.
   */
  private emit(bytes: Uint8Array): void {
    if (!this.uncommitted && this.held === 0) {
      this.socket.write(bytes);
      return;
    }
    this.uncommitted = false;
    this.held++;
    this.host.live.afterCommit(() => {
      this.held--;
      if (this.socket.destroyed || this.socket.writableEnded) return;
      this.socket.write(bytes);
      this.checkBackpressure();
    });
  }

  /** 0x8001 general response. The hot path: a cached frame with serial, body and checksum patched. */
  private reply(header: Jt808Header, result: number): void {
    if (this.socket.destroyed) return;
    const serial = this.nextSerial();
    const key = `${header.phone}|${header.version}|${header.protocolVersion}`;
    let frame = this.ackTemplate;
    if (frame === null || this.ackKey !== key) {
      frame = encodeFrameBody({
        msgId: MSG.PLATFORM_RESPONSE, phone: header.phone, serial: 0, version: header.version, protocolVersion: header.protocolVersion || 1,
      }, new Uint8Array(5));
      this.ackTemplate = frame;
      this.ackKey = key;
    }
    const at = headerLength(header.version, false);
    const n = frame.length;
    frame[at - 2] = serial >> 8;
    frame[at - 1] = serial & 0xff;
    frame[at] = header.serial >> 8;
    frame[at + 1] = header.serial & 0xff;
    frame[at + 2] = header.msgId >> 8;
    frame[at + 3] = header.msgId & 0xff;
    frame[at + 4] = result;
    frame[n - 1] = bcc(frame, 0, n - 1);
    this.send(escapeFrame(frame));
  }
}

/** A platform message's body read by offset: an upgrade package from its file, anything else encoded in memory (`body`). */
function bodySourceOf(message: Jt808MessageInput, version: ProtocolEdition): BodySource & { readonly body?: Uint8Array } {
  if (message.msgId === UPGRADE_MSG.ISSUE && message.file) return upgradeBodySource({ ...message, file: message.file });
  const body = encodeBody(message, version);
  return { length: body.length, body, read: (offset, n) => Promise.resolve(body.subarray(offset, Math.min(body.length, offset + n))) };
}

/** The message's JT/T 808 §4.4 retransmission policy, when it carries one (0x8108 from the upgrade service). */
function retransmissionOf(message: Jt808MessageInput): Retransmission | undefined {
  return message.msgId === UPGRADE_MSG.ISSUE ? message.retransmit : undefined;
}

/** Ends a long send's retransmission (answered, settled, or the connection gone). */
function stopRetry(long: LongSend | undefined): void {
  if (!long?.retry) return;
  clearTimeout(long.retry.timer);
  long.retry = null;
}

function countBad(stats: GatewayStats, code: string, n = 1): void {
  if (n > 0) stats.badFrames[code] = (stats.badFrames[code] ?? 0) + n;
}
