/**
 * Driver calls beside the resource declaration: the photo (JPEG/PNG by magic bytes, ≤ 2 MiB, scoped,
 * logged) and the 0x0702 sign-ins a real terminal connection reports, linked by certificate number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVER_LIMITS } from '../../../domain/fleet/limits.ts';
import type { DriverIdentity } from '../../gateway/jt808/driver.ts';
import { TestTerminal } from '../../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { changedTables, fingerprint } from '../../test/db-fingerprint.ts';
import { createUserWithRole, permissionId } from '../../test/users.ts';

const PAGE = '/information/driver';
const bits = (...buttons: string[]) => [permissionId('/information'), permissionId(PAGE), ...buttons.map((b) => permissionId(`${PAGE}:${b}`))];

interface Driver { id: number; companyId: number; name: string; certNo: string; photoTime: number | null; signedIn: { vehicleId: number; vehiidno: string; signInTime: number } | null }
interface SignIn { id: number; vehicleId: number | null; vehiidno: string; driverName: string; driverCert: string; signInTime: number; signOutTime: number | null }
interface Page<T> { records: T[]; total: number }

let server: LiveTestServer;
let url: string;
let admin: string;
const terminals: TestTerminal[] = [];
const db = () => (server.app.storage as SqliteStorage).db;

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(300, 7), Buffer.from([0xff, 0xd9])]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 1)]);

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 20 });
  const address = server.app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  admin = await server.login('admin', 'admin123');
});
afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
  await server.close();
});

const photoOf = (token: string, id: number) => fetch(`${url}/service-priv/driver/photo?id=${id}`, { headers: { 'x-jwt': token } });
const companyOf = async (name: string) => (await server.call<{ id: number; name: string }[]>('GET', '/service-priv/company/tree', { token: admin })).data.find((c) => c.name === name)!;

describe('photo', () => {
  it('stores a JPEG or PNG (by its bytes), serves it with its type, logs the change and refuses anything else with nothing written', async () => {
    const d = (await server.call<Driver>('POST', '/service-priv/driver', { token: admin, body: { name: '照片司机' } })).data;
    expect((await photoOf(admin, d.id)).status).toBe(404);

    const up = await server.call<Driver>('POST', '/service-priv/driver/photo', { token: admin, body: { id: d.id, file: JPEG.toString('base64') } });
    expect(up.code).toBe(200);
    expect(up.data.photoTime).not.toBeNull();
    const got = await photoOf(admin, d.id);
    expect(got.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await got.arrayBuffer()).equals(JPEG)).toBe(true);
    await server.call('POST', '/service-priv/driver/photo', { token: admin, body: { id: d.id, file: PNG.toString('base64') } });
    expect((await photoOf(admin, d.id)).headers.get('content-type')).toBe('image/png');

    const before = fingerprint(server.app);
    const gif = await server.call('POST', '/service-priv/driver/photo', { token: admin, lang: 'en', body: { id: d.id, file: Buffer.from('GIF89a....').toString('base64') } });
    expect(gif.status).toBe(400);
    expect(gif.msg).toBe('Field file is invalid: only JPEG or PNG images can be uploaded');
    const big = Buffer.concat([JPEG.subarray(0, 4), Buffer.alloc(DRIVER_LIMITS.photoMaxBytes, 1)]);
    const tooBig = await server.call('POST', '/service-priv/driver/photo', { token: admin, lang: 'en', body: { id: d.id, file: big.toString('base64') } });
    expect(tooBig.status).toBe(400);
    expect((await server.call('POST', '/service-priv/driver/photo', { token: admin, body: { id: d.id, file: '' } })).status).toBe(400);
    expect((await server.call('POST', '/service-priv/driver/photo', { token: admin, body: { id: 99_999_999, file: JPEG.toString('base64') } })).status).toBe(404);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);

    const log = db().prepare("SELECT operation, before, after FROM change_log WHERE resource = 'driver' AND record_id = ? ORDER BY id").all(d.id) as { operation: string; before: string; after: string }[];
    expect(log.map((r) => [r.operation, r.before && JSON.parse(r.before), r.after && JSON.parse(r.after)]).slice(1)).toEqual([
      ['update', { photo: false }, { photo: true }], ['update', { photo: true }, { photo: true }],
    ]);

    const del = await server.call<Driver>('DELETE', `/service-priv/driver/photo?id=${d.id}`, { token: admin });
    expect(del.data.photoTime).toBeNull();
    expect((await photoOf(admin, d.id)).status).toBe(404);
    expect((await server.call('DELETE', `/service-priv/driver/photo?id=${d.id}`, { token: admin })).status).toBe(404);
  });

  it('is scoped (404 outside the subtree) and needs the update bit to change', async () => {
    const south = await companyOf('华南分公司');
    const east = await companyOf('华东分公司');
    const southDriver = (await server.call<Driver>('POST', '/service-priv/driver', { token: admin, body: { name: '华南照片', companyId: south.id } })).data;
    await server.call('POST', '/service-priv/driver/photo', { token: admin, body: { id: southDriver.id, file: JPEG.toString('base64') } });
    const eastEditor = await createUserWithRole(server, 'photo_east', east.id, bits('update'));
    const eastViewer = await createUserWithRole(server, 'photo_viewer', south.id, bits());
    expect((await photoOf(eastEditor, southDriver.id)).status).toBe(404);
    expect((await server.call('POST', '/service-priv/driver/photo', { token: eastEditor, body: { id: southDriver.id, file: PNG.toString('base64') } })).status).toBe(404);
    expect((await server.call('GET', `/service-priv/driver/signins?driverId=${southDriver.id}`, { token: eastEditor })).status).toBe(404);
    expect((await photoOf(eastViewer, southDriver.id)).status).toBe(200);
    expect((await server.call('POST', '/service-priv/driver/photo', { token: eastViewer, body: { id: southDriver.id, file: PNG.toString('base64') } })).status).toBe(403);
    expect((await server.call('DELETE', `/service-priv/driver/photo?id=${southDriver.id}`, { token: eastViewer })).status).toBe(403);
  });
});

describe('0x0702 sign-ins', () => {
  const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;
  const card = (status: 1 | 2, time: number, name = '', certificate = ''): DriverIdentity => ({
    msgId: 0x0702, status, time: seconds(time), readResult: status === 1 ? 0 : null, name, certificate,
    authority: status === 1 ? '杭州市运管局' : '', validUntil: status === 1 ? '2030-01-31' : '', idCard: '',
  });

  it('link to the driver by certificate number; a repeat is the same sign-in; removal or another vehicle closes it', async () => {
    const [a, b] = await server.app.storage.terminals.allVehicles();
    const ta = await TestTerminal.connect(server.gatewayPort, a!.deviceNo);
    const tb = await TestTerminal.connect(server.gatewayPort, b!.deviceNo);
    terminals.push(ta, tb);
    await ta.login();
    await tb.login();
    const d = (await server.call<Driver>('POST', '/service-priv/driver', { token: admin, body: { name: '签到司机', certNo: 'SIGN0001', companyId: a!.companyId } })).data;
    const signIns = async () => (await server.call<Page<SignIn>>('GET', `/service-priv/driver/signins?driverId=${d.id}`, { token: admin })).data;
    const current = async () => (await server.call<Page<Driver>>('GET', '/service-priv/driver?keyword=SIGN0001', { token: admin })).data.records[0]!.signedIn;

    const t0 = server.clock.now();
    expect((await ta.request(card(1, t0, '签到司机', 'SIGN0001'))).result).toBe(0);
    expect(await current()).toMatchObject({ vehicleId: a!.vehicleId, signInTime: seconds(t0) });
    // The terminal repeats the insert after a reconnect: still one sign-in.
    expect((await ta.request(card(1, t0 + 5000, '签到司机', 'SIGN0001'))).result).toBe(0);
    expect((await signIns()).total).toBe(1);

    expect((await ta.request(card(2, t0 + 60_000))).result).toBe(0);
    expect(await current()).toBeNull();
    expect((await signIns()).records[0]).toMatchObject({ vehicleId: a!.vehicleId, signInTime: seconds(t0), signOutTime: seconds(t0 + 60_000) });

    // Signed in on A, then on B without removing the card from A: A's row ends when B's begins.
    expect((await ta.request(card(1, t0 + 120_000, '签到司机', 'SIGN0001'))).result).toBe(0);
    expect((await tb.request(card(1, t0 + 180_000, '签到司机', 'SIGN0001'))).result).toBe(0);
    const list = await signIns();
    expect(list.total).toBe(3);
    expect(list.records.map((r) => [r.vehicleId, r.signInTime, r.signOutTime])).toEqual([
      [b!.vehicleId, seconds(t0 + 180_000), null], [a!.vehicleId, seconds(t0 + 120_000), seconds(t0 + 180_000)], [a!.vehicleId, seconds(t0), seconds(t0 + 60_000)],
    ]);
    expect(await current()).toMatchObject({ vehicleId: b!.vehicleId });

    // An unknown card is recorded unlinked and links when a driver with that number is entered.
    expect((await ta.request(card(1, t0 + 240_000, '新司机', 'SIGN0002'))).result).toBe(0);
    expect(db().prepare("SELECT driver_id FROM driver_sign_in WHERE driver_cert = 'SIGN0002'").get()).toEqual({ driver_id: null });
    const later = (await server.call<Driver>('POST', '/service-priv/driver', { token: admin, body: { name: '新司机', certNo: 'SIGN0002', companyId: a!.companyId } })).data;
    expect(later.signedIn).toMatchObject({ vehicleId: a!.vehicleId });
  });
});
