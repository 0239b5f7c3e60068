/**
 * Where-was-who: the fleet's vehicles (in scope) with points inside a rectangle during a window
 * (geography/searchFrameGps), and the offline reverse geocoder (trail/geocoder).
 *
 * The window is bounded at 24 hours (checkHistoryPeriod): the search reads every in-scope vehicle's
 * index range of the window, so its cost is the fleet's rows in the window (2,000 simulated vehicles
 * at 10 s / 60 s reports ≈ 5–10 M rows a day; a week would be 7× that on one SQLite connection that
 * every other call shares). Answers are capped at 5,000 vehicles with the total.
 */
import { Type } from '@fastify/type-provider-typebox';
import type { Storage } from '../../db/repositories.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Strict, type App } from '../../http/route.ts';
import { assertHistoryPeriod, assertRectangle, Coordinate, EpochMs, toExclusive } from './common.ts';
import { address } from './geocoder.ts';

export const FRAME_GPS_MAX_VEHICLES = 5000;

export interface GeographyDeps {
  readonly storage: Storage;
}

export function geographyRoutes(app: App, { storage }: GeographyDeps): void {
  app.post('/service-onlinegps/geography/searchFrameGps', {
    config: { permission: '/monitor/trackPlaybackPageNew', audit: false },
    schema: {
      body: Strict({
        minLng: Coordinate(180), minLat: Coordinate(90), maxLng: Coordinate(180), maxLat: Coordinate(90),
        startTime: EpochMs, endTime: EpochMs,
      }),
    },
  }, async (request) => {
    const { minLng, minLat, maxLng, maxLat, startTime, endTime, companyId } = request.body;
    const box = { minLng, minLat, maxLng, maxLat };
    assertRectangle(box);
    assertHistoryPeriod(startTime, endTime);
    const scope = await narrowedScope(storage, auth(request), companyId);
    const found = await storage.tracks.vehiclesInBox(scope, startTime, toExclusive(endTime), box, FRAME_GPS_MAX_VEHICLES);
    const labels = await storage.terminals.labels(scope, found.rows.map((r) => r.vehicleId));
    const records = found.rows.flatMap((r) => {
      const label = labels.get(r.vehicleId);
      return label ? [{
        vehicleId: r.vehicleId, plate: label.vehiidno, deviceNo: label.deviceNo, companyId: label.companyId, companyName: label.companyName,
        firstTime: r.firstTime, lastTime: r.lastTime, points: r.points,
      }] : [];
    });
    return ok({ total: found.total, records }, requestLang(request));
  });

  app.get('/service-monitor/trail/geocoder', {
    config: { permission: 'session' },
    schema: { querystring: Strict({ lng: Type.Number({ minimum: -180, maximum: 180 }), lat: Type.Number({ minimum: -90, maximum: 90 }) }) },
  }, async (request) => {
    const lang = requestLang(request);
    return ok(address(request.query.lng, request.query.lat, lang), lang);
  });
}
