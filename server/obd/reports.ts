/**
 * The OBD/CAN report calls over the CAN history (issue 17; contract: server/services/box-status/api.md
 * "OBD/CAN history"): one vehicle's readings over a time range, counts per vehicle and day, a
 * vehicle's summary and chart series, the terminal's hardware state, the latest CAN values and the
 * paged readings of a fleet. Every vehicle is checked against the caller's subtree (404 / scoped
 * lists); a range is at most OBD_RANGE_MAX_DAYS, its end after its start (400 naming the field).
 */
import { Type } from '@fastify/type-provider-typebox';
import { alarmName } from '../../domain/alarms/catalogue.ts';
import { ALARM_FLAGS } from '../../domain/alarms/sources.ts';
import { chinaDate, isOffline } from '../../domain/track/days.ts';
import type { CanProtocol } from '../../domain/obd/can.ts';
import type { Storage } from '../db/repositories.ts';
import { scopeCondition, type Scope } from '../db/scope.ts';
import type { SqliteDb } from '../db/sqlite.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { auth, narrowedScope } from '../http/auth.ts';
import { AppError, fail, ok } from '../http/envelope.ts';
import { ErrorCode } from '../../domain/errors/catalogue.ts';
import { requestLang } from '../http/lang.ts';
import type { Message } from '../http/messages.ts';
import { EpochMs, Id, PageFields, Strict, type App } from '../http/route.ts';
import type { LiveRuntime } from '../live/runtime.ts';
import { SafeMessages } from '../services/safe/messages.ts';
import { OBD_HISTORY_COLUMNS, type ObdHistory } from './history.ts';
import type { ObdStore } from './index.ts';

export const OBD_REPORT = '/shellProject/obdReport';
export const CAN_REPORT = '/shellProject/obdReport-new';
/** The longest range one call reads (a month of 30 s uploads is ≈ 90,000 rows of one vehicle). */
export const OBD_RANGE_MAX_DAYS = 31;
/** Points of a chart series at most (evenly thinned). */
export const SERIES_MAX_POINTS = 500;
/** Vehicles of one latest-values call. */
const CAN_VEHICLES_MAX = 500;

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const ObdMessages = {
  rangeOrder: pair('endTime：结束时间须晚于开始时间', 'endTime: the end must be after the start'),
  rangeTooLong: pair(`endTime：时间范围不能超过 ${OBD_RANGE_MAX_DAYS} 天`, `endTime: the range must not exceed ${OBD_RANGE_MAX_DAYS} days`),
} as const;

export const ObdRange = { startTime: EpochMs, endTime: EpochMs };
const Protocol = Type.Union([Type.Literal('obd2'), Type.Literal('j1939')]);

export function checkRange(startTime: number, endTime: number): void {
  if (endTime <= startTime) throw new AppError(ErrorCode.BadRequest, ObdMessages.rangeOrder, null, { endTime: { code: 'rule' } });
  if (endTime - startTime > OBD_RANGE_MAX_DAYS * 86_400_000) throw new AppError(ErrorCode.BadRequest, ObdMessages.rangeTooLong, null, { endTime: { code: 'rule' } });
}

/** Readings of vehicles in [start, end), newest first, paged. */
export function obdDetailPage(db: SqliteDb, q: { vehicleIds: readonly number[] | null; scope?: Scope; start: number; end: number; protocol?: CanProtocol; current: number; size: number }) {
  const where: string[] = ['h.time >= ?', 'h.time < ?'];
  const params: (string | number)[] = [q.start, q.end];
  if (q.vehicleIds) {
    where.push(`h.vehicle_id IN (${q.vehicleIds.map(() => '?').join(',') || 'NULL'})`);
    params.push(...q.vehicleIds);
  }
  if (q.protocol) {
    where.push('h.protocol = ?');
    params.push(q.protocol);
  }
  let join = '';
  if (q.scope) {
    const cond = scopeCondition(q.scope, 'c');
    join = 'JOIN vehicle v ON v.id = h.vehicle_id JOIN company c ON c.id = v.company_id';
    where.push(cond.sql);
    params.push(...cond.params);
  }
  const sql = `FROM obd_history h ${join} WHERE ${where.join(' AND ')}`;
  const total = (db.prepare(`SELECT count(*) AS n ${sql}`).get(...params) as { n: number }).n;
  const records = db.prepare(`SELECT ${OBD_HISTORY_COLUMNS.replace(/(^|,\s*)(\w+)/g, '$1h.$2')}, (SELECT vehiidno FROM vehicle WHERE id = h.vehicle_id) AS vehiidno
    ${sql} ORDER BY h.time DESC LIMIT ? OFFSET ?`).all(...params, q.size, (q.current - 1) * q.size);
  return { total, current: q.current, size: q.size, records };
}

export function obdReportRoutes(app: App, deps: { storage: Storage; store: ObdStore; history: ObdHistory; live?: LiveRuntime }): void {
  const { storage, store, history } = deps;
  const db = (storage as SqliteStorage).db;

  async function vehicleIn(scope: Scope, vehicleId: number) {
    const v = await storage.fleet.getVehicle(scope, vehicleId);
    if (!v) throw fail.notFound(SafeMessages.vehicleNotFound);
    return v;
  }

  app.get('/service-monitor/obd/detailCount', {
    config: { permission: OBD_REPORT },
    schema: { querystring: Strict({ ...ObdRange, vehicleId: Type.Optional(Id) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    checkRange(q.startTime, q.endTime);
    const scope = await narrowedScope(storage, ctx, q.companyId);
    if (q.vehicleId !== undefined) await vehicleIn(scope, q.vehicleId);
    await history.flush();
    const cond = scopeCondition(scope, 'c');
    // China days (GMT+8): the day of `time + 8 h` in UTC.
    const rows = db.prepare(`SELECT h.vehicle_id AS vehicleId, v.vehiidno, date((h.time + 28800000) / 1000, 'unixepoch') AS day, count(*) AS count,
        sum(h.protocol = 'j1939') AS j1939, sum(h.protocol = 'obd2') AS obd2
      FROM obd_history h JOIN vehicle v ON v.id = h.vehicle_id JOIN company c ON c.id = v.company_id
      WHERE h.time >= ? AND h.time < ? AND ${cond.sql} ${q.vehicleId !== undefined ? 'AND h.vehicle_id = ?' : ''}
      GROUP BY h.vehicle_id, v.vehiidno, day ORDER BY day, v.vehiidno LIMIT 20000`)
      .all(q.startTime, q.endTime, ...cond.params, ...(q.vehicleId !== undefined ? [q.vehicleId] : []));
    return ok(rows, requestLang(request));
  });

  app.get('/service-qpshell/monitor/getObdHistoryInfo', {
    config: { permission: OBD_REPORT },
    schema: { querystring: Strict({ ...ObdRange, vehicleId: Id, protocol: Type.Optional(Protocol) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    checkRange(q.startTime, q.endTime);
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const v = await vehicleIn(scope, q.vehicleId);
    await history.flush();
    const rows = db.prepare(`SELECT ${OBD_HISTORY_COLUMNS} FROM obd_history WHERE vehicle_id = ? AND time >= ? AND time < ? ${q.protocol ? 'AND protocol = ?' : ''} ORDER BY time`)
      .all(q.vehicleId, q.startTime, q.endTime, ...(q.protocol ? [q.protocol] : [])) as Record<string, number | null>[];
    const values = (k: string) => rows.map((r) => r[k]).filter((x): x is number => x !== null && x !== undefined);
    const max = (k: string) => (values(k).length ? Math.max(...values(k)) : null);
    const avg = (k: string) => (values(k).length ? Math.round((values(k).reduce((a, b) => a + b, 0) / values(k).length) * 10) / 10 : null);
    const span = (k: string) => (values(k).length > 1 ? Math.round((values(k).at(-1)! - values(k)[0]!) * 10) / 10 : null);
    const step = Math.max(1, Math.ceil(rows.length / SERIES_MAX_POINTS));
    return ok({
      vehicleId: q.vehicleId, vehiidno: v.vehiidno, count: rows.length,
      first: rows[0]?.time ?? null, last: rows.at(-1)?.time ?? null,
      summary: {
        maxEngineRpm: max('engineRpm'), avgEngineRpm: avg('engineRpm'), maxCoolantC: max('coolantC'), avgCoolantC: avg('coolantC'),
        maxSpeedKmh: max('speedKmh'), avgEngineLoadPct: avg('engineLoadPct'),
        // Level at the end minus at the start: negative when fuel was used, positive after filling up.
        fuelChangePct: span('fuelPct'), engineHours: span('engineHours'), distanceKm: span('mileageKm'),
      },
      series: rows.filter((_, i) => i % step === 0 || i === rows.length - 1),
    }, requestLang(request));
  });

  app.post('/service-qpshell/obd/page', {
    config: { permission: OBD_REPORT, audit: false },
    schema: { body: Strict({ ...PageFields, ...ObdRange, vehicleId: Type.Optional(Id), protocol: Type.Optional(Protocol) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    checkRange(b.startTime, b.endTime);
    const scope = await narrowedScope(storage, ctx, b.companyId);
    if (b.vehicleId !== undefined) await vehicleIn(scope, b.vehicleId);
    await history.flush();
    return ok(obdDetailPage(db, {
      vehicleIds: b.vehicleId !== undefined ? [b.vehicleId] : null, scope, start: b.startTime, end: b.endTime, protocol: b.protocol, current: b.current, size: b.size,
    }), requestLang(request));
  });

  app.get('/service-qpshell/huanghe/getCanData', {
    config: { permission: CAN_REPORT },
    schema: { querystring: Strict({ vehicleId: Type.Optional(Type.Union([Id, Type.Array(Id, { minItems: 1, maxItems: CAN_VEHICLES_MAX })])) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const cond = scopeCondition(scope, 'c');
    const ids = q.vehicleId === undefined ? null : Array.isArray(q.vehicleId) ? q.vehicleId : [q.vehicleId];
    const vehicles = db.prepare(`SELECT v.id, v.vehiidno FROM vehicle v JOIN company c ON c.id = v.company_id WHERE ${cond.sql}
      ${ids ? `AND v.id IN (${ids.map(() => '?').join(',')})` : ''} ORDER BY v.vehiidno`).all(...cond.params, ...(ids ?? [])) as { id: number; vehiidno: string }[];
    if (ids && vehicles.length < ids.length) throw fail.notFound(SafeMessages.vehicleNotFound);
    const rows = vehicles.flatMap((v) => {
      const latest = store.of(v.id);
      if (!latest.j1939 && !latest.obd2) return [];
      return [{ vehicleId: v.id, vehiidno: v.vehiidno, j1939: latest.j1939 ?? null, obd2: latest.obd2 ?? null }];
    });
    return ok(rows, requestLang(request));
  });

  app.get('/service-qpshell/monitor/getHardwareStatus', {
    config: { permission: OBD_REPORT },
    schema: { querystring: Strict({ vehicleId: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const lang = requestLang(request);
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const v = await vehicleIn(scope, q.vehicleId);
    const live = deps.live?.store;
    const slot = live ? live.slotOf(q.vehicleId) : -1;
    const flags = slot < 0 ? 0 : live!.columns.alarmFlags[slot]!;
    const contact = slot < 0 ? NaN : live!.columns.lastContact[slot]!;
    // The terminal's own fault bits (0x0200 alarm word, group 15: GNSS, antenna, power, display, TTS, camera, IC card, VSS).
    const faults = ALARM_FLAGS.filter((f) => Math.floor(f.code / 1000) === 15).map((f) => ({
      bit: f.bit, code: f.code, name: alarmName(f.code, lang), fault: ((flags >>> f.bit) & 1) === 1,
    }));
    // The latest 0x0107 attributes a 0x8107 query got back (terminal parameters' command records).
    const attr = db.prepare("SELECT answer, answer_time AS time FROM command_record WHERE vehicle_id = ? AND msg_id = ? AND state = 'ok' ORDER BY id DESC LIMIT 1")
      .get(q.vehicleId, 0x8107) as { answer: string | null; time: number } | undefined;
    const can = store.of(q.vehicleId);
    const canTime = Math.max(can.j1939?.time ?? -Infinity, can.obd2?.time ?? -Infinity);
    return ok({
      vehicleId: q.vehicleId, vehiidno: v.vehiidno,
      online: Number.isFinite(contact) && !isOffline(contact, live!.clock()),
      lastContact: Number.isFinite(contact) ? contact : null,
      faults, faultCount: faults.filter((f) => f.fault).length,
      attributes: attr?.answer ? { ...JSON.parse(attr.answer), time: attr.time } : null,
      canBus: { reporting: Number.isFinite(canTime), lastTime: Number.isFinite(canTime) ? canTime : null, day: Number.isFinite(canTime) ? chinaDate(canTime) : null },
    }, lang);
  });
}
