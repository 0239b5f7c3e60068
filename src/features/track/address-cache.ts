/**
 * Addresses of track points, resolved on demand: only rows the table shows are asked for, each
 * position once (rounded to 1e-5° ≈ 1 m, so a parked vehicle's 1,000 points cost one call), at most
 * a few calls in flight.
 */
export type Geocoder = (lng: number, lat: number, signal?: AbortSignal) => Promise<string>;

export const MAX_IN_FLIGHT = 4;

export class AddressCache {
  private readonly done = new Map<string, string>();
  private readonly pending = new Set<string>();
  private queue: { key: string; lng: number; lat: number }[] = [];
  private inFlight = 0;
  private readonly listeners = new Set<() => void>();
  version = 0;

  constructor(private readonly geocode: Geocoder) {}

  static key(lng: number, lat: number): string {
    return `${lng.toFixed(5)},${lat.toFixed(5)}`;
  }

  get(lng: number, lat: number): string | undefined {
    return this.done.get(AddressCache.key(lng, lat));
  }

  /** Replaces the wanted list (the rows visible now); positions already known or asked are skipped. */
  want(points: readonly { lng: number; lat: number }[]): void {
    this.queue = [];
    for (const p of points) {
      const key = AddressCache.key(p.lng, p.lat);
      if (this.done.has(key) || this.pending.has(key)) continue;
      this.queue.push({ key, lng: p.lng, lat: p.lat });
    }
    this.pump();
  }

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  private pump(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      const job = this.queue.shift()!;
      if (this.done.has(job.key) || this.pending.has(job.key)) continue;
      this.pending.add(job.key);
      this.inFlight++;
      this.geocode(job.lng, job.lat)
        .then(
          (address) => this.done.set(job.key, address || '—'),
          () => this.done.set(job.key, '—'),
        )
        .finally(() => {
          this.pending.delete(job.key);
          this.inFlight--;
          this.version++;
          for (const l of this.listeners) l();
          this.pump();
        });
    }
  }
}
