/**
 * The report engine's contract (issue 18): every analyst report reads per-vehicle, per-China-day figures
 * that are maintained as positions are stored, never recomputed from raw positions on request (except a
 * one-vehicle drill-down). A figure family (mileage, operation, fuel, …) is one `DayModule`: a pure
 * streaming reducer over one vehicle's points of one China day, in GPS-time order.
 *
 * The server's engine (server/services/report-engine/) owns the loop:
 *   - live: for each stored batch it feeds each point to every module's carry for (vehicle, day), and
 *     writes `finish(carry)` as that day's row (carry kept in memory and persisted so a restart resumes);
 *   - late data (a blind-area upload 0x0704, a point older than the carry's last point, a day re-opened):
 *     the day is recomputed from its stored positions through the SAME modules (`start` → `step`… →
 *     `finish`), so the live path and the recompute path cannot disagree;
 *   - tests check a module's rows against the raw positions through that recompute path.
 *
 * A module is pure: no DOM, no Node, no clock, no I/O. Its carry must survive `JSON.stringify`
 * (the engine persists it); keep it small (a few numbers, the last point, an open stop or trip).
 */

/** One stored position as the day modules see it. */
export interface DayPoint {
  /** GPS time, ms since epoch (UTC). */
  readonly t: number;
  readonly lng: number;
  readonly lat: number;
  /** km/h */
  readonly speed: number;
  /** JT/T 808 status bits (bit 0 ACC on, bit 1 located, …) and alarm bits as reported. */
  readonly status: number;
  readonly alarm: number;
  /** Odometer, km (0x0200 item 0x01); null when the report did not carry it. */
  readonly mileage: number | null;
  /** Fuel level, litres (0x0200 item 0x02); null when the report did not carry it. */
  readonly fuel: number | null;
  /** When the server received it, ms (a GPS time far past it is a clock running ahead). */
  readonly receivedAt: number;
}

/** What a module knows about the day it reduces. */
export interface DayContext {
  readonly vehicleId: number;
  /** China day index (domain/track/days.ts `chinaDayIndex`) and its bounds in ms. */
  readonly day: number;
  readonly dayStart: number;
  readonly dayEnd: number;
  /** The vehicle's last valid point before the day, when one is known (mileage across midnight, an open stop). */
  readonly previous: DayPoint | null;
  /** Analyst-set thresholds the module reads (night window, fuel thresholds…), by the module's own keys. */
  readonly settings: Readonly<Record<string, number>>;
}

/**
 * One figure family. `Row` is what the reports read for the day (plain JSON numbers/arrays); a `DayEvent` is
 * one entry of the day's detail lists (a stop, a trip, a refuel), stored with its kind and time span.
 */
export interface DayModule<Carry, Row> {
  /** Stable key: the column / table the engine stores this module's rows under ('mileage', 'fuel', …). */
  readonly key: string;
  start(context: DayContext): Carry;
  /** Points of the context's vehicle and day only, GPS time ascending. May push finished events. */
  step(carry: Carry, point: DayPoint, events: DayEvent[]): void;
  /**
   * The day's figures so far. Called for an open day too (today's report), so it must not change the
   * carry; events still open at the day's end (a stop running past midnight) are pushed here, clipped.
   */
  finish(carry: Carry, events: DayEvent[]): Row;
}

/** An event as the engine stores it: module key, kind, span and the module's own figures. */
export interface DayEvent {
  readonly kind: string;
  readonly start: number;
  readonly end: number;
  readonly lng: number;
  readonly lat: number;
  readonly value: Readonly<Record<string, number>>;
}
