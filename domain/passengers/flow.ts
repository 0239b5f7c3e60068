/**
 * Passenger flow rules (issue 18, /report/PassengerAnalysis): one bus's counting uploads (JT/T 1078 0x1005,
 * with the bus-line extension: door, direction, station, on board) reduced to the figures the four screens read.
 *
 * The day row is a pure, ORDER-INDEPENDENT fold (sums, counts, a maximum): the server keeps it up to date per
 * upload as it is stored, and a blind-area re-upload or a late count simply adds to its day, so the live row
 * and a recompute over the stored uploads cannot disagree (passengerDay = fold of passengerStep, any order).
 *
 * Supervision (per upload, against the vehicle's rated load, the company setting `passengers.rated`):
 * - overload: on board after the stop above the rated load;
 * - abnormal count: a count no counter can see: more boarded than are on board after the stop, more through
 *   one door at one stop than the bus holds, or a counting span longer than MAX_SPAN_MS.
 */

/** Rated load (seats and standing) when the company set none: a 12 m city bus. */
export const DEFAULT_RATED_LOAD = 80;
/**
 * The company parameter holding the rated load (/system/param, stored per company in report_setting). It is read
 * when a count is folded into its day, so a change applies to counts received from then on.
 */
export const RATED_LOAD_SETTING = 'passengers.rated';
export const RATED_LOAD_MAX = 300;
/** One stop's counting span; longer is a counter left counting (abnormal). */
export const MAX_SPAN_MS = 30 * 60_000;
/** The screens show or export at most this many rows (spec: passenger flow shows the first 10,000). */
export const PASSENGER_MAX_ROWS = 10_000;
/** Lines one line analysis may cover (spec §5). */
export const PASSENGER_MAX_LINES = 30;
/** Vehicles one supervision may cover (spec §5). */
export const PASSENGER_MAX_VEHICLES = 1000;

const CHINA_OFFSET_MS = 8 * 3_600_000;

export interface PassengerRecord {
  /** Counting span, ms since epoch. */
  readonly start: number;
  readonly end: number;
  readonly boarding: number;
  readonly alighting: number;
  /** From the bus-line extension; null on a plain 0x1005. */
  readonly door: number | null;
  readonly direction: 0 | 1 | null;
  readonly stationSeq: number | null;
  readonly onboard: number | null;
  /** The vehicle's line when the upload was stored (null: on no line). */
  readonly lineId: number | null;
}

export interface PassengerDayRow {
  boarding: number;
  alighting: number;
  uploads: number;
  /** By China hour of the counting span's end (0–23). */
  hourlyBoarding: number[];
  hourlyAlighting: number[];
  /** Highest on-board count reported, null when the counter keeps none. */
  maxOnboard: number | null;
  overloads: number;
  abnormal: number;
  /** `${lineId}:${direction}:${stationSeq}` → [boarding, alighting]: uploads carrying the extension only. */
  stations: Record<string, [number, number]>;
  /** Door number → [boarding, alighting]. */
  doors: Record<string, [number, number]>;
}

/** China hour (0–23) of a time. */
export function chinaHour(t: number): number {
  return Math.floor(((t + CHINA_OFFSET_MS) % 86_400_000 + 86_400_000) % 86_400_000 / 3_600_000);
}

export interface Supervision {
  readonly overload: boolean;
  readonly abnormal: boolean;
}

export function supervise(r: PassengerRecord, ratedLoad: number): Supervision {
  const overload = r.onboard !== null && r.onboard > ratedLoad;
  const abnormal = (r.onboard !== null && r.onboard < r.boarding) || r.boarding > ratedLoad || r.alighting > ratedLoad
    || r.end - r.start > MAX_SPAN_MS;
  return { overload, abnormal };
}

export function emptyPassengerDay(): PassengerDayRow {
  return {
    boarding: 0, alighting: 0, uploads: 0, hourlyBoarding: new Array<number>(24).fill(0), hourlyAlighting: new Array<number>(24).fill(0),
    maxOnboard: null, overloads: 0, abnormal: 0, stations: {}, doors: {},
  };
}

function add(map: Record<string, [number, number]>, key: string, b: number, a: number): void {
  const cell = map[key] ?? (map[key] = [0, 0]);
  cell[0] += b;
  cell[1] += a;
}

/** Folds one upload into its day's row (in place). */
export function passengerStep(row: PassengerDayRow, r: PassengerRecord, ratedLoad: number): void {
  row.boarding += r.boarding;
  row.alighting += r.alighting;
  row.uploads++;
  const h = chinaHour(r.end);
  row.hourlyBoarding[h]! += r.boarding;
  row.hourlyAlighting[h]! += r.alighting;
  if (r.onboard !== null) row.maxOnboard = Math.max(row.maxOnboard ?? 0, r.onboard);
  const s = supervise(r, ratedLoad);
  if (s.overload) row.overloads++;
  if (s.abnormal) row.abnormal++;
  if (r.lineId !== null && r.direction !== null && r.stationSeq !== null) add(row.stations, `${r.lineId}:${r.direction}:${r.stationSeq}`, r.boarding, r.alighting);
  if (r.door !== null) add(row.doors, String(r.door), r.boarding, r.alighting);
}

/** The day's row from its uploads (the recompute; any order gives the same row). */
export function passengerDay(records: readonly PassengerRecord[], ratedLoad: number): PassengerDayRow {
  const row = emptyPassengerDay();
  for (const r of records) passengerStep(row, r, ratedLoad);
  return row;
}

/** Rows of several days (or vehicles) added together: a period's or a line's profile. */
export function mergePassengerDays(rows: readonly PassengerDayRow[]): PassengerDayRow {
  const out = emptyPassengerDay();
  for (const r of rows) {
    out.boarding += r.boarding;
    out.alighting += r.alighting;
    out.uploads += r.uploads;
    for (let h = 0; h < 24; h++) {
      out.hourlyBoarding[h]! += r.hourlyBoarding[h] ?? 0;
      out.hourlyAlighting[h]! += r.hourlyAlighting[h] ?? 0;
    }
    if (r.maxOnboard !== null) out.maxOnboard = Math.max(out.maxOnboard ?? 0, r.maxOnboard);
    out.overloads += r.overloads;
    out.abnormal += r.abnormal;
    for (const [k, [b, a]] of Object.entries(r.stations)) add(out.stations, k, b, a);
    for (const [k, [b, a]] of Object.entries(r.doors)) add(out.doors, k, b, a);
  }
  return out;
}

/** The hour with the most boardings (earliest on a tie), null without any. */
export function peakHour(row: PassengerDayRow): number | null {
  let best = -1;
  let at: number | null = null;
  for (let h = 0; h < 24; h++) if (row.hourlyBoarding[h]! > best && row.hourlyBoarding[h]! > 0) [best, at] = [row.hourlyBoarding[h]!, h];
  return at;
}

/** A share in percent with one decimal (null when the whole is 0). */
export function percent(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : null;
}
