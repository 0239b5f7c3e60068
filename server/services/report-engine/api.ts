/**
 * The report engine's read/registration interface (issue 18). Report routes depend on this file only,
 * never on the engine's implementation, so the figure families (mileage, operation, fuel) can be built
 * and tested against it while the engine changes behind it. Days are China days
 * (domain/track/days.ts `chinaDayIndex`); a module is a pure `DayModule` (domain/report-day/module.ts).
 *
 * Reaching it from a route module: buildApp decorates the app with `app.reportEngine`, and route
 * modules that want it take `ReportEngineDeps` (ServiceDeps plus the engine) like other services take
 * their extra deps.
 */
import type { SeenSpan } from '../../../domain/report-day/device.ts';
import type { DayEvent, DayModule } from '../../../domain/report-day/module.ts';
import type { ServiceDeps } from '../deps.ts';

export interface ReportEngine {
  register(module: DayModule<unknown, unknown>): void;          // at app build, before ingest starts
  /** Rows of one module for vehicles × China days [fromDay, toDay] (inclusive); today's open day included. */
  days<Row>(moduleKey: string, vehicleIds: readonly number[], fromDay: number, toDay: number): Promise<Map<number, { day: number; row: Row }[]>>;
  /** Events of one module (optionally one kind) in the same range, ordered by vehicle then start. */
  events(moduleKey: string, vehicleIds: readonly number[], fromDay: number, toDay: number, kind?: string): Promise<{ vehicleId: number; day: number; event: DayEvent }[]>;
  /** Settings the modules read (DayContext.settings), per company; changing one recomputes nothing retroactively unless `recompute` is called. */
  settings(companyId: number): Promise<Record<string, number>>;
  recompute(vehicleId: number, day: number): Promise<void>;
  /**
   * Spans of heartbeat contact (seen.ts) of the vehicles meeting China days [fromDay, toDay]; vehicles without one left
   * out. Optional: an engine without the gateway's heartbeats (tests' raw engine) has none.
   */
  seenSpans?(vehicleIds: readonly number[], fromDay: number, toDay: number): Promise<Map<number, SeenSpan[]>>;
}

/** What a report route module takes when it reads the engine. */
export interface ReportEngineDeps extends ServiceDeps {
  readonly reportEngine: ReportEngine;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The report engine (issue 18): per-vehicle, per-China-day module rows maintained as positions are stored. */
    reportEngine: ReportEngine;
  }
}
