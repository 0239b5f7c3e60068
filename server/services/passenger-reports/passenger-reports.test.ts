/**
 * Passenger flow and temperature reports through the gateway (issue 18): a scripted bus terminal on a line sends
 * its door counts (0x1005 with the bus-line extension) and body temperatures (0x0E30); the report calls answer
 * from the day rows folded at store time, scoped to the caller's company subtree, and the rows agree with a
 * recompute over the stored uploads.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passengerDay } from '../../../domain/passengers/flow.ts';
import { entryByKey } from '../../../domain/permissions/access.ts';
import { chinaDateOfDay, chinaDayIndex, chinaDayStartMs } from '../../../domain/track/days.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { TestTerminal } from '../../gateway/terminal-client.ts';
import type { PassengerMessage } from '../../gateway/jt808/passenger.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';
import { PASSENGERFLOW_BASE, TEMPERATURE_BASE, type PassengerReportDeps } from './index.ts';
import { PassengerStore } from './store.ts';

interface Page<T> { records: T[]; total: number; totals: Record<string, number | null> }
type Rec = Record<string, unknown>;

let server: LiveTestServer;
let admin: string;
let branch: string;
let bus: { vehicleId: number; deviceNo: string; companyId: number };
let other: { vehicleId: number; deviceNo: string };
let lineId: number;
let today: number;
const terminals: TestTerminal[] = [];

const sec = (t: number) => Math.floor(t / 1000) * 1000;
const serverUrl = () => {
  const address = server.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
};

async function send(t: TestTerminal, msg: PassengerMessage) {
  expect(await t.request(msg as never)).toMatchObject({ replyId: msg.msgId, result: 0 });
}

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 12 });
  admin = await server.login('admin', 'admin123');
  const storage = server.app.storage as SqliteStorage;
  const user = await storage.users.findByUsername('branch');
  const branchCompany = user!.companyId;
  // An analyst of the branch with the five screens (lists only: no export bit).
  const screens = ['/report', '/report/PassengerAnalysis', '/report/PassengerAnalysis/lineAnalysis', '/report/PassengerAnalysis/carAnalysis',
    '/report/PassengerAnalysis/passengerSupervision', '/report/PassengerAnalysis/bigDataAnalysis', '/report/temperatureReport'];
  const role = await server.call<{ id: number }>('POST', '/service-priv/role', { token: admin, body: { name: '客流分析', permissionIds: screens.map((k) => entryByKey(k)!.id) } });
  expect(role.code).toBe(200);
  const created = await server.call('POST', '/service-priv/user', {
    token: admin, body: { username: 'branch_flow', password: 'secret123', userLevel: 2, companyId: branchCompany, roleIds: [role.data.id] },
  });
  expect(created.code).toBe(200);
  branch = await server.login('branch_flow', 'secret123');
  const branchPath = (await storage.companies.get({ all: true } as never, branchCompany))?.path;
  const vehicles = await storage.terminals.allVehicles();
  const inBranch = vehicles.filter((v) => v.deviceNo && branchPath && v.companyPath.startsWith(branchPath));
  const outside = vehicles.filter((v) => v.deviceNo && branchPath && !v.companyPath.startsWith(branchPath));
  bus = { vehicleId: inBranch[0]!.vehicleId, deviceNo: inBranch[0]!.deviceNo!, companyId: inBranch[0]!.companyId };
  other = { vehicleId: outside[0]!.vehicleId, deviceNo: outside[0]!.deviceNo! };
  // A line of the bus's company with three up stops, the bus on it.
  const db = storage.db;
  lineId = Number(db.prepare('INSERT INTO line (name, company_id, create_time) VALUES (?, ?, ?)').run('测试1路', bus.companyId, Date.now()).lastInsertRowid);
  const st = db.prepare('INSERT INTO line_station (line_id, direction, seq, name, lng, lat) VALUES (?, 0, ?, ?, 120.6, 31.3)');
  ['火车站', '人民路', '南门'].forEach((n, i) => st.run(lineId, i + 1, n));
  db.prepare('UPDATE vehicle SET line_id = ? WHERE id = ?').run(lineId, bus.vehicleId);

  const t = await TestTerminal.connect(server.gatewayPort, bus.deviceNo);
  await t.login();
  const u = await TestTerminal.connect(server.gatewayPort, other.deviceNo);
  await u.login();
  terminals.push(t, u);
  const now = sec(server.clock.now());
  today = chinaDayIndex(now);
  // Morning trip of today at 07:xx (or the last hour before now when the test runs earlier than that).
  const base = Math.min(now - 3_600_000, chinaDayStartMs(today) + 7 * 3_600_000);
  const stop = (i: number) => sec(Math.max(chinaDayStartMs(today), base + i * 300_000));
  const line = (door: number, seq: number, onboard: number) => ({ door, direction: 0 as const, stationSeq: seq, onboard });
  await send(t, { msgId: 0x1005, start: stop(0) - 30_000, end: stop(0), boarding: 20, alighting: 0, line: line(1, 1, 20) });
  await send(t, { msgId: 0x1005, start: stop(1) - 30_000, end: stop(1), boarding: 70, alighting: 5, line: line(1, 2, 85) }); // over 80 rated
  await send(t, { msgId: 0x1005, start: stop(2) - 30_000, end: stop(2), boarding: 2, alighting: 60, line: line(2, 3, 27) });
  // A plain 0x1005 (no extension) from yesterday, re-uploaded late: counts for that day only.
  const yesterday = chinaDayStartMs(today - 1) + 18 * 3_600_000;
  await send(t, { msgId: 0x1005, start: yesterday - 60_000, end: yesterday, boarding: 7, alighting: 3, line: null });
  // The other branch's bus.
  await send(u, { msgId: 0x1005, start: stop(0) - 30_000, end: stop(0), boarding: 11, alighting: 0, line: null });
  // Body temperatures on the bus: one suspected fever (37.5), one at 37.2 (normal).
  for (const [i, celsius, mask] of [[0, 36.5, true], [1, 37.5, false], [2, 37.2, null]] as const) {
    await send(t, { msgId: 0x0e30, time: stop(i), kind: 0, mask, celsius, mediaId: i === 1 ? 42 : null });
  }
}, 60_000);

afterAll(async () => {
  for (const t of terminals) await t.close();
  await server?.close();
});

const period = (from: number, to: number, extra: Rec = {}) => ({ startDate: chinaDateOfDay(from), endDate: chinaDateOfDay(to), current: 1, size: 50, ...extra });

describe('passenger flow reports (0x1005 through the gateway)', () => {
  it('carAnalysis: one row per vehicle-day with boardings, alightings, peak and most on board; the branch sees only its bus', async () => {
    const r = await server.call<Page<Rec>>('POST', `${PASSENGERFLOW_BASE}/car`, { token: branch, body: period(today - 1, today) });
    expect(r.code).toBe(200);
    expect(r.data.records.map((x) => x.vehicleId)).toEqual([bus.vehicleId, bus.vehicleId]);
    const [y, d] = r.data.records;
    expect(y).toMatchObject({ date: chinaDateOfDay(today - 1), boarding: 7, alighting: 3, uploads: 1, maxOnboard: null, peakHour: 18 });
    expect(d).toMatchObject({ date: chinaDateOfDay(today), lineName: '测试1路', boarding: 92, alighting: 65, uploads: 3, maxOnboard: 85 });
    expect(r.data.totals).toMatchObject({ boarding: 99, alighting: 68, uploads: 4, found: 2 });
    const all = await server.call<Page<Rec>>('POST', `${PASSENGERFLOW_BASE}/car`, { token: admin, body: period(today, today) });
    expect(all.data.records.map((x) => x.vehicleId).sort()).toEqual([bus.vehicleId, other.vehicleId].sort());
  });

  it('lineAnalysis: per line stop, named from the line, with the share of the line’s boardings', async () => {
    const r = await server.call<Page<Rec>>('POST', `${PASSENGERFLOW_BASE}/line`, { token: branch, body: period(today - 1, today) });
    expect(r.code).toBe(200);
    expect(r.data.records.map((x) => [x.stationName, x.boarding, x.alighting, x.boardingShare])).toEqual([
      ['火车站', 20, 0, 21.7], ['人民路', 70, 5, 76.1], ['南门', 2, 60, 2.2],
    ]);
    expect(r.data.totals).toMatchObject({ boarding: 92, alighting: 65, lines: 1 });
  });

  it('passengerSupervision: overloads above the rated load (80) and the overload rate', async () => {
    const r = await server.call<Page<Rec>>('POST', `${PASSENGERFLOW_BASE}/supervision`, { token: branch, body: period(today - 1, today) });
    expect(r.data.records).toHaveLength(1);
    expect(r.data.records[0]).toMatchObject({ vehicleId: bus.vehicleId, overloads: 1, abnormal: 0, uploads: 4, maxOnboard: 85, overloadRate: 25 });
  });

  it('bigDataAnalysis: hourly boardings per vehicle-day and the period’s peak hour', async () => {
    const r = await server.call<Page<Rec>>('POST', `${PASSENGERFLOW_BASE}/bigdata`, { token: branch, body: period(today, today) });
    const row = r.data.records[0]!;
    expect((row.hourlyBoarding as number[]).reduce((s, x) => s + x, 0)).toBe(92);
    expect(r.data.totals.peakBoarding).toBeGreaterThan(0);
    expect((row.hourlyBoarding as number[])[r.data.totals.peakHour!]).toBe(r.data.totals.peakBoarding);
  });

  it('the day row kept at store time equals the recompute over the stored uploads', async () => {
    const store = new PassengerStore((server.app.storage as SqliteStorage).db);
    const live = store.days([bus.vehicleId], today, today).get(bus.vehicleId)![0]!.row;
    expect(passengerDay(store.uploads(bus.vehicleId, today), 80)).toEqual(live);
    expect(store.recompute(bus.vehicleId, today, Date.now())).toEqual(live);
  });

  it('exports the rows as an .xlsx job; without the export bit the call is refused', async () => {
    const start = await server.call<{ taskId: string }>('POST', `${PASSENGERFLOW_BASE}/car/excel`, { token: admin, body: { startDate: chinaDateOfDay(today - 1), endDate: chinaDateOfDay(today) } });
    expect(start.code).toBe(200);
    let status: Rec = {};
    for (let i = 0; i < 50 && status.status !== 'done'; i++) {
      status = (await server.call<Rec>('GET', `${PASSENGERFLOW_BASE}/car/export_status?taskId=${start.data.taskId}`, { token: admin })).data;
      if (status.status !== 'done') await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toMatchObject({ status: 'done', total: 3, exported: 3 });
    const address = server.app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${address.port}${PASSENGERFLOW_BASE}/car/excel_file?taskId=${start.data.taskId}`, { headers: { 'x-jwt': admin } });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const values = book.worksheets[0]!.getColumn(5).values.filter((v) => typeof v === 'number');
    expect(values).toContain(92);
    const refused = await server.call('POST', `${PASSENGERFLOW_BASE}/car/excel`, { token: branch, body: { startDate: chinaDateOfDay(today), endDate: chinaDateOfDay(today) } });
    expect(refused.status).toBe(403);
  });

  it('refuses a reversed period in words', async () => {
    const r = await server.call('POST', `${PASSENGERFLOW_BASE}/car`, { token: admin, body: period(today, today - 1), lang: 'en' });
    expect(r.status).toBe(400);
    expect(r.msg).toMatch(/start/i);
  });

  it('supervision takes up to 1,000 vehicles (the spec’s cap for it), the other lists 500; beyond, a sentence naming the cap', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    const car600 = await server.call('POST', `${PASSENGERFLOW_BASE}/car`, { token: admin, body: period(today, today, { vehicleIds: ids(600) }) });
    expect(car600.status).toBe(400);
    expect(car600.msg).toBe('最多选择500辆车，请缩小公司或勾选车辆');
    const sup1000 = await server.call<Page<Rec>>('POST', `${PASSENGERFLOW_BASE}/supervision`, { token: admin, body: period(today, today, { vehicleIds: ids(1000) }) });
    expect(sup1000.code).toBe(200);
    expect(sup1000.data.records.some((r) => r.vehicleId === bus.vehicleId)).toBe(true);
    const sup1001 = await server.call('POST', `${PASSENGERFLOW_BASE}/supervision`, { token: admin, body: period(today, today, { vehicleIds: ids(1001) }) });
    expect(sup1001.status).toBe(400);
    expect(sup1001.msg).toBe('客流监管最多选择1000辆车，请缩小公司或勾选车辆');
    const export1001 = await server.call('POST', `${PASSENGERFLOW_BASE}/supervision/excel`, { token: admin, body: { startDate: chinaDateOfDay(today), endDate: chinaDateOfDay(today), vehicleIds: ids(1001) } });
    expect(export1001.status).toBe(400);
  });

  it('lineAnalysis takes chosen lines (at most 30, the spec’s cap) and lists only their stops', async () => {
    const mine = await server.call<Page<Rec>>('POST', `${PASSENGERFLOW_BASE}/line`, { token: branch, body: period(today - 1, today, { lineIds: [lineId] }) });
    expect(mine.code).toBe(200);
    expect(new Set(mine.data.records.map((r) => r.lineId))).toEqual(new Set([lineId]));
    const none = await server.call<Page<Rec>>('POST', `${PASSENGERFLOW_BASE}/line`, { token: branch, body: period(today - 1, today, { lineIds: [lineId + 1000] }) });
    expect(none.data.records).toEqual([]);
    const ids31 = Array.from({ length: 31 }, (_, i) => lineId + i);
    const list31 = await server.call('POST', `${PASSENGERFLOW_BASE}/line`, { token: branch, body: period(today, today, { lineIds: ids31 }) });
    expect(list31.status).toBe(400);
    expect(list31.msg).toBe('线路客流最多选择30条线路');
    const export31 = await server.call('POST', `${PASSENGERFLOW_BASE}/line/excel`, { token: admin, body: { startDate: chinaDateOfDay(today), endDate: chinaDateOfDay(today), lineIds: ids31 } });
    expect(export31.status).toBe(400);
  });

  // Last in this block: it changes the bus company's rated load, which the figures above were judged with.
  it('the rated load is the company parameter set on /system/param: lowered to 25, the next count with 27 on board is an overload', async () => {
    const tree = await server.call<unknown[]>('GET', '/service-priv/paramconfig/system/findAll', { token: admin });
    const find = (nodes: unknown[]): Rec | undefined => {
      for (const n of nodes as Rec[]) {
        if (n.paramKey === 'passengers.rated') return n;
        const hit = find((n.children as unknown[] | undefined) ?? []);
        if (hit) return hit;
      }
      return undefined;
    };
    const node = find(Array.isArray(tree.data) ? tree.data : ((tree.data as unknown as Rec).tree as unknown[]));
    expect(node).toBeDefined();
    const tooBig = await server.call('POST', '/service-priv/paramconfig/system/update', { token: admin, body: { id: node!.id, value: '301', companyId: bus.companyId } });
    expect(tooBig.status).toBe(400);
    const set = await server.call('POST', '/service-priv/paramconfig/system/update', { token: admin, body: { id: node!.id, value: '25', companyId: bus.companyId } });
    expect(set.code).toBe(200);
    const before = (await server.call<Page<Rec>>('POST', `${PASSENGERFLOW_BASE}/supervision`, { token: branch, body: period(today - 1, today) })).data.records[0]!;
    const at = sec(server.clock.now()) - 1000;
    await send(terminals[0]!, { msgId: 0x1005, start: at - 30_000, end: at, boarding: 2, alighting: 2, line: { door: 1, direction: 0, stationSeq: 2, onboard: 27 } });
    const after = (await server.call<Page<Rec>>('POST', `${PASSENGERFLOW_BASE}/supervision`, { token: branch, body: period(today - 1, today) })).data.records[0]!;
    expect(after).toMatchObject({ vehicleId: bus.vehicleId, uploads: Number(before.uploads) + 1, overloads: Number(before.overloads) + 1 });
  });

  it('lineAnalysis without chosen lines refuses in words when the vehicles served more than 30 lines', async () => {
    // The bus is moved onto 31 more lines of its company, one count on each (the line is read when a count is folded).
    const db = (server.app.storage as SqliteStorage).db;
    const at = sec(server.clock.now()) - 1000;
    for (let i = 0; i < 31; i++) {
      const id = Number(db.prepare('INSERT INTO line (name, company_id, create_time) VALUES (?, ?, ?)').run(`加开${i + 1}路`, bus.companyId, Date.now()).lastInsertRowid);
      db.prepare('UPDATE vehicle SET line_id = ? WHERE id = ?').run(id, bus.vehicleId);
      await send(terminals[0]!, { msgId: 0x1005, start: at - 30_000 - i * 1000, end: at - i * 1000, boarding: 1, alighting: 0, line: { door: 1, direction: 0, stationSeq: 1, onboard: 1 } });
    }
    const all = await server.call('POST', `${PASSENGERFLOW_BASE}/line`, { token: branch, body: period(today, today) });
    expect(all.status).toBe(400);
    expect(all.msg).toBe('所选车辆行驶了超过30条线路，请选择线路（最多30条）');
    const chosen = await server.call<Page<Rec>>('POST', `${PASSENGERFLOW_BASE}/line`, { token: branch, body: period(today, today, { lineIds: [lineId] }) });
    expect(chosen.code).toBe(200);
  });
});

describe('temperature report (0x0E30 through the gateway)', () => {
  it('lists measurements with type, mask, image and upload time; figures: count, suspected fever ≥ 37.3 °C, normal rate', async () => {
    const r = await server.call<Page<Rec>>('POST', `${TEMPERATURE_BASE}/list`, { token: branch, body: period(today, today) });
    expect(r.code).toBe(200);
    expect(r.data.records.map((x) => [x.celsius, x.fever, x.mask, x.mediaId])).toEqual([[36.5, false, true, null], [37.5, true, false, 42], [37.2, false, null, null]]);
    expect(r.data.records[0]).toMatchObject({ vehicleId: bus.vehicleId, kind: 0, uploadTime: expect.any(Number) });
    expect(r.data.totals).toMatchObject({ count: 3, fever: 1, normal: 2, normalRate: 66.7, masked: 1, maxCelsius: 37.5 });
  });

  it('a measurement\'s face photo (0x0801 under its multimedia id) is served to the report behind its bit, scoped to the company', async () => {
    const [t, u] = terminals as [TestTerminal, TestTerminal];
    const db = (server.app.storage as SqliteStorage).db;
    const jpeg = (seed: number) => Uint8Array.from({ length: 700 }, (_, i) => (i < 2 ? [0xff, 0xd8][i]! : (i * 31 + seed) & 0xff));
    const upload = (term: TestTerminal, mediaId: number, data: Uint8Array) => term.sendSplit({
      msgId: 0x0801, mediaId, mediaType: 0, format: 0, eventCode: 0, channel: 1, data,
      location: { alarm: 0, status: 3, lat: 31.3, lng: 120.6, altitude: 5, speed: 0, direction: 0, time: sec(server.clock.now()) },
    } as never, 512);
    const photoOf = async (vehicleId: number, mediaId: number) => {
      for (let i = 0; i < 200; i++) {
        const id = db.prepare('SELECT id FROM media_item WHERE vehicle_id = ? AND device_media_id = ?').pluck().get(vehicleId, mediaId) as number | undefined;
        if (id !== undefined) return id;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`photo ${mediaId} was not stored`);
    };
    const face = jpeg(42);
    upload(t, 42, face); // the fever measurement's photo
    upload(t, 44, jpeg(44)); // a photo of the bus no measurement names
    const now = sec(server.clock.now());
    await send(u, { msgId: 0x0e30, time: now, kind: 1, mask: true, celsius: 36.6, mediaId: 43 }); // the other branch's measurement and photo
    upload(u, 43, jpeg(43));
    const mine = await photoOf(bus.vehicleId, 42);
    const unnamed = await photoOf(bus.vehicleId, 44);
    const theirs = await photoOf(other.vehicleId, 43);

    const r = await server.call<Page<Rec>>('POST', `${TEMPERATURE_BASE}/list`, { token: branch, body: period(today, today) });
    expect(r.data.records.map((x) => [x.mediaId, x.photoId])).toEqual([[null, null], [42, mine], [null, null]]);
    const fetchPhoto = (id: number, token: string) => fetch(`${serverUrl()}${TEMPERATURE_BASE}/photo/${id}`, { headers: { 'x-jwt': token } });
    const ok = await fetchPhoto(mine, branch);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/jpeg');
    expect(new Uint8Array(await ok.arrayBuffer())).toEqual(face);
    // Another company's measurement photo is not found for the branch analyst; the administrator sees it.
    expect((await fetchPhoto(theirs, branch)).status).toBe(404);
    expect((await fetchPhoto(theirs, admin)).status).toBe(200);
    // The report's bit opens measurement photos only, not every photo of the company.
    expect((await fetchPhoto(unnamed, branch)).status).toBe(404);
    const missing = await server.call('GET', `${TEMPERATURE_BASE}/photo/${unnamed}`, { token: branch, lang: 'en' });
    expect(missing.msg).toBe('The photo does not exist or has expired');
  });

  it('refuses more than 7 days in words', async () => {
    const r = await server.call('POST', `${TEMPERATURE_BASE}/list`, { token: admin, body: period(today - 7, today) });
    expect(r.status).toBe(400);
    expect(r.msg).toBe('温度报表查询时间段不能超过7天');
  });
});

export type { PassengerReportDeps };
