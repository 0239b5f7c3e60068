/**
 * A JT/T 808 terminal that stays online as real ones do (issue 20 failover tests): TestTerminal over
 * TCP, and when the connection drops it connects again after a back-off (1 s doubling to 60 s, with
 * jitter, reset by a successful sign-in; the simulator's policy, server/sim/terminal.ts), authenticates
 * with the code it holds or registers afresh when that code is refused, and sends again, in order, every
 * report the platform had not acknowledged (JT/T 808: a message without its 0x8001 is retransmitted).
 * It records every report acknowledged with result 0.
 */
import type { LocationInput } from '../gateway/jt808/index.ts';
import { MSG } from '../gateway/jt808/index.ts';
import { TestTerminal } from '../gateway/terminal-client.ts';

const BACKOFF_MIN_MS = 1000;
const BACKOFF_MAX_MS = 60_000;
/** A sign-in (0x0102, or 0x0100 + 0x0102) not answered within this is given up and retried. */
const LOGIN_TIMEOUT_MS = 5000;

export interface AckedReport {
  readonly location: LocationInput;
  /** Date.now() when the 0x8001 arrived, and the sign-in (connection) it came on, from 1. */
  readonly at: number;
  readonly connection: number;
}

export class ReconnectingTerminal {
  /** Reports acknowledged with result 0, in order of their 0x8001. */
  readonly acked: AckedReport[] = [];
  /** Reports answered with another result (should stay empty). */
  readonly refused: { location: LocationInput; result: number }[] = [];
  /** Successful sign-ins so far (1 after `start`); `Date.now()` of each. */
  readonly signIns: number[] = [];
  /** Connections that dropped while the terminal wanted to be online. */
  drops = 0;
  private current: TestTerminal | null = null;
  /** Not yet acknowledged: sent on the current connection (by serial) or waiting for one. */
  private readonly inflight = new Map<number, LocationInput>();
  private queue: LocationInput[] = [];
  private backoffMs = BACKOFF_MIN_MS;
  private attempt = 0;
  private stopped = false;
  private reconnectTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly port: number,
    readonly phone: string,
    readonly host = '127.0.0.1',
  ) {}

  get online(): boolean {
    return this.current !== null;
  }

  /** Reports not acknowledged yet (sent and unanswered, or waiting for a connection). */
  get unacknowledged(): number {
    return this.inflight.size + this.queue.length;
  }

  /** The first connection and sign-in; rejects when it fails (later drops reconnect by themselves). */
  async start(): Promise<void> {
    if (!(await this.connect())) throw new Error(`terminal ${this.phone}: could not connect and sign in through port ${this.port}`);
  }

  /** Sends now when online, else keeps it for the next connection. */
  report(location: LocationInput): void {
    if (this.stopped) throw new Error(`terminal ${this.phone} is stopped`);
    if (this.current) this.send(this.current, location);
    else this.queue.push(location);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    const t = this.current;
    this.current = null;
    await t?.close().catch(() => undefined);
  }

  private send(t: TestTerminal, location: LocationInput): void {
    const serial = t.send({ msgId: MSG.LOCATION, ...location });
    this.inflight.set(serial, location);
    const connection = this.signIns.length;
    t.replyTo(serial, 30_000).then((reply) => {
      // A late reply of a dropped connection: its report went back to the queue and is sent again.
      if (this.current !== t || this.inflight.get(serial) !== location) return;
      this.inflight.delete(serial);
      if (reply.result === 0) this.acked.push({ location, at: Date.now(), connection });
      else this.refused.push({ location, result: reply.result });
    }, () => undefined);
  }

  /** One connection attempt: connect, sign in, send what waits. False when it failed (a retry is scheduled). */
  private async connect(): Promise<boolean> {
    this.attempt++;
    let t: TestTerminal;
    try {
      t = await TestTerminal.connect(this.port, this.phone, 2013, this.host);
    } catch {
      this.retry();
      return false;
    }
    const signedIn = await Promise.race([
      t.login().then(() => true, () => false),
      new Promise<boolean>((r) => setTimeout(() => r(false), LOGIN_TIMEOUT_MS).unref()),
    ]);
    if (!signedIn || this.stopped) {
      t.socket.destroy();
      if (!this.stopped) this.retry();
      return false;
    }
    this.current = t;
    this.signIns.push(Date.now());
    this.backoffMs = BACKOFF_MIN_MS;
    void t.closed.then(() => this.onClosed(t));
    const waiting = this.queue;
    this.queue = [];
    for (const location of waiting) this.send(t, location);
    return true;
  }

  private onClosed(t: TestTerminal): void {
    if (this.current !== t) return;
    this.current = null;
    // What the platform did not acknowledge goes out again, first, on the next connection.
    this.queue = [...this.inflight.values(), ...this.queue];
    this.inflight.clear();
    if (this.stopped) return;
    this.drops++;
    this.retry();
  }

  private retry(): void {
    if (this.stopped) return;
    // Jitter keeps terminals that lost their gateway together from coming back in lockstep.
    const jitter = 0.5 + ((this.attempt * 2654435761) % 1000) / 1000;
    const wait = this.backoffMs * jitter;
    this.backoffMs = Math.min(BACKOFF_MAX_MS, this.backoffMs * 2);
    this.reconnectTimer = setTimeout(() => void this.connect(), wait);
  }
}
