/**
 * The tracks replayed together on one shared clock (at most 20): their common time range, and every
 * vehicle's interpolated position at a time written into flat arrays that deck.gl reads directly.
 */
import { emptySample, sampleAt, type SampleColumns } from './time-index.ts';

/** At most 20 tracks replay together (the video page's 20-prompt is the console's other "20"). */
export const MAX_TRACKS = 20;

/** Distinct colours for up to 20 tracks (RGB), in the order tracks are added. */
export const TRACK_COLORS: readonly (readonly [number, number, number])[] = [
  [30, 110, 220], [220, 60, 60], [40, 160, 80], [230, 140, 20], [140, 70, 200],
  [0, 150, 160], [200, 60, 150], [110, 120, 30], [90, 90, 90], [20, 60, 140],
  [160, 40, 40], [30, 110, 60], [180, 100, 0], [90, 40, 140], [0, 110, 120],
  [150, 30, 100], [130, 140, 60], [60, 60, 60], [70, 140, 220], [240, 110, 110],
];

export interface SetTrack extends SampleColumns {
  readonly key: number;
  readonly vehicleId: number;
}

export type AddResult = 'added' | 'limit' | 'duplicate';

export class TrackSet<T extends SetTrack> {
  private readonly list: T[] = [];
  private readonly colorOf = new Map<number, number>();
  /** Positions of every track at the last `sampleAll` (x, y pairs), headings and whether shown. */
  positions = new Float32Array(2 * MAX_TRACKS);
  headings = new Float32Array(MAX_TRACKS);
  speeds = new Float32Array(MAX_TRACKS);
  indices = new Int32Array(MAX_TRACKS);
  visible = new Uint8Array(MAX_TRACKS);
  private readonly sample = emptySample();

  get tracks(): readonly T[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  add(track: T): AddResult {
    if (this.list.some((t) => t.vehicleId === track.vehicleId)) return 'duplicate';
    if (this.list.length >= MAX_TRACKS) return 'limit';
    const used = new Set(this.colorOf.values());
    let c = 0;
    while (used.has(c)) c++;
    this.colorOf.set(track.key, c);
    this.list.push(track);
    return 'added';
  }

  /** Replaces the track of the same vehicle (a new period) keeping its colour; false when absent. */
  replace(track: T): T | undefined {
    const i = this.list.findIndex((t) => t.vehicleId === track.vehicleId);
    if (i < 0) return undefined;
    const old = this.list[i]!;
    this.list[i] = track;
    this.colorOf.set(track.key, this.colorOf.get(old.key) ?? 0);
    this.colorOf.delete(old.key);
    return old;
  }

  remove(key: number): T | undefined {
    const i = this.list.findIndex((t) => t.key === key);
    if (i < 0) return undefined;
    const [t] = this.list.splice(i, 1);
    this.colorOf.delete(key);
    return t;
  }

  color(key: number): readonly [number, number, number] {
    return TRACK_COLORS[(this.colorOf.get(key) ?? 0) % TRACK_COLORS.length]!;
  }

  /** The shared clock's range: first point of any track to last point of any track. */
  range(): { start: number; end: number } | null {
    let start = Infinity;
    let end = -Infinity;
    for (const t of this.list) {
      const n = t.time.length;
      if (n === 0) continue;
      start = Math.min(start, t.time[0]!);
      end = Math.max(end, t.time[n - 1]!);
    }
    return start <= end ? { start, end } : null;
  }

  /**
   * Every track's state at time t into the flat arrays (slot = position in `tracks`). A track whose
   * first point is later than t is not shown yet. One binary search per track: ≈ 20 µs for 20 tracks.
   */
  sampleAll(t: number): void {
    const s = this.sample;
    for (let k = 0; k < this.list.length; k++) {
      const shown = sampleAt(this.list[k]!, t, s);
      this.visible[k] = shown ? 1 : 0;
      this.positions[2 * k] = shown ? s.lng : 0;
      this.positions[2 * k + 1] = shown ? s.lat : 0;
      this.headings[k] = s.heading;
      this.speeds[k] = s.speed;
      this.indices[k] = s.index;
    }
  }
}
