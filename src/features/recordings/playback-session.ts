/**
 * One recording playback outside React: the playback websocket (owned here, on the main thread, so
 * controls go up the same socket), frames handed to a video channel (the WebCodecs worker, or jmuxer)
 * after reading their recording timestamp for the position display, statuses and control answers.
 * The server ends the session with a reason (not online, no response, no recording, ended …).
 */
import { isPlaybackFactor, type PlaybackControlAnswer, type PlaybackControlRequest, type PlaybackFactor, type PlaybackStatus } from '../../../domain/video/playback.ts';
import { MEDIA_HEADER_BYTES, MEDIA_KIND } from '../../../proto/media-frame.ts';

export interface SocketLike {
  binaryType: string;
  onopen: (() => void) | null;
  onmessage: ((e: { data: unknown }) => void) | null;
  onclose: (() => void) | null;
  onerror: (() => void) | null;
  send(data: string): void;
  close(): void;
  readonly readyState: number;
}

export interface PlaybackSnapshot {
  readonly state: 'connecting' | 'playing' | 'paused' | 'stopped';
  readonly reason?: string;
  readonly speed: PlaybackFactor;
  /** Recording time of the latest video frame (epoch ms); the start until the first frame. */
  readonly position: number;
  /** A seek on its way: the position it asked for. */
  readonly seeking?: number;
}

export interface PlaybackSessionDeps {
  url: string;
  start: number;
  createSocket(url: string): SocketLike;
  /** Takes one media frame (transferred: not read again here). */
  feed(bytes: Uint8Array): void;
  /** A control the terminal refused (reason key for playbackMessage). */
  onControlFailed?(action: string, reason: string): void;
}

const OPEN = 1;

export class PlaybackSession {
  private snap: PlaybackSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly socket: SocketLike;
  private disposed = false;

  constructor(private readonly deps: PlaybackSessionDeps) {
    this.snap = { state: 'connecting', speed: 1, position: deps.start };
    const s = deps.createSocket(deps.url);
    s.binaryType = 'arraybuffer';
    s.onmessage = (e) => this.onMessage(e.data);
    s.onclose = () => {
      if (this.snap.state !== 'stopped') this.set({ ...this.snap, state: 'stopped', reason: 'connectFailed', seeking: undefined });
    };
    s.onerror = () => undefined;
    this.socket = s;
  }

  readonly subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  readonly get = (): PlaybackSnapshot => this.snap;

  pause(): void {
    this.control({ type: 'control', action: 'pause' });
  }

  resume(): void {
    this.control({ type: 'control', action: 'resume' });
  }

  setSpeed(speed: PlaybackFactor): void {
    this.control({ type: 'control', action: 'speed', speed });
  }

  seek(time: number): void {
    if (this.control({ type: 'control', action: 'seek', time: Math.floor(time / 1000) * 1000 })) this.set({ ...this.snap, seeking: time });
  }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
    this.socket.onmessage = null;
    this.socket.onclose = null;
    this.socket.close();
  }

  private control(request: PlaybackControlRequest): boolean {
    if (this.disposed || this.socket.readyState !== OPEN || this.snap.state === 'stopped') return false;
    this.socket.send(JSON.stringify(request));
    return true;
  }

  private onMessage(data: unknown): void {
    if (this.disposed) return;
    if (typeof data === 'string') return this.onText(data);
    if (!(data instanceof ArrayBuffer) || data.byteLength < MEDIA_HEADER_BYTES) return;
    const bytes = new Uint8Array(data);
    const kind = bytes[1];
    if (kind === MEDIA_KIND.H264 || kind === MEDIA_KIND.H265) {
      const ts = new DataView(data).getFloat64(4, true);
      // Redraw when the shown second changes (25 frames a second would re-render 25 times).
      if (Math.floor(ts / 1000) !== Math.floor(this.snap.position / 1000) || this.snap.seeking !== undefined) {
        const seeking = this.snap.seeking !== undefined && Math.abs(ts - this.snap.seeking) > 2000 ? this.snap.seeking : undefined;
        this.set({ ...this.snap, position: ts, seeking });
      } else this.snap = { ...this.snap, position: ts };
    }
    this.deps.feed(bytes);
  }

  private onText(text: string): void {
    let m: PlaybackStatus | PlaybackControlAnswer;
    try {
      m = JSON.parse(text) as PlaybackStatus | PlaybackControlAnswer;
    } catch {
      return; // a malformed line costs only itself
    }
    if (m.type === 'status') {
      const speed = isPlaybackFactor(m.speed) ? m.speed : this.snap.speed;
      this.set({ state: m.state, ...(m.reason ? { reason: m.reason } : {}), speed, position: this.snap.position, seeking: m.state === 'stopped' ? undefined : this.snap.seeking });
    } else if (m.type === 'control' && !m.ok) {
      if (m.action === 'seek') this.set({ ...this.snap, seeking: undefined });
      this.deps.onControlFailed?.(m.action, m.reason ?? 'controlFailed');
    }
  }

  private set(next: PlaybackSnapshot): void {
    this.snap = next;
    for (const fn of this.listeners) fn();
  }
}
