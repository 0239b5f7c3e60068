/**
 * The JT/T 808 TCP gateway: terminals connect, register (0x0100 → 0x8100 with an auth code),
 * authenticate (0x0102) and report (0x0200, 0x0704, heartbeats); every accepted position goes to the
 * latest-state store and, queued, to history. Framing and decoding are the pure codec's (./jt808/).
 *
 * Rules this file fixes (see server/API.md "JT/T 808 gateway"):
 * - A message other than register/authenticate from a terminal not authenticated on this
 *   connection answers 0x8001 result 1 (fail) and is otherwise ignored.
 * - A report is acknowledged only after its positions are queued in the history sink.
 * - Bad frames are counted and dropped; one with a verified header gets result 2.
 * - When a socket's unsent replies pass `maxBufferedBytes`, reading from it pauses until they drain
 *   (a terminal that does not read its acks slows itself down, not the server).
 * - Reports applied live (not blind-area re-uploads) go to `onReport` (alarm generation); platform
 *   messages reach a terminal through `sendCommand`, which awaits its 0x0001 (issue 5).
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { PositionRow, TerminalRepository } from '../db/repositories.ts';
import type { HistorySink } from '../live/history.ts';
import type { LiveStore } from '../live/store.ts';
import {
  bcc,
  decodeBody,
  decodeFrame,
  encodeFrameBody,
  encodePacket,
  encodeReply,
  escapeFrame,
  FrameSplitter,
  headerLength,
  MSG,
  REGISTER_RESULT,
  Reassembler,
  RESULT,
  type FrameResult,
  type Jt808Header,
  type Jt808Message,
  type Jt808MessageInput,
  type LocationReport,
  type ProtocolEdition,
  type Register,
} from './jt808/index.ts';

export interface GatewayOptions {
  /** Close a connection silent for this long. */
  readonly idleMs: number;
  /** Provision unknown terminals at register instead of refusing them (result 4). */
  readonly autoRegister: boolean;
  /** Company of provisioned vehicles; default: the first root company. */
  readonly autoRegisterCompanyId?: number;
  /** Unsent reply bytes per socket above which reading pauses. @default 64 KiB */
  readonly maxBufferedBytes?: number;
}

export interface GatewayDeps {
  readonly store: LiveStore;
  readonly history: HistorySink;
  readonly terminals: TerminalRepository;
  readonly log?: { warn(obj: object, msg: string): void };
}

export interface GatewayStats {
  connectionsOpen: number;
  connectionsTotal: number;
  idleClosed: number;
  frames: number;
  /** Frames dropped by the codec, per error code (checksum, truncated, length, escape, ...). */
  badFrames: Record<string, number>;
  /** Splitter counters summed over all connections. */
  garbageBytes: number;
  registered: number;
  provisioned: number;
  registerRefused: number;
  authenticated: number;
  authFailed: number;
  unauthenticated: number;
  unsupported: number;
  positions: number;
  /** Positions older than the vehicle's latest (blind-area re-uploads): history only. */
  historyOnly: number;
  /** Reports without a GNSS fix (all-zero time): contact only, nothing to keep. */
  noFix: number;
  /** Reports dated more than FUTURE_TOLERANCE_MS after their arrival: history only, never the live position. */
  futureTime: number;
  batchInvalidItems: number;
  backpressurePauses: number;
  /** Reply bytes queued in user space across all sockets (bounded by backpressure). */
  writeBacklogBytes: number;
  historyPending: number;
}

interface TerminalEntry {
  readonly vehicleId: number;
  readonly deviceNo: string;
  authCode: string | null;
}

interface Connection {
  readonly socket: net.Socket;
  readonly splitter: FrameSplitter;
  /** Terminals (phone keys) authenticated on this connection. */
  readonly authed: Map<string, TerminalEntry>;
  serial: number;
  /** Frames waiting while an asynchronous step (register, a cache miss) runs; null when idle. */
  backlog: Uint8Array[] | null;
  writePaused: boolean;
  /** Replies gathered while one chunk is processed, written with one write. */
  out: Uint8Array[] | null;
  /** Unescaped 0x8001 frame for the connection's terminal; serial, body and checksum are patched per reply. */
  ackTemplate: Uint8Array | null;
  ackKey: string;
}

/** Where an authenticated terminal can be reached (platform → terminal messages). */
interface Reachable {
  readonly conn: Connection;
  readonly phone: string;
  readonly version: ProtocolEdition;
  readonly protocolVersion: number;
}

/** What became of a platform message sent to a terminal. */
export type CommandOutcome =
  | { readonly kind: 'reply'; readonly result: number }
  | { readonly kind: 'offline' }
  | { readonly kind: 'timeout' };

/** What became of a platform request that expects an answer message (0x9205 → 0x1205, 0x8801 → 0x0805, ...). */
export type RequestOutcome =
  | { readonly kind: 'answer'; readonly message: Jt808Message }
  /** The terminal answered 0x0001 with a result other than OK instead of the answer message. */
  | { readonly kind: 'reply'; readonly result: number }
  | { readonly kind: 'offline' }
  | { readonly kind: 'timeout' };

/** A terminal message outside the core set, passed to the handler registered for its id. */
export interface TerminalMessageContext {
  readonly vehicleId: number;
  readonly header: Jt808Header;
  readonly message: Jt808Message;
  /** Sends a platform message on this connection, addressed like the received one (e.g. 0x8800). */
  readonly send: (message: Jt808MessageInput) => void;
}

/**
 * Handles a terminal message: answer the 0x8001 result to send (OK when void), or 'replied' when the
 * handler answered itself (0x0801 is answered by 0x8800). A promise holds the connection's later frames.
 */
export type TerminalMessageHandler = (ctx: TerminalMessageContext) => number | 'replied' | void | Promise<number | 'replied' | void>;

interface PendingRequest {
  readonly answerId: number;
  readonly serial: number;
  readonly resolve: (outcome: RequestOutcome) => void;
}

/** A terminal that has just authenticated: its vehicle and the remote address of its connection. */
export type AuthenticatedListener = (vehicleId: number, remoteAddress: string | undefined) => void;

/** A live report accepted into the store (blind-area re-uploads and history-only reports are not). */
export type ReportListener = (vehicleId: number, report: LocationReport, edition: ProtocolEdition) => void;

const DEFAULT_MAX_BUFFERED = 64 * 1024;
/**
 * A terminal whose clock runs ahead would pin the live position: every correct report after it
 * would look older than the latest. Reports this far in the future are kept in history only.
 */
export const FUTURE_TOLERANCE_MS = 10 * 60_000;

/** The codec's phone key (leading zeros dropped) of a 12-digit device number. */
export function phoneKey(deviceNo: string): string {
  return deviceNo.replace(/^0+/, '') || '0';
}

/** The 12-digit device number of a phone key; undefined when it cannot be one. */
export function deviceNoOf(key: string): string | undefined {
  return key.length <= 12 ? key.padStart(12, '0') : undefined;
}

export class Jt808Gateway {
  readonly stats: GatewayStats = {
    connectionsOpen: 0, connectionsTotal: 0, idleClosed: 0, frames: 0, badFrames: {}, garbageBytes: 0,
    registered: 0, provisioned: 0, registerRefused: 0, authenticated: 0, authFailed: 0, unauthenticated: 0, unsupported: 0,
    positions: 0, historyOnly: 0, noFix: 0, futureTime: 0, batchInvalidItems: 0, backpressurePauses: 0, writeBacklogBytes: 0, historyPending: 0,
  };
  private readonly server: net.Server;
  private readonly connections = new Set<Connection>();
  private readonly byPhone = new Map<string, TerminalEntry>();
  private readonly reassembler = new Reassembler();
  private readonly maxBuffered: number;
  private stopping = false;
  private listening = false;
  /** Authenticated terminals by vehicle id (the latest connection wins). */
  private readonly reachable = new Map<number, Reachable>();
  /** Platform messages waiting for their 0x0001, by `vehicleId:serial`. */
  private readonly awaiting = new Map<string, (result: number) => void>();
  /** Requests waiting for their answer message, by `vehicleId:serial`. */
  private readonly requests = new Map<string, PendingRequest>();
  /** Handlers of terminal messages beyond the core set, by message id (see `handleTerminalMessage`). */
  private readonly handlers = new Map<number, TerminalMessageHandler>();
  /** Called for every report accepted live (alarm generation hooks in here). */
  onReport: ReportListener | undefined;
  /** Called after a terminal authenticated (0x0102 accepted) on a connection; see `onAuthenticated`. */
  private readonly authListeners: AuthenticatedListener[] = [];

  constructor(
    private readonly deps: GatewayDeps,
    private readonly options: GatewayOptions,
  ) {
    this.maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED;
    this.server = net.createServer((socket) => this.accept(socket));
  }

  /** Loads the terminal cache (device number → vehicle and auth code). */
  async init(): Promise<void> {
    for (const v of await this.deps.terminals.allVehicles()) {
      this.byPhone.set(phoneKey(v.deviceNo), { vehicleId: v.vehicleId, deviceNo: v.deviceNo, authCode: v.authCode });
    }
  }

  /** Starts listening; answers the bound port. */
  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        this.listening = true;
        const address = this.server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  get port(): number | undefined {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : undefined;
  }

  snapshotStats(): GatewayStats {
    let backlog = 0;
    for (const c of this.connections) backlog += c.socket.writableLength;
    return { ...this.stats, badFrames: { ...this.stats.badFrames }, writeBacklogBytes: backlog, historyPending: this.deps.history.pending };
  }

  /**
   * Stops accepting connections and processing input, then ends every connection after its
   * queued replies. The caller flushes history afterwards (every acknowledged position is queued).
   */
  async stop(): Promise<void> {
    this.stopping = true;
    const closed = this.listening ? new Promise<void>((r) => this.server.close(() => r())) : Promise.resolve();
    for (const c of this.connections) {
      c.socket.pause();
      c.socket.end();
      // A peer that never closes its side must not hold the shutdown.
      setTimeout(() => c.socket.destroy(), 1000).unref();
    }
    await closed;
  }

  private accept(socket: net.Socket): void {
    if (this.stopping) {
      socket.destroy();
      return;
    }
    const conn: Connection = {
      socket, splitter: new FrameSplitter(), authed: new Map(), serial: 0, backlog: null, writePaused: false, out: null, ackTemplate: null, ackKey: '',
    };
    this.connections.add(conn);
    this.stats.connectionsOpen++;
    this.stats.connectionsTotal++;
    socket.setNoDelay(true);
    socket.setTimeout(this.options.idleMs);
    socket.on('timeout', () => {
      this.stats.idleClosed++;
      socket.destroy();
    });
    socket.on('data', (chunk: Buffer) => this.receive(conn, chunk));
    socket.on('drain', () => {
      if (conn.writePaused) {
        conn.writePaused = false;
        if (conn.backlog === null && !this.stopping) socket.resume();
      }
    });
    socket.on('error', () => undefined); // resets from terminals are routine; 'close' follows
    socket.on('close', () => {
      for (const entry of conn.authed.values()) if (this.reachable.get(entry.vehicleId)?.conn === conn) this.reachable.delete(entry.vehicleId);
      this.connections.delete(conn);
      this.stats.connectionsOpen--;
      this.stats.garbageBytes += conn.splitter.stats.garbageBytes;
    });
  }

  private receive(conn: Connection, chunk: Buffer): void {
    if (this.stopping) return;
    const before = conn.splitter.stats;
    const tooShort = before.tooShort, tooLong = before.tooLong, escapes = before.escapeErrors;
    conn.out = [];
    conn.splitter.push(chunk, (frame) => this.frame(conn, frame));
    const after = conn.splitter.stats;
    this.countBad('tooShort', after.tooShort - tooShort);
    this.countBad('tooLong', after.tooLong - tooLong);
    this.countBad('escape', after.escapeErrors - escapes);
    this.flushOut(conn);
    this.checkBackpressure(conn);
  }

  private countBad(code: string, n = 1): void {
    if (n > 0) this.stats.badFrames[code] = (this.stats.badFrames[code] ?? 0) + n;
  }

  private frame(conn: Connection, frame: Uint8Array): void {
    if (conn.backlog !== null) {
      conn.backlog.push(frame);
      return;
    }
    const pending = this.handle(conn, frame);
    if (pending) this.waitFor(conn, pending);
  }

  /** Runs an asynchronous step, holding later frames of the connection so order is kept. */
  private waitFor(conn: Connection, pending: Promise<void>): void {
    conn.backlog = [];
    conn.socket.pause();
    const drain = async (): Promise<void> => {
      await pending.catch((err: unknown) => this.deps.log?.warn({ err }, 'gateway: terminal message failed'));
      const backlog = conn.backlog ?? [];
      while (backlog.length > 0 && !this.stopping && !conn.socket.destroyed) {
        const next = this.handle(conn, backlog.shift()!);
        if (next) await next.catch((err: unknown) => this.deps.log?.warn({ err }, 'gateway: terminal message failed'));
      }
      conn.backlog = null;
      this.checkBackpressure(conn);
      if (!conn.writePaused && !this.stopping) conn.socket.resume();
    };
    void drain();
  }

  private checkBackpressure(conn: Connection): void {
    if (!conn.writePaused && conn.socket.writableLength > this.maxBuffered) {
      conn.writePaused = true;
      this.stats.backpressurePauses++;
      conn.socket.pause();
    }
  }

  /** Queues bytes for the socket: gathered per chunk (one write for many acks), else written at once. */
  private send(conn: Connection, bytes: Uint8Array): void {
    if (conn.socket.destroyed) return;
    if (conn.out) conn.out.push(bytes);
    else conn.socket.write(bytes);
  }

  private flushOut(conn: Connection): void {
    const out = conn.out;
    conn.out = null;
    if (!out || out.length === 0 || conn.socket.destroyed) return;
    conn.socket.write(out.length === 1 ? out[0]! : Buffer.concat(out));
  }

  /** 0x8001 general response. The hot path: a cached frame with serial, body and checksum patched. */
  private reply(conn: Connection, header: Jt808Header, result: number): void {
    if (conn.socket.destroyed) return;
    conn.serial = (conn.serial + 1) & 0xffff;
    const key = `${header.phone}|${header.version}|${header.protocolVersion}`;
    let frame = conn.ackTemplate;
    if (frame === null || conn.ackKey !== key) {
      frame = encodeFrameBody({
        msgId: MSG.PLATFORM_RESPONSE, phone: header.phone, serial: 0, version: header.version, protocolVersion: header.protocolVersion || 1,
      }, new Uint8Array(5));
      conn.ackTemplate = frame;
      conn.ackKey = key;
    }
    const at = headerLength(header.version, false);
    const n = frame.length;
    frame[at - 2] = conn.serial >> 8;
    frame[at - 1] = conn.serial & 0xff;
    frame[at] = header.serial >> 8;
    frame[at + 1] = header.serial & 0xff;
    frame[at + 2] = header.msgId >> 8;
    frame[at + 3] = header.msgId & 0xff;
    frame[at + 4] = result;
    frame[n - 1] = bcc(frame, 0, n - 1);
    this.send(conn, escapeFrame(frame));
  }

  /** Handles one frame; answers a promise when the step is asynchronous. */
  private handle(conn: Connection, frame: Uint8Array): Promise<void> | undefined {
    this.stats.frames++;
    let r: FrameResult = decodeFrame(frame);
    if (r.kind === 'fragment') {
      const whole = this.reassembler.push(r.header, r.body);
      if (!whole) return undefined;
      r = decodeBody(whole.header, whole.body);
      if (r.kind === 'fragment') return undefined; // decodeBody never answers this; keeps the type narrow
    }
    if (r.kind === 'error') {
      this.countBad(r.error.code);
      if (r.header) this.reply(conn, r.header, RESULT.BAD_MESSAGE);
      return undefined;
    }
    const { header } = r;
    if (r.kind === 'unsupported') {
      this.stats.unsupported++;
      const entry = conn.authed.get(header.phone);
      if (entry) this.deps.store.touch(entry.vehicleId);
      this.reply(conn, header, RESULT.UNSUPPORTED);
      return undefined;
    }
    const message = r.message;
    switch (message.msgId) {
      case MSG.REGISTER:
        return this.register(conn, header, message);
      case MSG.AUTHENTICATE:
        return this.authenticate(conn, header, message.authCode);
      case MSG.HEARTBEAT:
      case MSG.LOGOUT:
      case MSG.LOCATION:
      case MSG.BATCH_LOCATION:
      case MSG.TERMINAL_RESPONSE:
        break;
      default:
        if (this.handlers.has(message.msgId) || this.isAwaitedAnswer(message.msgId)) break;
        // Platform-side messages (0x8001, 0x8100, 0x8203, 0x8300) make no sense from a terminal.
        this.stats.unsupported++;
        this.reply(conn, header, RESULT.UNSUPPORTED);
        return undefined;
    }
    const entry = conn.authed.get(header.phone);
    if (!entry) {
      this.stats.unauthenticated++;
      this.reply(conn, header, RESULT.FAIL);
      return undefined;
    }
    const { store } = this.deps;
    switch (message.msgId) {
      case MSG.LOCATION: {
        const receivedAt = store.clock();
        if (this.queue(entry.vehicleId, message, receivedAt)) {
          if (!this.applyLive(entry.vehicleId, message, receivedAt)) {
            this.stats.historyOnly++;
            store.touch(entry.vehicleId, receivedAt);
          } else {
            this.notifyReport(entry.vehicleId, message, header.version);
          }
        } else {
          store.touch(entry.vehicleId, receivedAt);
        }
        this.reply(conn, header, RESULT.OK);
        return undefined;
      }
      case MSG.BATCH_LOCATION: {
        const receivedAt = store.clock();
        this.stats.batchInvalidItems += message.invalid;
        // Queue every item first: the ack below promises all of them.
        const accepted = message.items.filter((loc) => this.queue(entry.vehicleId, loc, receivedAt));
        store.touch(entry.vehicleId, receivedAt);
        // Oldest first, so the store ends on the newest item and older ones count as history only.
        accepted.sort((a, b) => a.time - b.time);
        for (const loc of accepted) {
          if (!this.applyLive(entry.vehicleId, loc, receivedAt)) this.stats.historyOnly++;
          // A blind-area re-upload (type 1) describes the past: it never raises live alarms.
          else if (message.type !== 1) this.notifyReport(entry.vehicleId, loc, header.version);
        }
        this.reply(conn, header, RESULT.OK);
        return undefined;
      }
      case MSG.TERMINAL_RESPONSE: {
        store.touch(entry.vehicleId);
        const key = `${entry.vehicleId}:${message.replySerial}`;
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
        return undefined;
      }
      case MSG.LOGOUT:
        store.touch(entry.vehicleId);
        conn.authed.delete(header.phone);
        if (this.reachable.get(entry.vehicleId)?.conn === conn) this.reachable.delete(entry.vehicleId);
        this.reply(conn, header, RESULT.OK);
        return undefined;
      default:
        store.touch(entry.vehicleId);
        this.settleRequest(entry.vehicleId, message);
        return this.extension(conn, header, entry.vehicleId, message);
    }
  }

  /** Runs the registered handler of a terminal message and acknowledges it. */
  private extension(conn: Connection, header: Jt808Header, vehicleId: number, message: Jt808Message): Promise<void> | undefined {
    const handler = this.handlers.get(message.msgId);
    if (!handler) {
      this.reply(conn, header, RESULT.OK);
      return undefined;
    }
    const send = (m: Jt808MessageInput) => {
      conn.serial = (conn.serial + 1) & 0xffff;
      this.send(conn, encodeReply(header, conn.serial, m));
    };
    const finish = (r: number | 'replied' | void) => {
      if (r !== 'replied') this.reply(conn, header, r ?? RESULT.OK);
    };
    const failed = (err: unknown) => {
      this.deps.log?.warn({ err, msgId: message.msgId }, 'gateway: terminal message handler failed');
      this.reply(conn, header, RESULT.FAIL);
    };
    try {
      const r = handler({ vehicleId, header, message, send });
      if (r instanceof Promise) {
        return r.then(finish, failed);
      }
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

  /**
   * Registers the handler of a terminal message id the core does not handle (0x1205, 0x0800, 0x0801,
   * 0x0805, ...). Its codec must decode it (jt808/messages.ts), or the terminal gets result 3. Messages
   * that answer a `request` reach the request first, then the handler (if any); without a handler
   * they are acknowledged OK.
   */
  handleTerminalMessage(msgId: number, handler: TerminalMessageHandler): void {
    if (this.handlers.has(msgId)) throw new Error(`gateway: a handler for 0x${msgId.toString(16).padStart(4, '0')} is already registered`);
    this.handlers.set(msgId, handler);
  }

  /**
   * Sends a platform message that the terminal answers with a message of its own (`answerId`), e.g.
   * 0x9205 → 0x1205 or 0x8801 → 0x0805; matched by the answer's reply serial. A 0x0001 other than OK
   * ends the wait as `reply`; `offline` without an authenticated connection, `timeout` without an answer.
   */
  request(vehicleId: number, message: Jt808MessageInput, answerId: number, timeoutMs = 10_000): Promise<RequestOutcome> {
    const r = this.reachable.get(vehicleId);
    if (!r || r.conn.socket.destroyed || this.stopping) return Promise.resolve({ kind: 'offline' });
    const conn = r.conn;
    conn.serial = (conn.serial + 1) & 0xffff;
    const serial = conn.serial;
    const key = `${vehicleId}:${serial}`;
    return new Promise<RequestOutcome>((resolve) => {
      const timer = setTimeout(() => {
        this.requests.delete(key);
        resolve({ kind: 'timeout' });
      }, timeoutMs);
      timer.unref();
      this.requests.set(key, {
        answerId, serial,
        resolve: (outcome) => {
          clearTimeout(timer);
          resolve(outcome);
        },
      });
      this.send(conn, encodePacket({ phone: r.phone, serial, version: r.version, protocolVersion: r.protocolVersion || 1 }, message));
    });
  }

  private notifyReport(vehicleId: number, loc: LocationReport, edition: ProtocolEdition): void {
    if (!this.onReport) return;
    try {
      this.onReport(vehicleId, loc, edition);
    } catch (err) {
      // A listener failure must never cost the terminal its ack.
      this.deps.log?.warn({ err }, 'gateway: report listener failed');
    }
  }

  /**
   * Subscribes to terminals authenticating (e.g. to ask a new terminal for its audio/video attributes).
   * A listener's failure is logged and never affects the terminal.
   */
  onAuthenticated(listener: AuthenticatedListener): void {
    this.authListeners.push(listener);
  }

  /**
   * Remote address of the connection on which the vehicle's terminal is authenticated, undefined when
   * none is (the media ports accept a stream only from this address unless configured otherwise).
   */
  authenticatedAddress(vehicleId: number): string | undefined {
    const r = this.reachable.get(vehicleId);
    return r && !r.conn.socket.destroyed ? r.conn.socket.remoteAddress : undefined;
  }

  /** True when the vehicle's terminal is authenticated on an open connection. */
  isReachable(vehicleId: number): boolean {
    const r = this.reachable.get(vehicleId);
    return r !== undefined && !r.conn.socket.destroyed;
  }

  /**
   * Sends a platform message (0x8203, 0x8300, ...) to a vehicle's terminal and waits for its 0x0001
   * general response: `offline` when no authenticated connection holds it, `timeout` without a reply.
   * `onSerial` learns the platform serial it was sent with (0x1206 / 0x9207 refer to a 0x9206 by it).
   */
  sendCommand(vehicleId: number, message: Jt808MessageInput, timeoutMs = 10_000, onSerial?: (serial: number) => void): Promise<CommandOutcome> {
    const r = this.reachable.get(vehicleId);
    if (!r || r.conn.socket.destroyed || this.stopping) return Promise.resolve({ kind: 'offline' });
    const conn = r.conn;
    conn.serial = (conn.serial + 1) & 0xffff;
    const serial = conn.serial;
    onSerial?.(serial);
    const key = `${vehicleId}:${serial}`;
    return new Promise<CommandOutcome>((resolve) => {
      const timer = setTimeout(() => {
        this.awaiting.delete(key);
        resolve({ kind: 'timeout' });
      }, timeoutMs);
      timer.unref();
      this.awaiting.set(key, (result) => {
        clearTimeout(timer);
        resolve({ kind: 'reply', result });
      });
      this.send(conn, encodePacket({ phone: r.phone, serial, version: r.version, protocolVersion: r.protocolVersion || 1 }, message));
    });
  }

  /** Queues a report in history; false when it has no fix (nothing to keep). */
  private queue(vehicleId: number, loc: LocationReport, receivedAt: number): boolean {
    if (!Number.isFinite(loc.time)) {
      this.stats.noFix++;
      return false;
    }
    const row: PositionRow = {
      vehicleId, gpsTime: loc.time, lng: loc.lng, lat: loc.lat, speed: loc.speed, heading: loc.direction, altitude: loc.altitude,
      status: loc.status, alarm: loc.alarm, mileage: loc.mileage ?? null, receivedAt,
    };
    this.deps.history.enqueue(row);
    this.stats.positions++;
    return true;
  }

  /** Applies a report to the live store; false when it is history only (older than the latest, or from the future). */
  private applyLive(vehicleId: number, loc: LocationReport, receivedAt: number): boolean {
    if (loc.time > receivedAt + FUTURE_TOLERANCE_MS) {
      this.stats.futureTime++;
      return false;
    }
    return this.deps.store.applyPosition(this.live(vehicleId, loc));
  }

  private live(vehicleId: number, loc: LocationReport) {
    return {
      vehicleId, lng: loc.lng, lat: loc.lat, speed: loc.speed, heading: loc.direction, altitude: loc.altitude,
      statusFlags: loc.status, alarmFlags: loc.alarm, gpsTime: loc.time,
    };
  }

  private async lookup(key: string): Promise<TerminalEntry | undefined> {
    const cached = this.byPhone.get(key);
    if (cached) return cached;
    const deviceNo = deviceNoOf(key);
    if (!deviceNo) return undefined;
    // A vehicle created after start (management calls) is found in the database.
    const row = await this.deps.terminals.byDeviceNo(deviceNo);
    if (!row) return undefined;
    const entry: TerminalEntry = { vehicleId: row.vehicleId, deviceNo: row.deviceNo, authCode: row.authCode };
    this.byPhone.set(key, entry);
    this.deps.store.upsertVehicle({ vehicleId: row.vehicleId, companyId: row.companyId, companyPath: row.companyPath });
    return entry;
  }

  private async register(conn: Connection, header: Jt808Header, msg: Register): Promise<void> {
    const { terminals, store } = this.deps;
    const answer = (result: number, authCode: string) => {
      conn.serial = (conn.serial + 1) & 0xffff;
      this.send(conn, encodeReply(header, conn.serial, { msgId: MSG.REGISTER_RESPONSE, replySerial: header.serial, result, authCode }));
    };
    let entry = await this.lookup(header.phone);
    const deviceNo = deviceNoOf(header.phone);
    if (!entry) {
      if (!this.options.autoRegister || !deviceNo) {
        this.stats.registerRefused++;
        answer(REGISTER_RESULT.NO_TERMINAL, '');
        return;
      }
      const companyId = this.options.autoRegisterCompanyId ?? (await terminals.defaultCompanyId());
      if (companyId === undefined) {
        this.stats.registerRefused++;
        answer(REGISTER_RESULT.NO_TERMINAL, '');
        return;
      }
      const plate = msg.plateColor !== 0 ? msg.plate.trim() : '';
      const vehiidno = plate && !(await terminals.vehiidnoTaken(plate)) ? plate : `T${deviceNo}`;
      const row = await terminals.provisionVehicle({ vehiidno, companyId, deviceNo });
      store.upsertVehicle({ vehicleId: row.vehicleId, companyId: row.companyId, companyPath: row.companyPath });
      entry = { vehicleId: row.vehicleId, deviceNo: row.deviceNo, authCode: null };
      this.byPhone.set(header.phone, entry);
      this.stats.provisioned++;
    }
    const authCode = randomBytes(8).toString('hex');
    await terminals.register({
      deviceNo: entry.deviceNo, vehicleId: entry.vehicleId, authCode, makerId: msg.makerId, model: msg.model,
      terminalId: msg.terminalId, plateColor: msg.plateColor, plate: msg.plate,
    });
    entry.authCode = authCode;
    this.stats.registered++;
    store.touch(entry.vehicleId);
    answer(REGISTER_RESULT.OK, authCode);
  }

  private authenticate(conn: Connection, header: Jt808Header, authCode: string): Promise<void> | undefined {
    const cached = this.byPhone.get(header.phone);
    const decide = (entry: TerminalEntry | undefined) => {
      if (entry && entry.authCode !== null && entry.authCode === authCode) {
        conn.authed.set(header.phone, entry);
        this.reachable.set(entry.vehicleId, { conn, phone: header.phone, version: header.version, protocolVersion: header.protocolVersion });
        this.stats.authenticated++;
        this.deps.store.touch(entry.vehicleId);
        void this.deps.terminals.markAuthenticated(entry.deviceNo, this.deps.store.clock());
        this.reply(conn, header, RESULT.OK);
        for (const listener of this.authListeners) {
          try {
            listener(entry.vehicleId, conn.socket.remoteAddress);
          } catch (err) {
            this.deps.log?.warn({ err }, 'gateway: authenticated listener failed');
          }
        }
      } else {
        this.stats.authFailed++;
        this.reply(conn, header, RESULT.FAIL);
      }
    };
    if (cached) {
      decide(cached);
      return undefined;
    }
    return this.lookup(header.phone).then(decide);
  }
}
