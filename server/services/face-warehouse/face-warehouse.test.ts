/**
 * The face warehouse: `updateVehicleToFacewarehouse` enrols the drivers bound to vehicles (answer per
 * vehicle: enrolled, or skipped with why), scoped, by button bit, 400 naming the field with nothing
 * written, an operator-log row per vehicle changed; the warehouse list shows states, and a new driver
 * photo makes the sample stale until it is synced again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vinCheckDigit } from '../../../domain/fleet/vin.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { changedTables, fingerprint } from '../../test/db-fingerprint.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { createUserWithRole, permissionId } from '../../test/users.ts';
import { placeholderPortrait } from './avatar.ts';

const SYNC = '/service-priv/vehicle/updateVehicleToFacewarehouse';
const LIST = '/service-priv/facewarehouse';
const WAREHOUSE = '/operation/faceRecognitionManagement/faceWarehouse';

interface Enrolled { driverId: number; name: string; change: 'new' | 'updated' | 'unchanged' }
interface Skipped { reason: string; driverId?: number; name?: string; message: string }
interface SyncAnswer { vehicles: { vehicleId: number; vehiidno: string | null; enrolled: Enrolled[]; skipped: Skipped[] }[]; enrolled: number; unchanged: number; skipped: number }
interface Sample { driverId: number; name: string; companyName: string; state: string; photoTime: number | null; enrolUserName: string; vehicles: { vehicleId: number; vehiidno: string; current: boolean }[] }
interface Page<T> { records: T[]; total: number }

let server: TestServer;
let admin: string;
let serial = 0;
const db = () => (server.app.storage as SqliteStorage).db;

function vin(): string {
  const raw = `LSVAU2180N2${String(300000 + ++serial).slice(-6)}`;
  return raw.slice(0, 8) + vinCheckDigit(raw) + raw.slice(9);
}
async function made<T>(method: string, url: string, body: unknown): Promise<T> {
  const r = await server.call<T>(method, url, { token: admin, body });
  if (r.code !== 200) throw new Error(`${method} ${url}: ${r.code} ${r.msg}`);
  return r.data;
}
const vehicle = async (companyId?: number) => (await made<{ id: number }>('POST', '/service-priv/vehicle', { vehiidno: `浙F${String(40000 + ++serial)}`, vin: vin(), ...(companyId ? { companyId } : {}) })).id;
const driver = async (name: string, vehicleIds: number[], companyId?: number) => (await made<{ id: number }>('POST', '/service-priv/driver', { name, vehicleIds, ...(companyId ? { companyId } : {}) })).id;
const photo = (id: number, seed: number) => made('POST', '/service-priv/driver/photo', { id, file: placeholderPortrait(seed).toString('base64') });
const companyId = async (name: string) => (await server.call<{ id: number; name: string }[]>('GET', '/service-priv/company/tree', { token: admin })).data.find((c) => c.name === name)!.id;
async function list(token: string, query = ''): Promise<Page<Sample>> {
  const r = await server.call<Page<Sample>>('GET', `${LIST}?size=100${query}`, { token });
  if (r.code !== 200) throw new Error(`list: ${r.code} ${r.msg}`);
  return r.data;
}

beforeAll(async () => {
  server = await startServer({ seedVehicles: 20 });
  admin = await server.login('admin', 'admin123');
});
afterAll(async () => server.close());

describe('updateVehicleToFacewarehouse', () => {
  it('answers per vehicle what was enrolled and what was skipped and why, and logs each vehicle changed', async () => {
    const [withPhoto, noPhoto, noDriver] = [await vehicle(), await vehicle(), await vehicle()];
    const anna = await driver('人脸甲', [withPhoto]);
    const bo = await driver('人脸乙', [withPhoto, noPhoto]);
    await photo(anna, 1);
    const before = server.count('change_log');

    const r = await server.call<SyncAnswer>('POST', SYNC, { token: admin, lang: 'en', body: { ids: [withPhoto, noPhoto, noDriver, 99_999_999] } });
    expect(r.code).toBe(200);
    const [a, b, c, d] = r.data.vehicles;
    expect(a!.enrolled).toEqual([{ driverId: anna, name: '人脸甲', change: 'new' }]);
    expect(a!.skipped).toEqual([{ reason: 'noPhoto', driverId: bo, name: '人脸乙', message: 'The driver has no photo' }]);
    expect(b!.enrolled).toEqual([]);
    expect(b!.skipped.map((s) => s.reason)).toEqual(['noPhoto']);
    expect(c!.skipped).toEqual([{ reason: 'noDriver', message: 'No driver is bound to the vehicle' }]);
    expect(d).toEqual({ vehicleId: 99_999_999, vehiidno: null, enrolled: [], skipped: [{ reason: 'notInScope', message: 'No such vehicle in your companies' }] });
    expect([r.data.enrolled, r.data.skipped]).toEqual([1, 4]);

    // One log row, for the one vehicle whose enrolled faces changed.
    expect(server.count('change_log')).toBe(before + 1);
    const log = db().prepare("SELECT record_id, operation, before, after, user_name FROM change_log ORDER BY id DESC LIMIT 1").get() as { record_id: number; operation: string; before: string; after: string; user_name: string };
    expect([log.record_id, log.operation, JSON.parse(log.before), JSON.parse(log.after), log.user_name]).toEqual([withPhoto, 'faceSync', { faceDriverIds: [] }, { faceDriverIds: [anna] }, '系统管理员']);

    // The same sync again changes nothing: reported unchanged, no new row.
    const again = await server.call<SyncAnswer>('POST', SYNC, { token: admin, body: { ids: [withPhoto] } });
    expect(again.data.vehicles[0]!.enrolled[0]!.change).toBe('unchanged');
    expect(server.count('change_log')).toBe(before + 1);

    const page = await list(admin, '&keyword=人脸甲');
    expect(page.records.map((s) => [s.name, s.state, s.vehicles.map((v) => v.vehicleId), s.enrolUserName])).toEqual([['人脸甲', 'enrolled', [withPhoto], '系统管理员']]);
  });

  it('marks the sample stale when the driver photo changes, until it is synced again', async () => {
    const [v1, v2] = [await vehicle(), await vehicle()];
    const d = await driver('换照片司机', [v1, v2]);
    await photo(d, 2);
    await server.call('POST', SYNC, { token: admin, body: { ids: [v1, v2] } });
    expect((await list(admin, '&keyword=换照片司机')).records[0]!.state).toBe('enrolled');

    await photo(d, 3);
    expect((await list(admin, '&keyword=换照片司机')).records[0]!.state).toBe('stale');
    expect((await list(admin, '&state=stale')).records.map((s) => s.driverId)).toContain(d);

    // Synced on one vehicle only: the other still holds the earlier face.
    const one = await server.call<SyncAnswer>('POST', SYNC, { token: admin, body: { ids: [v1] } });
    expect(one.data.vehicles[0]!.enrolled).toEqual([{ driverId: d, name: '换照片司机', change: 'updated' }]);
    const partial = (await list(admin, '&keyword=换照片司机')).records[0]!;
    expect([partial.state, partial.vehicles.map((v) => [v.vehicleId, v.current])]).toEqual(['partial', [[v1, true], [v2, false]].sort((x, y) => (x[0] as number) - (y[0] as number))]);
    await server.call('POST', SYNC, { token: admin, body: { ids: [v2] } });
    expect((await list(admin, '&keyword=换照片司机')).records[0]!.state).toBe('enrolled');

    await server.call('DELETE', `/service-priv/driver/photo?id=${d}`, { token: admin });
    expect((await list(admin, '&keyword=换照片司机')).records[0]!.state).toBe('photoRemoved');
  });

  it('refuses without the button bit (403) and a bad body with 400 naming the field, writing nothing', async () => {
    const v = await vehicle();
    await photo(await driver('无权司机', [v]), 4);
    const viewer = await createUserWithRole(server, 'face-viewer', 1, [permissionId('/information'), permissionId('/information/vehicle')]);
    const before = fingerprint(server.app);
    expect((await server.call('POST', SYNC, { token: viewer, body: { ids: [v] } })).status).toBe(403);
    for (const body of [{ ids: [] }, { ids: Array.from({ length: 501 }, (_, i) => i + 1) }, { ids: ['x'] }, {}, { ids: [v, v] }, { ids: [v], extra: 1 }]) {
      const r = await server.call('POST', SYNC, { token: admin, lang: 'en', body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.msg, JSON.stringify(body)).toMatch(/ids|extra/);
    }
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  });

  it('is scoped: a branch enrols and lists only its subtree; another branch vehicle reads as not in scope', async () => {
    const east = await companyId('华东分公司');
    const south = await companyId('华南分公司');
    const [ve, vs] = [await vehicle(east), await vehicle(south)];
    const de = await driver('华东人脸', [ve], east);
    const ds = await driver('华南人脸', [vs], south);
    await photo(de, 5);
    await photo(ds, 6);
    const branch = await createUserWithRole(server, 'face-branch', east, [
      permissionId('/information'), permissionId('/information/vehicle'), permissionId('/information/vehicle:faceWarehouse'),
      permissionId('/operation'), permissionId('/operation/faceRecognitionManagement'), permissionId(WAREHOUSE),
    ]);
    const r = await server.call<SyncAnswer>('POST', SYNC, { token: branch, body: { ids: [ve, vs] } });
    expect(r.data.vehicles.map((v) => [v.vehicleId, v.enrolled.map((e) => e.driverId), v.skipped.map((s) => s.reason)])).toEqual([[ve, [de], []], [vs, [], ['notInScope']]]);
    expect(db().prepare('SELECT COUNT(*) AS n FROM face_enrolment WHERE vehicle_id = ?').get(vs)).toEqual({ n: 0 });

    await server.call('POST', SYNC, { token: admin, body: { ids: [vs] } });
    const seen = await list(branch, '&keyword=人脸');
    expect(seen.records.map((s) => s.name)).toContain('华东人脸');
    expect(seen.records.map((s) => s.name)).not.toContain('华南人脸');
    expect((await list(admin, '&keyword=华南人脸')).total).toBe(1);
    // The thumbnail: the branch reads its own driver's photo, not the other branch's.
    const thumb = (token: string, id: number) => fetch(`${server.url}${LIST}/photo?driverId=${id}`, { headers: { 'x-jwt': token } });
    const own = await thumb(branch, de);
    expect([own.status, own.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(Buffer.from(await own.arrayBuffer()).equals(placeholderPortrait(5))).toBe(true);
    expect((await thumb(branch, ds)).status).toBe(404);
    // Without the screen's bit the list is refused.
    const noScreen = await createUserWithRole(server, 'face-noscreen', east, [permissionId('/information'), permissionId('/information/vehicle')]);
    expect((await server.call('GET', LIST, { token: noScreen })).status).toBe(403);
  });

  it('the demo seed gave its drivers placeholder portraits and enrolled their vehicles', async () => {
    const seeded = db().prepare('SELECT COUNT(*) AS n FROM face_sample WHERE enrol_user_id IS NULL').get() as { n: number };
    const drivers = db().prepare("SELECT COUNT(*) AS n FROM driver d JOIN driver_vehicle dv ON dv.driver_id = d.id WHERE d.create_time <= (SELECT MIN(enrol_time) FROM face_sample)").get() as { n: number };
    expect(seeded.n).toBeGreaterThan(0);
    expect(seeded.n).toBe(drivers.n);
  });
});
