/**
 * Seeded randomness for the simulator. Every vehicle draws from its own streams, keyed by the run
 * seed, its device number and a stream name, so one vehicle's sequence never depends on how many
 * other vehicles run or in which order the scheduler visits them.
 */

/** FNV-1a 32-bit hash of a string: turns (seed, device, stream) into a PRNG seed. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A uniform number in [0, 1) that depends only on the key: for one-off choices (e.g. never online). */
export function unitHash(key: string): number {
  // One mulberry32 round over the hash spreads nearby keys ('…01', '…02') across the interval.
  return new Rng(hash32(key)).next();
}

/** mulberry32: small, fast and good enough for plausible traffic. */
export class Rng {
  private a: number;

  constructor(seed: number) {
    this.a = seed >>> 0;
  }

  static of(...parts: readonly (string | number)[]): Rng {
    return new Rng(hash32(parts.join(':')));
  }

  next(): number {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('pick from an empty list');
    return item;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Log-normal with the given median, e.g. durations with a long tail. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }
}
