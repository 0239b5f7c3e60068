/**
 * Fuel rules (issue 18): a tank-level sensor's readings (0x0200 item 0x02, litres) become a smoothed level,
 * refuels, leaks (theft or a leaking tank) and consumption. The rule lives here once: the `fuel` day module
 * (domain/report-day/fuel.ts) feeds it live and on recompute, and the one-vehicle chart (oilChart) runs the
 * same steps over raw positions to draw the raw and smoothed curves with the same markers.
 *
 * How a reading is judged, in order:
 *  1. A reading ≤ 0 or missing is a sensor dropout, not an empty tank (a running truck's sensor that reads
 *     exactly 0 has lost its signal; an empty tank reads a few litres of sump): it is skipped.
 *  2. Smoothing: the level is the median of the last `smoothSamples` readings (a trailing median). Sloshing
 *     on a moving truck makes single readings jump by several litres, both ways; a median of 5 ignores up
 *     to 2 outliers in a row, where a mean would drag every spike into the curve and read it as a rise.
 *  3. Events are found on the smoothed level, against a reference kept at most `windowMin` old:
 *     - refuel: the level rises ≥ `refuelMinL` above the lowest level of the window, and at least
 *       `refuelStoppedPct` % of the readings of the rise were taken stopped (speed < `stoppedKmh`): a rise
 *       while driving is sloshing on a slope, not a pump;
 *     - leak: the level falls below the highest level of the window by ≥ `leakMinL` MORE than consumption can
 *       explain: the allowance is `maxLPer100km` over the km driven since that highest level plus
 *       `idleLPerHour` over the time (so a drop while parked counts almost whole, a drop while driving only
 *       past the heaviest plausible burn).
 *     An open event grows while the level keeps moving its way (a leak only while stopped, or while the drop
 *     still outruns the allowance) and closes when the level has not moved further for `settleMin` minutes
 *     or turns back by more than the noise tolerance. Its litres are after − before (refuel) or before −
 *     after (leak: the whole drop of its span; consumption during a theft of minutes is negligible).
 *  4. Consumption of a day = first level − last level + refuelled − leaked (never below 0); L/100 km over
 *     the day's km when it drove at least 1 km.
 * Pure: no DOM, no Node, no clock; the state survives JSON.stringify (the engine persists it).
 */
import { haversineKm } from '../track/geo.ts';

/** Analyst-set thresholds (per company; DayContext.settings keys `fuel.<name>`). */
export interface FuelThresholds {
  /** Readings in the trailing median (odd, 1–15). */
  readonly smoothSamples: number;
  /** A rise at least this large (L) is a refuel. */
  readonly refuelMinL: number;
  /** A drop at least this much beyond the consumption allowance (L) is a leak. */
  readonly leakMinL: number;
  /** A rise or drop must build within this many minutes (a slow creep is sensor drift, not an event). */
  readonly windowMin: number;
  /** An open event closes after this many minutes without moving further. */
  readonly settleMin: number;
  /** Heaviest plausible burn while driving, L/100 km (the allowance against which a drop is a leak). */
  readonly maxLPer100km: number;
  /** Heaviest plausible burn idling, L/h. */
  readonly idleLPerHour: number;
  /** Below this speed (km/h) a reading is "stopped". */
  readonly stoppedKmh: number;
  /** Share (%) of a rise's readings that must be stopped for it to be a refuel. */
  readonly refuelStoppedPct: number;
}

/** The defaults, documented in server/API.md "Fuel reports": a heavy truck's 200–400 L tank and a ±3 L sensor. */
export const FUEL_DEFAULTS: FuelThresholds = {
  smoothSamples: 5,
  refuelMinL: 10,
  leakMinL: 8,
  windowMin: 30,
  settleMin: 5,
  maxLPer100km: 60,
  idleLPerHour: 4,
  stoppedKmh: 5,
  refuelStoppedPct: 50,
};

/** What an analyst may set, per key: [min, max]. */
export const FUEL_LIMITS: { readonly [K in keyof FuelThresholds]: readonly [number, number] } = {
  smoothSamples: [1, 15],
  refuelMinL: [1, 500],
  leakMinL: [1, 500],
  windowMin: [1, 240],
  settleMin: [1, 60],
  maxLPer100km: [1, 200],
  idleLPerHour: [0, 50],
  stoppedKmh: [0, 30],
  refuelStoppedPct: [0, 100],
};

export const FUEL_SETTING_PREFIX = 'fuel.';

/** Thresholds from a settings record (`fuel.refuelMinL` …): defaults for missing keys, values clamped to their limits. */
export function fuelThresholds(settings: Readonly<Record<string, number>>): FuelThresholds {
  const out: Record<string, number> = {};
  for (const key of Object.keys(FUEL_DEFAULTS) as (keyof FuelThresholds)[]) {
    const raw = settings[FUEL_SETTING_PREFIX + key];
    const [lo, hi] = FUEL_LIMITS[key];
    out[key] = typeof raw === 'number' && Number.isFinite(raw) ? Math.min(hi, Math.max(lo, raw)) : FUEL_DEFAULTS[key];
  }
  // A median needs an odd count to pick a reading rather than average two.
  out.smoothSamples = Math.max(1, Math.round(out.smoothSamples!) | 1);
  return out as unknown as FuelThresholds;
}

/** One reading as the rules see it. */
export interface FuelSample {
  readonly t: number;
  readonly lng: number;
  readonly lat: number;
  /** km/h */
  readonly speed: number;
  /** Odometer km, or null (then the distance is measured between positions). */
  readonly mileage: number | null;
  /** Litres, or null when the report carried no fuel item. */
  readonly fuel: number | null;
}

/** A refuel or a leak. */
export interface FuelEvent {
  readonly kind: 'refuel' | 'leak';
  readonly start: number;
  readonly end: number;
  readonly lng: number;
  readonly lat: number;
  /** Smoothed level before and after, L. */
  readonly before: number;
  readonly after: number;
  /** Litres added (refuel) or lost (leak), > 0. */
  readonly litres: number;
}

/** A reference level: where and when, with the day's km so far at it. */
interface Ref {
  t: number;
  level: number;
  km: number;
  lng: number;
  lat: number;
}

interface Open {
  kind: 'refuel' | 'leak';
  from: Ref;
  /** The extreme reached so far (highest for a refuel, lowest for a leak). */
  to: Ref;
  /** Readings that moved the event further, and those of them taken stopped. */
  n: number;
  stopped: number;
}

/** The streaming state (JSON-safe, a few numbers and the median window). */
export interface FuelState {
  /** Last raw readings, oldest first (≤ smoothSamples). */
  w: number[];
  low: Ref | null;
  high: Ref | null;
  open: Open | null;
  /** km driven so far (odometer deltas, else haversine). */
  km: number;
  last: { t: number; lng: number; lat: number; mileage: number | null } | null;
  first: number | null;
  level: number | null;
  refuelled: number;
  leaked: number;
  refuels: number;
  leaks: number;
  samples: number;
  /** Time and day km of the last usable reading (null: none yet). */
  ft: number | null;
  fkm: number;
}

export function fuelStart(): FuelState {
  return {
    w: [], low: null, high: null, open: null, km: 0, last: null, first: null, level: null, refuelled: 0, leaked: 0, refuels: 0, leaks: 0,
    samples: 0, ft: null, fkm: 0,
  };
}

/** A reading outside this is no tank level (sensor error codes read as 0xFFFF/10 = 6553.5 L). */
export const FUEL_MAX_LITRES = 5000;

/** Noise tolerance (L) for "turned back": a quarter of the smaller event threshold, at least 1 L. */
const tolerance = (th: FuelThresholds) => Math.max(1, Math.min(th.refuelMinL, th.leakMinL) / 4);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** Diesel the vehicle may plausibly have burned between two references. */
function allowance(th: FuelThresholds, from: Ref, t: number, km: number): number {
  return ((km - from.km) * th.maxLPer100km) / 100 + ((t - from.t) / 3_600_000) * th.idleLPerHour;
}

/** Closes an open event: a refuel mostly while driving is dropped (sloshing on a slope), else it is pushed and counted. */
function close(state: FuelState, th: FuelThresholds, open: Open, events: FuelEvent[]): void {
  if (!accepted(th, open)) return;
  const before = round1(open.from.level);
  const after = round1(open.to.level);
  const litres = round1(Math.abs(after - before));
  events.push({ kind: open.kind, start: open.from.t, end: open.to.t, lng: open.from.lng, lat: open.from.lat, before, after, litres });
  if (open.kind === 'refuel') {
    state.refuelled += litres;
    state.refuels++;
  } else {
    state.leaked += litres;
    state.leaks++;
  }
}

/**
 * One reading (GPS time ascending). Returns the smoothed level, or null when the reading carried no usable
 * level (distance still counts). Finished events are pushed to `events`.
 */
export function fuelStep(state: FuelState, th: FuelThresholds, s: FuelSample, events: FuelEvent[]): number | null {
  // Distance: the odometer when both readings carry it and it moved forward plausibly, else the great circle.
  if (state.last) {
    const odo = s.mileage !== null && state.last.mileage !== null ? s.mileage - state.last.mileage : null;
    const hours = Math.max((s.t - state.last.t) / 3_600_000, 1 / 3600);
    state.km += odo !== null && odo >= 0 && odo / hours < 250 ? odo : haversineKm(state.last.lng, state.last.lat, s.lng, s.lat);
  }
  state.last = { t: s.t, lng: s.lng, lat: s.lat, mileage: s.mileage };
  if (s.fuel === null || !(s.fuel > 0) || s.fuel > FUEL_MAX_LITRES) return null;

  const windowMs = th.windowMin * 60_000;
  const settleMs = th.settleMin * 60_000;
  const tol = tolerance(th);
  if (state.ft !== null && s.t - state.ft > settleMs) {
    // A gap longer than the settle time (terminal off, a blind area without recording): readings from before it
    // do not describe the tank now (a truck burns litres in those minutes), so the median starts afresh. An open event ends at its extreme; the references are
    // kept only if the vehicle did not move meanwhile (a refuel or theft while the terminal was off is still seen).
    state.w = [];
    if (state.open) {
      close(state, th, state.open, events);
      state.open = null;
    }
    if (state.km - state.fkm >= 1) {
      state.low = null;
      state.high = null;
    }
  }
  state.ft = s.t;
  state.fkm = state.km;
  state.samples++;
  state.w.push(s.fuel);
  while (state.w.length > th.smoothSamples) state.w.shift();
  const level = median(state.w);
  state.level = level;
  // Until the median holds its full count (day start, after a gap) two sloshing readings would be half the
  // window: the level is shown but judges nothing.
  if (state.w.length < th.smoothSamples) return level;
  state.first ??= level;
  const here: Ref = { t: s.t, level, km: state.km, lng: s.lng, lat: s.lat };
  const stopped = s.speed < th.stoppedKmh;

  const open = state.open;
  if (open) {
    const further = open.kind === 'refuel'
      ? level > open.to.level
      : level < open.to.level && (stopped || open.to.level - level > allowance(th, open.to, s.t, state.km));
    const turned = open.kind === 'refuel' ? level < open.to.level - tol : level > open.to.level + tol;
    if (further) {
      // Only readings that moved the event count towards its stopped share (the drive away afterwards does not).
      open.to = here;
      open.n++;
      if (stopped) open.stopped++;
    }
    else if (turned || s.t - open.to.t > settleMs) {
      // A drop the level climbs back from was a low excursion of the noise (sloshing), unless the level it came
      // back to is still a leak against where it started.
      const recovered = turned && open.kind === 'leak' && open.from.level - level - allowance(th, open.from, s.t, state.km) < th.leakMinL;
      if (!recovered) close(state, th, open, events);
      state.open = null;
      state.low = here;
      state.high = here;
    }
    return level;
  }

  // References older than the window are dropped: a slow creep is drift, not an event.
  if (!state.low || level <= state.low.level || s.t - state.low.t > windowMs) state.low = here;
  if (!state.high || level >= state.high.level || s.t - state.high.t > windowMs) state.high = here;

  if (level - state.low.level >= th.refuelMinL) {
    state.open = { kind: 'refuel', from: state.low, to: here, n: 1, stopped: stopped ? 1 : 0 };
  } else if (state.high.level - level - allowance(th, state.high, s.t, state.km) >= th.leakMinL) {
    state.open = { kind: 'leak', from: state.high, to: here, n: 1, stopped: stopped ? 1 : 0 };
  }
  return level;
}

/** A rise mostly while driving is not a refuel (sloshing on a slope). */
function accepted(th: FuelThresholds, open: Open): boolean {
  return open.kind === 'leak' || (open.stopped * 100) / open.n >= th.refuelStoppedPct;
}

/** The day's figures from a state (the state is not changed); an event still open is pushed, ending at its extreme. */
export interface FuelFigures {
  /** Smoothed level at the first and last usable reading, L (null: no reading). */
  startLevel: number | null;
  endLevel: number | null;
  refuelled: number;
  leaked: number;
  refuels: number;
  leaks: number;
  consumed: number;
  km: number;
  /** L/100 km, null below 1 km or without readings. */
  per100km: number | null;
  samples: number;
}

export function fuelFinish(state: FuelState, th: FuelThresholds, events: FuelEvent[]): FuelFigures {
  const copy: FuelState = JSON.parse(JSON.stringify(state)) as FuelState;
  if (copy.open) close(copy, th, copy.open, events);
  const km = Math.round(copy.km * 100) / 100;
  // A day with fewer readings than the median's count starts at its partial median.
  copy.first ??= copy.level;
  const consumed = copy.first === null || copy.level === null ? 0 : round1(Math.max(0, copy.first - copy.level + copy.refuelled - copy.leaked));
  return {
    startLevel: copy.first === null ? null : round1(copy.first),
    endLevel: copy.level === null ? null : round1(copy.level),
    refuelled: round1(copy.refuelled),
    leaked: round1(copy.leaked),
    refuels: copy.refuels,
    leaks: copy.leaks,
    consumed,
    km,
    per100km: copy.samples > 0 && km >= 1 ? round1((consumed / km) * 100) : null,
    samples: copy.samples,
  };
}

/** The chart's series over one vehicle's readings: raw and smoothed level per reading, and the events. */
export function analyzeFuel(samples: readonly FuelSample[], th: FuelThresholds): { t: number[]; raw: (number | null)[]; smooth: (number | null)[]; events: FuelEvent[]; figures: FuelFigures } {
  const state = fuelStart();
  const events: FuelEvent[] = [];
  const t: number[] = [];
  const raw: (number | null)[] = [];
  const smooth: (number | null)[] = [];
  for (const s of samples) {
    const level = fuelStep(state, th, s, events);
    if (level === null) continue;
    t.push(s.t);
    raw.push(s.fuel);
    smooth.push(Math.round(level * 10) / 10);
  }
  const figures = fuelFinish(state, th, events);
  return { t, raw, smooth, events, figures };
}
