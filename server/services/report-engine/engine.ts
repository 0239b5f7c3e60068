/**
 * The report engine (issue 18; CONTEXT.md in this folder): keeps every registered DayModule's row per
 * (vehicle, China day) up to date as positions are stored, so a report reads rows instead of positions.
 *
 * - Live: `ingest` gets each history batch right after it committed, groups it by vehicle in GPS time order and
 *   steps each point into the in-memory carries of its (vehicle, day). Nothing is written per point: every
 *   `persistMs` the days stepped since their last save write their carries and the events `step` pushed, in one
 *   transaction; an open day's row is `finish(carry)` at read time, so it is written only when the day closes.
 * - Late data: a point older than its day's last stepped point, or for a day already closed, marks the
 *   day stale (in memory and in `report_day.stale`) and queues a recompute: the day's stored positions
 *   through the same modules, one day per macrotask, off the ingest path.
 * - Restart: open days' carries are loaded and the points stored after each carry's last save are stepped
 *   into it from positions; a day still marked stale and a vehicle's newest day with no row at all are
 *   recomputed. So a crash loses nothing: at most `persistMs` (15 min) of points per open day are re-read from
 *   positions, and an open day's open events are rewritten at the first `events()` read.
 * - A day closes (its carry is dropped and the row written final) once it is over and no point came
 *   for `closeAfterMs`.
 */
import { chinaDayIndex, chinaDayStartMs, DAY_MS } from '../../../domain/track/days.ts';
import type { DayContext, DayEvent, DayModule, DayPoint } from '../../../domain/report-day/module.ts';
import { isValidDayPoint } from '../../../domain/report-day/valid.ts';
import type { PositionRow } from '../../db/repositories.ts';
import type { SqliteDb } from '../../db/sqlite.ts';
import type { SeenSpan } from '../../../domain/report-day/device.ts';
import type { ReportEngine } from './api.ts';
import type { HeartbeatSeen } from './seen.ts';
import { ReportEngineStore, type PositionDbRow } from './store.ts';

type AnyModule = DayModule<unknown, unknown>;

export interface ReportEngineOptions {
  readonly db: SqliteDb;
  readonly clock: () => number;
  /** Dirty open days are saved this often; a crash costs at most this much re-reading. */
  readonly persistMs?: number;
  /** A day that is over closes after this long without a new point (late reports just after midnight stay live). */
  readonly closeAfterMs?: number;
  readonly log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * Open days' carries are saved this often. A crash loses no figure (a restart steps the points stored since into
 * the saved carry), so the interval only trades restart re-reading against write load. The bound: a restart after
 * a crash re-reads at most 15 minutes of points per open day (100,000 vehicles reporting every 30 s: ≈ 3 M points,
 * stepped in `start()`). Profiled (2,000 vehicles, a point every 2 min, bench quick day fleet): a save costs
 * ~60 µs per vehicle (a third JSON.stringify of the carries — their doubles —, a third the UPDATEs, a third the
 * commit), stepping ~5 µs per point; at 5 minutes (row, carry and open events per save) the saves were 7/8 of the
 * engine's ingest cost.
 */
export const DEFAULT_PERSIST_MS = 15 * 60_000;
export const DEFAULT_CLOSE_AFTER_MS = 15 * 60_000;

/** One open (vehicle, day): the carries of every module, in registration order. */
interface Entry {
  readonly vehicleId: number;
  readonly day: number;
  carries: unknown[];
  /** Events pushed by `step` and not saved yet, per module. */
  pending: DayEvent[][];
  /** GPS time of the last point stepped (-Infinity: none). */
  lastT: number;
  touched: number;
  /** Points stepped since the carries were last written. */
  dirty: boolean;
  /** The table's open events (pushed by `finish`) match the carries: false after a step until a full save (`events()`). */
  openEventsSaved: boolean;
  /** Its rows are in `report_day` as an open day's (OPEN_ROW, with carries): a carry save only updates the carries. */
  openRowsSaved: boolean;
  /** Queued for recompute: live points are skipped (the recompute reads them from positions). */
  stale: boolean;
}

/**
 * The stored `row` of a day that is still open: its figures live in the carry (`finish(carry)` at read time), so the
 * periodic save writes the carries only. A day's real row is written when it closes (or is recomputed closed).
 */
export const OPEN_ROW = 'null';

/** What a save writes for an open day: 'carry' (the periodic save) or 'full' (also its open events, for `events()`). */
type SaveMode = 'carry' | 'full';

interface Queued {
  readonly vehicleId: number;
  readonly day: number;
  /** Also recompute the next day when it has a row (its `previous` may have changed). */
  cascade: boolean;
  readonly waiters: (() => void)[];
}

/** Key of a (vehicle, day): ids stay far below 2^32, China day indices below 2^20 until year 4840. */
const keyOf = (vehicleId: number, day: number) => vehicleId * 1_048_576 + day;

export function dayPoint(r: PositionDbRow | PositionRow): DayPoint {
  if ('gps_time' in r) {
    return { t: r.gps_time, lng: r.lng, lat: r.lat, speed: r.speed, status: r.status, alarm: r.alarm, mileage: r.mileage, fuel: r.fuel, receivedAt: r.received_at };
  }
  return { t: Math.round(r.gpsTime), lng: r.lng, lat: r.lat, speed: r.speed, status: r.status, alarm: r.alarm, mileage: r.mileage, fuel: r.fuel ?? null, receivedAt: r.receivedAt };
}

export interface ReportEngineStats {
  pointsStepped: number;
  /** Points stepped at start from positions stored after a carry's last save. */
  pointsResumed: number;
  daysOpened: number;
  recomputes: number;
  saves: number;
  lastSaveMs: number;
  /** Open days dropped at a save because another node had saved the day further (the terminal moved: cluster-jobs.md). */
  handedOver: number;
}

export class SqliteReportEngine implements ReportEngine {
  readonly stats: ReportEngineStats = { pointsStepped: 0, pointsResumed: 0, daysOpened: 0, recomputes: 0, saves: 0, lastSaveMs: 0, handedOver: 0 };
  private readonly modules: AnyModule[] = [];
  private readonly index = new Map<string, number>();
  private readonly store: ReportEngineStore;
  private readonly clock: () => number;
  private readonly persistMs: number;
  private readonly closeAfterMs: number;
  /** Open days by key, and by vehicle (the reads overlay them). */
  private readonly entries = new Map<number, Entry>();
  private readonly byVehicle = new Map<number, Map<number, Entry>>();
  private readonly queue = new Map<number, Queued>();
  private draining: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private closed = false;

  constructor(private readonly options: ReportEngineOptions) {
    this.store = new ReportEngineStore(options.db);
    this.clock = options.clock;
    this.persistMs = options.persistMs ?? DEFAULT_PERSIST_MS;
    this.closeAfterMs = options.closeAfterMs ?? DEFAULT_CLOSE_AFTER_MS;
  }

  register(module: AnyModule): void {
    // The shipped list (modules.ts) and the report routes both name a module: the same object twice is one.
    if (this.modules[this.index.get(module.key) ?? -1] === module) return;
    if (this.started) throw new Error(`report engine: module '${module.key}' registered after the engine started`);
    if (this.index.has(module.key)) throw new Error(`report engine: module '${module.key}' registered twice`);
    this.index.set(module.key, this.modules.length);
    this.modules.push(module);
  }

  /** Heartbeat contact (seen.ts), when the app wired it (installReportEngine): the online reports lay it over the `device` rows. */
  seen: HeartbeatSeen | undefined;

  async seenSpans(vehicleIds: readonly number[], fromDay: number, toDay: number): Promise<Map<number, SeenSpan[]>> {
    return this.seen?.spans(vehicleIds, chinaDayStartMs(fromDay), chinaDayStartMs(toDay + 1)) ?? new Map();
  }

  get moduleKeys(): string[] {
    return this.modules.map((m) => m.key);
  }

  /** Open days held in memory (tests, bench). */
  get openDays(): number {
    return this.entries.size;
  }

  /**
   * Loads the open days' carries and queues what a crash may have left behind; starts the save timer.
   * Resolves once the loading is done (the recomputes it queued run on afterwards; `idle()` waits for them).
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const keys = this.moduleKeys;
    if (keys.length > 0) {
      const open = new Map<number, { vehicleId: number; day: number; lastT: number; carries: Map<string, unknown> }>();
      for (const r of this.store.openCarries()) {
        const k = keyOf(r.vehicle_id, r.day);
        let o = open.get(k);
        if (!o) open.set(k, (o = { vehicleId: r.vehicle_id, day: r.day, lastT: r.last_t ?? -Infinity, carries: new Map() }));
        o.carries.set(r.module, JSON.parse(r.carry));
        o.lastT = Math.max(o.lastT, r.last_t ?? -Infinity);
      }
      const now = this.clock();
      for (const [k, o] of open) {
        // A module registered since the carry was saved has none: the day is recomputed for it.
        if (keys.some((m) => !o.carries.has(m))) {
          this.enqueue(o.vehicleId, o.day, false);
          continue;
        }
        const entry: Entry = {
          vehicleId: o.vehicleId, day: o.day, carries: keys.map((m) => o.carries.get(m)), pending: keys.map(() => []),
          lastT: o.lastT, touched: now, dirty: false, openEventsSaved: false, openRowsSaved: true, stale: false,
        };
        this.put(k, entry);
        // Points stored after the last save (a crash): stepped from the index on, as live would have.
        this.resume(entry);
      }
      for (const s of this.store.staleDays()) this.enqueue(s.vehicle_id, s.day, true);
      // Points of a day that never got a row (a crash before its first save): each vehicle's newest day.
      for (const v of this.store.vehicleIds()) {
        const newest = this.store.newestTime(v, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
        if (newest === null) continue;
        const day = chinaDayIndex(newest);
        if (!this.entries.has(keyOf(v, day)) && !this.store.rowExists(keys[0]!, v, day)) this.enqueue(v, day, false);
      }
    }
    this.timer = setInterval(() => this.tick(), this.persistMs);
    this.timer.unref();
  }

  /**
   * Steps into a loaded carry the day's stored points after its last stepped GPS time. They are what the
   * live path would have stepped since the save, except a point stored later with exactly that last
   * time (counted at the day's next recompute).
   */
  private resume(e: Entry): void {
    const end = chinaDayStartMs(e.day) + DAY_MS;
    const from = Number.isFinite(e.lastT) ? e.lastT + 1 : chinaDayStartMs(e.day);
    const mods = this.modules;
    const events: DayEvent[] = [];
    let n = 0;
    for (const r of this.store.dayPositions(e.vehicleId, from, end)) {
      const p = dayPoint(r);
      for (let m = 0; m < mods.length; m++) {
        mods[m]!.step(e.carries[m], p, events);
        if (events.length > 0) {
          e.pending[m]!.push(...events);
          events.length = 0;
        }
      }
      e.lastT = p.t;
      n++;
    }
    if (n > 0) {
      e.dirty = true;
      e.openEventsSaved = false;
      this.stats.pointsResumed += n;
    }
  }

  /** Saves every open day, waits for queued recomputes, stops the timer. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.idle();
    this.save(() => true, 'full');
  }

  /** Resolves when no recompute is queued. */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** The history writer's `onCommitted`: folds a committed batch into the open days. Never throws. */
  ingest(rows: readonly PositionRow[]): void {
    if (this.modules.length === 0 || rows.length === 0) return;
    try {
      this.ingestSorted(sortBatch(rows));
    } catch (err) {
      this.options.log?.error({ err }, 'report engine: ingest failed');
    }
  }

  private ingestSorted(points: { vehicleId: number; p: DayPoint }[]): void {
    const now = this.clock();
    let i = 0;
    while (i < points.length) {
      const vehicleId = points[i]!.vehicleId;
      const day = chinaDayIndex(points[i]!.p.t);
      let j = i;
      while (j < points.length && points[j]!.vehicleId === vehicleId && chinaDayIndex(points[j]!.p.t) === day) j++;
      this.ingestDay(vehicleId, day, points, i, j, now);
      i = j;
    }
  }

  private ingestDay(vehicleId: number, day: number, points: { p: DayPoint }[], from: number, to: number, now: number): void {
    const k = keyOf(vehicleId, day);
    let e = this.entries.get(k);
    if (!e) {
      if (this.queue.has(k)) return; // its recompute will read these points
      if (this.store.rowExists(this.modules[0]!.key, vehicleId, day)) {
        // A day already closed (blind-area re-upload): recomputed from positions.
        this.store.markStale(this.moduleKeys, vehicleId, day);
        this.enqueue(vehicleId, day, true);
        return;
      }
      // Points of this day stored before this batch's first, and this engine has none of them: another node stepped
      // them (the terminal came over from another gateway before that node's first save). A fresh carry would leave
      // them out: the day is recomputed from the shared positions instead (it reads this batch too).
      if (this.store.newestTime(vehicleId, chinaDayStartMs(day), points[from]!.p.t) !== null) {
        this.enqueue(vehicleId, day, false);
        return;
      }
      e = this.open(vehicleId, day, now);
    }
    if (e.stale) return;
    const mods = this.modules;
    const events: DayEvent[] = [];
    let validSeen = false;
    for (let i = from; i < to; i++) {
      const p = points[i]!.p;
      if (p.t < e.lastT) {
        this.markStale(e);
        return;
      }
      for (let m = 0; m < mods.length; m++) {
        mods[m]!.step(e.carries[m], p, events);
        if (events.length > 0) {
          e.pending[m]!.push(...events);
          events.length = 0;
        }
      }
      e.lastT = p.t;
      if (!validSeen && isValidDayPoint(p)) validSeen = true;
    }
    this.stats.pointsStepped += to - from;
    e.dirty = true;
    e.openEventsSaved = false;
    e.touched = now;
    // A new valid point of a day followed by an open later day changes that day's `previous`.
    if (validSeen) {
      const next = this.entries.get(keyOf(vehicleId, day + 1));
      if (next && !next.stale) this.markStale(next);
    }
  }

  /** A new open day: context with the last valid point before it and the company's settings. */
  private open(vehicleId: number, day: number, now: number): Entry {
    const context = this.context(vehicleId, day);
    const e: Entry = {
      vehicleId, day, carries: this.modules.map((m) => m.start(context)), pending: this.modules.map(() => []),
      lastT: -Infinity, touched: now, dirty: true, openEventsSaved: false, openRowsSaved: false, stale: false,
    };
    this.put(keyOf(vehicleId, day), e);
    this.stats.daysOpened++;
    return e;
  }

  private context(vehicleId: number, day: number): DayContext {
    const dayStart = chinaDayStartMs(day);
    const row = this.store.previous(vehicleId, dayStart, (r) => isValidDayPoint(dayPoint(r)));
    const prev = row && dayPoint(row);
    return { vehicleId, day, dayStart, dayEnd: dayStart + DAY_MS, previous: prev, settings: this.store.vehicleSettings(vehicleId) };
  }

  private put(k: number, e: Entry): void {
    this.entries.set(k, e);
    let m = this.byVehicle.get(e.vehicleId);
    if (!m) this.byVehicle.set(e.vehicleId, (m = new Map()));
    m.set(e.day, e);
  }

  private drop(e: Entry): void {
    this.entries.delete(keyOf(e.vehicleId, e.day));
    const m = this.byVehicle.get(e.vehicleId);
    m?.delete(e.day);
    if (m && m.size === 0) this.byVehicle.delete(e.vehicleId);
  }

  private markStale(e: Entry): void {
    e.stale = true;
    this.store.markStale(this.moduleKeys, e.vehicleId, e.day);
    this.enqueue(e.vehicleId, e.day, true);
  }

  // ---- recompute -------------------------------------------------------------------------------

  recompute(vehicleId: number, day: number): Promise<void> {
    return new Promise((resolve) => this.enqueue(vehicleId, day, false, resolve));
  }

  private enqueue(vehicleId: number, day: number, cascade: boolean, waiter?: () => void): void {
    const k = keyOf(vehicleId, day);
    let q = this.queue.get(k);
    if (!q) this.queue.set(k, (q = { vehicleId, day, cascade, waiters: [] }));
    q.cascade ||= cascade;
    if (waiter) q.waiters.push(waiter);
    this.draining ??= this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.size > 0) {
        // One day per macrotask: the gateway's sockets and the history flushes run in between.
        await new Promise<void>((r) => setImmediate(r));
        if (this.options.db.inTransaction) continue; // as the history writer: wait for the request's transaction
        const [k, q] = this.queue.entries().next().value as [number, Queued];
        this.queue.delete(k);
        try {
          if (this.modules.length > 0) this.recomputeNow(q.vehicleId, q.day);
          if (q.cascade && this.modules.length > 0) {
            const next = keyOf(q.vehicleId, q.day + 1);
            if (!this.queue.has(next) && (this.entries.has(next) || this.store.rowExists(this.modules[0]!.key, q.vehicleId, q.day + 1))) {
              this.enqueue(q.vehicleId, q.day + 1, false);
            }
          }
        } catch (err) {
          this.options.log?.error({ err, vehicleId: q.vehicleId, day: q.day }, 'report engine: recompute failed');
        }
        for (const w of q.waiters) w();
      }
    } finally {
      this.draining = null;
    }
  }

  /** The day from its stored positions through the same modules; replaces the open carry or the closed row. */
  private recomputeNow(vehicleId: number, day: number): void {
    this.stats.recomputes++;
    const context = this.context(vehicleId, day);
    const mods = this.modules;
    const carries = mods.map((m) => m.start(context));
    const pending: DayEvent[][] = mods.map(() => []);
    let lastT = -Infinity;
    let count = 0;
    for (const r of this.store.dayPositions(vehicleId, context.dayStart, context.dayEnd)) {
      const p = dayPoint(r);
      for (let m = 0; m < mods.length; m++) mods[m]!.step(carries[m], p, pending[m]!);
      lastT = p.t;
      count++;
    }
    const now = this.clock();
    const k = keyOf(vehicleId, day);
    let e = this.entries.get(k);
    // A day without positions and without figures stays without a row.
    if (count === 0 && !e && !this.store.rowExists(mods[0]!.key, vehicleId, day)) return;
    const stillOpen = e !== undefined || day >= chinaDayIndex(now);
    if (!e) {
      e = { vehicleId, day, carries, pending, lastT, touched: now, dirty: true, openEventsSaved: false, openRowsSaved: false, stale: false };
      if (stillOpen) this.put(k, e);
    } else {
      Object.assign(e, { carries, pending, lastT, dirty: true, openEventsSaved: false, openRowsSaved: false, stale: false });
    }
    this.store.transaction(() => {
      this.store.deleteEvents(this.moduleKeys, vehicleId, day);
      // From the shared positions: as complete as any node's carry, so it is written whatever the row holds.
      this.saveEntry(e, !stillOpen, 'full', now, true);
    });
  }

  // ---- saving ----------------------------------------------------------------------------------

  /** What the timer does, now: saves dirty open days' carries and closes the quiet days that are over (tests, bench). */
  flushNow(): void {
    this.save((e) => e.dirty, 'carry');
  }

  private tick(): void {
    // A request holding the single connection's transaction across awaits: our writes would join it.
    if (this.options.db.inTransaction) return;
    try {
      this.save((e) => e.dirty, 'carry');
    } catch (err) {
      this.options.log?.error({ err }, 'report engine: save failed; retrying at the next interval');
    }
  }

  /**
   * Saves the matching open days and closes the days that are over and quiet, in one transaction. 'carry' (the
   * timer) writes a day only when points were stepped since its last save; 'full' (events(), shutdown) also one
   * whose open events are behind.
   */
  private save(which: (e: Entry) => boolean, mode: SaveMode): void {
    const started = performance.now();
    const now = this.clock();
    const today = chinaDayIndex(now);
    const closing: Entry[] = [];
    this.store.transaction(() => {
      for (const e of this.entries.values()) {
        if (e.stale) continue; // its recompute writes it
        const close = !this.closed && e.day < today && now - e.touched >= this.closeAfterMs;
        if (close || ((e.dirty || (mode === 'full' && !e.openEventsSaved)) && which(e))) {
          if (!this.saveEntry(e, close, mode, now)) {
            closing.push(e);
            this.stats.handedOver++;
          } else if (close) closing.push(e);
        }
      }
    });
    for (const e of closing) this.drop(e);
    this.stats.saves++;
    this.stats.lastSaveMs = performance.now() - started;
  }

  /**
   * Writes one day inside a transaction: the events `step` pushed since the last save (final), and
   * - final (the day closed): each module's row, carry NULL, the events `finish` pushes as final;
   * - open, 'carry': each module's carry and `last_t` only (row OPEN_ROW): the day's figures are `finish(carry)`, in
   *   memory now and after a restart from the loaded carry, so the periodic save neither finishes nor serialises rows;
   * - open, 'full': the same plus its open events (rewritten), which `events()` reads from the table.
   */
  private saveEntry(e: Entry, final: boolean, mode: SaveMode, now: number, force = false): boolean {
    const mods = this.modules;
    const lastT = Number.isFinite(e.lastT) ? e.lastT : null;
    // Cluster (issue 20): another node saved this day further than this carry got (the vehicle's terminal moved to its
    // gateway, which recomputed the day from the shared positions). Writing would put back an older carry, add events
    // that node's recompute already wrote, or close the day with part of its points: this node lets the day go.
    // The row stays locked to the end of the transaction, so two savers never interleave.
    if (!force) {
      const held = this.store.heldLastT(mods[0]!.key, e.vehicleId, e.day);
      if (held !== undefined && held !== null && (lastT === null || held > lastT)) return false;
    }
    const writeOpen = final || mode === 'full';
    for (let m = 0; m < mods.length; m++) {
      const key = mods[m]!.key;
      const open: DayEvent[] = [];
      if (final) this.store.putRow(key, e.vehicleId, e.day, JSON.stringify(mods[m]!.finish(e.carries[m], open)), null, lastT, now);
      else {
        if (writeOpen) mods[m]!.finish(e.carries[m], open);
        // Most saves: the open day's rows exist (and are not stale: a stale day is not saved), one UPDATE of the carry.
        const carry = JSON.stringify(e.carries[m]);
        if (!e.openRowsSaved || !this.store.putCarry(key, e.vehicleId, e.day, carry, lastT, now)) this.store.putRow(key, e.vehicleId, e.day, OPEN_ROW, carry, lastT, now);
      }
      for (const ev of e.pending[m]!) this.store.insertEvent(key, e.vehicleId, e.day, ev, false);
      e.pending[m] = [];
      if (writeOpen) {
        this.store.deleteOpenEvents(key, e.vehicleId, e.day);
        for (const ev of open) this.store.insertEvent(key, e.vehicleId, e.day, ev, !final);
      }
    }
    e.dirty = false;
    e.openRowsSaved = !final;
    if (writeOpen) e.openEventsSaved = true;
    return true;
  }

  // ---- reads -----------------------------------------------------------------------------------

  private moduleIndex(moduleKey: string): number {
    const m = this.index.get(moduleKey);
    if (m === undefined) throw new Error(`report engine: no module '${moduleKey}'`);
    return m;
  }

  async days<Row>(moduleKey: string, vehicleIds: readonly number[], fromDay: number, toDay: number): Promise<Map<number, { day: number; row: Row }[]>> {
    const m = this.moduleIndex(moduleKey);
    const out = new Map<number, { day: number; row: Row }[]>();
    for (const v of vehicleIds) {
      if (out.has(v)) continue;
      const open = this.byVehicle.get(v);
      const list: { day: number; row: Row }[] = [];
      for (const r of this.store.rows(moduleKey, v, fromDay, toDay)) {
        if (open?.has(r.day)) continue;
        if (r.row === OPEN_ROW) {
          // An open day this engine does not hold: another node's (issue 20: the gateway that has the vehicle's terminal),
          // or one queued here for recompute. Its figures as of that carry's last save (at most persistMs behind).
          if (r.carry !== null) list.push({ day: r.day, row: this.modules[m]!.finish(JSON.parse(r.carry), []) as Row });
          continue;
        }
        list.push({ day: r.day, row: JSON.parse(r.row) as Row });
      }
      if (open) {
        // Open days answer from the carry: today's figures up to the last stored batch.
        let added = false;
        for (const e of open.values()) {
          if (e.day < fromDay || e.day > toDay) continue;
          list.push({ day: e.day, row: this.modules[m]!.finish(e.carries[m], []) as Row });
          added = true;
        }
        if (added) list.sort((a, b) => a.day - b.day);
      }
      out.set(v, list);
    }
    return out;
  }

  async events(moduleKey: string, vehicleIds: readonly number[], fromDay: number, toDay: number, kind?: string): Promise<{ vehicleId: number; day: number; event: DayEvent }[]> {
    this.moduleIndex(moduleKey);
    const ids = [...new Set(vehicleIds)].sort((a, b) => a - b);
    // Open days of these vehicles are saved first, so their events (final and still open) are in the table.
    const wanted = new Set(ids);
    const touched = ids.some((v) => this.byVehicle.has(v));
    if (touched && !this.options.db.inTransaction) this.save((e) => wanted.has(e.vehicleId), 'full');
    const out: { vehicleId: number; day: number; event: DayEvent }[] = [];
    for (const v of ids) {
      for (const r of this.store.events(moduleKey, v, fromDay, toDay, kind)) {
        out.push({ vehicleId: v, day: r.day, event: { kind: r.kind, start: r.start_time, end: r.end_time, lng: r.lng, lat: r.lat, value: JSON.parse(r.value) as Record<string, number> } });
      }
    }
    return out;
  }

  async settings(companyId: number): Promise<Record<string, number>> {
    return this.store.settings(companyId);
  }

  /** Sets (or with null removes) a company's thresholds; recomputes nothing (see `recompute`). */
  async setSettings(companyId: number, values: Readonly<Record<string, number | null>>): Promise<void> {
    this.store.putSettings(companyId, values);
  }

  /** Retention: rows and events of days before `firstKeptDay`, per module and vehicle in bounded steps. */
  async deleteBefore(firstKeptDay: number, halted: () => boolean = () => false): Promise<{ reportEngineDays: number; reportEngineEvents: number }> {
    const r = { reportEngineDays: 0, reportEngineEvents: 0 };
    for (let mod = this.store.nextModule(''); mod !== undefined && !halted(); mod = this.store.nextModule(mod)) {
      for (let v = this.store.nextVehicle(mod, -1); v !== undefined && !halted(); v = this.store.nextVehicle(mod, v)) {
        const d = this.store.deleteBefore(mod, v, firstKeptDay);
        r.reportEngineDays += d.days;
        r.reportEngineEvents += d.events;
        await new Promise<void>((res) => setImmediate(res));
      }
    }
    return r;
  }
}

/**
 * A batch as (vehicle, point), by vehicle then GPS time; equal times keep arrival (row id) order. A batch is
 * time-major (reports of many vehicles as they arrive), so each vehicle's rows are grouped in arrival order and
 * sorted (stable) only when a vehicle's own rows came out of GPS order: no comparison sort of the whole batch.
 */
function sortBatch(rows: readonly PositionRow[]): { vehicleId: number; p: DayPoint }[] {
  const groups = new Map<number, DayPoint[]>();
  for (const r of rows) {
    const list = groups.get(r.vehicleId);
    if (list) list.push(dayPoint(r));
    else groups.set(r.vehicleId, [dayPoint(r)]);
  }
  const out: { vehicleId: number; p: DayPoint }[] = [];
  for (const vehicleId of [...groups.keys()].sort((a, b) => a - b)) {
    const list = groups.get(vehicleId)!;
    for (let i = 1; i < list.length; i++) {
      if (list[i]!.t < list[i - 1]!.t) {
        list.sort((a, b) => a.t - b.t); // stable: equal GPS times keep arrival order
        break;
      }
    }
    for (const p of list) out.push({ vehicleId, p });
  }
  return out;
}
