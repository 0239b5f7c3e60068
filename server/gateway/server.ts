/**
 * The JT/T 808 TCP gateway: the acceptor. Each accepted socket becomes a `TerminalSession`
 * (session.ts), which owns everything of that connection: its frames, the terminals authenticated on
 * it, its sub-package reassembly, its reply serials and the requests awaiting answers on it. The
 * gateway keeps what spans connections: the terminal directory (directory.ts: auth codes and the
 * registration rules), live application of reports (live-apply.ts), the handlers of extension
 * messages, and which session a vehicle is reachable on (the connection its terminal last
 * authenticated on) for platform → terminal messages.
 *
 * The rule (see session.ts): nothing changes a terminal's state unless the connection the message
 * came on authenticated as that terminal. Rules in detail: server/API.md "JT/T 808 gateway".
 */
import net from 'node:net';
import type { TerminalRepository } from '../db/repositories.ts';
import type { HistorySink } from '../live/history.ts';
import type { LiveStore } from '../live/store.ts';
import { ReassemblyBudget, type Jt808Header, type Jt808MessageInput, type ProtocolEdition, type ReassemblerOptions } from './jt808/index.ts';
import { emptyDeviceGatewayStats, phoneKey, TerminalDirectory, type DeviceGatewayStats, type TerminalEntry } from './directory.ts';
import { LiveApplier } from './live-apply.ts';
import type { FrameLogSink } from './frame-log.ts';
import { TerminalSession, type SessionHost, type SessionTarget } from './session.ts';
import {
  emptyGatewayStats,
  type AuthenticatedListener,
  type CommandOutcome,
  type GatewayLog,
  type GatewayStats,
  type ReachabilityListener,
  type RemoteTerminals,
  type ReportListener,
  type RequestOutcome,
  type TerminalCommander,
  type TerminalMessageHandler,
} from './types.ts';

export { deviceNoOf, phoneKey, type DeviceGatewayStats } from './directory.ts';
export { FUTURE_TOLERANCE_MS } from './live-apply.ts';
export type {
  AuthenticatedListener,
  CommandOutcome,
  GatewayStats,
  ReachabilityListener,
  RemoteTerminals,
  ReportListener,
  RequestOutcome,
  TerminalCommander,
  TerminalMessageContext,
  TerminalMessageHandler,
} from './types.ts';

export interface GatewayReassemblyOptions extends Omit<ReassemblerOptions, 'budget'> {
  /**
   * Sub-package bytes held across all connections. @default 256 MiB (an operator's snapshot of 100
   * vehicles × 4 cameras at ~200 KB a photo has ~80 MB in flight; each connection holds ≤ 2 MiB).
   */
  readonly budgetBytes?: number;
  /** How often sessions look for missing sub-packages (0x8003) and abandoned messages. @default 1000 */
  readonly tickMs?: number;
}

export interface GatewayOptions {
  /** Close a connection silent for this long. */
  readonly idleMs: number;
  /** Unknown terminals become unassigned devices at register instead of being refused (result 4). */
  readonly autoRegister: boolean;
  /** Company of auto-registered devices; default: the first root company. */
  readonly autoRegisterCompanyId?: number;
  /** Unsent reply bytes per socket above which reading pauses. @default 64 KiB */
  readonly maxBufferedBytes?: number;
  /** Bounds and timing of sub-package reassembly (per connection, plus a gateway-wide byte budget). */
  readonly reassembly?: GatewayReassemblyOptions;
}

export interface GatewayDeps {
  readonly store: LiveStore;
  readonly history: HistorySink;
  readonly terminals: TerminalRepository;
  readonly log?: GatewayLog;
}

const DEFAULT_MAX_BUFFERED = 64 * 1024;
const DEFAULT_REASSEMBLY_BUDGET = 256 * 1024 * 1024;

/** Where an authenticated terminal can be reached (platform → terminal messages). */
interface Reachable extends SessionTarget {
  readonly session: TerminalSession;
  /** Epoch ms the terminal authenticated on `session` (issue 20: a later authentication on another node displaces it). */
  readonly since: number;
}

/** The connection a device (phone key) is authenticated on, with its header's edition (installed or not). */
type Connected = Omit<Reachable, 'vehicleId'>;

export class Jt808Gateway {
  readonly stats: GatewayStats = emptyGatewayStats();
  /** Issue 15: refusals by device rules and messages of devices installed on no vehicle. */
  readonly deviceStats: DeviceGatewayStats = emptyDeviceGatewayStats();
  private readonly server: net.Server;
  private readonly sessions = new Set<TerminalSession>();
  private readonly directory: TerminalDirectory;
  private readonly live: LiveApplier;
  private readonly budget: ReassemblyBudget;
  private readonly host: SessionHost;
  private readonly tickMs: number;
  private ticker: NodeJS.Timeout | undefined;
  private stopping = false;
  private listening = false;
  /** Garbage bytes of closed sessions (open ones are summed at snapshot). */
  private closedGarbage = 0;
  /** Authenticated terminals by vehicle id (the latest connection wins). */
  private readonly reachable = new Map<number, Reachable>();
  /** Authenticated devices by phone key, installed on a vehicle or not (the latest connection wins). */
  private readonly connected = new Map<string, Connected>();
  /** Handlers of terminal messages beyond the core set, by message id (see `handleTerminalMessage`). */
  private readonly handlers = new Map<number, TerminalMessageHandler>();
  /** Called after a terminal authenticated (0x0102 accepted) on a connection; see `onAuthenticated`. */
  private readonly authListeners: AuthenticatedListener[] = [];
  /** Told when a vehicle becomes reachable here or stops being (issue 20: the bus subscribes its commands). */
  private readonly reachListeners: ReachabilityListener[] = [];
  /** Issue 20: the gateway nodes holding the terminals this process does not (server/bus/commands.ts); none on a single node. */
  private remote: RemoteTerminals | undefined;

  /**
   * The in-process commander: the connections of this process only, `offline` for any other vehicle.
   * The bus's responder sends through it (a command that came over the bus never goes back to it).
   */
  readonly local: TerminalCommander = {
    sendCommand: (vehicleId, message, timeoutMs = 10_000, onSerial) => {
      const r = this.reachable.get(vehicleId);
      if (!r || !r.session.open || this.stopping) return Promise.resolve({ kind: 'offline' });
      return r.session.command(r, message, timeoutMs, onSerial);
    },
    request: (vehicleId, message, answerId, timeoutMs = 10_000) => {
      const r = this.reachable.get(vehicleId);
      if (!r || !r.session.open || this.stopping) return Promise.resolve({ kind: 'offline' });
      return r.session.request(r, message, answerId, timeoutMs);
    },
  };

  constructor(
    private readonly deps: GatewayDeps,
    options: GatewayOptions,
  ) {
    this.directory = new TerminalDirectory(deps.terminals, deps.store, this.stats, {
      autoRegister: options.autoRegister, autoRegisterCompanyId: options.autoRegisterCompanyId,
    }, deps.log, this.deviceStats);
    this.live = new LiveApplier(deps.store, deps.history, this.stats, deps.log);
    const { budgetBytes, tickMs, ...reassembly } = options.reassembly ?? {};
    this.budget = new ReassemblyBudget(budgetBytes ?? DEFAULT_REASSEMBLY_BUDGET);
    this.tickMs = tickMs ?? 1000;
    this.host = {
      stats: this.stats,
      deviceStats: this.deviceStats,
      log: deps.log,
      store: deps.store,
      directory: this.directory,
      live: this.live,
      handlers: this.handlers,
      maxBuffered: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED,
      reassembly: { ...reassembly, budget: this.budget },
      isStopping: () => this.stopping,
      bind: (session, entry, header) => this.bind(session, entry, header),
      announce: (session, entry) => this.announce(session, entry),
      unbind: (session, entry) => {
        if (entry.vehicleId !== null && this.reachable.get(entry.vehicleId)?.session === session) this.unreach(entry.vehicleId);
        const phone = phoneKey(entry.deviceNo);
        if (this.connected.get(phone)?.session === session) this.connected.delete(phone);
      },
      closed: (session) => {
        this.sessions.delete(session);
        this.stats.connectionsOpen--;
        this.closedGarbage += session.garbageBytes;
      },
    };
    this.server = net.createServer((socket) => this.accept(socket, options.idleMs));
  }

  /**
   * Issue 17: every frame of every connection, both ways, goes to `log` from now on (frame-log.ts
   * batches it off the hot path); its vehicle is resolved through the directory's cache.
   */
  attachFrameLog(log: FrameLogSink): void {
    log.resolveVehicle = (phone) => this.directory.cached(phone)?.vehicleId ?? null;
    this.host.frameLog = log;
  }

  /** Called for every report accepted live (alarm generation hooks in here). */
  get onReport(): ReportListener | undefined {
    return this.live.onReport;
  }

  set onReport(listener: ReportListener | undefined) {
    this.live.onReport = listener;
  }

  /** Loads the terminal directory (device number → vehicle and auth code). */
  async init(): Promise<void> {
    await this.directory.init();
  }

  /** Starts listening; answers the bound port. */
  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        this.listening = true;
        this.ticker ??= setInterval(() => this.tick(), this.tickMs).unref();
        const address = this.server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  /** Terminals authenticated on an open connection (read at scrape time by server/ops/metrics.ts). */
  get terminalsConnected(): number {
    return this.connected.size;
  }

  get port(): number | undefined {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : undefined;
  }

  snapshotStats(): GatewayStats & DeviceGatewayStats {
    let backlog = 0;
    let garbage = this.closedGarbage;
    for (const s of this.sessions) {
      backlog += s.socket.writableLength;
      garbage += s.garbageBytes;
    }
    return {
      ...this.stats, ...this.deviceStats, badFrames: { ...this.stats.badFrames }, garbageBytes: garbage, writeBacklogBytes: backlog,
      reassemblyHeldBytes: this.budget.held, historyPending: this.deps.history.pending,
    };
  }

  /**
   * Stops accepting connections and processing input, flushes history so the acks waiting for that
   * commit go out, then ends every connection after its queued replies. The caller closes history
   * afterwards.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.ticker) clearInterval(this.ticker);
    const closed = this.listening ? new Promise<void>((r) => this.server.close(() => r())) : Promise.resolve();
    for (const s of this.sessions) s.socket.pause();
    // A failed flush keeps its rows queued (the caller's close retries) and their acks unsent.
    await this.deps.history.flush().catch((err: unknown) => this.deps.log?.warn({ err }, 'gateway: history flush at stop failed'));
    for (const s of this.sessions) {
      s.socket.end();
      // A peer that never closes its side must not hold the shutdown.
      setTimeout(() => s.socket.destroy(), 1000).unref();
    }
    await closed;
  }

  /**
   * Registers the handler of a terminal message id the core does not handle (0x1205, 0x0800, 0x0801,
   * 0x0805, ...). Its codec must decode it (jt808/messages.ts), or the terminal gets result 3. It is
   * called only for terminals authenticated on the connection the message came on. Messages that
   * answer a `request` reach the request first, then the handler (if any); without a handler they are
   * acknowledged OK.
   */
  handleTerminalMessage(msgId: number, handler: TerminalMessageHandler): void {
    if (this.handlers.has(msgId)) throw new Error(`gateway: a handler for 0x${msgId.toString(16).padStart(4, '0')} is already registered`);
    this.handlers.set(msgId, handler);
  }

  /**
   * Sends a platform message that the terminal answers with a message of its own (`answerId`), e.g.
   * 0x9205 → 0x1205 or 0x8801 → 0x0805; matched by the answer's reply serial on the same connection.
   * A 0x0001 other than OK ends the wait as `reply`; `offline` without an authenticated connection (or
   * when it closes first), `timeout` without an answer.
   */
  request(vehicleId: number, message: Jt808MessageInput, answerId: number, timeoutMs = 10_000): Promise<RequestOutcome> {
    if (this.remote && !this.stopping && !this.isReachableHere(vehicleId)) return this.remote.request(vehicleId, message, answerId, timeoutMs);
    return this.local.request(vehicleId, message, answerId, timeoutMs);
  }

  /**
   * Sends a platform message (0x8203, 0x8300, ...) to a vehicle's terminal and waits for its 0x0001
   * general response: `offline` when no authenticated connection holds it, `timeout` without a reply.
   * `onSerial` learns the platform serial it was sent with (0x1206 / 0x9207 refer to a 0x9206 by it).
   */
  sendCommand(vehicleId: number, message: Jt808MessageInput, timeoutMs = 10_000, onSerial?: (serial: number) => void): Promise<CommandOutcome> {
    if (this.remote && !this.stopping && !this.isReachableHere(vehicleId)) return this.remote.sendCommand(vehicleId, message, timeoutMs, onSerial);
    return this.local.sendCommand(vehicleId, message, timeoutMs, onSerial);
  }

  /**
   * Issue 20 scale-out: commands (`sendCommand`, `request`) for a vehicle whose terminal no connection
   * of this process holds go to `remote` (the bus to the gateway node that holds it) instead of ending
   * as offline; `isReachable` counts the terminals `remote` knows of. A terminal connected here is
   * still sent to directly.
   */
  attachRemote(remote: RemoteTerminals): void {
    this.remote = remote;
    // Other gateway nodes register terminals in the same database.
    this.directory.shared = true;
  }

  /**
   * Subscribes to vehicles becoming reachable here (each authentication of their terminal, `phone` its
   * device) and ceasing to be (`phone` null). Issue 20: the bus routes their commands to this node.
   */
  onReachability(listener: ReachabilityListener): void {
    this.reachListeners.push(listener);
  }

  /** Vehicles whose terminal is authenticated on an open connection of this process, with its device (phone key). */
  reachableHere(): Array<{ vehicleId: number; phone: string }> {
    const out: Array<{ vehicleId: number; phone: string }> = [];
    for (const [vehicleId, r] of this.reachable) if (r.session.open) out.push({ vehicleId, phone: r.phone });
    return out;
  }

  /**
   * Issue 20: the device authenticated on another node at `authenticatedAt` (epoch ms). One terminal,
   * one session across nodes as within one: an authentication here older than that no longer acts as
   * the terminal (as `bind` does with an older connection of this process). True when one was released.
   */
  displace(deviceNo: string, authenticatedAt: number): boolean {
    const phone = phoneKey(deviceNo);
    const c = this.connected.get(phone);
    if (!c || !c.session.open || !c.session.holds(phone) || c.since >= authenticatedAt) return false;
    this.stats.displaced++;
    c.session.release(phone);
    return true;
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
    return r && r.session.open ? r.session.remoteAddress : undefined;
  }

  /** True when the vehicle's terminal is authenticated on an open connection. */
  isReachable(vehicleId: number): boolean {
    return this.isReachableHere(vehicleId) || (this.remote?.isReachable(vehicleId) ?? false);
  }

  /** True when the vehicle's terminal is authenticated on an open connection of this process. */
  private isReachableHere(vehicleId: number): boolean {
    const r = this.reachable.get(vehicleId);
    return r !== undefined && r.session.open;
  }

  /**
   * An operator's reset of a terminal's registration: its auth code is void, its authenticated
   * connection (if any) loses it and is closed when nothing else is authenticated there, so the real
   * terminal reconnects, fails 0x0102 and registers afresh. False when the vehicle has no terminal
   * registered (nothing to reset).
   */
  async resetRegistration(vehicleId: number, deviceNo: string, userId: number): Promise<boolean> {
    const entry = await this.directory.lookup(phoneKey(deviceNo));
    if (!entry || entry.vehicleId !== vehicleId) return false;
    return this.resetDeviceRegistration(deviceNo, userId);
  }

  /** True when the device is authenticated on an open connection now (installed on a vehicle or not). */
  deviceOnline(deviceNo: string): boolean {
    const phone = phoneKey(deviceNo);
    const c = this.connected.get(phone);
    return c !== undefined && c.session.open && c.session.holds(phone);
  }

  /**
   * Issue 15 (FleetSync): these devices changed in the database (installed, removed, renumbered,
   * deleted; committed). Their cached entries follow; a connection authenticated as one of them:
   * - keeps its session when the device moved to another vehicle or to none: its next report goes to
   *   the new vehicle (or nowhere), platform requests for the previous vehicle end as offline and that
   *   vehicle shows offline at once;
   * - loses the terminal when the device is gone (closed when nothing else is authenticated there), or
   *   when the auth code it authenticated with is void in the database (an operator's reset or a new
   *   registration made on another node, issue 20: the API node's FleetSync reaches this one on the bus).
   * Answers the vehicles whose device changed.
   */
  async devicesChanged(deviceNos: readonly string[]): Promise<number[]> {
    const touched: number[] = [];
    for (const change of await this.directory.reload(deviceNos)) {
      const { phone, entry, previousVehicleId } = change;
      if (previousVehicleId !== null) {
        touched.push(previousVehicleId);
        const r = this.reachable.get(previousVehicleId);
        if (r && r.phone === phone) this.unreach(previousVehicleId);
        this.deps.store.markOffline(previousVehicleId);
      }
      const c = this.connected.get(phone);
      if (change.removed || change.voided) {
        if (change.voided && entry.vehicleId !== null) touched.push(entry.vehicleId);
        for (const s of this.sessions) {
          if (!s.holds(phone)) continue;
          s.release(phone);
          if (s.empty) s.end();
        }
        continue;
      }
      if (!c || !c.session.open || !c.session.holds(phone)) continue;
      c.session.vehicleChanged(phone, previousVehicleId);
      if (entry.vehicleId !== null) {
        touched.push(entry.vehicleId);
        const previous = this.reachable.get(entry.vehicleId);
        this.reach(entry.vehicleId, { ...c, vehicleId: entry.vehicleId });
        // The vehicle had another device online: that one no longer reaches it (it was unbound in the same change).
        if (previous && previous.session !== c.session && previous.phone !== phone) this.stats.displaced++;
        this.deps.store.touch(entry.vehicleId);
        this.announce(c.session, entry);
      }
    }
    return touched;
  }

  /** Devices whose cached entry is installed on one of these vehicles (FleetSync re-reads them when vehicles change). */
  devicesOfVehicles(vehicleIds: readonly number[]): string[] {
    return this.directory.devicesOfVehicles(new Set(vehicleIds));
  }

  /**
   * An operator's reset of a device's registration (issue 15: by device, installed on a vehicle or
   * not): as `resetRegistration`. False when the device held no registration.
   */
  async resetDeviceRegistration(deviceNo: string, userId: number): Promise<boolean> {
    const phone = phoneKey(deviceNo);
    const entry = await this.directory.lookup(phone);
    if (!entry) return false;
    const changed = await this.directory.unregister(entry, 'operator', userId);
    for (const s of this.sessions) {
      if (!s.holds(phone)) continue;
      s.release(phone);
      if (s.empty) s.end();
    }
    return changed;
  }

  private accept(socket: net.Socket, idleMs: number): void {
    if (this.stopping) {
      socket.destroy();
      return;
    }
    const session = new TerminalSession(socket, this.host);
    this.sessions.add(session);
    this.stats.connectionsOpen++;
    this.stats.connectionsTotal++;
    socket.setNoDelay(true);
    socket.setTimeout(idleMs);
    socket.on('timeout', () => {
      this.stats.idleClosed++;
      socket.destroy();
    });
  }

  /** The terminal authenticated on `session`: it is reachable there, and no longer on an older connection. */
  private bind(session: TerminalSession, entry: TerminalEntry, header: Jt808Header): void {
    const target: Connected = { session, phone: header.phone, version: header.version as ProtocolEdition, protocolVersion: header.protocolVersion, since: Date.now() };
    const previous = this.connected.get(header.phone);
    this.connected.set(header.phone, target);
    if (entry.vehicleId !== null) this.reach(entry.vehicleId, { ...target, vehicleId: entry.vehicleId });
    if (previous && previous.session !== session && previous.session.holds(previous.phone)) {
      // One terminal, one session: the older connection (a half-open socket, or someone who knew the
      // code) no longer acts as the terminal.
      this.stats.displaced++;
      previous.session.release(previous.phone);
    }
  }

  /** The vehicle is reachable on `r` (an authentication, or its device installed on it): listeners learn of each. */
  private reach(vehicleId: number, r: Reachable): void {
    this.reachable.set(vehicleId, r);
    this.tellReach(vehicleId, r.phone);
  }

  private unreach(vehicleId: number): void {
    if (this.reachable.delete(vehicleId)) this.tellReach(vehicleId, null);
  }

  private tellReach(vehicleId: number, phone: string | null): void {
    for (const listener of this.reachListeners) {
      try {
        listener(vehicleId, phone);
      } catch (err) {
        this.deps.log?.warn({ err }, 'gateway: reachability listener failed');
      }
    }
  }

  private announce(session: TerminalSession, entry: TerminalEntry): void {
    const { vehicleId } = entry;
    // A device installed on no vehicle has nobody to tell (channel discovery etc. start once it is installed).
    if (vehicleId === null) return;
    for (const listener of this.authListeners) {
      try {
        listener(vehicleId, session.remoteAddress);
      } catch (err) {
        this.deps.log?.warn({ err }, 'gateway: authenticated listener failed');
      }
    }
  }

  private tick(): void {
    const now = Date.now();
    for (const s of this.sessions) s.tick(now);
  }
}
