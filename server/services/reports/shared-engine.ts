/**
 * One positioning-rollup engine per app (review finding: the ops check, the customer portrait, the safety
 * reports and the reports each built a `ReportEngine`, so their in-memory state — today's metrics, the
 * recount marks — was computed once per module, and a first ops-check list took 5–8 s on a fleet another
 * screen had just computed). Keyed by the app's storage, so two apps in one process (tests) never share.
 *
 * The shared engine also joins concurrent identical `days()` calls: two consoles opening the same month at
 * once compute it once and both get the answer (the in-flight promise is kept until it settles).
 */
import type { DayMetrics } from '../../../domain/track/daily-metrics.ts';
import type { Storage } from '../../db/repositories.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { ReportEngine } from './rollup.ts';
import { SqliteReportStore } from './store.ts';

class JoiningReportEngine extends ReportEngine {
  private readonly inflight = new Map<string, Promise<Map<number, DayMetrics[]>>>();

  override days(vehicleIds: readonly number[], firstDay: number, lastDay: number): Promise<Map<number, DayMetrics[]>> {
    const key = `${firstDay}:${lastDay}:${vehicleIds.join(',')}`;
    const running = this.inflight.get(key);
    if (running) return running;
    const p = super.days(vehicleIds, firstDay, lastDay).finally(() => this.inflight.delete(key));
    this.inflight.set(key, p);
    return p;
  }
}

const engines = new WeakMap<Storage, ReportEngine>();

/**
 * The app's engine: made by the first caller with its clock and retention cut-off (every module passes the
 * same ones: the live store's clock and the configured POSITION_RETENTION_DAYS), then shared.
 */
export function sharedReportEngine(storage: Storage, clock: () => number, keptFromDay: () => number): ReportEngine {
  let engine = engines.get(storage);
  if (!engine) {
    engine = new JoiningReportEngine(storage, new SqliteReportStore((storage as SqliteStorage).db), clock, keptFromDay);
    engines.set(storage, engine);
  }
  return engine;
}
