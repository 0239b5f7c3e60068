/**
 * Online vehicles per company node of the tree (the monitor shows "online / total"). Asked only for
 * the company rows on screen, one realtimestat call per company (the server counts that company's
 * subtree), at most a few in flight, and asked again once an answer is older than REFRESH_MS.
 */
import { http } from '../../api/http.ts';

export const REFRESH_MS = 30_000;
const MAX_IN_FLIGHT = 4;

export type OnlineFetcher = (companyId: number) => Promise<{ online: number; total: number }>;

export const fetchCompanyOnline: OnlineFetcher = async (companyId) => {
  const s = await http.get<{ vehicleTotal: number; vehicleOnline: number }>('/service-monitor/monitor/realtimestat', { companyId }, { silent: true });
  return { online: s.vehicleOnline, total: s.vehicleTotal };
};

export class OnlineCounts {
  private readonly done = new Map<number, { online: number; total: number; at: number }>();
  private readonly pending = new Set<number>();
  private queue: number[] = [];
  private inFlight = 0;
  private readonly listeners = new Set<() => void>();
  version = 0;

  constructor(
    private readonly fetch: OnlineFetcher = fetchCompanyOnline,
    private readonly now: () => number = Date.now,
  ) {}

  get(companyId: number): { online: number; total: number } | undefined {
    return this.done.get(companyId);
  }

  /** The companies on screen now; known and fresh ones are skipped. */
  want(companyIds: readonly number[]): void {
    const t = this.now();
    this.queue = companyIds.filter((id) => {
      const d = this.done.get(id);
      return !this.pending.has(id) && (!d || t - d.at >= REFRESH_MS);
    });
    this.pump();
  }

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
  getVersion = (): number => this.version;

  private pump(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      const id = this.queue.shift()!;
      if (this.pending.has(id)) continue;
      this.pending.add(id);
      this.inFlight++;
      this.fetch(id)
        .then(
          (c) => this.done.set(id, { ...c, at: this.now() }),
          () => undefined, // keeps showing the total alone; asked again on the next want
        )
        .finally(() => {
          this.pending.delete(id);
          this.inFlight--;
          this.version++;
          for (const l of this.listeners) l();
          this.pump();
        });
    }
  }
}
