/**
 * The customer portrait (客户画像, /safeManagement/customerPortrait): one company's (fleet's) month from stored
 * rows: the report engine's vehicle days (online, km), the alarms (not invalid, counted only when an
 * appraisal category counts them: capture events and business-state types are not risk; population `risk` and
 * "handled" of domain/alarms/handling.ts), the appraisal
 * score (domain/appraisal via ../safe/appraisal-core) and the drivers the alarms recorded. The math is
 * domain/customer-portrait/portrait.ts; the definitions are in server/API.md "Customer portrait".
 */
import { Type } from '@fastify/type-provider-typebox';
import { categoryOf, chinaMonth, monthDays } from '../../../domain/appraisal/rules.ts';
import { alarmName } from '../../../domain/alarms/catalogue.ts';
import {
  monthFigures as trendFigures, portraitFigures, trendMonths, type PortraitDriver, type PortraitTypeCount, type PortraitVehicle,
} from '../../../domain/customer-portrait/portrait.ts';
import { chinaDayIndex, chinaDayStartMs } from '../../../domain/track/days.ts';
import type { Storage } from '../../db/repositories.ts';
import { scopeCondition, subtreeScope } from '../../db/scope.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Strict, type App } from '../../http/route.ts';
import { retentionCutoffs } from '../../../domain/retention/policy.ts';
import type { Config } from '../../config.ts';
import { retentionPolicy } from '../../retention/index.ts';
import { sharedReportEngine } from '../reports/shared-engine.ts';
import { handledSql, populationSql } from '../../../domain/alarms/handling.ts';
import { effectiveSettings, monthFigures, monthPeriod, scoreRow, targetCompany, vehiclesIn } from '../safe/appraisal-core.ts';

export const PORTRAIT_PAGE = '/safeManagement/customerPortrait';

export function customerPortraitRoutes(app: App, deps: { storage: Storage; clock: () => number; config: Config }): void {
  const { storage, clock } = deps;
  const db = (storage as SqliteStorage).db;
  // The positioning rollup (report_vehicle_day) the appraisal reads: km and online days, the same figures.
  // keptFrom: a day whose positions retention removed keeps its stored rollup. Without it the six-month trend
  // reaching past POSITION_RETENTION_DAYS recomputed such days from no rows and overwrote them with zeros.
  const keptFrom = () => retentionCutoffs(clock(), retentionPolicy(deps.config)).positionDay ?? -Infinity;
  // The app's one engine, shared with the ops check and the reports (../reports/shared-engine.ts).
  const engine = sharedReportEngine(storage, clock, keptFrom);

  app.get('/service-safe/customerPortrait/company', {
    config: { permission: PORTRAIT_PAGE },
    schema: { querystring: Strict({ month: Type.Optional(Type.String({ maxLength: 7 })) }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const now = clock();
    const q = request.query;
    const scope = await narrowedScope(storage, ctx, q.companyId);
    const company = await targetCompany(storage, scope, q.companyId ?? ctx.user.companyId);
    const fleet = subtreeScope(company.id, company.path);
    const period = monthPeriod(q.month ?? chinaMonth(now), now);
    const vehicles = await vehiclesIn(storage, fleet);
    const ids = vehicles.map((v) => v.vehicleId);
    const cond = scopeCondition(fleet, 'c');
    const from = chinaDayStartMs(period.firstDay);
    const to = chinaDayStartMs(period.lastDay + 1);

    // Month: days and alarm day counts per vehicle (the appraisal's own reading), its score.
    const settings = (await effectiveSettings(storage, company)).settings;
    const months = await monthFigures(storage, engine, fleet, vehicles, period);
    const alarmRows = db.prepare(`SELECT a.vehicle_id AS vehicleId, a.alarm_type AS alarmType, a.driver_cert AS cert, a.driver_name AS name,
        a.risk_level = 'high' AS high, ${handledSql('a')} AS handled, count(*) AS n
      FROM alarm a JOIN company c ON c.id = a.company_id WHERE a.start_time >= ? AND a.start_time < ? AND ${populationSql('risk', 'a')} AND ${cond.sql}
      GROUP BY 1, 2, 3, 4, 5, 6`).all(from, to, ...cond.params) as { vehicleId: number; alarmType: number; cert: string; name: string; high: number; handled: number; n: number }[];
    const risk = alarmRows.filter((r) => categoryOf(r.alarmType) !== undefined);
    const perVehicle = new Map<number, { alarms: number; high: number }>();
    const types = new Map<number, { n: number; handled: number }>();
    const drivers = new Map<string, { cert: string; name: string; alarms: number; highRisk: number }>();
    for (const r of risk) {
      const v = perVehicle.get(r.vehicleId) ?? { alarms: 0, high: 0 };
      v.alarms += r.n;
      if (r.high) v.high += r.n;
      perVehicle.set(r.vehicleId, v);
      const t = types.get(r.alarmType) ?? { n: 0, handled: 0 };
      t.n += r.n;
      if (r.handled) t.handled += r.n;
      types.set(r.alarmType, t);
      if (r.cert !== '' || r.name !== '') {
        const key = `${r.cert}\u0000${r.name}`;
        const d = drivers.get(key) ?? { cert: r.cert, name: r.name, alarms: 0, highRisk: 0 };
        d.alarms += r.n;
        if (r.high) d.highRisk += r.n;
        drivers.set(key, d);
      }
    }
    const portraitVehicles: PortraitVehicle[] = months.map((m) => {
      const a = perVehicle.get(m.vehicle.vehicleId);
      return { vehicleId: m.vehicle.vehicleId, vehiidno: m.vehicle.vehiidno, days: m.days, alarms: a?.alarms ?? 0, highRisk: a?.high ?? 0, score: scoreRow(m, settings).totalScore };
    });
    const typeCounts: PortraitTypeCount[] = [...types].map(([alarmType, t]) => ({ alarmType, ...t }));
    const figures = portraitFigures(period.month, portraitVehicles, typeCounts, [...drivers.values()] as PortraitDriver[]);

    // Trend: the five months before, then this one (from the same figures).
    const earlier = trendMonths(period.month).slice(0, -1);
    const firstDay = monthDays(earlier[0]!)!.firstDay;
    const beforeLast = period.firstDay - 1;
    const dayRows = ids.length === 0 ? new Map() : await engine.days(ids, firstDay, beforeLast);
    const alarmMonths = db.prepare(`SELECT a.alarm_type AS alarmType, ${handledSql('a')} AS handled, strftime('%Y-%m', (a.start_time + 28800000) / 1000, 'unixepoch') AS month, count(*) AS n
      FROM alarm a JOIN company c ON c.id = a.company_id WHERE a.start_time >= ? AND a.start_time < ? AND ${populationSql('risk', 'a')} AND ${cond.sql} GROUP BY 1, 2, 3`)
      .all(chinaDayStartMs(firstDay), from, ...cond.params) as { alarmType: number; handled: number; month: string; n: number }[];
    const trend = earlier.map((month) => {
      const vehicleDays = ids.map((id) => ({ days: ((dayRows.get(id) ?? []) as { date: string; online: boolean; mileageKm: number }[]).filter((d) => d.date.startsWith(month)) }));
      const rows = alarmMonths.filter((r) => r.month === month && categoryOf(r.alarmType) !== undefined);
      return trendFigures({ month, vehicleDays, alarms: rows.reduce((s, r) => s + r.n, 0), handled: rows.reduce((s, r) => s + (r.handled ? r.n : 0), 0) });
    });
    trend.push(trendFigures({ month: period.month, vehicleDays: portraitVehicles, alarms: figures.alarms, handled: figures.handled }));

    return ok({
      companyId: company.id, companyName: company.name, days: period.days, asOfDay: chinaDayIndex(now),
      ...figures,
      byType: figures.byType.map((t) => ({ ...t, name: alarmName(t.alarmType, lang) })),
      trend,
    }, lang);
  });
}
