/**
 * One two-way intercom with a vehicle's terminal (server/API.md "Intercom and reminders"):
 * microphone → 20 ms G.711A frames → `/ws-service/talk` → the terminal's speaker, and the terminal's
 * microphone → media frames → G.711 decode → the speakers. Runs on the main thread: 50 small messages
 * a second each way is far below what would need a worker; the per-sample work (resample + encode)
 * happens in the capture worklet.
 *
 * States: connecting → talking → stopped. Without a microphone (no device, permission refused, no
 * secure context) or when the server says it failed, it stops with the spec's intercom message key.
 */
import { decodeMediaFrame, MEDIA_KIND } from '../../../proto/media-frame.ts';
import { decodeG711 } from './g711.ts';

export type TalkState = 'idle' | 'connecting' | 'talking' | 'stopped';

/** Why it stopped: a key of domain/video/limits.ts VideoProblem (or notFound), undefined when the operator hung up. */
export type TalkReason = string | undefined;

export interface TalkSnapshot {
  readonly state: TalkState;
  readonly reason: TalkReason;
  /** Server detail (busy, connectFailed, noMicrophone, ...) for support. */
  readonly detail: string | undefined;
  readonly framesSent: number;
  readonly framesReceived: number;
}

/** A running microphone capture. */
export interface MicCapture {
  stop(): void;
}

/** What the session needs from the browser (tests pass fakes). */
export interface TalkEnvironment {
  /** Starts capture; `onFrame` gets 20 ms G.711A frames. Rejects when no microphone can be had. */
  startMic(onFrame: (alaw: Uint8Array) => void): Promise<MicCapture>;
  openSocket(url: string): TalkSocket;
  /** Plays PCM (−1..1) at `rate`. */
  play(pcm: Float32Array, rate: number): void;
  closeAudio(): void;
}

/** The part of WebSocket the session uses. */
export interface TalkSocket {
  binaryType: BinaryType;
  readonly readyState: number;
  onopen: ((this: WebSocket, ev: Event) => unknown) | null;
  onmessage: ((this: WebSocket, ev: MessageEvent) => unknown) | null;
  onclose: ((this: WebSocket, ev: CloseEvent) => unknown) | null;
  onerror: ((this: WebSocket, ev: Event) => unknown) | null;
  send(data: string | ArrayBufferLike | ArrayBufferView<ArrayBuffer>): void;
  close(code?: number, reason?: string): void;
}

const OPEN = 1;

export class TalkSession {
  private snap: TalkSnapshot = { state: 'idle', reason: undefined, detail: undefined, framesSent: 0, framesReceived: 0 };
  private readonly listeners = new Set<() => void>();
  private mic: MicCapture | null = null;
  private socket: TalkSocket | null = null;
  /** Bumped by every start and stop: an older start still waiting for the microphone gives up. */
  private run = 0;

  constructor(private readonly url: string, private readonly env: TalkEnvironment) {}

  get snapshot(): TalkSnapshot {
    return this.snap;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): TalkSnapshot => this.snap;

  /**
   * Asks for the microphone first (no terminal is bothered without one), then opens the intercom.
   * After a stop it starts afresh (counters reset).
   */
  async start(): Promise<void> {
    if (this.snap.state === 'connecting' || this.snap.state === 'talking') return;
    const run = ++this.run;
    this.set({ state: 'connecting', reason: undefined, detail: undefined, framesSent: 0, framesReceived: 0 });
    let mic: MicCapture;
    try {
      mic = await this.env.startMic((frame) => this.onMicFrame(frame));
    } catch {
      if (run === this.run) this.finish('intercomFailed', 'noMicrophone');
      return;
    }
    if (run !== this.run) {
      // Hung up (or restarted) while the permission prompt was open.
      mic.stop();
      return;
    }
    this.mic = mic;
    const ws = this.env.openSocket(this.url);
    this.socket = ws;
    ws.binaryType = 'arraybuffer';
    ws.onmessage = (ev: MessageEvent) => this.onMessage(ev.data as ArrayBuffer | string);
    ws.onerror = () => undefined;
    ws.onclose = () => {
      if (this.socket === ws && this.snap.state !== 'stopped') this.finish('intercomFailed', 'connectionClosed');
    };
  }

  /** The operator hangs up. */
  stop(): void {
    if (this.snap.state === 'stopped') return;
    this.run++;
    const ws = this.socket;
    if (ws && ws.readyState === OPEN) ws.send(JSON.stringify({ type: 'stop' }));
    this.finish(undefined, undefined);
  }

  private onMicFrame(frame: Uint8Array): void {
    const ws = this.socket;
    if (this.snap.state !== 'talking' || !ws || ws.readyState !== OPEN) return;
    ws.send(frame as Uint8Array<ArrayBuffer>);
    this.set({ framesSent: this.snap.framesSent + 1 }, false);
  }

  private onMessage(data: ArrayBuffer | string): void {
    if (typeof data === 'string') {
      let s: { state?: string; reason?: string; detail?: string };
      try {
        s = JSON.parse(data) as typeof s;
      } catch {
        return;
      }
      if (s.state === 'talking') this.set({ state: 'talking' });
      else if (s.state === 'stopped') this.finish(s.reason ?? 'intercomFailed', s.detail);
      return;
    }
    if (this.snap.state !== 'talking') return;
    let frame;
    try {
      frame = decodeMediaFrame(new Uint8Array(data));
    } catch {
      return;
    }
    if (frame.kind !== MEDIA_KIND.G711A && frame.kind !== MEDIA_KIND.G711U) return;
    this.env.play(decodeG711(frame.payload, frame.kind === MEDIA_KIND.G711A ? 'alaw' : 'ulaw'), 8000);
    this.set({ framesReceived: this.snap.framesReceived + 1 }, false);
  }

  private finish(reason: TalkReason, detail: string | undefined): void {
    this.mic?.stop();
    this.mic = null;
    const ws = this.socket;
    this.socket = null;
    if (ws) {
      ws.onclose = null;
      ws.close(1000);
    }
    this.env.closeAudio();
    this.set({ state: 'stopped', reason, detail });
  }

  /** Counters change 50 times a second: they notify only with the next state change or `flush`. */
  private set(patch: Partial<TalkSnapshot>, notify = true): void {
    this.snap = { ...this.snap, ...patch };
    if (notify) for (const l of this.listeners) l();
  }

  /** Publishes the counters (the panel polls this a few times a second). */
  flush(): void {
    for (const l of this.listeners) l();
  }
}
