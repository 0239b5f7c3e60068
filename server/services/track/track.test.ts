import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryByKey } from '../../../domain/permissions/access.ts';
import { exportCapMessage, periodMessage } from '../../../domain/track/limits.ts';
import { decodeTrack } from '../../../proto/track-codec.ts';
import type { PositionRow } from '../../db/repositories.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';

interface Company { id: number; pid: number; name: string }
interface TrailRecord { lng: number; lat: number; speed: number; direction: number; altitude: number; gpsTime: number; status: number; alarm: number; mileage: number | null }
interface Page { records: TrailRecord[]; total: number; current: number; size: number; next: string | null }

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const HANGZHOU = { lng: 120.155, lat: 30.274 };
const BEIJING = { lng: 116.397, lat: 39.909 };

let server: LiveTestServer;
let url: string;
let admin: string;
let east: string;
let now: number;
let eastVehicle: number;
let bigVehicle: number;
let northVehicle: number;
/** The east vehicle's track: two hours at 1 Hz with a 5-minute stop and one drift point. */
let start: number;
const POINTS = 7200;
const DRIFT_AT = 3000;

const idOf = (key: string) => entryByKey(key)!.id;

function drive(vehicleId: number, from: number, n: number, origin: { lng: number; lat: number }, drift = -1): PositionRow[] {
  const rows: PositionRow[] = [];
  let lng = origin.lng;
  const lat = origin.lat;
  for (let i = 0; i < n; i++) {
    const stopped = i >= 1000 && i < 1300;
    if (!stopped) lng += 0.0001;
    const t = from + i * 1000;
    const jump = i === drift ? 1.5 : 0;
    rows.push({
      vehicleId, gpsTime: t, lng: Math.round((lng + jump) * 1e6) / 1e6, lat: Math.round((lat + jump) * 1e6) / 1e6, speed: stopped ? 0 : 36,
      heading: 90, altitude: 12, status: stopped ? 2 : 3, alarm: 0, mileage: Math.round((1000 + i * 0.01) * 10) / 10, receivedAt: t,
    });
  }
  return rows;
}

async function raw(path: string, token: string, lang: 'zh' | 'en' = 'en'): Promise<Response> {
  return fetch(url + path, { headers: { 'x-jwt': token, 'x-lang': lang } });
}

const q = (o: Record<string, number | string>) => new URLSearchParams(Object.entries(o).map(([k, v]): [string, string] => [k, String(v)])).toString();

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 40 });
  const address = server.app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  admin = await server.login('admin', 'admin123');
  now = server.clock.now();
  const companies = (await server.call<Company[]>('GET', '/service-priv/company/tree', { token: admin })).data;
  const eastCompany = companies.find((c) => c.name === '华东分公司')!;
  const northCompany = companies.find((c) => c.name === '华北分公司')!;
  const role = await server.call<{ id: number }>('POST', '/service-priv/role', {
    token: admin,
    body: { name: '轨迹回放', permissionIds: [idOf('/monitor'), idOf('/monitor/trackPlaybackPage'), idOf('/monitor/trackPlaybackPageNew')] },
  });
  const user = await server.call('POST', '/service-priv/user', {
    token: admin, body: { username: 'east_track', password: 'secret123', userLevel: 2, companyId: eastCompany.id, roleIds: [role.data.id] },
  });
  expect(user.code).toBe(200);
  east = await server.login('east_track', 'secret123');

  const vehicles = await server.app.storage.terminals.allVehicles();
  const eastPaths = vehicles.filter((v) => v.companyPath.startsWith(`/1/${eastCompany.id}/`));
  eastVehicle = eastPaths[0]!.vehicleId;
  bigVehicle = eastPaths[1]!.vehicleId;
  northVehicle = vehicles.find((v) => v.companyPath.startsWith(`/1/${northCompany.id}/`))!.vehicleId;

  start = Math.floor((now - 5 * HOUR) / 1000) * 1000;
  await server.app.storage.positions.append(drive(eastVehicle, start, POINTS, HANGZHOU, DRIFT_AT));
  await server.app.storage.positions.append(drive(northVehicle, start, 600, BEIJING));
  // One more than the export cap, written straight through the repository.
  await server.app.storage.positions.append(drive(bigVehicle, now - 2 * DAY, 50_001, HANGZHOU));
});
afterAll(async () => {
  await server.close();
});

describe('track period limits', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`refuse a start after the end, a period over seven days and one older than 30 days (${lang})`, async () => {
      const base = { vehicleId: eastVehicle };
      const cases = [
        { startTime: now - HOUR, endTime: now - 2 * HOUR, problem: 'startAfterEnd' },
        { startTime: now - 8 * DAY, endTime: now, problem: 'tooLong' },
        { startTime: now - 31 * DAY, endTime: now - 30 * DAY, problem: 'tooOld' },
      ] as const;
      for (const c of cases) {
        for (const path of ['/service-monitor/trail', '/service-monitor/trail/gpsCount', '/service-monitor/trail/binary', '/service-onlinegps/trajectory']) {
          const r = await server.call(`GET`, `${path}?${q({ ...base, startTime: c.startTime, endTime: c.endTime })}`, { token: admin, lang });
          expect(r.status).toBe(400);
          expect(r.code).toBe(400);
          expect(r.msg).toBe(periodMessage(c.problem, lang));
        }
      }
    });
  }

  it('accept exactly seven days', async () => {
    const r = await server.call<{ total: number }>('GET', `/service-monitor/trail/gpsCount?${q({ vehicleId: eastVehicle, startTime: now - 7 * DAY, endTime: now })}`, { token: admin });
    expect(r.code).toBe(200);
    expect(r.data.total).toBe(POINTS);
  });

  it('limit the area search to 24 hours', async () => {
    const r = await server.call('POST', '/service-onlinegps/geography/searchFrameGps', {
      token: admin, lang: 'zh', body: { minLng: 120, minLat: 30, maxLng: 121, maxLat: 31, startTime: now - 25 * HOUR, endTime: now },
    });
    expect(r.status).toBe(400);
    expect(r.msg).toBe(periodMessage('historyTooLong', 'zh'));
  });
});

describe('the JSON trail', () => {
  it('pages the period oldest first with the total', async () => {
    const r = await server.call<Page>('GET', `/service-monitor/trail?${q({ vehicleId: eastVehicle, startTime: start, endTime: start + POINTS * 1000, current: 2, size: 100 })}`, { token: admin });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ total: POINTS, current: 2, size: 100 });
    expect(r.data.records).toHaveLength(100);
    expect(r.data.records[0]).toMatchObject({ gpsTime: start + 100_000, speed: 36, direction: 90, altitude: 12, status: 3, alarm: 0 });
    expect(r.data.records[99]!.gpsTime).toBe(start + 199_000);
  });

  it('pages with the cursor through every point once, in order, the same pages as by number', async () => {
    const period = { vehicleId: eastVehicle, startTime: start, endTime: start + 2499_000 };
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r: { data: Page; code: number } = await server.call<Page>('GET', `/service-monitor/trail?${q({ ...period, size: 1000, ...(cursor ? { cursor } : {}) })}`, { token: admin });
      expect(r.code).toBe(200);
      expect(r.data).toMatchObject({ total: 2500, current: pages + 1, size: 1000 });
      seen.push(...r.data.records.map((p) => p.gpsTime));
      cursor = r.data.next;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 2500 }, (_, i) => start + i * 1000));
    const third = await server.call<Page>('GET', `/service-monitor/trail?${q({ ...period, size: 1000, current: 3 })}`, { token: admin });
    expect(third.data.records.map((p) => p.gpsTime)).toEqual(seen.slice(2000));
    expect(third.data.next).toBeNull();
  });

  it('refuses a cursor it did not write, in the user’s language', async () => {
    const r = await server.call('GET', `/service-monitor/trail?${q({ vehicleId: eastVehicle, startTime: start, endTime: now, cursor: 'bm90LWEtY3Vyc29y' })}`, { token: admin, lang: 'zh' });
    expect(r.status).toBe(400);
    expect(r.msg).toBe('翻页位置无效，请从第一页重新查询');
  });

  it('counts the points of a period, both ends included', async () => {
    const r = await server.call<{ total: number }>('GET', `/service-monitor/trail/gpsCount?${q({ vehicleId: eastVehicle, startTime: start + 10_000, endTime: start + 20_000 })}`, { token: admin });
    expect(r.data.total).toBe(11);
  });

  it('answers the points inside a rectangle only', async () => {
    const box = { minLng: HANGZHOU.lng + 0.01, maxLng: HANGZHOU.lng + 0.02, minLat: HANGZHOU.lat - 0.01, maxLat: HANGZHOU.lat + 0.01 };
    const r = await server.call<{ total: number; records: TrailRecord[] }>('GET', `/service-monitor/trail/inner?${q({ vehicleId: eastVehicle, startTime: start, endTime: now, ...box })}`, { token: admin });
    expect(r.code).toBe(200);
    expect(r.data.total).toBeGreaterThan(50);
    expect(r.data.records).toHaveLength(r.data.total);
    for (const p of r.data.records) expect(p.lng >= box.minLng && p.lng <= box.maxLng && p.lat >= box.minLat && p.lat <= box.maxLat).toBe(true);
  });
});

describe('the binary track', () => {
  it('decodes to the same points as the JSON trail, labelled with the plate', async () => {
    const period = { vehicleId: eastVehicle, startTime: start, endTime: start + 999_000 };
    const res = await raw(`/service-monitor/trail/binary?${q(period)}`, admin);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-protobuf');
    const t = decodeTrack(new Uint8Array(await res.arrayBuffer()));
    const json = await server.call<Page>('GET', `/service-monitor/trail?${q({ ...period, size: 1000 })}`, { token: admin });
    expect(t.count).toBe(1000);
    expect(t.total).toBe(1000);
    expect(t.plate).toBe((await server.app.storage.terminals.labels({ all: true }, [eastVehicle])).get(eastVehicle)!.vehiidno);
    expect(t.startTime).toBe(period.startTime);
    json.data.records.forEach((r, i) => {
      expect({ gpsTime: t.time[i], lng: t.lng[i], lat: t.lat[i], speed: Math.round(t.speed[i]! * 10) / 10, direction: t.heading[i], altitude: t.altitude[i], status: t.status[i], alarm: t.alarm[i], mileage: t.mileage[i] })
        .toEqual(r);
    });
  });

  it('answers a validation error as the JSON envelope', async () => {
    const res = await raw(`/service-monitor/trail/binary?${q({ vehicleId: eastVehicle, startTime: 'yesterday', endTime: now })}`, admin);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: number; msg: string };
    expect(body.code).toBe(400);
    expect(body.msg).toContain('startTime');
  });
});

describe('company scoping', () => {
  it('lets a branch user read its own vehicle and not another branch’s', async () => {
    const own = await server.call<{ total: number }>('GET', `/service-monitor/trail/gpsCount?${q({ vehicleId: eastVehicle, startTime: start, endTime: now })}`, { token: east });
    expect(own.data.total).toBe(POINTS);
    const period = { vehicleId: northVehicle, startTime: start, endTime: now };
    for (const path of ['/service-monitor/trail', '/service-monitor/trail/gpsCount', '/service-monitor/trail/binary', '/service-monitor/trail/excel', '/service-onlinegps/trajectory']) {
      const r = await server.call('GET', `${path}?${q(period)}`, { token: east, lang: 'en' });
      expect(r.status).toBe(404);
      expect(r.msg).toBe('The vehicle does not exist or is outside your scope');
    }
    const admins = await server.call<{ total: number }>('GET', `/service-monitor/trail/gpsCount?${q(period)}`, { token: admin });
    expect(admins.data.total).toBe(600);
  });
});

describe('the area search', () => {
  it('finds a vehicle with points inside the rectangle and not one outside it', async () => {
    const body = { minLng: 120, minLat: 30, maxLng: 121, maxLat: 31, startTime: now - 24 * HOUR, endTime: now };
    const r = await server.call<{ total: number; records: { vehicleId: number; plate: string; firstTime: number; lastTime: number; points: number }[] }>(
      'POST', '/service-onlinegps/geography/searchFrameGps', { token: admin, body });
    expect(r.code).toBe(200);
    const ids = r.data.records.map((v) => v.vehicleId);
    expect(ids).toContain(eastVehicle);
    expect(ids).not.toContain(northVehicle);
    const hit = r.data.records.find((v) => v.vehicleId === eastVehicle)!;
    // The drift point jumped 1.5° out of the box.
    expect(hit).toMatchObject({ firstTime: start, lastTime: start + (POINTS - 1) * 1000, points: POINTS - 1 });
    expect(hit.plate).toMatch(/\S/);
  });

  it('leaves another branch’s vehicles out for a branch user', async () => {
    const body = { minLng: 116, minLat: 39, maxLng: 117, maxLat: 40, startTime: now - 24 * HOUR, endTime: now };
    const byAdmin = await server.call<{ total: number; records: { vehicleId: number }[] }>('POST', '/service-onlinegps/geography/searchFrameGps', { token: admin, body });
    expect(byAdmin.data.records.map((v) => v.vehicleId)).toEqual([northVehicle]);
    const byEast = await server.call<{ total: number; records: unknown[] }>('POST', '/service-onlinegps/geography/searchFrameGps', { token: east, body });
    expect(byEast.data).toEqual({ total: 0, records: [] });
  });
});

describe('the geocoder', () => {
  it('names the province, city and county of Hangzhou coordinates in both languages, "near", no street', async () => {
    const zh = await server.call<string>('GET', `/service-monitor/trail/geocoder?${q(HANGZHOU)}`, { token: east, lang: 'zh' });
    expect(zh.data).toBe('浙江省杭州市西湖区附近');
    const en = await server.call<string>('GET', `/service-monitor/trail/geocoder?${q(HANGZHOU)}`, { token: east, lang: 'en' });
    expect(en.data).toBe('near 西湖区, Hangzhou, Zhejiang');
  });
});

describe('trips and stops', () => {
  it('cut the period into trips around the five-minute stop and flag the drift point', async () => {
    const period = { vehicleId: eastVehicle, startTime: start, endTime: start + POINTS * 1000 };
    const r = await server.call<{ stops: number; trips: number; driftPoints: number; segments: { type: string; fromIndex: number; toIndex: number; minutes: number; km: number; maxSpeed: number }[] }>(
      'GET', `/service-onlinegps/trajectory?${q(period)}`, { token: admin });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ stops: 1, trips: 2, driftPoints: 1 });
    expect(r.data.segments.map((s) => s.type)).toEqual(['trip', 'stop', 'trip']);
    const stop = r.data.segments[1]!;
    expect(stop.minutes).toBeGreaterThanOrEqual(4.9);
    expect(r.data.segments[0]!.maxSpeed).toBe(36);
    // With a longer stop filter the five-minute stop is no stop.
    const longer = await server.call<{ stops: number }>('GET', `/service-onlinegps/trajectory?${q({ ...period, stopMinutes: 10 })}`, { token: admin });
    expect(longer.data.stops).toBe(0);

    const detail = await server.call<{ records: { index: number; gpsTime: number }[] }>('GET', `/service-onlinegps/trajectory/detail?${q({ ...period, fromIndex: stop.fromIndex, toIndex: stop.toIndex })}`, { token: admin });
    expect(detail.data.records).toHaveLength(stop.toIndex - stop.fromIndex + 1);
    expect(detail.data.records[0]!.index).toBe(stop.fromIndex);

    const flagged = await server.call<{ records: { index: number; drift: boolean; continuous: boolean | null }[] }>(
      'GET', `/service-onlinegps/trajectory/detail2?${q({ ...period, fromIndex: DRIFT_AT - 1, toIndex: DRIFT_AT + 1 })}`, { token: admin });
    expect(flagged.data.records.map((p) => p.drift)).toEqual([false, true, false]);
    expect(flagged.data.records.map((p) => p.continuous)).toEqual([true, null, true]);
  });
});

describe('the positioning export', () => {
  it('exports the first 50,000 points to an .xlsx and says the rest were left out', async () => {
    const period = { vehicleId: bigVehicle, startTime: now - 3 * DAY, endTime: now };
    const started = await server.call<{ taskId: string }>('GET', `/service-monitor/trail/excel?${q(period)}`, { token: east, lang: 'zh' });
    expect(started.code).toBe(200);
    const { taskId } = started.data;
    let status = { status: 'running', total: 0, exported: 0, message: undefined as string | undefined };
    for (let i = 0; i < 1000 && status.status === 'running'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await server.call<typeof status>('GET', `/service-monitor/trail/export_status?${q({ taskId })}`, { token: east, lang: 'en' })).data;
    }
    expect(status).toEqual({ status: 'done', total: 50_001, exported: 50_000, message: exportCapMessage(50_001, 'en') });
    // Another user cannot see the job.
    expect((await server.call('GET', `/service-monitor/trail/export_status?${q({ taskId })}`, { token: admin })).status).toBe(404);

    const res = await raw(`/service-monitor/trail/excel_file?${q({ taskId })}`, east, 'zh');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(50_001);
    expect(sheet.getRow(1).getCell(2).value).toBe('定位时间');
    // GMT+8 text: the first point's China time.
    const first = new Date(now - 2 * DAY + 8 * HOUR).toISOString().slice(0, 19).replace('T', ' ');
    expect(sheet.getRow(2).getCell(2).value).toBe(first);
  }, 120_000);

  it('adds a stop sheet with start, end, duration and, by the user’s reverse-geocoding setting, the address', async () => {
    const exported = async (token: string, stopMinutes: number) => {
      const period = { vehicleId: eastVehicle, startTime: start, endTime: start + 2 * HOUR, stopMinutes };
      const started = await server.call<{ taskId: string }>('GET', `/service-monitor/trail/excel?${q(period)}`, { token, lang: 'zh' });
      expect(started.code).toBe(200);
      let status = 'running';
      for (let i = 0; i < 200 && status === 'running'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = (await server.call<{ status: string }>('GET', `/service-monitor/trail/export_status?${q({ taskId: started.data.taskId })}`, { token })).data.status;
      }
      const res = await raw(`/service-monitor/trail/excel_file?${q({ taskId: started.data.taskId })}`, token, 'zh');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(await res.arrayBuffer());
      return book.getWorksheet('停车点')!;
    };
    // east_track was made through the API: reverse geocoding on, as for every new user.
    const stops = await exported(east, 3);
    expect(stops.getRow(1).values).toEqual([undefined, '序号', '开始时间', '结束时间', '停车时长(分钟)', '经度', '纬度', '地址']);
    expect(stops.rowCount).toBe(2); // the one 5-minute stop of the drive
    const row = stops.getRow(2);
    expect(row.getCell(2).value).toBe(new Date(start + 1000 * 1000 + 8 * HOUR).toISOString().slice(0, 19).replace('T', ' '));
    expect(Number(row.getCell(4).value)).toBeCloseTo(5, 0);
    expect(String(row.getCell(7).value)).toMatch(/^浙江省杭州市.+附近$/);
    // A longer threshold leaves it out; with the setting off there is no address column (the seeded admin has
    // it on like every new user: switched off here, then back).
    expect((await exported(east, 10)).rowCount).toBe(1);
    const setGeo = async (on: boolean) =>
      expect((await server.call('PUT', '/service-priv/user', { token: admin, body: { id: 1, geoInverse: on } })).code).toBe(200);
    await setGeo(false);
    expect((await exported(admin, 3)).getRow(1).cellCount).toBe(6);
    await setGeo(true);
  });

  it('refuses bad parameters naming the field and starts no job', async () => {
    const r = await server.call<unknown>('GET', `/service-monitor/trail/excel?${q({ vehicleId: bigVehicle, startTime: now - DAY })}`, { token: east, lang: 'en' });
    expect(r.status).toBe(400);
    expect(r.msg).toContain('endTime');
    expect(r.data).toBeNull();
    const unknown = await server.call('GET', `/service-monitor/trail?${q({ vehicleId: bigVehicle, startTime: now - DAY, endTime: now, plate: 'x' })}`, { token: east, lang: 'en' });
    expect(unknown.status).toBe(400);
    expect(unknown.msg).toContain('plate');
    const box = await server.call('POST', '/service-onlinegps/geography/searchFrameGps', { token: east, lang: 'en', body: { minLng: 'east', minLat: 30, maxLng: 121, maxLat: 31, startTime: now - HOUR, endTime: now } });
    expect(box.status).toBe(400);
    expect(box.msg).toContain('minLng');
  });
});
