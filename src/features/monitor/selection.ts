/**
 * Vehicles picked for monitoring (spec §5: at most 100). Plain state outside React; the page
 * subscribes with useSyncExternalStore. Adding past the limit is refused whole, never truncated
 * silently, and reported so the page can show 最多选择100辆车.
 */
export const MONITOR_MAX = 100;

export type SelectionResult = 'ok' | 'limit';

export class MonitorSelection {
  private ids: ReadonlySet<number> = new Set();
  private readonly listeners = new Set<() => void>();

  constructor(readonly max = MONITOR_MAX) {}

  get = (): ReadonlySet<number> => this.ids;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  has(id: number): boolean {
    return this.ids.has(id);
  }

  private commit(next: Set<number>): void {
    this.ids = next;
    for (const l of this.listeners) l();
  }

  toggle(id: number): SelectionResult {
    const next = new Set(this.ids);
    if (next.has(id)) next.delete(id);
    else {
      if (next.size >= this.max) return 'limit';
      next.add(id);
    }
    this.commit(next);
    return 'ok';
  }

  /** Replaces the selection (e.g. from the company tree); over the limit nothing changes. */
  set(ids: Iterable<number>): SelectionResult {
    const next = new Set(ids);
    if (next.size > this.max) return 'limit';
    this.commit(next);
    return 'ok';
  }

  /** Adds several (select all of a list); over the limit nothing changes. */
  addAll(ids: Iterable<number>): SelectionResult {
    return this.set([...this.ids, ...ids]);
  }

  clear(): void {
    this.commit(new Set());
  }
}
