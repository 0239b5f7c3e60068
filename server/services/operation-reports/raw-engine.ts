/**
 * The recompute path over raw positions: a `ReportEngine` (report-engine/api.ts) that answers `days` and
 * `events` by reading each vehicle's stored positions and feeding them through the registered day modules
 * (start → step… → finish), the way the engine recomputes a day on late data.
 *
 * It is the reference the report tests compare the engine's rows with ("figures equal a recompute from raw
 * positions"), and what the tests run the report calls on while the real engine is not wired. It is NOT
 * for serving reports: it reads every position of the period on each request (issue 18's 333 s design).
 */
import type { DayEvent, DayModule, DayPoint } from '../../../domain/report-day/module.ts';
import { isValidDayPoint } from '../../../domain/report-day/valid.ts';
import { chinaDayIndex, chinaDayStartMs, DAY_MS } from '../../../domain/track/days.ts';
import type { PositionRow, Storage } from '../../db/repositories.ts';
import type { ReportEngine } from '../report-engine/api.ts';

const MAX_ROWS = 10_000_000;

export function dayPoint(r: PositionRow): DayPoint {
  return { t: r.gpsTime, lng: r.lng, lat: r.lat, speed: r.speed, status: r.status, alarm: r.alarm, mileage: r.mileage, fuel: r.fuel ?? null, receivedAt: r.receivedAt };
}

export class RawReportEngine implements ReportEngine {
  private readonly modules = new Map<string, DayModule<unknown, unknown>>();

  constructor(
    private readonly storage: Storage,
    private readonly settingsOf: (vehicleId: number) => Record<string, number> = () => ({}),
  ) {}

  register(module: DayModule<unknown, unknown>): void {
    this.modules.set(module.key, module);
  }

  /** Each (vehicle, day) of the range reduced: its row and events, days without points included. */
  async reduce(moduleKey: string, vehicleId: number, fromDay: number, toDay: number): Promise<{ day: number; row: unknown; events: DayEvent[] }[]> {
    const module = this.modules.get(moduleKey);
    if (!module) return [];
    // One day before the range: its last point is the first day's `previous`.
    const rows = await this.storage.positions.range(vehicleId, chinaDayStartMs(fromDay - 1), chinaDayStartMs(toDay + 1), MAX_ROWS);
    const out: { day: number; row: unknown; events: DayEvent[] }[] = [];
    let i = 0;
    let previous: DayPoint | null = null;
    while (i < rows.length && chinaDayIndex(rows[i]!.gpsTime) < fromDay) {
      const p = dayPoint(rows[i++]!);
      if (isValidDayPoint(p)) previous = p;
    }
    for (let day = fromDay; day <= toDay; day++) {
      const dayStart = chinaDayStartMs(day);
      const carry = module.start({ vehicleId, day, dayStart, dayEnd: dayStart + DAY_MS, previous, settings: this.settingsOf(vehicleId) });
      const events: DayEvent[] = [];
      while (i < rows.length && chinaDayIndex(rows[i]!.gpsTime) === day) {
        const p = dayPoint(rows[i++]!);
        module.step(carry, p, events);
        if (isValidDayPoint(p)) previous = p; // the engine's rule: the last valid point before the day

      }
      out.push({ day, row: module.finish(carry, events), events });
    }
    return out;
  }

  async days<Row>(moduleKey: string, vehicleIds: readonly number[], fromDay: number, toDay: number): Promise<Map<number, { day: number; row: Row }[]>> {
    const out = new Map<number, { day: number; row: Row }[]>();
    if (!this.modules.has(moduleKey)) return out;
    for (const id of vehicleIds) out.set(id, (await this.reduce(moduleKey, id, fromDay, toDay)).map((x) => ({ day: x.day, row: x.row as Row })));
    return out;
  }

  async events(moduleKey: string, vehicleIds: readonly number[], fromDay: number, toDay: number, kind?: string): Promise<{ vehicleId: number; day: number; event: DayEvent }[]> {
    const out: { vehicleId: number; day: number; event: DayEvent }[] = [];
    for (const vehicleId of [...vehicleIds].sort((a, b) => a - b)) {
      for (const d of await this.reduce(moduleKey, vehicleId, fromDay, toDay)) {
        for (const event of [...d.events].sort((a, b) => a.start - b.start)) if (kind === undefined || event.kind === kind) out.push({ vehicleId, day: d.day, event });
      }
    }
    return out;
  }

  async settings(): Promise<Record<string, number>> {
    return {};
  }

  async recompute(): Promise<void> {
    // Nothing is stored: every answer is a recompute.
  }
}
