/**
 * Lines (/information/lineManagement): the declared calls (page, create, update, delete) and the
 * hand-written ones (detail, stations, vehicles): company scoping, button bits, names unique per company,
 * stations replaced per direction in one transaction, vehicles on a line only from its company subtree,
 * the operator log, the company tree's L nodes, and the seeded stations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stationProblems, type Station } from '../../../domain/fleet/line.ts';
import { LINE_LIMITS } from '../../../domain/fleet/limits.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { changedTables, fingerprint } from '../../test/db-fingerprint.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { createUserWithRole, permissionId } from '../../test/users.ts';
import { LiveStore } from '../../live/store.ts';
import { mapHint } from './lines.ts';

const PAGE = '/information/lineManagement';
const bits = (...buttons: string[]) => [permissionId('/information'), permissionId(PAGE), ...buttons.map((b) => permissionId(`${PAGE}:${b}`))];

interface Line {
  id: number; companyId: number; companyName: string; name: string; code: string; remark: string; vehicleCount: number;
  upStationCount: number; downStationCount: number; upLengthKm: number; downLengthKm: number; updateTime: number;
}
interface Detail extends Line { stations: { up: Station[]; down: Station[] }; vehicles: { id: number; vehiidno: string; companyId: number }[] }
interface Page<T> { records: T[]; total: number }
interface Company { id: number; pid: number; name: string }
interface LogRow { resource: string; record_id: number; operation: string; label: string; company_id: number; user_name: string; before: string | null; after: string | null }

let server: TestServer;
let admin: string;
let companies: Company[];
const byName = (name: string) => {
  const c = companies.find((x) => x.name === name);
  if (!c) throw new Error(`no company ${name}`);
  return c;
};
const db = () => (server.app.storage as SqliteStorage).db;
const logRows = (resource: string, recordId: number) => db().prepare('SELECT * FROM change_log WHERE resource = ? AND record_id = ? ORDER BY id').all(resource, recordId) as LogRow[];
const vehiclesOf = (companyId: number) => db().prepare('SELECT id, vehiidno, line_id FROM vehicle WHERE company_id = ? ORDER BY id').all(companyId) as { id: number; vehiidno: string; line_id: number | null }[];

const st = (name: string, lng: number, lat: number): Station => ({ name, lng, lat });

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin', 'admin123');
  companies = (await server.call<Company[]>('GET', '/service-priv/company/tree', { token: admin })).data;
});
afterAll(() => server.close());

describe('seeded lines', () => {
  it('the demo bus lines come with codes and stations in both directions that pass the rules', async () => {
    const r = await server.call<Page<Line>>('GET', '/service-priv/line/page?size=100', { token: admin });
    expect(r.code).toBe(200);
    const airport = r.data.records.find((l) => l.name === '机场快线');
    expect(airport).toMatchObject({ code: 'JC1', companyName: '深圳公交车队', upStationCount: 8, downStationCount: 8 });
    expect(airport!.upLengthKm).toBeGreaterThan(20);
    expect(airport!.vehicleCount).toBeGreaterThan(0);
    const detail = await server.call<Detail>('GET', `/service-priv/line/${airport!.id}`, { token: admin });
    expect(detail.data.stations.up[0]!.name).toBe('宝安机场T3');
    expect(detail.data.stations.down[0]!.name).toBe('福田交通枢纽');
    expect(stationProblems(detail.data.stations.up)).toEqual([]);
    expect(stationProblems(detail.data.stations.down)).toEqual([]);
    expect(detail.data.vehicles.length).toBe(airport!.vehicleCount);
  });

  it('keyword matches the name or the code', async () => {
    const byCode = await server.call<Page<Line>>('GET', '/service-priv/line/page?keyword=gf12', { token: admin });
    expect(byCode.data.records.map((l) => l.name)).toEqual(['高峰专线12号']);
    const byName2 = await server.call<Page<Line>>(`GET`, `/service-priv/line/page?keyword=${encodeURIComponent('机场')}`, { token: admin });
    expect(byName2.data.records.map((l) => l.name)).toEqual(['机场快线']);
  });
});

describe('create, update, names', () => {
  it('a name is unique within its company (409 on the field), a code too; the same name in another company is fine', async () => {
    const fleet = byName('深圳公交车队');
    const dup = await server.call('POST', '/service-priv/line', { token: admin, lang: 'en', body: { name: 'm201路', companyId: fleet.id } });
    expect(dup.status).toBe(409);
    expect(dup.msg).toBe('The line "m201路" already exists');
    const dupCode = await server.call('POST', '/service-priv/line', { token: admin, lang: 'zh', body: { name: '新线', code: 'm201', companyId: fleet.id } });
    expect(dupCode.status).toBe(409);
    expect(dupCode.msg).toBe('线路编号「m201」已被使用');
    const elsewhere = await server.call<Line>('POST', '/service-priv/line', { token: admin, body: { name: 'M201路', code: 'M201', companyId: byName('广州城配车队').id } });
    expect(elsewhere.code).toBe(200);
    expect(elsewhere.data).toMatchObject({ name: 'M201路', companyName: '广州城配车队', vehicleCount: 0, upStationCount: 0 });
    // Rename onto a taken name: 409; a rename keeps the company whatever companyId the console sends.
    const other = await server.call<Line>('POST', '/service-priv/line', { token: admin, body: { name: ' 广州专线 ', remark: '测试', companyId: byName('广州城配车队').id } });
    expect(other.data.name).toBe('广州专线');
    expect((await server.call('PUT', '/service-priv/line', { token: admin, body: { id: other.data.id, name: 'M201路' } })).status).toBe(409);
    const renamed = await server.call<Line>('PUT', '/service-priv/line', { token: admin, body: { id: other.data.id, name: '广州二号线', companyId: fleet.id } });
    expect(renamed.data).toMatchObject({ name: '广州二号线', remark: '测试', companyId: byName('广州城配车队').id });
    const log = logRows('line', other.data.id);
    expect(log.map((r) => r.operation)).toEqual(['create', 'update']);
    expect(JSON.parse(log[1]!.before!)).toEqual({ name: '广州专线' });
    expect(JSON.parse(log[1]!.after!)).toEqual({ name: '广州二号线' });
  });

  it('400 with nothing written for bad input', async () => {
    const before = fingerprint(server.app);
    for (const body of [{ name: '' }, { name: '   ' }, { name: 'x'.repeat(LINE_LIMITS.nameMax + 1) }, { name: 'a', code: 'x'.repeat(LINE_LIMITS.codeMax + 1) }, { name: 'a', colour: 1 }]) {
      expect((await server.call('POST', '/service-priv/line', { token: admin, body })).status).toBe(400);
    }
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  });
});

describe('stations', () => {
  it('replaces one direction in order, leaves the other, logs before and after', async () => {
    const made = await server.call<Line>('POST', '/service-priv/line', { token: admin, body: { name: '站点测试线', companyId: byName('深圳公交车队').id } });
    const id = made.data.id;
    const up = [st('甲', 114.05, 22.54), st('乙', 114.06, 22.545), st('丙', 114.07, 22.55)];
    const r = await server.call<Detail>('PUT', '/service-priv/line/stations', { token: admin, body: { lineId: id, direction: 0, stations: up } });
    expect(r.code).toBe(200);
    expect(r.data.stations.up.map((s) => s.name)).toEqual(['甲', '乙', '丙']);
    expect(r.data).toMatchObject({ upStationCount: 3, downStationCount: 0 });
    expect(r.data.upLengthKm).toBeGreaterThan(2);
    const down = [st('丙', 114.0702, 22.5498), st('甲', 114.0502, 22.5398)];
    await server.call('PUT', '/service-priv/line/stations', { token: admin, body: { lineId: id, direction: 1, stations: down } });
    // Replaced, not appended: two stations in a new order; the down direction untouched.
    const again = await server.call<Detail>('PUT', '/service-priv/line/stations', { token: admin, body: { lineId: id, direction: 0, stations: [up[2], up[0]] } });
    expect(again.data.stations.up.map((s) => s.name)).toEqual(['丙', '甲']);
    expect(again.data.stations.down.map((s) => s.name)).toEqual(['丙', '甲']);
    expect(db().prepare('SELECT seq FROM line_station WHERE line_id = ? AND direction = 0 ORDER BY seq').all(id)).toEqual([{ seq: 1 }, { seq: 2 }]);
    const rows = logRows('line', id);
    expect(rows.map((x) => x.operation)).toEqual(['create', 'update', 'update', 'update']);
    expect(JSON.parse(rows[3]!.before!).upStations.map((s: Station) => s.name)).toEqual(['甲', '乙', '丙']);
    expect(JSON.parse(rows[3]!.after!).upStations.map((s: Station) => s.name)).toEqual(['丙', '甲']);
    // The same list again changes nothing and logs nothing.
    await server.call('PUT', '/service-priv/line/stations', { token: admin, body: { lineId: id, direction: 0, stations: [up[2], up[0]] } });
    expect(logRows('line', id).length).toBe(4);
    // An empty list clears the direction.
    const cleared = await server.call<Detail>('PUT', '/service-priv/line/stations', { token: admin, body: { lineId: id, direction: 1, stations: [] } });
    expect(cleared.data.downStationCount).toBe(0);
  });

  it('a list that breaks a rule writes nothing: duplicate names, bad positions, too many, bad direction', async () => {
    const line = (await server.call<Page<Line>>('GET', `/service-priv/line/page?keyword=${encodeURIComponent('站点测试线')}`, { token: admin })).data.records[0]!;
    const before = fingerprint(server.app);
    const dup = await server.call<unknown>('PUT', '/service-priv/line/stations', { token: admin, lang: 'zh', body: { lineId: line.id, direction: 0, stations: [st('甲', 114, 22.5), st('乙', 114.01, 22.5), st(' 甲 ', 114.02, 22.5)] } });
    expect(dup.status).toBe(400);
    expect(dup.msg).toBe('第 3 个站点「甲」与第 1 个重名');
    const raw = await fetch(`${server.url}/service-priv/line/stations`, { method: 'PUT', headers: { 'x-jwt': admin, 'content-type': 'application/json', 'x-lang': 'en' }, body: JSON.stringify({ lineId: line.id, direction: 0, stations: [st('甲', 0, 0)] }) });
    const body = await raw.json() as { msg: string; errors: Record<string, { code: string; params: { index: number } }> };
    expect(raw.status).toBe(400);
    expect(body.errors.stations).toMatchObject({ code: 'badPosition', params: { index: 0 } });
    expect(body.msg).toBe('Station 1 has an invalid position');
    const many = Array.from({ length: LINE_LIMITS.stationsMax + 1 }, (_, i) => st(`站${i}`, 114 + i * 1e-4, 22.5));
    expect((await server.call('PUT', '/service-priv/line/stations', { token: admin, body: { lineId: line.id, direction: 0, stations: many } })).status).toBe(400);
    expect((await server.call('PUT', '/service-priv/line/stations', { token: admin, body: { lineId: line.id, direction: 2, stations: [] } })).status).toBe(400);
    expect((await server.call('PUT', '/service-priv/line/stations', { token: admin, body: { lineId: line.id, direction: 0, stations: [st('甲', 181, 22.5)] } })).status).toBe(400);
    expect((await server.call('PUT', '/service-priv/line/stations', { token: admin, body: { lineId: line.id, direction: 0, stations: [{ name: '甲', lng: 114 }] } })).status).toBe(400);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  });
});

describe('vehicles on a line', () => {
  it('puts vehicles of the line company subtree on it, logs each vehicle and the line, takes them off again', async () => {
    const fleet = byName('深圳公交车队');
    const line = (await server.call<Line>('POST', '/service-priv/line', { token: admin, body: { name: '车辆测试线', companyId: fleet.id } })).data;
    const [v1, v2] = vehiclesOf(fleet.id);
    const r = await server.call<{ changed: number; vehicleCount: number }>('POST', '/service-priv/line/vehicles', { token: admin, body: { lineId: line.id, vehicleIds: [v1!.id, v2!.id] } });
    expect(r.data).toEqual({ changed: 2, vehicleCount: 2 });
    const detail = await server.call<Detail>('GET', `/service-priv/line/${line.id}`, { token: admin });
    expect(detail.data.vehicles.map((v) => v.id).sort()).toEqual([v1!.id, v2!.id].sort());
    const vlog = logRows('vehicle', v1!.id).at(-1)!;
    expect(vlog).toMatchObject({ operation: 'update', label: v1!.vehiidno, company_id: fleet.id, user_name: '系统管理员' });
    expect(JSON.parse(vlog.before!)).toEqual({ lineId: v1!.line_id });
    expect(JSON.parse(vlog.after!)).toEqual({ lineId: line.id });
    expect(JSON.parse(logRows('line', line.id).at(-1)!.after!)).toMatchObject({ vehicleCount: 2 });
    // Putting them on again changes nothing.
    expect((await server.call<{ changed: number }>('POST', '/service-priv/line/vehicles', { token: admin, body: { lineId: line.id, vehicleIds: [v1!.id] } })).data.changed).toBe(0);

    // A vehicle of another company (not below the line's) is refused, naming its plate; nothing written.
    const foreign = vehiclesOf(byName('广州城配车队').id)[0]!;
    const before = fingerprint(server.app);
    const refused = await server.call('POST', '/service-priv/line/vehicles', { token: admin, lang: 'zh', body: { lineId: line.id, vehicleIds: [v1!.id, foreign.id] } });
    expect(refused.status).toBe(400);
    expect(refused.msg).toContain(foreign.vehiidno);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);

    // The line with vehicles is not deleted (409 naming how many).
    const del = await server.call('DELETE', `/service-priv/line?ids=${line.id}`, { token: admin, lang: 'zh' });
    expect(del.status).toBe(409);
    expect(del.msg).toBe('线路「车辆测试线」上还有 2 辆车，请先将车辆移出线路再删除');

    const off = await server.call<{ changed: number; vehicleCount: number }>('POST', '/service-priv/line/vehicles', { token: admin, body: { lineId: line.id, vehicleIds: [v1!.id, v2!.id], remove: true } });
    expect(off.data).toEqual({ changed: 2, vehicleCount: 0 });
    expect(vehiclesOf(fleet.id).find((v) => v.id === v1!.id)!.line_id).toBeNull();
    await server.call('PUT', '/service-priv/line/stations', { token: admin, body: { lineId: line.id, direction: 0, stations: [st('一', 114, 22.5)] } });
    const gone = await server.call<{ deleted: number }>('DELETE', `/service-priv/line?ids=${line.id}`, { token: admin });
    expect(gone.data.deleted).toBe(1);
    expect(db().prepare('SELECT count(*) n FROM line_station WHERE line_id = ?').get(line.id)).toEqual({ n: 0 });
    expect(logRows('line', line.id).at(-1)!.operation).toBe('delete');
  });

  it('a line takes vehicles of its own company or of a company above it (the vehicle form\'s rule), never of one below or beside', async () => {
    const branch = byName('华南分公司');
    const fleet = byName('深圳公交车队');
    await server.app.storage.fleet.createVehicles([{ vehiidno: '粤B总部01', companyId: branch.id, lineId: null, deviceNo: null, vin: '' }]);
    const branchVehicle = (db().prepare('SELECT id FROM vehicle WHERE vehiidno = ?').get('粤B总部01') as { id: number }).id;
    const fleetLine = (await server.call<Line>('POST', '/service-priv/line', { token: admin, body: { name: '车队线路', companyId: fleet.id } })).data;
    const branchLine = (await server.call<Line>('POST', '/service-priv/line', { token: admin, body: { name: '分公司线路', companyId: branch.id } })).data;
    const ok1 = await server.call<{ changed: number }>('POST', '/service-priv/line/vehicles', { token: admin, body: { lineId: fleetLine.id, vehicleIds: [branchVehicle] } });
    expect(ok1.data.changed).toBe(1);
    const fleetVehicle = vehiclesOf(fleet.id)[0]!;
    const before = fingerprint(server.app);
    const refused = await server.call('POST', '/service-priv/line/vehicles', { token: admin, lang: 'zh', body: { lineId: branchLine.id, vehicleIds: [fleetVehicle.id] } });
    expect(refused.status).toBe(400);
    expect(refused.msg).toBe(`线路「分公司线路」不属于车辆 ${fleetVehicle.vehiidno} 的所属公司或其下级公司`);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
    // The owner sees it in its tree under the line.
    const under = await server.call<{ id: string }[]>('GET', `/service-priv/company/treeStruct?nodeId=L_${fleetLine.id}`, { token: admin });
    expect(under.data.map((n) => n.id)).toEqual([`V_${branchVehicle}`]);
  });

  it('the company tree shows a new line at once, with its vehicles under it', async () => {
    const fleet = byName('广州城配车队');
    const line = (await server.call<Line>('POST', '/service-priv/line', { token: admin, body: { name: '树节点测试线', companyId: fleet.id } })).data;
    const v = vehiclesOf(fleet.id)[0]!;
    await server.call('POST', '/service-priv/line/vehicles', { token: admin, body: { lineId: line.id, vehicleIds: [v.id] } });
    const nodes = await server.call<{ id: string; name: string; vehicleCount: number }[]>('GET', `/service-priv/company/treeStruct?nodeId=C_${fleet.id}`, { token: admin });
    expect(nodes.data.find((n) => n.id === `L_${line.id}`)).toMatchObject({ name: '树节点测试线', vehicleCount: 1 });
    const under = await server.call<{ id: string }[]>('GET', `/service-priv/company/treeStruct?nodeId=L_${line.id}`, { token: admin });
    expect(under.data.map((n) => n.id)).toEqual([`V_${v.id}`]);
  });
});

describe('company scoping', () => {
  it('a branch user sees and changes only its subtree: foreign lines 404, foreign companyId 403, foreign vehicles 404', async () => {
    const east = byName('华东分公司');
    const eastFleet = byName('上海浦东车队');
    const south = byName('深圳公交车队');
    const eastUser = await createUserWithRole(server, 'line_east', east.id, bits('create', 'update', 'delete'));
    const own = await server.call<Line>('POST', '/service-priv/line', { token: eastUser, body: { name: '浦东1号线', companyId: eastFleet.id } });
    expect(own.data).toMatchObject({ companyId: eastFleet.id });
    const seen = await server.call<Page<Line>>('GET', '/service-priv/line/page?size=500', { token: eastUser });
    expect(seen.data.records.map((l) => l.name)).toEqual(['浦东1号线']);
    const foreignLine = (await server.call<Page<Line>>('GET', '/service-priv/line/page?keyword=M201', { token: admin })).data.records.find((l) => l.companyId === south.id)!;
    const southVehicle = vehiclesOf(south.id)[0]!;
    const eastVehicle = vehiclesOf(eastFleet.id)[0]!;

    const before = fingerprint(server.app);
    expect((await server.call('GET', `/service-priv/line/${foreignLine.id}`, { token: eastUser })).status).toBe(404);
    expect((await server.call('PUT', '/service-priv/line', { token: eastUser, body: { id: foreignLine.id, name: 'x' } })).status).toBe(404);
    expect((await server.call('DELETE', `/service-priv/line?ids=${foreignLine.id}`, { token: eastUser })).status).toBe(404);
    expect((await server.call('DELETE', `/service-priv/line?ids=${own.data.id}&ids=${foreignLine.id}`, { token: eastUser })).status).toBe(404);
    expect((await server.call('PUT', '/service-priv/line/stations', { token: eastUser, body: { lineId: foreignLine.id, direction: 0, stations: [] } })).status).toBe(404);
    expect((await server.call('POST', '/service-priv/line/vehicles', { token: eastUser, body: { lineId: foreignLine.id, vehicleIds: [eastVehicle.id] } })).status).toBe(404);
    // Its own line, another branch's vehicle: that vehicle does not exist for this user.
    expect((await server.call('POST', '/service-priv/line/vehicles', { token: eastUser, body: { lineId: own.data.id, vehicleIds: [eastVehicle.id, southVehicle.id] } })).status).toBe(404);
    expect((await server.call('GET', `/service-priv/line/page?companyId=${south.id}`, { token: eastUser })).status).toBe(403);
    expect((await server.call('POST', '/service-priv/line', { token: eastUser, body: { name: 'y', companyId: south.id } })).status).toBe(403);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);

    const put = await server.call<{ changed: number }>('POST', '/service-priv/line/vehicles', { token: eastUser, body: { lineId: own.data.id, vehicleIds: [eastVehicle.id] } });
    expect(put.data.changed).toBe(1);
  });
});

describe('button bits', () => {
  it('the page bit reads; create, update (stations, vehicles) and delete each need their own bit', async () => {
    const fleet = byName('北京第一车队');
    const viewer = await createUserWithRole(server, 'line_viewer', fleet.id, bits());
    const creator = await createUserWithRole(server, 'line_creator', fleet.id, bits('create'));
    expect((await server.call('GET', '/service-priv/line/page', { token: viewer })).code).toBe(200);
    const before = fingerprint(server.app);
    expect((await server.call('POST', '/service-priv/line', { token: viewer, body: { name: 'v' } })).status).toBe(403);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
    const made = await server.call<Line>('POST', '/service-priv/line', { token: creator, body: { name: '北京专线' } });
    expect(made.data).toMatchObject({ companyId: fleet.id });
    expect((await server.call('GET', `/service-priv/line/${made.data.id}`, { token: viewer })).code).toBe(200);
    const v = vehiclesOf(fleet.id)[0]!;
    const operator = await server.login('operator', 'operator123');
    const frozen = fingerprint(server.app);
    expect((await server.call('PUT', '/service-priv/line', { token: creator, body: { id: made.data.id, name: '改名' } })).status).toBe(403);
    expect((await server.call('PUT', '/service-priv/line/stations', { token: creator, body: { lineId: made.data.id, direction: 0, stations: [] } })).status).toBe(403);
    expect((await server.call('POST', '/service-priv/line/vehicles', { token: creator, body: { lineId: made.data.id, vehicleIds: [v.id] } })).status).toBe(403);
    expect((await server.call('DELETE', `/service-priv/line?ids=${made.data.id}`, { token: creator })).status).toBe(403);
    expect((await server.call('GET', '/service-priv/line/page', { token: operator })).status).toBe(403);
    expect((await server.call('GET', `/service-priv/line/${made.data.id}`, { token: operator })).status).toBe(403);
    expect(changedTables(frozen, fingerprint(server.app))).toEqual([]);
  });
});

describe('where the editor opens a line without stations', () => {
  it('the median position of the line\'s vehicles, else of its company subtree\'s, else nowhere', () => {
    const store = new LiveStore();
    const add = (vehicleId: number, companyPath: string, lng?: number, lat?: number) => {
      store.upsertVehicle({ vehicleId, companyId: Number(companyPath.split('/').at(-2)), companyPath });
      if (lng !== undefined && lat !== undefined) store.applyPosition({ vehicleId, lng, lat, speed: 0, heading: 0, altitude: 0, statusFlags: 0, alarmFlags: 0, gpsTime: 1 });
    };
    add(1, '/1/4/9/', 114.05, 22.54);
    add(2, '/1/4/9/', 114.07, 22.55);
    add(3, '/1/4/9/', 120.6, 31.3); // a drifting one: the median ignores it
    add(4, '/1/2/5/', 116.4, 39.9);
    add(5, '/1/4/9/'); // never reported
    expect(mapHint(store, new Set([1, 2, 3]), '/1/4/9/')).toEqual({ lng: 114.07, lat: 22.55 });
    expect(mapHint(store, new Set([5]), '/1/2/')).toEqual({ lng: 116.4, lat: 39.9 });
    expect(mapHint(store, new Set(), '/1/4/')).toEqual({ lng: 114.07, lat: 22.55 });
    expect(mapHint(store, new Set(), '/1/7/')).toBeNull();
  });
});
