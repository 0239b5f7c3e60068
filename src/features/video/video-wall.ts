/**
 * The multichannel video wall's state (spec §2 videoMonitor, §4 live sessions, §5 limits, §9 grids and
 * play-type keys), outside React: which channel plays in which window, each session's state, the
 * grid, and the auto-stop prompt. React subscribes with useSyncExternalStore; the decoding itself
 * lives in the tiles' video workers.
 */
import { checkAddChannels, GRID_SIZES, playTypeKey, VIDEO_MAX_CHANNELS, type GridSize, type StreamType } from '../../../domain/video/limits.ts';
import { defaultStream } from '../../../domain/video/stream-choice.ts';

export interface ChannelRef {
  readonly vehicleId: number;
  readonly plate: string;
  readonly channel: number;
}

export type SessionState = 'connecting' | 'playing' | 'reconnecting' | 'stopped';

export interface VideoWindow extends ChannelRef {
  /** Changes whenever the window gets a new session (the tile remounts on it). */
  readonly key: number;
  readonly stream: StreamType;
  readonly state: SessionState;
  /** Why it stopped: a VideoProblem key. */
  readonly reason?: string;
  readonly fps: number;
  readonly startedAt: number;
}

export interface WallSnapshot {
  readonly grid: GridSize;
  readonly windows: readonly (VideoWindow | null)[];
  readonly playing: number;
  /** Windows whose auto-stop time passed: the page asks "continue or stop". */
  readonly autoStopDue: readonly number[];
  /** The one window whose sound is on (G.711 from the terminal), or -1. */
  readonly audioWindow: number;
  /** The window maximised over the wall (double-click), or -1. */
  readonly maximised: number;
}

export type OpenResult = { kind: 'opened'; windows: number[] } | { kind: 'refused' } | { kind: 'confirm'; proceed: () => OpenResult };

/** Where the per-window play type (main or sub stream) is kept across visits; sign-out clears it. */
export interface PlayTypeStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
}

export interface VideoWallOptions {
  now?: () => number;
  store?: PlayTypeStore;
  /** Minutes of playing after which a window asks whether to continue; 0 never. @default 5 */
  autoStopMinutes?: number;
}

export class VideoWall {
  private windows: (VideoWindow | null)[] = Array.from({ length: VIDEO_MAX_CHANNELS }, () => null);
  private grid: GridSize = 4;
  private nextKey = 1;
  private audioWindow = -1;
  private maximised = -1;
  /** The stream the maximised window had before it went to the main stream. */
  private maximisedFrom: StreamType = 1;
  private snapshot: WallSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly now: () => number;
  private readonly store: PlayTypeStore | undefined;
  private autoStopMinutes: number;

  constructor(options: VideoWallOptions = {}) {
    this.now = options.now ?? Date.now;
    this.store = options.store;
    this.autoStopMinutes = options.autoStopMinutes ?? 5;
    this.snapshot = this.build();
  }

  readonly subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  readonly get = (): WallSnapshot => this.snapshot;

  /** 0 turns auto-stop off. */
  setAutoStopMinutes(minutes: number): void {
    this.autoStopMinutes = Math.max(0, minutes);
    this.tick();
  }

  getAutoStopMinutes(): number {
    return this.autoStopMinutes;
  }

  setGrid(grid: GridSize): void {
    // Windows beyond the new grid keep playing only if the grid can hold them: close the rest.
    for (let i = grid; i < VIDEO_MAX_CHANNELS; i++) this.windows[i] = null;
    if (this.maximised >= grid) this.maximised = -1;
    this.grid = grid;
    this.followGrid();
    this.emit();
  }

  /**
   * Windows without a stored play type follow the grid (domain/video/stream-choice.ts): main up to 4
   * windows, sub above; a window whose stream changes gets a new session. The maximised window keeps
   * the main stream and returns to the grid's choice.
   */
  private followGrid(): void {
    for (let i = 0; i < this.grid; i++) {
      const w = this.windows[i];
      if (!w) continue;
      const stream = defaultStream(this.grid, this.store?.get(playTypeKey(i)));
      if (i === this.maximised) this.maximisedFrom = stream;
      else if (w.stream !== stream) this.windows[i] = this.newSession(w, stream);
    }
  }

  /**
   * Opens channels in free windows, growing the grid when needed. Beyond 25 playing: refused. Reaching
   * 20: the caller confirms (spec §5) and `proceed()` opens them. A channel already open is skipped.
   */
  open(channels: readonly ChannelRef[]): OpenResult {
    const fresh = channels.filter((c) => !this.windows.some((w) => w && w.vehicleId === c.vehicleId && w.channel === c.channel));
    const check = checkAddChannels(this.count(), fresh.length);
    if (check === 'refuse') return { kind: 'refused' };
    const proceed = (): OpenResult => {
      const opened: number[] = [];
      for (let i = 0; i < VIDEO_MAX_CHANNELS && opened.length < fresh.length; i++) if (this.windows[i] === null) opened.push(i);
      const needed = Math.max(...opened.map((i) => i + 1), this.lastUsed() + 1);
      const grid = GRID_SIZES.find((g) => g >= needed && g >= this.grid) ?? 25;
      // The grid first: the stream each window asks for depends on it.
      if (grid !== this.grid) {
        this.grid = grid;
        this.followGrid();
      }
      opened.forEach((i, k) => {
        this.windows[i] = { ...fresh[k]!, key: this.nextKey++, stream: defaultStream(grid, this.store?.get(playTypeKey(i))), state: 'connecting', fps: 0, startedAt: this.now() };
      });
      this.emit();
      return { kind: 'opened', windows: opened };
    };
    return check === 'prompt' ? { kind: 'confirm', proceed } : proceed();
  }

  /** Sound on for one window (any other window goes quiet), or off. */
  toggleAudio(index: number): void {
    if (!this.windows[index]) return;
    this.audioWindow = this.audioWindow === index ? -1 : index;
    this.emit();
  }

  /**
   * Double-click: the window fills the wall and plays the main stream (grids above 4 windows default
   * to the sub stream, as CMSV6-class players do: domain/video/stream-choice.ts); again, it goes back
   * into the grid on the stream it had. Not stored: the play type stays the window's own choice.
   */
  toggleMaximise(index: number): void {
    const w = this.windows[index];
    if (!w) return;
    if (this.maximised === index) {
      this.maximised = -1;
      if (w.stream !== this.maximisedFrom) this.windows[index] = this.newSession(w, this.maximisedFrom);
    } else {
      if (this.maximised >= 0) this.toggleMaximise(this.maximised);
      this.maximised = index;
      this.maximisedFrom = w.stream;
      if (w.stream !== 0) this.windows[index] = this.newSession(w, 0);
    }
    this.emit();
  }

  private newSession(w: VideoWindow, stream: StreamType): VideoWindow {
    return { ...w, stream, key: this.nextKey++, state: 'connecting', reason: undefined, fps: 0, startedAt: this.now() };
  }

  close(index: number): void {
    if (!this.windows[index]) return;
    if (this.maximised === index) this.maximised = -1;
    this.windows[index] = null;
    if (this.audioWindow === index) this.audioWindow = -1;
    this.emit();
  }

  closeAll(): void {
    this.maximised = -1;
    this.windows = this.windows.map(() => null);
    this.audioWindow = -1;
    this.emit();
  }

  /** Main ↔ sub stream for one window: a new session, and the choice is stored for that window. */
  switchStream(index: number): void {
    const w = this.windows[index];
    if (!w) return;
    const stream: StreamType = w.stream === 0 ? 1 : 0;
    this.store?.set(playTypeKey(index), String(stream));
    // A choice made while maximised is where the window returns to.
    if (this.maximised === index) this.maximisedFrom = stream;
    this.windows[index] = { ...w, stream, key: this.nextKey++, state: 'connecting', reason: undefined, fps: 0, startedAt: this.now() };
    this.emit();
  }

  /** Retry after a stop (timeout, no response …): a new session in the same window. */
  retry(index: number): void {
    const w = this.windows[index];
    if (!w) return;
    this.windows[index] = { ...w, key: this.nextKey++, state: 'connecting', reason: undefined, fps: 0, startedAt: this.now() };
    this.emit();
  }

  /** A tile's session changed state (only the current session of the window counts). */
  setState(index: number, key: number, state: SessionState, reason?: string): void {
    const w = this.windows[index];
    if (!w || w.key !== key || (w.state === state && w.reason === reason)) return;
    // A session stops once: the first reason (usually the server's) is the true one, whatever the
    // socket says while it winds down. A retry is a new session (new key).
    if (w.state === 'stopped') return;
    this.windows[index] = { ...w, state, reason, startedAt: state === 'playing' && w.state !== 'playing' ? this.now() : w.startedAt };
    this.emit();
  }

  setFps(index: number, key: number, fps: number): void {
    const w = this.windows[index];
    if (!w || w.key !== key || Math.round(w.fps) === Math.round(fps)) return;
    this.windows[index] = { ...w, fps };
    this.emit();
  }

  /** "Continue" on the auto-stop prompt: the window plays another full period. */
  keepPlaying(index: number): void {
    const w = this.windows[index];
    if (!w) return;
    this.windows[index] = { ...w, startedAt: this.now() };
    this.emit();
  }

  /** Re-evaluates auto-stop; call every few seconds. */
  tick(): void {
    const due = this.dueForAutoStop();
    if (due.join() !== this.snapshot.autoStopDue.join()) this.emit();
  }

  private dueForAutoStop(): number[] {
    if (this.autoStopMinutes <= 0) return [];
    const limit = this.autoStopMinutes * 60_000;
    const now = this.now();
    const due: number[] = [];
    this.windows.forEach((w, i) => {
      if (w && w.state === 'playing' && now - w.startedAt >= limit) due.push(i);
    });
    return due;
  }

  private count(): number {
    return this.windows.filter((w) => w !== null).length;
  }

  private lastUsed(): number {
    for (let i = VIDEO_MAX_CHANNELS - 1; i >= 0; i--) if (this.windows[i]) return i;
    return -1;
  }

  private build(): WallSnapshot {
    return {
      grid: this.grid,
      windows: this.windows.slice(0, this.grid),
      playing: this.windows.filter((w) => w && (w.state === 'playing' || w.state === 'connecting' || w.state === 'reconnecting')).length,
      autoStopDue: this.dueForAutoStop(),
      audioWindow: this.audioWindow,
      maximised: this.maximised,
    };
  }

  private emit(): void {
    this.snapshot = this.build();
    for (const l of this.listeners) l();
  }
}
