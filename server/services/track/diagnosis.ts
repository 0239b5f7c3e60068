/**
 * /monitor/trackPlaybackTest, the support engineer's track diagnosis (issue 17; server/API.md "Track
 * diagnosis"): one vehicle's stored points of one China day exactly as stored, invalid ones included,
 * each with the judgement the track rules give it (domain/track: invalid reason, drift, the gap that
 * ends at it with its band, the stop it belongs to) and the day's positioning metrics as the reports
 * count them. No rule of its own: splitInvalid → analyzeTrack → dailyMetrics, as the report engine runs
 * them, so what the engineer sees is what the figures were made from.
 *
 * Arrival times are not read: a point is judged `future` only where the report engine knew its arrival,
 * so here a future-dated point shows as valid (API.md says so).
 */
import { Type } from '@fastify/type-provider-typebox';
import { analyzeTrack } from '../../../domain/track/analyze.ts';
import { gapBand } from '../../../domain/track/continuity.ts';
import { dailyMetrics, splitInvalid } from '../../../domain/track/daily-metrics.ts';
import { chinaDayIndex, chinaDayStartMs, DAY_MS } from '../../../domain/track/days.ts';
import type { Storage } from '../../db/repositories.ts';
import { ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Id, Strict, type App } from '../../http/route.ts';
import { assertTrackPeriod, vehicleInScope } from './common.ts';

/** A day at 1 Hz is 86,400 points; a terminal sending faster is cut here (`truncated`). */
export const DIAGNOSIS_MAX_POINTS = 100_000;
export const DIAGNOSIS_ROUTE = '/monitor/trackPlaybackTest';

export function diagnosisRoutes(app: App, { storage, clock }: { storage: Storage; clock: () => number }): void {
  app.get('/service-monitor/trail/diagnosis', {
    config: { permission: DIAGNOSIS_ROUTE },
    schema: { querystring: Strict({ vehicleId: Id, date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }) }) },
  }, async (request) => {
    const { vehicleId, date, companyId } = request.query;
    const dayStart = Date.parse(`${date}T00:00:00+08:00`);
    const day = chinaDayIndex(Number.isFinite(dayStart) ? dayStart : 0);
    const from = chinaDayStartMs(day);
    // The playback period rules (last 30 days, start before end) apply to the day as well.
    assertTrackPeriod(from, Math.min(from + DAY_MS - 1, Math.max(from, clock())), clock());
    const label = await vehicleInScope(storage, request, vehicleId, companyId);
    const t = await storage.tracks.readTrack(vehicleId, from, from + DAY_MS, DIAGNOSIS_MAX_POINTS);
    const n = t.count;
    const raw = { time: t.time.subarray(0, n), lng: t.lng.subarray(0, n), lat: t.lat.subarray(0, n), speed: t.speed.subarray(0, n) };
    const split = splitInvalid(raw);
    const analysis = analyzeTrack(split.valid);
    const errorTimes = Array.from(split.invalid, (i) => raw.time[i]!);
    const [metrics] = dailyMetrics({ valid: split.valid, first: 0, end: split.valid.time.length, errorTimes }, day, day, analysis);

    // Judgements per raw point (−1 / null where none).
    const invalid: (string | null)[] = new Array<string | null>(n).fill(null);
    split.invalid.forEach((i, k) => { invalid[i] = split.reasons[k]!; });
    const drift = new Array<0 | 1>(n).fill(0);
    const gapKm: (number | null)[] = new Array<number | null>(n).fill(null);
    const gap: (string | null)[] = new Array<string | null>(n).fill(null);
    const continuous: (boolean | null)[] = new Array<boolean | null>(n).fill(null);
    const stop = new Array<number>(n).fill(-1);
    const raw0 = (v: number) => split.validIndex[v]!;
    for (const v of analysis.drift) drift[raw0(v)] = 1;
    for (const g of analysis.gaps) {
      // The gap is judged at its later point: the one that arrived after the jump.
      gapKm[raw0(g.to)] = Math.round(g.km * 1000) / 1000;
      gap[raw0(g.to)] = gapBand(g.km);
      continuous[raw0(g.to)] = g.continuous;
    }
    analysis.stops.forEach((s, k) => { for (let v = s.from; v <= s.to; v++) stop[raw0(v)] = k; });
    const stops = analysis.stops.map((s) => ({ from: raw0(s.from), to: raw0(s.to), minutes: Math.round(s.minutes * 10) / 10 }));

    return ok({
      vehicleId, plate: label.vehiidno, date, total: t.total, truncated: t.total > n,
      points: {
        time: Array.from(raw.time), lng: Array.from(raw.lng), lat: Array.from(raw.lat), speed: Array.from(raw.speed, (s) => Math.round(s * 10) / 10),
        direction: Array.from(t.heading.subarray(0, n)), status: Array.from(t.status.subarray(0, n)), alarm: Array.from(t.alarm.subarray(0, n)),
        invalid, drift, gapKm, gap, continuous, stop,
      },
      stops,
      metrics: metrics ?? null,
    }, requestLang(request));
  });
}
