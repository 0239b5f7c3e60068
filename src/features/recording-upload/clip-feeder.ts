/**
 * Plays a received recording file (H.264 Annex B, as terminals store it) through the live video path:
 * the file is split into access units once, and each is handed to the video channel as a media frame
 * (proto/media-frame.ts) at the clip's frame rate, stamped with the time it is fed, so the WebCodecs
 * pipeline paints it like a live stream. No DOM, no timers of its own: the clock and timer are
 * injected (tests drive them).
 */
import { isIdrAccessUnit, splitAccessUnits } from '../../../proto/h264.ts';
import { encodeMediaFrame, MEDIA_KIND } from '../../../proto/media-frame.ts';

/** Terminals record at 25 fps (JT/T 1078 main streams; the simulator's clip too). Annex B files carry no timing. */
export const CLIP_FPS = 25;
/** Frames fed at most per tick when a tick came late (a busy main thread): beyond that the clip slows rather than bursts. */
const MAX_CATCH_UP = 3;

export interface ClipFeederDeps {
  /** One media frame (its buffer may be transferred). */
  feed(bytes: Uint8Array): void;
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export type ClipState = 'idle' | 'playing' | 'paused' | 'ended';

export class ClipFeeder {
  readonly units: Uint8Array[];
  private next = 0;
  private state: ClipState = 'idle';
  /** Clock time at which frame `next` is due. */
  private due = 0;
  private timer: unknown = null;
  private readonly frameMs: number;
  private readonly listeners = new Set<() => void>();

  constructor(data: Uint8Array, private readonly deps: ClipFeederDeps, fps = CLIP_FPS) {
    this.units = splitAccessUnits(data);
    this.frameMs = 1000 / fps;
  }

  get status(): ClipState {
    return this.state;
  }

  /** Index of the next frame to feed. */
  get position(): number {
    return this.next;
  }

  get durationMs(): number {
    return this.units.length * this.frameMs;
  }

  /** Whether the file starts with a decodable key frame (SPS + PPS + IDR). */
  get playable(): boolean {
    return this.units.length > 0 && this.units.some((u) => isIdrAccessUnit(u));
  }

  /** For useSyncExternalStore (a stable function). */
  readonly subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  /** Starts from the beginning (also after the end). */
  play(): void {
    this.stopTimer();
    this.next = 0;
    this.set('playing');
    this.due = this.deps.now();
    this.tick();
  }

  pause(): void {
    if (this.state !== 'playing') return;
    this.stopTimer();
    this.set('paused');
  }

  resume(): void {
    if (this.state !== 'paused') return;
    this.set('playing');
    this.due = this.deps.now();
    this.tick();
  }

  dispose(): void {
    this.stopTimer();
    this.listeners.clear();
  }

  private tick = (): void => {
    this.timer = null;
    if (this.state !== 'playing') return;
    const now = this.deps.now();
    let fed = 0;
    while (this.next < this.units.length && this.due <= now && fed < MAX_CATCH_UP) {
      const payload = this.units[this.next]!;
      this.deps.feed(encodeMediaFrame({
        kind: MEDIA_KIND.H264, key: isIdrAccessUnit(payload), discontinuity: this.next === 0, channel: 0,
        timestamp: Math.round(this.next * this.frameMs), arrival: now, payload,
      }));
      this.next++;
      this.due += this.frameMs;
      fed++;
    }
    // Late ticks that hit the catch-up cap move the schedule instead of bursting later.
    if (this.due < now - this.frameMs) this.due = now;
    if (this.next >= this.units.length) {
      this.set('ended');
      return;
    }
    this.timer = this.deps.setTimer(this.tick, Math.max(0, this.due - now));
    this.emit();
  };

  private stopTimer(): void {
    if (this.timer !== null) this.deps.clearTimer(this.timer);
    this.timer = null;
  }

  private set(state: ClipState): void {
    this.state = state;
    this.emit();
  }

  private emit(): void {
    for (const fn of this.listeners) fn();
  }
}
