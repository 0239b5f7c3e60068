import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceComparisonResult, FaceSamples } from '../../gateway/jt808/face.ts';
import { TestTerminal } from '../../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';
import { createUserWithRole, permissionId } from '../../test/users.ts';
import { placeholderPortrait } from '../face-warehouse/avatar.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';

interface Result { id: number; plate: string; result: string; similarity: number; driverId: number | null; driverName: string; mistake: boolean; mistakeUserName: string; mistakeTime: number | null }
interface Face { driverId: number; certNo: string; state: string; onTerminal: boolean | null }

let server: LiveTestServer;
let admin: string;
const terminals: TestTerminal[] = [];
// A photo small enough that the 0x8E11 fits one frame (the test terminal does not reassemble).
const PHOTO = placeholderPortrait(7, 8);

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 6 });
  admin = await server.login('admin', 'admin123');
});

afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
  await server.close();
});

const db = () => (server.app.storage as unknown as SqliteStorage).db;
const rowCount = () => (db().prepare('SELECT COUNT(*) AS n, COALESCE(SUM(mistake), 0) AS m FROM face_recognition').get() as { n: number; m: number });

describe('face recognition through the gateway (issue 19)', () => {
  it('binds a face, pushes it to the terminal, stores the terminal’s identity result and marks it as a mistake', async () => {
    const [a, b] = await server.app.storage.terminals.allVehicles();
    const driver = db().prepare(`SELECT id, name, cert_no FROM driver WHERE cert_no <> '' ORDER BY id LIMIT 1`).get() as { id: number; name: string; cert_no: string };
    await server.app.storage.drivers.setPhoto(driver.id, 'image/png', PHOTO);
    const plateA = (db().prepare('SELECT vehiidno FROM vehicle WHERE id = ?').get(a!.vehicleId) as { vehiidno: string }).vehiidno;
    const t = await TestTerminal.connect(server.gatewayPort, a!.deviceNo);
    terminals.push(t);
    await t.login();

    // Bind: the face is bound but not on the terminal yet.
    const bind = await server.call<{ faces: Face[] }>('POST', '/service-priv/facerecognition/device/bind', { token: admin, body: { vehicleId: a!.vehicleId, driverIds: [driver.id] } });
    expect(bind.code).toBe(200);
    expect(bind.data.faces.find((f) => f.driverId === driver.id)).toMatchObject({ certNo: driver.cert_no, state: 'pending' });

    // Push: the terminal receives 0x8E11 with the face id (certificate) and the photo, answers 0x0E11.
    t.commandResult = null;
    const pushing = server.call<{ devices: { vehicleId: number; state: string; held: string[] | null }[] }>('POST', '/service-priv/facerecognition/device/addSample', { token: admin, body: { vehicleIds: [a!.vehicleId, b!.vehicleId] } });
    await until(() => t.commands.some((c) => c.message.msgId === 0x8e11));
    const cmd = t.commands.find((c) => c.message.msgId === 0x8e11)!;
    const push = cmd.message as FaceSamples;
    const pushed = push.faces.find((f) => f.faceId === driver.cert_no);
    expect(pushed?.name).toBe(driver.name);
    expect(Buffer.from(pushed!.photo).equals(PHOTO)).toBe(true);
    expect(push.threshold).toBe(80);
    t.send({ msgId: 0x0e11, replySerial: cmd.serial, result: 0, faceIds: push.faces.map((f) => f.faceId) });
    const pushAnswer = await pushing;
    expect(pushAnswer.code).toBe(200);
    expect(pushAnswer.data.devices.find((d) => d.vehicleId === a!.vehicleId)?.state).toBe('ok');
    // Vehicle b has no terminal online: the push says so instead of pretending.
    expect(pushAnswer.data.devices.find((d) => d.vehicleId === b!.vehicleId)?.state).toBe('offline');
    const shown = await server.call<{ faces: Face[] }>('GET', `/service-priv/facerecognition/device/faces?vehicleId=${a!.vehicleId}`, { token: admin });
    expect(shown.data.faces.find((f) => f.driverId === driver.id)).toMatchObject({ state: 'synced', onTerminal: true });

    // The terminal reports a comparison at shift start: stored with its photo, resolved to the driver.
    const now = Math.floor(Date.now() / 1000) * 1000;
    const report: FaceComparisonResult = {
      msgId: 0x0e10, result: 0, similarity: 91, threshold: 80, trigger: 0, time: now, lat: 30_274_000, lng: 120_155_000,
      faceId: driver.cert_no, name: driver.name, photoType: 1, photo: new Uint8Array(PHOTO),
    };
    expect((await t.request(report)).result).toBe(0);
    const list = await server.call<{ records: Result[]; total: number }>('GET', `/service-priv/facerecognition/result?current=1&size=20&plate=${encodeURIComponent(plateA)}`, { token: admin });
    expect(list.data.total).toBe(1);
    const row = list.data.records[0]!;
    expect(row).toMatchObject({ plate: plateA, result: 'pass', similarity: 91, driverId: driver.id, driverName: driver.name, mistake: false });
    const port = (server.app.server.address() as AddressInfo).port;
    const photo = await fetch(`http://127.0.0.1:${port}/service-priv/facerecognition/result/photo?id=${row.id}`, { headers: { 'x-jwt': admin } });
    expect(photo.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await photo.arrayBuffer()).equals(PHOTO)).toBe(true);
    const driverNow = await server.call<{ last: Result | null }>('GET', `/service-priv/facerecognition/device/driver?vehicleId=${a!.vehicleId}`, { token: admin });
    expect(driverNow.data.last?.driverName).toBe(driver.name);

    // Filters: score range and result.
    const high = await server.call<{ total: number }>('GET', '/service-priv/facerecognition/result?current=1&size=20&minScore=95', { token: admin });
    expect(high.data.total).toBe(0);
    const mismatches = await server.call<{ total: number }>('GET', '/service-priv/facerecognition/result?current=1&size=20&result=mismatch', { token: admin });
    expect(mismatches.data.total).toBe(0);

    // A user without the mistake bit is refused, malformed input is refused, and neither writes.
    const reader = await createUserWithRole(server, 'face-reader', 1, [permissionId('/operation'), permissionId('/operation/faceRecognitionManagement'), permissionId('/operation/faceRecognitionManagement/faceRecognitionResult')]);
    const before = rowCount();
    const refused = await server.call('POST', '/service-priv/facerecognition/result/mistake', { token: reader, body: { id: row.id, mistake: true } });
    expect(refused.status).toBe(403);
    const bad = await server.call('POST', '/service-priv/facerecognition/result/mistake', { token: admin, body: { id: String(row.id), mistake: true } });
    expect(bad.status).toBe(400);
    expect(rowCount()).toEqual(before);
    const readerList = await server.call<{ total: number }>('GET', '/service-priv/facerecognition/result?current=1&size=20', { token: reader });
    expect([readerList.status, readerList.msg]).toEqual([200, expect.anything()]);
    expect(readerList.data.total).toBe(1);

    // 误报: the mark carries who and when, the filter finds it, and it no longer counts as the current driver.
    const marked = await server.call<Result>('POST', '/service-priv/facerecognition/result/mistake', { token: admin, body: { id: row.id, mistake: true, remark: '不是本人' } });
    expect(marked.code).toBe(200);
    expect(marked.data.mistake).toBe(true);
    expect(marked.data.mistakeUserName).not.toBe('');
    expect(marked.data.mistakeTime).toBeGreaterThan(0);
    expect((await server.call<{ total: number }>('GET', '/service-priv/facerecognition/result?current=1&size=20&mistake=1', { token: admin })).data.total).toBe(1);
    expect((await server.call<{ total: number }>('GET', '/service-priv/facerecognition/result?current=1&size=20&mistake=0', { token: admin })).data.total).toBe(0);
    expect((await server.call<{ last: Result | null }>('GET', `/service-priv/facerecognition/device/driver?vehicleId=${a!.vehicleId}`, { token: admin })).data.last).toBeNull();

    // 获取状态: the terminal now says it holds nothing: the face is pending again, shown as not on the terminal.
    const reading = server.call<{ state: string; held: string[]; faces: Face[] }>('POST', '/service-priv/facerecognition/device/getStatus', { token: admin, body: { vehicleId: a!.vehicleId } });
    await until(() => t.commands.some((c) => c.message.msgId === 0x8e12));
    const q = t.commands.find((c) => c.message.msgId === 0x8e12)!;
    t.send({ msgId: 0x0e12, replySerial: q.serial, faceIds: [] });
    const status = await reading;
    expect(status.data.state).toBe('ok');
    expect(status.data.faces.find((f) => f.driverId === driver.id)).toMatchObject({ state: 'pending', onTerminal: false });

    // 识别: the terminal receives 0x8E10 and acknowledges it.
    t.commandResult = 0;
    const rec = await server.call<{ state: string }>('POST', '/service-priv/facerecognition/device/recognition', { token: admin, body: { vehicleId: a!.vehicleId } });
    expect(rec.data.state).toBe('ok');
    expect(t.commands.some((c) => c.message.msgId === 0x8e10)).toBe(true);
  });

  it('refuses binding a driver without a photo, naming the driver', async () => {
    const [a] = await server.app.storage.terminals.allVehicles();
    const d = db().prepare(`SELECT d.id, d.name FROM driver d WHERE NOT EXISTS (SELECT 1 FROM driver_photo p WHERE p.driver_id = d.id) LIMIT 1`).get() as { id: number; name: string } | undefined;
    const id = d?.id ?? (await server.app.storage.drivers.create({ companyId: 1, name: '无照司机', licenceNo: '', licenceClass: 'C1', licenceExpire: null, certNo: '', certAuthority: '', certExpire: null, phone: '', status: 1, remark: '' } as never));
    const name = d?.name ?? '无照司机';
    const r = await server.call('POST', '/service-priv/facerecognition/device/bind', { token: admin, body: { vehicleId: a!.vehicleId, driverIds: [id] }, lang: 'zh' });
    expect(r.code).toBe(400);
    expect(r.msg).toContain(name);
  });
});
