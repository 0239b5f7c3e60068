/**
 * The playback clock: one track time shared by every loaded track (spec §9 speeds: slow, normal,
 * fast, extremely fast). Track time advances by wall time × the speed factor on each `tick`, which
 * the caller drives from requestAnimationFrame; `now` is injected so tests step it by hand.
 */

export type PlaybackSpeed = 'slow' | 'normal' | 'fast' | 'extremelyFast';

/**
 * Track seconds per wall second. A working day (≈ 10 h of driving) takes 1 h at slow, 10 min at
 * normal, 2 min at fast and 30 s at extremely fast; a 7-day week takes 8.4 min at extremely fast.
 */
export const SPEED_FACTORS: Readonly<Record<PlaybackSpeed, number>> = { slow: 10, normal: 60, fast: 300, extremelyFast: 1200 };
export const PLAYBACK_SPEEDS: readonly PlaybackSpeed[] = ['slow', 'normal', 'fast', 'extremelyFast'];

export interface ClockState {
  readonly start: number;
  readonly end: number;
  readonly time: number;
  readonly playing: boolean;
  readonly speed: PlaybackSpeed;
}

export class PlaybackClock {
  private start = 0;
  private end = 0;
  private time = 0;
  private playing = false;
  private speed: PlaybackSpeed = 'normal';
  /** Wall time of the last tick while playing. */
  private last = 0;
  private snapshot: ClockState | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Sets the playable range (the union of the loaded tracks); the time is kept inside it. */
  setRange(start: number, end: number): void {
    this.start = start;
    this.end = Math.max(start, end);
    this.time = Math.min(this.end, Math.max(this.start, this.time));
    if (this.time === this.end && this.playing) this.playing = false;
    this.changed();
  }

  play(): void {
    if (this.playing || this.end <= this.start) return;
    // Play at the end starts again from the beginning.
    if (this.time >= this.end) this.time = this.start;
    this.playing = true;
    this.last = this.now();
    this.changed();
  }

  pause(): void {
    if (!this.playing) return;
    this.advance();
    this.playing = false;
    this.changed();
  }

  seek(time: number): void {
    this.time = Math.min(this.end, Math.max(this.start, time));
    this.last = this.now();
    this.changed();
  }

  setSpeed(speed: PlaybackSpeed): void {
    if (speed === this.speed) return;
    // Time played so far counts at the old speed.
    if (this.playing) this.advance();
    this.speed = speed;
    this.changed();
  }

  /** Advances a playing clock to now; answers the track time. Stops at the end. */
  tick(): number {
    if (this.playing) {
      this.advance();
      if (this.time >= this.end) {
        this.playing = false;
        this.changed();
      }
    }
    return this.time;
  }

  /**
   * The state as one object, the same until play/pause/seek/speed/range change (a
   * `useSyncExternalStore` snapshot; bound). Its `time` is the time of that change, not of the last
   * tick: per-frame readers use `currentTime` or the controller's frame listeners.
   */
  get = (): ClockState => {
    this.snapshot ??= { start: this.start, end: this.end, time: this.time, playing: this.playing, speed: this.speed };
    return this.snapshot;
  };

  /** Track time without advancing. */
  get currentTime(): number {
    return this.time;
  }

  get isPlaying(): boolean {
    return this.playing;
  }

  /** Listeners hear play/pause/seek/speed/range changes (not every tick: those are per frame). */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private advance(): void {
    const now = this.now();
    this.time = Math.min(this.end, this.time + (now - this.last) * SPEED_FACTORS[this.speed]);
    this.last = now;
  }

  private changed(): void {
    this.snapshot = null;
    for (const l of this.listeners) l();
  }
}
