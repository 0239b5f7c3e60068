/**
 * The report engine's SQL (tables of migration 37, server/db/migration-report-engine.ts). Synchronous
 * better-sqlite3 statements, prepared once: the engine runs them on the main thread between batches.
 */
import type { DayEvent } from '../../../domain/report-day/module.ts';
import type { Statement } from 'better-sqlite3';
import type { SqliteDb } from '../../db/sqlite.ts';

/** The columns of `positions` the day modules read. */
export interface PositionDbRow {
  gps_time: number; lng: number; lat: number; speed: number; status: number; alarm: number;
  mileage: number | null; fuel: number | null; received_at: number;
}

const POINT_COLUMNS = 'gps_time, lng, lat, speed, status, alarm, mileage, fuel, received_at';
/** Rows looked at, newest first, for the last valid point before a day (a bounded walk back). */
export const PREVIOUS_LOOKBACK = 256;

type Stmt = Statement<unknown[]>;

export class ReportEngineStore {
  private readonly s: Record<string, Stmt> = {};

  constructor(private readonly db: SqliteDb) {}

  private stmt(name: string, sql: string): Stmt {
    return (this.s[name] ??= this.db.prepare(sql));
  }

  transaction(fn: () => void): void {
    // Nested inside another transaction (a request's), run inline: better-sqlite3 would use a savepoint anyway.
    this.db.transaction(fn)();
  }

  dayPositions(vehicleId: number, from: number, to: number): Iterable<PositionDbRow> {
    // (vehicle_id, gps_time) index; the row id breaks ties in arrival order, as the live path does.
    return this.stmt('day', `SELECT ${POINT_COLUMNS} FROM positions WHERE vehicle_id = ? AND gps_time >= ? AND gps_time < ? ORDER BY gps_time, rowid`)
      .iterate(vehicleId, from, to) as Iterable<PositionDbRow>;
  }

  /** The newest row before `before` that `valid` accepts, walking back at most PREVIOUS_LOOKBACK rows. */
  previous(vehicleId: number, before: number, valid: (r: PositionDbRow) => boolean): PositionDbRow | null {
    const it = this.stmt('prev', `SELECT ${POINT_COLUMNS} FROM positions WHERE vehicle_id = ? AND gps_time < ? ORDER BY gps_time DESC, rowid DESC LIMIT ${PREVIOUS_LOOKBACK}`)
      .iterate(vehicleId, before) as IterableIterator<PositionDbRow>;
    for (const r of it) {
      if (valid(r)) {
        it.return?.();
        return r;
      }
    }
    return null;
  }

  newestTime(vehicleId: number, from: number, to: number): number | null {
    const r = this.stmt('newest', 'SELECT MAX(gps_time) AS t FROM positions WHERE vehicle_id = ? AND gps_time >= ? AND gps_time < ?').get(vehicleId, from, to) as { t: number | null };
    return r.t;
  }

  vehicleIds(): number[] {
    return (this.stmt('vehicles', 'SELECT id FROM vehicle ORDER BY id').all() as { id: number }[]).map((r) => r.id);
  }

  rowExists(module: string, vehicleId: number, day: number): boolean {
    return this.stmt('exists', 'SELECT 1 FROM report_day WHERE module = ? AND vehicle_id = ? AND day = ?').get(module, vehicleId, day) !== undefined;
  }

  openCarries(): { module: string; vehicle_id: number; day: number; carry: string; last_t: number | null }[] {
    return this.stmt('open', 'SELECT module, vehicle_id, day, carry, last_t FROM report_day WHERE carry IS NOT NULL').all() as never;
  }

  staleDays(): { vehicle_id: number; day: number }[] {
    return this.stmt('stale', 'SELECT DISTINCT vehicle_id, day FROM report_day WHERE stale = 1').all() as never;
  }

  markStale(modules: readonly string[], vehicleId: number, day: number): void {
    const mark = this.stmt('markStale', 'UPDATE report_day SET stale = 1 WHERE module = ? AND vehicle_id = ? AND day = ?');
    for (const m of modules) mark.run(m, vehicleId, day);
  }

  putRow(module: string, vehicleId: number, day: number, row: string, carry: string | null, lastT: number | null, now: number): void {
    this.stmt('put', `INSERT INTO report_day (module, vehicle_id, day, row, carry, last_t, updated_time, stale) VALUES (?, ?, ?, ?, ?, ?, ?, 0)
                      ON CONFLICT (module, vehicle_id, day) DO UPDATE SET row = excluded.row, carry = excluded.carry, last_t = excluded.last_t,
                      updated_time = excluded.updated_time, stale = 0`)
      .run(module, vehicleId, day, row, carry, lastT, now);
  }

  /**
   * Locks a day's row for the rest of the transaction (a concurrent saver on another node waits) and answers its stored
   * `last_t`: undefined without a row, null for a day without points.
   */
  heldLastT(module: string, vehicleId: number, day: number): number | null | undefined {
    const r = this.stmt('held', 'UPDATE report_day SET stale = stale WHERE module = ? AND vehicle_id = ? AND day = ? RETURNING last_t')
      .get(module, vehicleId, day) as { last_t: number | null } | undefined;
    return r === undefined ? undefined : r.last_t;
  }

  /** An open day's carry when its row is already written (`putRow`); false when there was no row to update. */
  putCarry(module: string, vehicleId: number, day: number, carry: string, lastT: number | null, now: number): boolean {
    return this.stmt('putCarry', 'UPDATE report_day SET carry = ?, last_t = ?, updated_time = ? WHERE module = ? AND vehicle_id = ? AND day = ?')
      .run(carry, lastT, now, module, vehicleId, day).changes > 0;
  }

  rows(module: string, vehicleId: number, fromDay: number, toDay: number): { day: number; row: string; carry: string | null }[] {
    return this.stmt('rows', 'SELECT day, row, carry FROM report_day WHERE module = ? AND vehicle_id = ? AND day >= ? AND day <= ? ORDER BY day')
      .all(module, vehicleId, fromDay, toDay) as never;
  }

  insertEvent(module: string, vehicleId: number, day: number, e: DayEvent, open: boolean): void {
    this.stmt('event', 'INSERT INTO report_event (module, vehicle_id, day, kind, start_time, end_time, lng, lat, value, open) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(module, vehicleId, day, e.kind, Math.round(e.start), Math.round(e.end), e.lng, e.lat, JSON.stringify(e.value), open ? 1 : 0);
  }

  deleteOpenEvents(module: string, vehicleId: number, day: number): void {
    this.stmt('delOpen', 'DELETE FROM report_event WHERE module = ? AND vehicle_id = ? AND day = ? AND open = 1').run(module, vehicleId, day);
  }

  deleteEvents(modules: readonly string[], vehicleId: number, day: number): void {
    const del = this.stmt('delEvents', 'DELETE FROM report_event WHERE module = ? AND vehicle_id = ? AND day = ?');
    for (const m of modules) del.run(m, vehicleId, day);
  }

  events(module: string, vehicleId: number, fromDay: number, toDay: number, kind: string | undefined): {
    day: number; kind: string; start_time: number; end_time: number; lng: number; lat: number; value: string;
  }[] {
    const cols = 'day, kind, start_time, end_time, lng, lat, value';
    if (kind === undefined) {
      return this.stmt('events', `SELECT ${cols} FROM report_event WHERE module = ? AND vehicle_id = ? AND day >= ? AND day <= ? ORDER BY start_time, rowid`)
        .all(module, vehicleId, fromDay, toDay) as never;
    }
    return this.stmt('eventsKind', `SELECT ${cols} FROM report_event WHERE module = ? AND vehicle_id = ? AND day >= ? AND day <= ? AND kind = ? ORDER BY start_time, rowid`)
      .all(module, vehicleId, fromDay, toDay, kind) as never;
  }

  /** The thresholds of the vehicle's company (the context of a day being opened). */
  vehicleSettings(vehicleId: number): Record<string, number> {
    const rows = this.stmt('vsettings', 'SELECT s.key, s.value FROM vehicle v JOIN report_setting s ON s.company_id = v.company_id WHERE v.id = ?')
      .all(vehicleId) as { key: string; value: number }[];
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  settings(companyId: number): Record<string, number> {
    const rows = this.stmt('settings', 'SELECT key, value FROM report_setting WHERE company_id = ?').all(companyId) as { key: string; value: number }[];
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  putSettings(companyId: number, values: Readonly<Record<string, number | null>>): void {
    const put = this.stmt('putSetting', 'INSERT INTO report_setting (company_id, key, value) VALUES (?, ?, ?) ON CONFLICT (company_id, key) DO UPDATE SET value = excluded.value');
    const del = this.stmt('delSetting', 'DELETE FROM report_setting WHERE company_id = ? AND key = ?');
    this.transaction(() => {
      for (const [k, v] of Object.entries(values)) {
        if (v === null) del.run(companyId, k);
        else put.run(companyId, k, v);
      }
    });
  }

  nextModule(after: string): string | undefined {
    return (this.stmt('nextModule', 'SELECT module FROM report_day WHERE module > ? ORDER BY module LIMIT 1').get(after) as { module: string } | undefined)?.module;
  }

  nextVehicle(module: string, after: number): number | undefined {
    return (this.stmt('nextVehicle', 'SELECT vehicle_id FROM report_day WHERE module = ? AND vehicle_id > ? ORDER BY vehicle_id LIMIT 1').get(module, after) as { vehicle_id: number } | undefined)?.vehicle_id;
  }

  deleteBefore(module: string, vehicleId: number, firstKeptDay: number): { days: number; events: number } {
    let days = 0;
    let events = 0;
    this.transaction(() => {
      days = this.stmt('delDays', 'DELETE FROM report_day WHERE module = ? AND vehicle_id = ? AND day < ?').run(module, vehicleId, firstKeptDay).changes;
      events = this.stmt('delEventsBefore', 'DELETE FROM report_event WHERE module = ? AND vehicle_id = ? AND day < ?').run(module, vehicleId, firstKeptDay).changes;
    });
    return { days, events };
  }
}
