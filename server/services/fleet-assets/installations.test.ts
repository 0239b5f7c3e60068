/**
 * Installation records (/information/vehicle_installed): create (a binding change with photos checked by
 * their bytes), page and detail in scope, photo bytes, edit (own fields and photos, never devices),
 * delete (records only), the bits, and 400/404/409 with nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { changedTables, fingerprint } from '../../test/db-fingerprint.ts';
import { createUserWithRole, permissionId } from '../../test/users.ts';

const PAGE = '/information/vehicle_installed';
const bits = (...buttons: string[]) => [permissionId('/information'), permissionId(PAGE), ...buttons.map((b) => permissionId(`${PAGE}:${b}`))];

interface Photo { id: number; name: string; mime: string; size: number }
interface Record_ {
  id: number; vehicleId: number; plate: string; companyId: number; companyName: string; kind: string; oldDeviceNo: string | null; newDeviceNo: string | null;
  installer: string; installTime: number; remark: string; userName: string; photoCount: number; photos: Photo[];
}
interface Page<T> { records: T[]; total: number }

let server: TestServer;
let db: SqliteStorage['db'];
let admin: string;
let eastUser: string;
let southUser: string;
let readOnly: string;
let east: { id: number; path: string };
let eastFleet: number;
let south: { id: number; path: string };
const now = Date.now();

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7), Buffer.from([0xff, 0xd9])]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(120, 3)]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
const photo = (name: string, bytes: Buffer, type?: string) => ({ name, data: bytes.toString('base64'), ...(type ? { type } : {}) });

const company = (name: string) => db.prepare('SELECT id, path FROM company WHERE name = ?').get(name) as { id: number; path: string };
function addDevice(no: string, companyId: number): void {
  db.prepare('INSERT INTO device (device_no, company_id, create_time, update_time) VALUES (?, ?, ?, ?)').run(no, companyId, now, now);
}
function addVehicle(plate: string, companyId: number, deviceNo: string | null = null): number {
  return Number(db.prepare('INSERT INTO vehicle (vehiidno, company_id, device_no, vin, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)')
    .run(plate, companyId, deviceNo, '', now, now).lastInsertRowid);
}
const deviceOf = (vehicleId: number) => (db.prepare('SELECT device_no FROM vehicle WHERE id = ?').get(vehicleId) as { device_no: string | null }).device_no;
const logRows = (recordId: number) => db.prepare("SELECT operation, before, after, user_name FROM change_log WHERE resource = 'installation' AND record_id = ? ORDER BY id")
  .all(recordId) as { operation: string; before: string | null; after: string | null; user_name: string }[];

async function unchanged<T>(fn: () => Promise<T>): Promise<T> {
  const before = fingerprint(server.app);
  const r = await fn();
  expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  return r;
}

beforeAll(async () => {
  server = await startServer();
  db = (server.app.storage as SqliteStorage).db;
  admin = await server.login('admin', 'admin123');
  east = company('华东分公司');
  south = company('华南分公司');
  eastFleet = (db.prepare('SELECT id FROM company WHERE pid = ? ORDER BY id LIMIT 1').get(east.id) as { id: number }).id;
  eastUser = await createUserWithRole(server, 'inst_east', east.id, bits('create', 'update', 'delete'), '华东调度');
  southUser = await createUserWithRole(server, 'inst_south', south.id, bits('create', 'update', 'delete'));
  readOnly = await createUserWithRole(server, 'inst_ro', east.id, bits());
});
afterAll(() => server.close());

describe('seed', () => {
  it('every seeded binding has its records: the latest puts on the device the vehicle has, some replaced a failed terminal', async () => {
    const vehicles = db.prepare('SELECT id, device_no FROM vehicle WHERE device_no IS NOT NULL').all() as { id: number; device_no: string }[];
    expect(vehicles.length).toBeGreaterThan(0);
    for (const v of vehicles) {
      const recs = db.prepare('SELECT kind, old_device_no, new_device_no, install_time, installer FROM vehicle_installation WHERE vehicle_id = ? ORDER BY install_time').all(v.id) as { kind: string; old_device_no: string | null; new_device_no: string; install_time: number; installer: string }[];
      expect(recs.length).toBeGreaterThan(0);
      expect(recs.at(-1)!.new_device_no).toBe(v.device_no);
      expect(recs[0]!.kind).toBe('install');
      expect(recs.every((r) => r.install_time < now && r.installer !== '')).toBe(true);
      if (recs.length === 2) expect(recs[1]).toMatchObject({ kind: 'replace', old_device_no: recs[0]!.new_device_no });
    }
    const page = await server.call<Page<Record_>>('GET', '/service-priv/vehicle/installed_records?kind=replace&size=100', { token: admin });
    expect(page.data.total).toBeGreaterThan(0);
    expect(page.data.records[0]).toMatchObject({ userName: '系统管理员', kind: 'replace' });
    // Where the operator log holds a seeded binding, the install has its time.
    const bind = db.prepare("SELECT record_id, time FROM change_log WHERE resource = 'vehicle' AND operation = 'bind' LIMIT 1").get() as { record_id: number; time: number } | undefined;
    if (bind) expect((db.prepare('SELECT install_time FROM vehicle_installation WHERE vehicle_id = ?').get(bind.record_id) as { install_time: number }).install_time).toBe(bind.time);
  });
});

describe('create', () => {
  it('installs a device with photos: the record, the binding, the photos by their bytes, the log', async () => {
    addDevice('015500000001', east.id);
    const vehicleId = addVehicle('沪A·INS001', eastFleet);
    const r = await server.call<Record_>('POST', '/service-priv/vehicle/installed_record', {
      token: eastUser,
      body: { vehicleId, deviceNo: '015500000001', installer: '张师傅', installTime: now - 7_200_000, remark: '新车安装', photos: [photo('前装.jpg', JPEG, 'image/jpeg'), photo('线束.png', PNG)] },
    });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({
      vehicleId, plate: '沪A·INS001', companyId: eastFleet, kind: 'install', oldDeviceNo: null, newDeviceNo: '015500000001',
      installer: '张师傅', installTime: now - 7_200_000, remark: '新车安装', userName: '华东调度', photoCount: 2,
    });
    expect(r.data.photos.map((p) => [p.name, p.mime, p.size])).toEqual([['前装.jpg', 'image/jpeg', JPEG.length], ['线束.png', 'image/png', PNG.length]]);
    expect(deviceOf(vehicleId)).toBe('015500000001');
    const log = logRows(r.data.id);
    expect(log.map((l) => l.operation)).toEqual(['create']);
    expect(JSON.parse(log[0]!.after!)).toMatchObject({ kind: 'install', newDeviceNo: '015500000001', photos: ['前装.jpg', '线束.png'] });

    // The photo's bytes, with its type, for the record's company subtree only.
    const res = await fetch(`${server.url}/service-priv/vehicle/installed_records/photo?id=${r.data.photos[1]!.id}`, { headers: { 'x-jwt': eastUser } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    const foreign = await server.call('GET', `/service-priv/vehicle/installed_records/photo?id=${r.data.photos[1]!.id}`, { token: southUser });
    expect(foreign.status).toBe(404);
  });

  it('replaces and removes by the device given (a new number, or null)', async () => {
    addDevice('015500000011', eastFleet);
    addDevice('015500000012', eastFleet);
    const vehicleId = addVehicle('沪A·INS002', eastFleet, '015500000011');
    const replaced = await server.call<Record_>('POST', '/service-priv/vehicle/installed_record', { token: eastUser, body: { vehicleId, deviceNo: '015500000012', installer: '李工' } });
    expect(replaced.data).toMatchObject({ kind: 'replace', oldDeviceNo: '015500000011', newDeviceNo: '015500000012', photoCount: 0 });
    const removed = await server.call<Record_>('POST', '/service-priv/vehicle/installed_record', { token: eastUser, body: { vehicleId, deviceNo: null } });
    expect(removed.data).toMatchObject({ kind: 'remove', oldDeviceNo: '015500000012', newDeviceNo: null });
    expect(deviceOf(vehicleId)).toBeNull();
  });

  it('refuses with nothing written: a photo that is not JPEG/PNG by its bytes (named), a disagreeing type, a future time, no change, a device on another vehicle', async () => {
    addDevice('015500000021', eastFleet);
    addDevice('015500000022', eastFleet);
    addVehicle('沪A·HOLDER', eastFleet, '015500000022');
    const vehicleId = addVehicle('沪A·INS003', eastFleet);
    const post = (body: Record<string, unknown>, lang: 'zh' | 'en' = 'zh') => unchanged(() => server.call<unknown>('POST', '/service-priv/vehicle/installed_record', { token: eastUser, lang, body: { vehicleId, ...body } }));

    const gif = await post({ deviceNo: '015500000021', photos: [photo('ok.jpg', JPEG), photo('假照片.jpg', GIF, 'image/jpeg')] });
    expect(gif.status).toBe(400);
    expect(gif.msg).toBe('照片「假照片.jpg」不是 JPEG 或 PNG 图片');
    const mismatch = await post({ deviceNo: '015500000021', photos: [photo('pic.png', JPEG, 'image/png')] }, 'en');
    expect(mismatch.msg).toBe('The photo "pic.png" says image/png but its content is image/jpeg');
    const future = await post({ deviceNo: '015500000021', installTime: now + 86_400_000 });
    expect(future.status).toBe(400);
    expect(future.msg).toBe('安装时间不能晚于当前时间');
    const same = await post({ deviceNo: null }, 'en');
    expect(same.status).toBe(400);
    expect(same.msg).toBe('The vehicle has no device to remove');
    const taken = await post({ deviceNo: '015500000022' });
    expect(taken.status).toBe(409);
    expect(taken.msg).toContain('沪A·HOLDER');
    const tooMany = await post({ deviceNo: '015500000021', photos: Array.from({ length: 10 }, (_, i) => photo(`p${i}.jpg`, JPEG)) });
    expect(tooMany.status).toBe(400);
    expect((await post({ deviceNo: '15500000021' })).status).toBe(400);
    expect((await post({ deviceNo: '015500000021', kind: 'install' })).status).toBe(400);
    expect(deviceOf(vehicleId)).toBeNull();
  });

  it('scoping and bits: another branch\'s vehicle is 404, a device it cannot see reads as missing, no create bit is 403', async () => {
    addDevice('015500000031', south.id);
    addDevice('015500000032', east.id);
    const southVehicle = addVehicle('粤B·INS004', south.id);
    const eastVehicle = addVehicle('沪A·INS004', eastFleet);
    const a = await unchanged(() => server.call('POST', '/service-priv/vehicle/installed_record', { token: eastUser, body: { vehicleId: southVehicle, deviceNo: '015500000032' } }));
    expect(a.status).toBe(404);
    const b = await unchanged(() => server.call('POST', '/service-priv/vehicle/installed_record', { token: eastUser, body: { vehicleId: eastVehicle, deviceNo: '015500000031' } }));
    expect(b.status).toBe(400);
    const c = await unchanged(() => server.call('POST', '/service-priv/vehicle/installed_record', { token: readOnly, body: { vehicleId: eastVehicle, deviceNo: '015500000032' } }));
    expect(c.status).toBe(403);
    const d = await unchanged(() => server.call('POST', '/service-priv/vehicle/installed_record', { token: eastUser, body: { vehicleId: eastVehicle, deviceNo: '015500000032', companyId: south.id } }));
    expect(d.status).toBe(403);
  });
});

describe('page and detail', () => {
  it('filters by keyword (plate, device, installer), kind and period inside the caller\'s subtree', async () => {
    addDevice('015500000041', eastFleet);
    addDevice('015500000042', south.id);
    const eastVehicle = addVehicle('沪A·PAGE01', eastFleet);
    const southVehicle = addVehicle('粤B·PAGE01', south.id);
    await server.call('POST', '/service-priv/vehicle/installed_record', { token: eastUser, body: { vehicleId: eastVehicle, deviceNo: '015500000041', installer: '赵六', installTime: now - 86_400_000 } });
    await server.call('POST', '/service-priv/vehicle/installed_record', { token: southUser, body: { vehicleId: southVehicle, deviceNo: '015500000042', installer: '赵六', installTime: now - 86_400_000 } });

    const list = (token: string, q: string) => server.call<Page<Record_>>('GET', `/service-priv/vehicle/installed_records?size=100&${q}`, { token });
    expect((await list(eastUser, 'keyword=PAGE01')).data.records.map((r) => r.plate)).toEqual(['沪A·PAGE01']);
    expect((await list(admin, 'keyword=PAGE01')).data.records.map((r) => r.plate).sort()).toEqual(['沪A·PAGE01', '粤B·PAGE01']);
    expect((await list(admin, 'keyword=015500000042')).data.records.map((r) => r.plate)).toEqual(['粤B·PAGE01']);
    expect((await list(admin, 'keyword=赵六')).data.total).toBe(2);
    expect((await list(admin, `keyword=赵六&companyId=${east.id}`)).data.records.map((r) => r.plate)).toEqual(['沪A·PAGE01']);
    expect((await list(eastUser, `companyId=${south.id}`)).status).toBe(403);
    expect((await list(admin, 'keyword=PAGE01&kind=remove')).data.total).toBe(0);
    expect((await list(admin, 'keyword=PAGE01&kind=install')).data.total).toBe(2);
    expect((await list(admin, `keyword=PAGE01&from=${now - 3_600_000}`)).data.total).toBe(0);
    expect((await list(admin, `keyword=PAGE01&from=${now - 2 * 86_400_000}&to=${now - 3_600_000}`)).data.total).toBe(2);
    expect((await list(eastUser, 'kind=fix')).status).toBe(400);
    // Every record of the branch user lies in its subtree.
    const all = await list(eastUser, 'current=1');
    const paths = new Map((db.prepare('SELECT id, path FROM company').all() as { id: number; path: string }[]).map((c) => [c.id, c.path]));
    expect(all.data.records.length).toBeGreaterThan(0);
    expect(all.data.records.every((r) => paths.get(r.companyId)!.startsWith(east.path))).toBe(true);

    const southRecord = (await list(admin, 'keyword=粤B·PAGE01')).data.records[0]!;
    expect((await server.call('GET', `/service-priv/vehicle/installed_records/${southRecord.id}`, { token: eastUser })).status).toBe(404);
    const detail = await server.call<Record_>('GET', `/service-priv/vehicle/installed_records/${southRecord.id}`, { token: southUser });
    expect(detail.data).toMatchObject({ plate: '粤B·PAGE01', kind: 'install', photos: [] });
  });
});

describe('update and delete', () => {
  it('edits the record\'s own fields and photos, logs the difference; never its devices', async () => {
    addDevice('015500000051', eastFleet);
    const vehicleId = addVehicle('沪A·EDIT01', eastFleet);
    const created = (await server.call<Record_>('POST', '/service-priv/vehicle/installed_record', { token: eastUser, body: { vehicleId, deviceNo: '015500000051', installer: '王', photos: [photo('a.jpg', JPEG), photo('b.png', PNG)] } })).data;
    const [a] = created.photos;
    const r = await server.call<Record_>('POST', '/service-priv/vehicle/installed_records/update', {
      token: eastUser, body: { id: created.id, installer: '王师傅', remark: '补录照片', removePhotoIds: [a!.id], addPhotos: [photo('c.jpg', JPEG)] },
    });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ installer: '王师傅', remark: '补录照片', newDeviceNo: '015500000051', photoCount: 2 });
    expect(r.data.photos.map((p) => p.name)).toEqual(['b.png', 'c.jpg']);
    const log = logRows(created.id);
    expect(log.map((l) => l.operation)).toEqual(['create', 'update']);
    expect(JSON.parse(log[1]!.before!)).toEqual({ installer: '王', remark: '', photos: ['a.jpg', 'b.png'] });
    expect(JSON.parse(log[1]!.after!)).toEqual({ installer: '王师傅', remark: '补录照片', photos: ['b.png', 'c.jpg'] });

    const edit = (body: Record<string, unknown>, token = eastUser) => unchanged(() => server.call('POST', '/service-priv/vehicle/installed_records/update', { token, body: { id: created.id, ...body } }));
    expect((await edit({ newDeviceNo: '015500000099' })).status).toBe(400);
    expect((await edit({ addPhotos: Array.from({ length: 8 }, (_, i) => photo(`n${i}.jpg`, JPEG)) })).status).toBe(400); // 2 + 8 > 9
    expect((await edit({ removePhotoIds: [999_999] })).status).toBe(400);
    expect((await edit({ addPhotos: [photo('x.jpg', GIF)] })).msg).toContain('x.jpg');
    expect((await edit({ installer: 'x' }, southUser)).status).toBe(404);
    expect((await edit({ installer: 'x' }, readOnly)).status).toBe(403);
    // An edit that changes nothing leaves no log row.
    await server.call('POST', '/service-priv/vehicle/installed_records/update', { token: eastUser, body: { id: created.id, installer: '王师傅' } });
    expect(logRows(created.id)).toHaveLength(2);
  });

  it('deletes records only (body ids, or ids in the query), the binding stays; out of scope or without the bit nothing goes', async () => {
    addDevice('015500000061', eastFleet);
    addDevice('015500000062', eastFleet);
    const v1 = addVehicle('沪A·DEL001', eastFleet);
    const v2 = addVehicle('沪A·DEL002', eastFleet);
    const r1 = (await server.call<Record_>('POST', '/service-priv/vehicle/installed_record', { token: eastUser, body: { vehicleId: v1, deviceNo: '015500000061', photos: [photo('a.jpg', JPEG)] } })).data;
    const r2 = (await server.call<Record_>('POST', '/service-priv/vehicle/installed_record', { token: eastUser, body: { vehicleId: v2, deviceNo: '015500000062' } })).data;
    addDevice('015500000063', south.id);
    const sv = addVehicle('粤B·DEL003', south.id);
    const r3 = (await server.call<Record_>('POST', '/service-priv/vehicle/installed_record', { token: southUser, body: { vehicleId: sv, deviceNo: '015500000063' } })).data;

    expect((await unchanged(() => server.call('DELETE', '/service-priv/vehicle/installed_record', { token: eastUser, body: { ids: [r1.id, r3.id] } }))).status).toBe(404);
    expect((await unchanged(() => server.call('DELETE', '/service-priv/vehicle/installed_record', { token: readOnly, body: { ids: [r1.id] } }))).status).toBe(403);

    const del = await server.call<{ deleted: number }>('DELETE', '/service-priv/vehicle/installed_record', { token: eastUser, body: { ids: [r1.id] } });
    expect(del.data).toEqual({ deleted: 1 });
    expect(deviceOf(v1)).toBe('015500000061');
    expect(server.count('installation_photo')).toBeGreaterThan(0);
    expect(db.prepare('SELECT count(*) n FROM installation_photo WHERE installation_id = ?').get(r1.id)).toEqual({ n: 0 });
    const log = logRows(r1.id);
    expect(log.map((l) => l.operation)).toEqual(['create', 'delete']);
    expect(JSON.parse(log[1]!.before!)).toMatchObject({ kind: 'install', newDeviceNo: '015500000061', photos: ['a.jpg'] });

    const viaQuery = await server.call<{ deleted: number }>('DELETE', `/service-priv/vehicle/installed_record?ids=${r2.id}&companyId=${east.id}`, { token: eastUser });
    expect(viaQuery.data).toEqual({ deleted: 1 });
    expect(deviceOf(v2)).toBe('015500000062');
    expect((await server.call('GET', `/service-priv/vehicle/installed_records/${r2.id}`, { token: eastUser })).status).toBe(404);
  });
});
