/**
 * The push websocket with the spec's reconnect policy (§7: 7000 attempts, 7000 ms apart). After each
 * reconnect the server sends the directory and a snapshot again, which is the full resync.
 */
import type { Connection } from './protocol.ts';

/** What the reconnecting socket needs of a WebSocket (tests pass a fake). */
export interface SocketLike {
  binaryType: string;
  onopen: (() => void) | null;
  onclose: ((e: { code: number; reason: string }) => void) | null;
  onmessage: ((e: { data: unknown }) => void) | null;
  onerror: (() => void) | null;
  close(code?: number, reason?: string): void;
}

export interface ReconnectOptions {
  /** @default 7000 */
  attempts: number;
  /** @default 7000 */
  delayMs: number;
}

export interface SocketEvents {
  status(connection: Connection, attempt: number, closeCode?: number): void;
  open(): void;
  message(data: ArrayBuffer | string): void;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export class ReconnectingSocket {
  private socket: SocketLike | null = null;
  private attempt = 0;
  private timer: unknown = null;
  private disposed = false;

  constructor(
    private readonly url: () => string,
    private readonly create: (url: string) => SocketLike,
    private readonly events: SocketEvents,
    private readonly options: ReconnectOptions = { attempts: 7000, delayMs: 7000 },
    private readonly timers: Timers = { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as number) },
  ) {}

  start(): void {
    this.events.status('connecting', 0);
    this.connect();
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    const s = this.socket;
    this.socket = null;
    if (s) {
      s.onclose = null;
      s.close(1000, 'console closed');
    }
    this.events.status('closed', this.attempt);
  }

  private connect(): void {
    let s: SocketLike;
    try {
      s = this.create(this.url());
    } catch {
      this.retry(1006);
      return;
    }
    this.socket = s;
    s.binaryType = 'arraybuffer';
    s.onopen = () => {
      this.attempt = 0;
      this.events.status('open', 0);
      this.events.open();
    };
    s.onmessage = (e) => {
      if (typeof e.data === 'string' || e.data instanceof ArrayBuffer) this.events.message(e.data);
    };
    s.onerror = () => undefined;
    s.onclose = (e) => {
      this.socket = null;
      this.retry(e.code);
    };
  }

  private retry(code: number): void {
    if (this.disposed) return;
    if (this.attempt >= this.options.attempts) {
      this.events.status('closed', this.attempt, code);
      return;
    }
    this.attempt++;
    this.events.status('reconnecting', this.attempt, code);
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      if (!this.disposed) this.connect();
    }, this.options.delayMs);
  }
}
