/**
 * Ops check (issue 19, /operation/operationManagement/opsCheckReport and opsCheckSetting; contract: ./api.md,
 * design: ./CONTEXT.md). KPI targets per company, the monthly KPIs measured from stored rows (the
 * positioning day rollup `report_vehicle_day` through the reports' ReportEngine, and the `alarm` table with
 * its handling times), auditors' corrections, the monthly analysis report and the insurer's per-vehicle
 * report as self-contained HTML files. The arithmetic is domain/ops-check/kpi.ts.
 *
 * An open month (the current one, and a closed one within FREEZE_GRACE_DAYS of its end, while blind-area
 * resends may still land in it) is recomputed on demand (kept OPS_MEMO_MS per company); after the grace a
 * month is computed once more and frozen in `ops_kpi`. Writes carry their target as `id` so the audit hook names it.
 */
import { Type } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import {
  checkTargets, DEFAULT_TARGETS, freezesAt, isFinal, KPI_CODES, KPI_DEFS, measure, monthDays, monthOfDay, scorecard, valueMax,
  type AlarmInput, type KpiCode, type KpiTarget,
} from '../../../domain/ops-check/kpi.ts';
import { handledSql, populationSql } from '../../../domain/alarms/handling.ts';
import { sumMetrics, type DayMetrics } from '../../../domain/track/daily-metrics.ts';
import { vehicleDayOnlineRate } from '../../../domain/track/online-rate.ts';
import { chinaDayIndex, chinaDayStartMs } from '../../../domain/track/days.ts';
import { retentionCutoffs } from '../../../domain/retention/policy.ts';
import type { Config } from '../../config.ts';
import type { Storage } from '../../db/repositories.ts';
import { pathRange, scopeCondition, type Scope } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { badField, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, Name, PageFields, Strict, type App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import { retentionPolicy } from '../../retention/index.ts';
import { sharedReportEngine } from '../reports/shared-engine.ts';
import { analyseHtml, insureHtml, type InsureRow } from './html.ts';

export const REPORT_PAGE = '/operation/operationManagement/opsCheckReport';
export const SETTING_PAGE = '/operation/operationManagement/opsCheckSetting';
/** The current month's KPIs are reused this long (paging, the report, a download right after). */
export const OPS_MEMO_MS = 60_000;
/** How far back a month may be asked for (the positioning rollup's retention, REPORT_RETENTION_DAYS 1,095). */
export const MONTHS_BACK = 36;

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const OpsMessages = {
  futureMonth: pair('不能查询未来的月份', 'A month in the future has no data yet'),
  tooOld: pair(`只能查询最近 ${MONTHS_BACK} 个月`, `Only the last ${MONTHS_BACK} months can be shown`),
  kpiNotFound: pair('考核指标记录不存在', 'No such KPI record'),
  companyNotFound: pair('公司不存在或不在您的管辖范围内', 'No such company in your scope'),
  reasonRequired: pair('请填写修正原因', 'Give the reason for the correction'),
} as const;

const Month = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$' });
const Item = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 40 }),
  target: Type.Number({ minimum: -1e6, maximum: 1e6 }),
  weight: Type.Number({ minimum: -1000, maximum: 1000 }),
}, { additionalProperties: false });

interface CompanyRow { id: number; name: string; path: string }
interface KpiRow {
  id: number; company_id: number; month: string; code: string; measured: number | null; target: number; weight: number; corrected: number | null;
  reason: string; corrected_by: string; corrected_time: number | null; frozen: number; computed_time: number;
}

/** Per vehicle of a company's subtree over a month: what the insurer's report lists. */
interface VehicleMonth { vehicleId: number; days: DayMetrics[] }

export interface OpsCheckDeps {
  readonly storage: Storage;
  readonly config: Config;
  readonly live: LiveRuntime;
}

export function opsCheckRoutes(app: App, deps: OpsCheckDeps): void {
  const { storage } = deps;
  const db = (storage as SqliteStorage).db;
  const clock = deps.live.store.clock;
  const keptFrom = () => retentionCutoffs(clock(), retentionPolicy(deps.config)).positionDay ?? -Infinity;
  // The app's one engine (../reports/shared-engine.ts): the vehicle-days another screen computed are not redone here.
  const engine = sharedReportEngine(storage, clock, keptFrom);
  /** key → the measurement (its promise while it runs, so concurrent lists of one company compute once). */
  const memo = new Map<string, { at: number; value: Promise<unknown> }>();

  /** `hit`: the value was already there (computed or running) and younger than OPS_MEMO_MS. */
  async function remembered<T>(key: string, make: () => Promise<T>): Promise<{ value: T; hit: boolean }> {
    const had = memo.get(key);
    const now = clock();
    if (had && now - had.at < OPS_MEMO_MS) return { value: (await had.value) as T, hit: true };
    const value = make();
    memo.set(key, { at: now, value });
    // A failed measurement is not remembered: the next call tries again.
    value.catch(() => { if (memo.get(key)?.value === value) memo.delete(key); });
    if (memo.size > 256) memo.delete(memo.keys().next().value!);
    return { value: await value, hit: false };
  }

  function companiesIn(scope: Scope): CompanyRow[] {
    const cond = scopeCondition(scope, 'c');
    return db.prepare(`SELECT c.id, c.name, c.path FROM company c WHERE ${cond.sql} ORDER BY c.path`).all(...cond.params) as CompanyRow[];
  }

  function companyIn(scope: Scope, id: number): CompanyRow {
    const cond = scopeCondition(scope, 'c');
    const row = db.prepare(`SELECT c.id, c.name, c.path FROM company c WHERE c.id = ? AND ${cond.sql}`).get(id, ...cond.params) as CompanyRow | undefined;
    if (!row) throw fail.notFound(OpsMessages.companyNotFound);
    return row;
  }

  /** The targets in force for a company: its own setting, else its nearest ancestor's, else the defaults. */
  function targetsOf(company: CompanyRow): { items: KpiTarget[]; fromCompanyId: number | null; updateUser: string; updateTime: number | null } {
    const rows = db.prepare(`SELECT s.company_id, s.items, s.update_user, s.update_time, c.path FROM ops_kpi_setting s JOIN company c ON c.id = s.company_id
      WHERE ? LIKE c.path || '%' ORDER BY length(c.path) DESC LIMIT 1`).get(company.path) as
      { company_id: number; items: string; update_user: string; update_time: number } | undefined;
    if (!rows) return { items: [...DEFAULT_TARGETS], fromCompanyId: null, updateUser: '', updateTime: null };
    const stored = JSON.parse(rows.items) as KpiTarget[];
    // In KPI order; a KPI added after the setting was saved takes its default (weight 0 keeps the sum).
    const items = KPI_CODES.map((code) => stored.find((s) => s.code === code) ?? { code, target: KPI_DEFS[code].defaultTarget, weight: 0 });
    return { items, fromCompanyId: rows.company_id, updateUser: rows.update_user, updateTime: rows.update_time };
  }

  function monthOf(month: string | undefined): { month: string; firstDay: number; lastDay: number; closed: boolean; frozen: boolean; periodEnd: number } {
    const today = chinaDayIndex(clock());
    const m = month ?? monthOfDay(today);
    const days = monthDays(m);
    if (!days) throw badField('month', pair('月份格式应为 YYYY-MM', 'The month is written YYYY-MM'));
    if (days.firstDay > today) throw badField('month', OpsMessages.futureMonth);
    // The day rollups are kept REPORT_RETENTION_DAYS (about 36 months): an older month has nothing true to show.
    if (days.lastDay < today - MONTHS_BACK * 31) throw badField('month', OpsMessages.tooOld);
    const closed = days.lastDay < today;
    // Frozen: past its end plus the grace for late uploads (domain/ops-check/kpi.ts FREEZE_GRACE_DAYS).
    const frozen = clock() >= freezesAt(m);
    return { month: m, ...days, closed, frozen, periodEnd: closed ? chinaDayStartMs(days.lastDay + 1) : clock() };
  }

  type Period = ReturnType<typeof monthOf>;

  /** vehicle:month → its day rollups and when they were read (an open month's expire after OPS_MEMO_MS). */
  const vehicleMemo = new Map<string, { at: number; days: DayMetrics[] }>();
  const VEHICLE_MEMO_MAX = 50_000;

  /**
   * Day rollups of the subtree's vehicles over the month (up to today). Kept per vehicle, so a branch and
   * its parent company, asked in one list, read each vehicle once; a closed month's days do not change.
   */
  async function vehicleMonths(company: CompanyRow, p: Period): Promise<VehicleMonth[]> {
    const [lo, hi] = pathRange(company.path);
    const ids = (await storage.terminals.allVehicles()).filter((v) => v.companyPath >= lo && v.companyPath < hi).map((v) => v.vehicleId);
    const now = clock();
    const fresh = (id: number) => {
      const m = vehicleMemo.get(`${id}:${p.month}`);
      return m !== undefined && (p.frozen || now - m.at < OPS_MEMO_MS);
    };
    const missing = ids.filter((id) => !fresh(id));
    if (missing.length > 0) {
      const lastDay = Math.min(p.lastDay, chinaDayIndex(now));
      const days = await engine.days(missing, p.firstDay, lastDay);
      if (vehicleMemo.size + missing.length > VEHICLE_MEMO_MAX) vehicleMemo.clear();
      for (const id of missing) vehicleMemo.set(`${id}:${p.month}`, { at: now, days: days.get(id) ?? [] });
    }
    return ids.map((vehicleId) => ({ vehicleId, days: vehicleMemo.get(`${vehicleId}:${p.month}`)?.days ?? [] }));
  }

  function alarmsOf(company: CompanyRow, p: Period): AlarmInput[] {
    const [lo, hi] = pathRange(company.path);
    // Population `needsOperator` (domain/alarms/handling.ts): auto-processed alarms are the platform's rule, not counted.
    const rows = db.prepare(`SELECT a.start_time, ${handledSql('a')} AS handled, a.deal_time FROM alarm a JOIN company c ON c.id = a.company_id
      WHERE c.path >= ? AND c.path < ? AND a.start_time >= ? AND a.start_time < ? AND ${populationSql('needsOperator', 'a')}`)
      .all(lo, hi, chinaDayStartMs(p.firstDay), chinaDayStartMs(p.lastDay + 1)) as { start_time: number; handled: number; deal_time: number | null }[];
    return rows.map((r) => ({ startTime: r.start_time, dealTime: r.handled ? r.deal_time ?? r.start_time : null }));
  }

  /**
   * The month's KPI rows of a company: final ones read back (frozen and computed after the grace: rows frozen
   * before it held partial data and are recomputed), else measured now and written — unless the measurement
   * came from the memo and the stored rows already hold it with the targets in force (no write on a hit).
   */
  async function kpiRows(company: CompanyRow, p: Period): Promise<KpiRow[]> {
    const read = () => db.prepare('SELECT * FROM ops_kpi WHERE company_id = ? AND month = ? ORDER BY id').all(company.id, p.month) as KpiRow[];
    const existing = read();
    if (existing.length === KPI_CODES.length && existing.every((r) => r.frozen === 1 && isFinal(p.month, r.computed_time))) return existing;
    const { value: measured, hit } = await remembered(`m:${company.id}:${p.month}:${p.frozen ? 'final' : 'open'}`, async () => {
      const vehicles = await vehicleMonths(company, p);
      return measure(sumMetrics(vehicles.flatMap((v) => v.days)), alarmsOf(company, p), p.periodEnd);
    });
    const targets = targetsOf(company).items;
    if (hit && !p.frozen && existing.length === KPI_CODES.length && targets.every((t) => {
      const r = existing.find((e) => e.code === t.code);
      return r !== undefined && r.measured === measured[t.code] && r.target === t.target && r.weight === t.weight;
    })) return existing;
    const now = clock();
    // A frozen row is rewritten only when it is not final (frozen before the grace ended, with partial data).
    const upsert = db.prepare(`INSERT INTO ops_kpi (company_id, month, code, measured, target, weight, frozen, computed_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (company_id, month, code) DO UPDATE SET measured = excluded.measured, target = excluded.target, weight = excluded.weight,
        frozen = excluded.frozen, computed_time = excluded.computed_time WHERE ops_kpi.frozen = 0 OR ops_kpi.computed_time < ?`);
    db.transaction(() => {
      for (const t of targets) upsert.run(company.id, p.month, t.code, measured[t.code], t.target, t.weight, p.frozen ? 1 : 0, now, freezesAt(p.month));
    })();
    return read();
  }

  function kpiView(company: CompanyRow, rows: KpiRow[], lang: Lang) {
    const byCode = new Map(rows.map((r) => [r.code as KpiCode, r]));
    const targets = KPI_CODES.map((code) => ({ code, target: byCode.get(code)?.target ?? KPI_DEFS[code].defaultTarget, weight: byCode.get(code)?.weight ?? 0 }));
    const values = Object.fromEntries(KPI_CODES.map((code) => [code, { measured: byCode.get(code)?.measured ?? null, corrected: byCode.get(code)?.corrected ?? null }])) as
      Record<KpiCode, { measured: number | null; corrected: number | null }>;
    const card = scorecard(values, targets);
    return {
      companyId: company.id, companyName: company.name, month: rows[0]?.month ?? '', frozen: rows.length > 0 && rows.every((r) => r.frozen === 1),
      score: card.total, passed: card.passed, failed: card.failed,
      items: card.items.map((i) => {
        const r = byCode.get(i.code);
        const def = KPI_DEFS[i.code];
        return {
          id: r?.id ?? null, code: i.code, name: lang === 'zh' ? def.zh : def.en, unit: def.unit, higherIsBetter: def.higherIsBetter,
          measured: i.measured, corrected: i.corrected, value: i.corrected ?? i.measured, target: i.target, weight: i.weight, passed: i.passed, score: i.score,
          reason: r?.reason ?? '', correctedBy: r?.corrected_by ?? '', correctedTime: r?.corrected_time ?? null, computedTime: r?.computed_time ?? null,
        };
      }),
    };
  }
  type CompanyKpis = ReturnType<typeof kpiView>;

  async function companyKpis(company: CompanyRow, p: Period, lang: Lang): Promise<CompanyKpis> {
    return kpiView(company, await kpiRows(company, p), lang);
  }

  /** The caller's companies (narrowed by companyId), paged, with their month's KPIs. */
  async function kpiPage(request: FastifyRequest, q: { companyId?: number | undefined; month?: string | undefined; current: number; size: number }) {
    const p = monthOf(q.month);
    const scope = await narrowedScope(storage, auth(request), q.companyId);
    const all = companiesIn(scope);
    const page = all.slice((q.current - 1) * q.size, q.current * q.size);
    const lang = requestLang(request);
    const records: CompanyKpis[] = [];
    for (const c of page) records.push(await companyKpis(c, p, lang));
    return { records, total: all.length, current: q.current, size: q.size, month: p.month, closed: p.closed };
  }

  // ------------------------------------------------------------------ settings

  app.get('/service-ops/kpiSetting/get', {
    config: { permission: [SETTING_PAGE, REPORT_PAGE] },
    schema: { querystring: Strict({ companyId: Type.Optional(Id) }) },
  }, async (request) => {
    const ctx = auth(request);
    const company = companyIn(ctx.scope, request.query.companyId ?? ctx.user.companyId);
    const t = targetsOf(company);
    const lang = requestLang(request);
    return ok({
      companyId: company.id, companyName: company.name, inherited: t.fromCompanyId !== company.id, fromCompanyId: t.fromCompanyId,
      updateUser: t.updateUser, updateTime: t.updateTime,
      items: t.items.map((i) => {
        const def = KPI_DEFS[i.code];
        return { ...i, name: lang === 'zh' ? def.zh : def.en, unit: def.unit, higherIsBetter: def.higherIsBetter, min: def.min, max: def.max };
      }),
    }, lang);
  });

  app.post('/service-ops/kpiSetting/addOrUpdate', {
    config: { permission: `${SETTING_PAGE}:update` },
    schema: { body: Strict({ items: Type.Array(Item, { minItems: 1, maxItems: 20 }) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body as { companyId?: number; items: { code: string; target: number; weight: number }[] };
    const company = companyIn(ctx.scope, b.companyId ?? ctx.user.companyId);
    const problem = checkTargets(b.items);
    if (problem) throw badField(problem.index < 0 ? 'items' : `items.${problem.index}.${problem.field}`, problem.message);
    const items = KPI_CODES.map((code) => b.items.find((i) => i.code === code)!).map((i) => ({ code: i.code, target: i.target, weight: i.weight }));
    db.prepare(`INSERT INTO ops_kpi_setting (company_id, items, update_user, update_time) VALUES (?, ?, ?, ?)
      ON CONFLICT (company_id) DO UPDATE SET items = excluded.items, update_user = excluded.update_user, update_time = excluded.update_time`)
      .run(company.id, JSON.stringify(items), ctx.user.realName || ctx.user.username, clock());
    // Open months (the current one, a closed one in its grace) follow the new targets on their next read; a frozen
    // month keeps the targets it was judged by (its rows are final and never rewritten).
    return ok({ companyId: company.id, items }, requestLang(request));
  });

  // ------------------------------------------------------------------ KPIs

  app.get('/service-ops/kpi/list', {
    config: { permission: REPORT_PAGE },
    schema: { querystring: Strict({ ...PageFields, month: Type.Optional(Month) }) },
  }, async (request) => ok(await kpiPage(request, request.query), requestLang(request)));

  app.post('/service-ops/kpi/update', {
    config: { permission: `${REPORT_PAGE}:correct` },
    schema: { body: Strict({ id: Id, value: Type.Number({ minimum: 0, maximum: 1e6 }), reason: Name(200) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const cond = scopeCondition(ctx.scope, 'c');
    const row = db.prepare(`SELECT k.*, c.name AS company_name, c.path AS company_path FROM ops_kpi k JOIN company c ON c.id = k.company_id WHERE k.id = ? AND ${cond.sql}`)
      .get(b.id, ...cond.params) as (KpiRow & { company_name: string; company_path: string }) | undefined;
    if (!row) throw fail.notFound(OpsMessages.kpiNotFound);
    const code = row.code as KpiCode;
    if (b.value > valueMax(code)) throw badField('value', pair(`修正值须在 0–${valueMax(code)} 之间`, `The corrected value must be between 0 and ${valueMax(code)}`));
    db.prepare('UPDATE ops_kpi SET corrected = ?, reason = ?, corrected_by = ?, corrected_time = ? WHERE id = ?')
      .run(b.value, b.reason.trim(), ctx.user.realName || ctx.user.username, clock(), b.id);
    const company = { id: row.company_id, name: row.company_name, path: row.company_path };
    const rows = db.prepare('SELECT * FROM ops_kpi WHERE company_id = ? AND month = ? ORDER BY id').all(row.company_id, row.month) as KpiRow[];
    return ok(kpiView(company, rows, requestLang(request)), requestLang(request));
  });

  // ------------------------------------------------------------------ monthly analysis report

  app.post('/service-ops/analyseReport/page', {
    config: { permission: REPORT_PAGE },
    schema: { body: Strict({ ...PageFields, month: Type.Optional(Month) }) },
  }, async (request) => {
    const page = await kpiPage(request, request.body);
    const records = page.records.map((r) => ({
      companyId: r.companyId, companyName: r.companyName, month: page.month, score: r.score, passed: r.passed, failed: r.failed, frozen: r.frozen,
      fileName: `${r.companyName}-${page.month}-运维分析报告.html`,
    }));
    return ok({ ...page, records }, requestLang(request));
  });

  function sendHtml(reply: FastifyReply, html: string, name: string, asciiName: string) {
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-disposition', `attachment; filename="${asciiName}.html"; filename*=UTF-8''${encodeURIComponent(`${name}.html`)}`)
      .send(html);
  }

  const DownloadQuery = Strict({ companyId: Type.Optional(Id), month: Type.Optional(Month) });

  app.get('/service-ops/analyseReport/downloadHTML', {
    config: { permission: `${REPORT_PAGE}:download`, audit: true },
    schema: { querystring: DownloadQuery },
  }, async (request, reply) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const p = monthOf(request.query.month);
    const company = companyIn(ctx.scope, request.query.companyId ?? ctx.user.companyId);
    const kpis = await companyKpis(company, p, lang);
    const vehicles = await insureRows(company, p);
    const dailyOnline = await dailyOnlineRates(company, p);
    const html = analyseHtml({ lang, company: company.name, month: p.month, closed: p.closed, generated: clock(), kpis, vehicles, dailyOnline });
    return sendHtml(reply, html, `${company.name}-${p.month}-运维分析报告`, `ops-analysis-${company.id}-${p.month}`);
  });

  async function dailyOnlineRates(company: CompanyRow, p: Period): Promise<{ date: string; rate: number | null }[]> {
    const vehicles = await vehicleMonths(company, p);
    const byDate = new Map<string, { online: number; all: number }>();
    for (const v of vehicles) for (const d of v.days) {
      const e = byDate.get(d.date) ?? { online: 0, all: 0 };
      e.all++;
      if (d.online) e.online++;
      byDate.set(d.date, e);
    }
    return [...byDate.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, e]) => {
      const rate = vehicleDayOnlineRate(e.online, e.all);
      return { date, rate: rate === null ? null : Math.round(rate * 10) / 10 };
    });
  }

  // ------------------------------------------------------------------ insurer's report

  async function insureRows(company: CompanyRow, p: Period): Promise<InsureRow[]> {
    const vehicles = await vehicleMonths(company, p);
    if (vehicles.length === 0) return [];
    const [lo, hi] = pathRange(company.path);
    // Population `all`, handled as defined once in domain/alarms/handling.ts (auto-processed ones count as handled here).
    const alarms = new Map((db.prepare(`SELECT a.vehicle_id AS id, count(*) AS n, sum(a.risk_level = 'high') AS high, sum(${handledSql('a')}) AS handled
      FROM alarm a JOIN company c ON c.id = a.company_id WHERE c.path >= ? AND c.path < ? AND a.start_time >= ? AND a.start_time < ? GROUP BY a.vehicle_id`)
      .all(lo, hi, chinaDayStartMs(p.firstDay), chinaDayStartMs(p.lastDay + 1)) as { id: number; n: number; high: number; handled: number }[]).map((r) => [r.id, r]));
    const labels = await storage.terminals.labels({ all: true }, vehicles.map((v) => v.vehicleId));
    const rows: InsureRow[] = vehicles.map((v) => {
      const l = labels.get(v.vehicleId);
      const a = alarms.get(v.vehicleId);
      const km = v.days.reduce((s, d) => s + d.mileageKm, 0);
      const n = a?.n ?? 0;
      return {
        vehicleId: v.vehicleId, vehiidno: l?.vehiidno ?? String(v.vehicleId), companyName: l?.companyName ?? '', mileageKm: Math.round(km * 10) / 10,
        onlineDays: v.days.filter((d) => d.online).length, days: v.days.length, alarms: n, highRiskAlarms: a?.high ?? 0, handledAlarms: a?.handled ?? 0,
        alarmsPer100Km: km >= 1 ? Math.round((n / km) * 10000) / 100 : null,
      };
    });
    return rows.sort((x, y) => y.alarms - x.alarms || x.vehiidno.localeCompare(y.vehiidno));
  }

  app.get('/service-ops/insureReport/list', {
    config: { permission: REPORT_PAGE },
    schema: { querystring: Strict({ ...PageFields, month: Type.Optional(Month), vehiidno: Type.Optional(Type.String({ maxLength: 20 })) }) },
  }, async (request) => {
    const ctx = auth(request);
    const q = request.query;
    const p = monthOf(q.month);
    const company = companyIn(ctx.scope, q.companyId ?? ctx.user.companyId);
    let rows = await insureRows(company, p);
    const plate = q.vehiidno?.trim();
    if (plate) rows = rows.filter((r) => r.vehiidno.includes(plate));
    const totals = {
      vehicles: rows.length, mileageKm: Math.round(rows.reduce((s, r) => s + r.mileageKm, 0) * 10) / 10, alarms: rows.reduce((s, r) => s + r.alarms, 0),
      highRiskAlarms: rows.reduce((s, r) => s + r.highRiskAlarms, 0),
    };
    return ok({ records: rows.slice((q.current - 1) * q.size, q.current * q.size), total: rows.length, current: q.current, size: q.size, month: p.month, totals },
      requestLang(request));
  });

  app.get('/service-ops/insureReport/downloadHTML', {
    config: { permission: `${REPORT_PAGE}:download`, audit: true },
    schema: { querystring: DownloadQuery },
  }, async (request, reply) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const p = monthOf(request.query.month);
    const company = companyIn(ctx.scope, request.query.companyId ?? ctx.user.companyId);
    const rows = await insureRows(company, p);
    const html = insureHtml({ lang, company: company.name, month: p.month, generated: clock(), rows });
    return sendHtml(reply, html, `${company.name}-${p.month}-保险报告`, `insurance-${company.id}-${p.month}`);
  });
}
