/**
 * The positioning-quality computation: per vehicle, read a window of history, drop invalid points,
 * run `analyzeTrack` once (domain/track, the rules of track playback) and derive per-day metrics
 * (`dailyMetrics`) and the detail lists (drift points, discontinuous gaps, invalid points).
 *
 * Window: the requested days, preceded by the vehicle's last CONTEXT_POINTS valid points before them
 * and followed by its first valid point after them. The points before carry the continuity run and
 * the drift triples across the window's first midnight exactly: the run only matters up to 6 pairs and
 * is reset only by a short pair, so 64 points decide it unless 60 drift points come in a row; the point
 * after lets the last point be judged. Context points are never counted.
 *
 * Cache: completed days go to `report_vehicle_day` on first computation; today (China time) is always
 * computed (reused in memory for TODAY_MEMO_MS, so a paged list does not recompute it per page) and
 * never stored. The day of the vehicle's newest point so far is stored as open: its last
 * point is undetermined only until the next report arrives, so it is recomputed once one exists. A
 * stored day whose stored row count has changed since (late blind-area uploads) is recomputed too,
 * checked at most every RECOUNT_AFTER_MS per vehicle and period — and at once when this process has
 * written rows of the vehicle into a past day since the last check (`positions.lateWrites`).
 */
import { analyzeTrack, type TrackAnalysis } from '../../../domain/track/analyze.ts';
import { allocateColumns } from '../../../domain/track/columns.ts';
import { dailyMetrics, splitInvalid, type DayMetrics, type InvalidReason, type RawTrack, type WindowTrack } from '../../../domain/track/daily-metrics.ts';
import { chinaDateOfDay, chinaDayIndex, chinaDayStartMs, DAY_MS } from '../../../domain/track/days.ts';
import { isContactDay, type SeenSpan } from '../../../domain/report-day/device.ts';
import { impliedSpeedKmh, haversineKm } from '../../../domain/track/geo.ts';
import type { Storage } from '../../db/repositories.ts';
import type { CachedDay, ReportStore, StoredPoint } from './store.ts';

/** Valid points read before a window as context for the continuity run and drift triples. */
export const CONTEXT_POINTS = 64;
/** Rows read per vehicle window at most: 32 days of 1 Hz reports is 2.8 M; beyond, the window is cut (documented). */
export const MAX_WINDOW_ROWS = 3_000_000;

export interface WindowResult {
  readonly raw: RawTrack;
  readonly track: WindowTrack;
  /** Raw index of each valid point. */
  readonly validIndex: Int32Array;
  readonly invalid: Int32Array;
  readonly reasons: readonly InvalidReason[];
  readonly analysis: TrackAnalysis;
  /** True when a valid point after the last day exists. */
  readonly hasAfter: boolean;
  /** First and last requested China day index. */
  readonly firstDay: number;
  readonly lastDay: number;
}

export interface DriftItem {
  readonly gpsTime: number; readonly lng: number; readonly lat: number; readonly speed: number;
  /** Implied km/h from the previous kept point and to the next point; Infinity when the time did not change. */
  readonly speedIn: number; readonly speedOut: number;
}

export interface GapItem {
  readonly fromTime: number; readonly fromLng: number; readonly fromLat: number;
  readonly toTime: number; readonly toLng: number; readonly toLat: number;
  readonly km: number; readonly hours: number;
}

export interface InvalidItem {
  /** `receivedAt`: the arrival time of a 'future' point; null for the other reasons (not read for them). */
  readonly gpsTime: number; readonly receivedAt: number | null; readonly lng: number; readonly lat: number; readonly speed: number; readonly reason: InvalidReason;
}

/**
 * Reads a vehicle's history [from, to) as columns through the shared columnar read, with an arrival
 * time column that is NaN except on rows stored with a GPS time in the future (the only rows where
 * the arrival time decides anything); those come from one filtered index range read.
 */
async function readRaw(storage: Storage, store: ReportStore, vehicleId: number, from: number, to: number): Promise<RawTrack> {
  const t = await storage.tracks.readTrack(vehicleId, from, to, MAX_WINDOW_ROWS);
  const n = t.count;
  const receivedAt = new Float64Array(n).fill(NaN);
  let i = 0;
  for (const [gpsTime, arrived] of store.futureRows(vehicleId, from, to)) {
    // Both lists are in time order: walk forward to the row's time (the next unmarked row of equal time).
    while (i < n && t.time[i]! < gpsTime) i++;
    if (i >= n) break;
    receivedAt[i++] = arrived;
  }
  return { time: t.time, lng: t.lng, lat: t.lat, speed: t.speed, receivedAt };
}

/** Columns of [...before, ...points, after?]. */
function withNeighbours(valid: RawTrack, before: readonly StoredPoint[], after: StoredPoint | undefined): RawTrack {
  if (before.length === 0 && !after) return valid;
  const m = valid.time.length;
  const n = m + before.length + (after ? 1 : 0);
  const c = allocateColumns(n);
  let j = 0;
  const put = (t: number, x: number, y: number, s: number) => {
    c.time[j] = t;
    c.lng[j] = x;
    c.lat[j] = y;
    c.speed[j++] = s;
  };
  for (const p of before) put(p.time, p.lng, p.lat, p.speed);
  for (let i = 0; i < m; i++) put(valid.time[i]!, valid.lng[i]!, valid.lat[i]!, valid.speed[i]!);
  if (after) put(after.time, after.lng, after.lat, after.speed);
  return c;
}

/** Today's metrics are reused for this long in memory (a paged list asks for them once per page). */
export const TODAY_MEMO_MS = 60_000;
/**
 * Stored days of a vehicle and period are checked for late rows at most this often: the check is an
 * index COUNT per vehicle (≈ 1 ms for a week at one report a minute, 2 s for 2,000 vehicles).
 */
export const RECOUNT_AFTER_MS = 10 * 60_000;
const RECOUNT_KEYS = 100_000;

/** Heartbeat contact of vehicles over China days [firstDay, lastDay] (the report engine's `seenSpans`); vehicles without any left out. */
export type ContactSource = (vehicleIds: readonly number[], firstDay: number, lastDay: number) => Promise<Map<number, SeenSpan[]>>;

export class ReportEngine {
  /**
   * Heartbeat contact (server/services/report-engine/seen.ts), when the app wired it (reports/index.ts): a day with no
   * position but heartbeat contact is online (domain/report-day/device.ts `isContactDay`), as in the device-work and
   * online-analysis reports. Laid over the answer of `days`, never stored: spans keep arriving after a day is cached.
   */
  contact: ContactSource | undefined;
  /** vehicle id → today's metrics and when they were computed (never written to the table). */
  private readonly todayMemo = new Map<number, { day: number; at: number; metrics: DayMetrics }>();
  /**
   * `vehicle:firstDay:lastDay` → when its stored days were last found matching the stored row counts,
   * and the vehicle's late-write count then (a late write since forces the recount at once).
   */
  private readonly counted = new Map<string, { at: number; late: number }>();

  constructor(
    private readonly storage: Storage,
    private readonly store: ReportStore,
    readonly clock: () => number,
    /**
     * First China day whose positions are still kept (POSITION_RETENTION_DAYS, server/retention/): a
     * stored day before it is final, since its rows are deleted and a recount would find none.
     */
    private readonly keptFromDay: () => number = () => -Infinity,
  ) {}

  /** Reads and analyses one vehicle over China days [firstDay, lastDay] (see the module comment). */
  async window(vehicleId: number, firstDay: number, lastDay: number): Promise<WindowResult> {
    const readFrom = chinaDayStartMs(firstDay);
    const readTo = chinaDayStartMs(lastDay + 1);
    const raw = await readRaw(this.storage, this.store, vehicleId, readFrom, readTo);
    const split = splitInvalid(raw);
    const before = this.store.validPointsBefore(vehicleId, readFrom, CONTEXT_POINTS);
    const after = this.store.validPointFrom(vehicleId, readTo);
    const valid = withNeighbours(split.valid, before, after);
    const n = valid.time.length;
    const errorTimes = new Float64Array(split.invalid.length);
    for (let k = 0; k < split.invalid.length; k++) errorTimes[k] = raw.time[split.invalid[k]!]!;
    const track: WindowTrack = { valid, first: before.length, end: n - (after ? 1 : 0), errorTimes };
    // Raw index of each point of `valid` (−1 for the neighbours).
    const validIndex = new Int32Array(n).fill(-1);
    validIndex.set(split.validIndex, before.length);
    return {
      raw, track, validIndex, invalid: split.invalid, reasons: split.reasons, analysis: analyzeTrack(valid), hasAfter: after !== undefined, firstDay, lastDay,
    };
  }

  /**
   * Day metrics of each vehicle for China days [firstDay, lastDay], cached days read back, missing
   * ones computed in one window per vehicle (from the first missing day to the last) and stored
   * when complete. Yields to the event loop between vehicles so other requests are served meanwhile.
   */
  async days(vehicleIds: readonly number[], firstDay: number, lastDay: number): Promise<Map<number, DayMetrics[]>> {
    const now = this.clock();
    const today = chinaDayIndex(now);
    const fromDate = chinaDateOfDay(firstDay);
    const toDate = chinaDateOfDay(lastDay);
    const out = new Map<number, DayMetrics[]>();
    for (const vehicleId of vehicleIds) {
      const cached = this.store.cachedDays(vehicleId, fromDate, toDate);
      let lo = Infinity;
      let hi = -Infinity;
      const memo = this.todayMemo.get(vehicleId);
      if (memo && memo.day === today && now - memo.at < TODAY_MEMO_MS) cached.set(memo.metrics.date, { metrics: memo.metrics, open: true });
      const countKey = `${vehicleId}:${firstDay}:${Math.min(lastDay, today - 1)}`;
      const counted = this.counted.get(countKey);
      const late = this.storage.positions.lateWrites(vehicleId);
      const check = counted !== undefined && now - counted.at < RECOUNT_AFTER_MS && counted.late === late
        ? 'skipped'
        : this.changedCounts(vehicleId, cached, firstDay, Math.min(lastDay, today - 1));
      const counts = typeof check === 'string' ? undefined : check;
      const keptFrom = this.keptFromDay();
      for (let d = firstDay; d <= lastDay; d++) {
        const c = cached.get(chinaDateOfDay(d));
        // An open day stays valid until the vehicle reports after it (one index probe). A stored day
        // whose positions are past retention is final: its rows are gone, not changed.
        const stale = c === undefined || (d >= keptFrom && (
          (counts !== undefined && d < today && (counts.get(d) ?? 0) !== c.metrics.totalGps)
          || (c.open && d < today && this.store.validPointFrom(vehicleId, chinaDayStartMs(d + 1)) !== undefined)));
        if (stale) {
          lo = Math.min(lo, d);
          hi = Math.max(hi, d);
        }
      }
      if (lo <= hi) {
        const w = await this.window(vehicleId, lo, hi);
        const computed = dailyMetrics(w.track, lo, hi, w.analysis);
        const { valid, end } = w.track;
        // The day of the newest point so far, when no later point exists: its last point is undetermined for now.
        const openDay = !w.hasAfter && end > 0 ? chinaDayIndex(valid.time[end - 1]!) : Infinity;
        const days = computed.map((metrics, k) => ({ metrics, open: lo + k === openDay }));
        this.store.saveDays(vehicleId, days.filter((_, k) => lo + k < today), now);
        for (const c of days) cached.set(c.metrics.date, c);
        if (hi === today) this.todayMemo.set(vehicleId, { day: today, at: now, metrics: computed[computed.length - 1]! });
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      const list: DayMetrics[] = [];
      for (let d = firstDay; d <= lastDay; d++) {
        const c = cached.get(chinaDateOfDay(d));
        if (c) list.push(c.metrics);
      }
      out.set(vehicleId, list);
      // Only a count that matched is trusted for a while; freshly computed days are counted on the next call.
      if (check === 'match') {
        if (this.counted.size >= RECOUNT_KEYS) this.counted.clear();
        this.counted.set(countKey, { at: now, late });
      }
    }
    return this.withContact(out, firstDay, lastDay);
  }

  /** Days without a position that had heartbeat contact become online (`isContactDay`); new objects, the cached ones untouched. */
  private async withContact(out: Map<number, DayMetrics[]>, firstDay: number, lastDay: number): Promise<Map<number, DayMetrics[]>> {
    const offline = [...out].filter(([, list]) => list.some((m) => !m.online)).map(([v]) => v);
    if (!this.contact || offline.length === 0) return out;
    const seen = await this.contact(offline, firstDay, lastDay);
    if (seen.size === 0) return out;
    const dayOf = new Map<string, number>();
    for (let d = firstDay; d <= lastDay; d++) dayOf.set(chinaDateOfDay(d), d);
    for (const [vehicleId, spans] of seen) {
      const list = out.get(vehicleId);
      if (!list) continue;
      out.set(vehicleId, list.map((m) => {
        const d = dayOf.get(m.date);
        if (m.online || d === undefined) return m;
        const start = chinaDayStartMs(d);
        return isContactDay(m.totalGps, spans, start, start + DAY_MS) ? { ...m, online: true } : m;
      }));
    }
    return out;
  }

  /**
   * Rows per day when a stored day may have got late rows (blind-area re-upload); 'match' when every
   * day is stored and unchanged; 'none' when no day is stored. History only grows, so when the
   * period's row count equals the stored totals no day changed: one index-only COUNT per vehicle,
   * the per-day count only on a mismatch or when some days are missing.
   */
  private changedCounts(vehicleId: number, cached: ReadonlyMap<string, CachedDay>, firstDay: number, lastDay: number): Map<number, number> | 'match' | 'none' {
    let stored = 0;
    let found = 0;
    for (let d = firstDay; d <= lastDay; d++) {
      const c = cached.get(chinaDateOfDay(d));
      if (c === undefined) continue;
      stored += c.metrics.totalGps;
      found++;
    }
    // Nothing stored: every day is computed anyway. Some days missing: compare day by day.
    if (found === 0) return 'none';
    if (found < lastDay - firstDay + 1) return this.store.dayCounts(vehicleId, firstDay, lastDay);
    return this.store.rowCount(vehicleId, firstDay, lastDay) === stored ? 'match' : this.store.dayCounts(vehicleId, firstDay, lastDay);
  }

  /** Drift points of the window's requested days, in time order. */
  static driftItems(w: WindowResult): DriftItem[] {
    const { valid, first, end } = w.track;
    const { time, lng, lat, speed } = valid;
    const flags = w.analysis.driftFlags;
    const out: DriftItem[] = [];
    const from = chinaDayStartMs(w.firstDay);
    const to = chinaDayStartMs(w.lastDay + 1);
    for (const i of w.analysis.drift) {
      if (i < first || i >= end || time[i]! < from || time[i]! >= to) continue;
      let a = i - 1;
      while (a > 0 && flags[a] === 1) a--;
      const speedIn = impliedSpeedKmh(haversineKm(lng[a]!, lat[a]!, lng[i]!, lat[i]!), time[i]! - time[a]!);
      const k = i + 1;
      const speedOut = impliedSpeedKmh(haversineKm(lng[i]!, lat[i]!, lng[k]!, lat[k]!), time[k]! - time[i]!);
      out.push({ gpsTime: time[i]!, lng: lng[i]!, lat: lat[i]!, speed: speed[i]!, speedIn, speedOut });
    }
    return out;
  }

  /** Discontinuous gaps whose later point falls on the requested days, in time order. */
  static gapItems(w: WindowResult): GapItem[] {
    const { valid, first, end } = w.track;
    const { time, lng, lat } = valid;
    const from = chinaDayStartMs(w.firstDay);
    const to = chinaDayStartMs(w.lastDay + 1);
    const out: GapItem[] = [];
    for (const g of w.analysis.gaps) {
      if (g.continuous || g.to < first || g.to >= end || time[g.to]! < from || time[g.to]! >= to) continue;
      out.push({
        fromTime: time[g.from]!, fromLng: lng[g.from]!, fromLat: lat[g.from]!, toTime: time[g.to]!, toLng: lng[g.to]!, toLat: lat[g.to]!,
        km: g.km, hours: (time[g.to]! - time[g.from]!) / 3_600_000,
      });
    }
    return out;
  }

  /** Invalid points of the requested days, in time order. */
  static invalidItems(w: WindowResult): InvalidItem[] {
    const { raw } = w;
    const from = chinaDayStartMs(w.firstDay);
    const to = from + (w.lastDay - w.firstDay + 1) * DAY_MS;
    const out: InvalidItem[] = [];
    for (let k = 0; k < w.invalid.length; k++) {
      const i = w.invalid[k]!;
      const t = raw.time[i]!;
      if (!(t >= from && t < to)) continue;
      const arrived = raw.receivedAt ? raw.receivedAt[i]! : NaN;
      out.push({ gpsTime: t, receivedAt: Number.isFinite(arrived) ? arrived : null, lng: raw.lng[i]!, lat: raw.lat[i]!, speed: raw.speed[i]!, reason: w.reasons[k]! });
    }
    return out;
  }
}
