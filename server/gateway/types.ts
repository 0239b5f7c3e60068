/** Types the gateway's modules share (server.ts re-exports the public ones). */
import type { Jt808Header, Jt808Message, Jt808MessageInput, LocationReport, ProtocolEdition } from './jt808/index.ts';

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
  /** Unknown numbers accepted as unassigned devices (autoRegister on). */
  provisioned: number;
  /** Registrations refused: unknown terminals (result 4) and registered ones (result 3). */
  registerRefused: number;
  /** 0x0100 for a terminal that holds an auth code, refused with result 3 (a hijack attempt or a lost code). */
  reregisterRefused: number;
  /** Registrations ended by the terminal's 0x0003. */
  unregistered: number;
  /** Registrations ended by an operator's reset. */
  registrationResets: number;
  authenticated: number;
  authFailed: number;
  /** Authentications ended because the terminal authenticated on a newer connection. */
  displaced: number;
  /** Messages (and sub-packages) from a terminal not authenticated on their connection: answered result 1, nothing changed. */
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
  /** Sub-packaged messages completed. */
  reassembled: number;
  /** 0x8003 requests sent for missing sub-packages. */
  resendRequests: number;
  /** Sub-packages sent again because a terminal asked for them (0x0005). */
  subpackagesResent: number;
  /** Incomplete messages dropped after their 0x8003 rounds or their maximum age. */
  reassemblyAbandoned: number;
  /** Incomplete messages dropped to stay within a connection's bounds or the gateway-wide byte budget. */
  reassemblyEvicted: number;
  /** Sub-packages refused (too many packages for one message, or no room): answered result 1. */
  reassemblyRefused: number;
  /** Sub-package bytes held across all connections (bounded by the shared budget). */
  reassemblyHeldBytes: number;
  backpressurePauses: number;
  /** Reply bytes queued in user space across all sockets (bounded by backpressure). */
  writeBacklogBytes: number;
  historyPending: number;
}

export function emptyGatewayStats(): GatewayStats {
  return {
    connectionsOpen: 0, connectionsTotal: 0, idleClosed: 0, frames: 0, badFrames: {}, garbageBytes: 0,
    registered: 0, provisioned: 0, registerRefused: 0, reregisterRefused: 0, unregistered: 0, registrationResets: 0,
    authenticated: 0, authFailed: 0, displaced: 0, unauthenticated: 0, unsupported: 0,
    positions: 0, historyOnly: 0, noFix: 0, futureTime: 0, batchInvalidItems: 0,
    reassembled: 0, resendRequests: 0, subpackagesResent: 0, reassemblyAbandoned: 0, reassemblyEvicted: 0, reassemblyRefused: 0, reassemblyHeldBytes: 0,
    backpressurePauses: 0, writeBacklogBytes: 0, historyPending: 0,
  };
}

/** What became of a platform message sent to a terminal. */
export type CommandOutcome =
  | { readonly kind: 'reply'; readonly result: number }
  | { readonly kind: 'offline' }
  /** `retransmissions`: a message with a retransmission policy, sent that many times again unanswered (JT/T 808 §4.4). */
  | { readonly kind: 'timeout'; readonly retransmissions?: number };

/** What became of a platform request that expects an answer message (0x9205 → 0x1205, 0x8801 → 0x0805, ...). */
export type RequestOutcome =
  | { readonly kind: 'answer'; readonly message: Jt808Message }
  /** The terminal answered 0x0001 with a result other than OK instead of the answer message. */
  | { readonly kind: 'reply'; readonly result: number }
  | { readonly kind: 'offline' }
  | { readonly kind: 'timeout'; readonly retransmissions?: number };

/**
 * Sends platform messages to vehicles' terminals and awaits their answers: what services call (through
 * the gateway's `sendCommand` / `request`). The gateway's `local` commander reaches the connections of
 * this process; issue 20's bus commander (server/bus/commands.ts) reaches the gateway node that holds
 * the terminal's connection, with the same outcomes (offline, timeout, reply, answer).
 */
export interface TerminalCommander {
  /** 0x8203, 0x8300, ...: waits for the terminal's 0x0001. `onSerial` learns the platform serial it was sent with. */
  sendCommand(vehicleId: number, message: Jt808MessageInput, timeoutMs?: number, onSerial?: (serial: number) => void): Promise<CommandOutcome>;
  /** 0x9205 → 0x1205, 0x8801 → 0x0805, ...: waits for the answer message `answerId`. */
  request(vehicleId: number, message: Jt808MessageInput, answerId: number, timeoutMs?: number): Promise<RequestOutcome>;
}

/**
 * Where the gateway sends a vehicle's commands when no connection of this process holds its terminal
 * (issue 20: another gateway node over the bus), and whether one does.
 */
export interface RemoteTerminals extends TerminalCommander {
  /** True when the vehicle's terminal is authenticated on another node (as far as this node knows). */
  isReachable(vehicleId: number): boolean;
}

/**
 * Told when a vehicle's terminal becomes reachable on this process (authenticated; `phone` its device)
 * and when it stops being (`phone` null: the connection closed, the terminal authenticated elsewhere,
 * logged out, or the device left the vehicle).
 */
export type ReachabilityListener = (vehicleId: number, phone: string | null) => void;

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

/** A terminal that has just authenticated: its vehicle and the remote address of its connection. */
export type AuthenticatedListener = (vehicleId: number, remoteAddress: string | undefined) => void;

/** A live report accepted into the store (blind-area re-uploads and history-only reports are not). */
export type ReportListener = (vehicleId: number, report: LocationReport, edition: ProtocolEdition) => void;

export interface GatewayLog {
  warn(obj: object, msg: string): void;
}
