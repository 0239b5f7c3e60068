import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Client } from 'basic-ftp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { UploadState } from '../../../domain/video/recording-upload.ts';
import type { LiveTestServer } from '../../live/test-harness.ts';
import { recordingFileName, SIM_UPLOAD } from '../../sim/file-upload.ts';
import { simRecordingFile, simRecordings, type SimRecording } from '../../sim/recordings.ts';
import { startSimFleet, until, type SimFleet } from '../../test/sim-fleet.ts';
import type { UploadTaskView } from '../../../domain/video/recording-upload.ts';

const BASE = '/service-command/1078command';
let fleet: SimFleet | undefined;
let server: LiveTestServer;
let token: string;
let online: SimFleet['online'];
let offlineVehicle: number;

/** A past recording of the device on channel 1 (yesterday or earlier). */
function recordingOf(deviceNo: string, index = 0): SimRecording {
  const now = Date.now();
  const list = simRecordings(deviceNo, 1, now - 3 * 86_400_000, now - 86_400_000, now);
  const r = list[index];
  if (!r) throw new Error(`device ${deviceNo} has no recording ${index}`);
  return r;
}

async function task(id: number): Promise<UploadTaskView> {
  const r = await server.call<UploadTaskView[]>('POST', `${BASE}/uploadVideoResult`, { token, body: { taskIds: [id] } });
  expect(r.code).toBe(200);
  return r.data[0]!;
}

const stateIs = (id: number, state: UploadState) => async () => (await task(id)).state === state;

function request(vehicleId: number, rec: Pick<SimRecording, 'startTime' | 'endTime'>, lang: 'zh' | 'en' = 'zh') {
  return server.call<UploadTaskView>('POST', `${BASE}/uploadVideoDirect`, { token, lang, body: { vehicleId, channel: 1, startTime: rec.startTime, endTime: rec.endTime } });
}

beforeAll(async () => {
  fleet = await startSimFleet(12, 11);
  ({ server, adminToken: token, online, offlineVehicle } = fleet);
});

afterAll(async () => {
  await fleet?.close();
});

afterEach(() => {
  SIM_UPLOAD.bytesPerSecond = 2 * 1024 * 1024;
});

describe('recordings pulled to the server (0x9206 → FTP → 0x1206)', () => {
  it('uploads the recording of the range: requested → done, the file on disk holds its bytes and ftpdownload answers them', async () => {
    SIM_UPLOAD.bytesPerSecond = 16 * 1024 * 1024;
    const { vehicleId, deviceNo } = online[0]!;
    const rec = recordingOf(deviceNo);
    const created = await request(vehicleId, rec);
    expect(created.code).toBe(200);
    expect(created.data).toMatchObject({ vehicleId, channel: 1, startTime: rec.startTime, endTime: rec.endTime, files: [] });
    expect(['requested', 'uploading']).toContain(created.data.state);
    const id = created.data.id;
    await until(stateIs(id, 'done'), 20_000, 50);
    const done = await task(id);
    const expected = simRecordingFile(rec);
    expect(done.result).toBe(0);
    expect(done.files.map((f) => [f.name, f.size])).toEqual([[recordingFileName(rec), expected.length]]);
    expect(done.receivedBytes).toBe(expected.length);
    const onDisk = readFileSync(path.join(server.config.dataDir, 'media', 'recordings', String(id), recordingFileName(rec)));
    expect(Buffer.compare(onDisk, Buffer.from(expected))).toBe(0);

    const { port } = server.app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}${BASE}/ftpdownload?fileId=${done.files[0]!.id}`, { headers: { 'x-jwt': token } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(recordingFileName(rec));
    expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), Buffer.from(expected))).toBe(0);

    const list = await server.call<{ id: number; taskId: number }[]>('GET', `${BASE}/ftpList?taskId=${id}`, { token });
    expect(list.data.map((f) => f.taskId)).toEqual([id]);
    const mine = await server.call<{ total: number; records: UploadTaskView[] }>('GET', `${BASE}/myFtpVideo?size=50`, { token });
    expect(mine.data.records.find((t) => t.id === id)?.state).toBe('done');
  });

  it('pauses and resumes the transfer with 0x9207, then finishes', async () => {
    SIM_UPLOAD.bytesPerSecond = 1024 * 1024;
    const { vehicleId, deviceNo } = online[1]!;
    const rec = recordingOf(deviceNo, 1);
    const id = (await request(vehicleId, rec)).data.id;
    await until(stateIs(id, 'uploading'), 20_000, 50);
    const paused = await server.call<UploadTaskView>('GET', `${BASE}/uploadVideoControl?taskId=${id}&control=pause`, { token });
    expect(paused.code).toBe(200);
    expect(paused.data.state).toBe('paused');
    // While paused nothing completes: a 5 MB file at 1 MB/s would otherwise be done within 6 s.
    await new Promise((r) => setTimeout(r, 6500));
    expect((await task(id)).state).toBe('paused');
    expect((await task(id)).files).toEqual([]);
    const again = await server.call('GET', `${BASE}/uploadVideoControl?taskId=${id}&control=pause`, { token, lang: 'en' });
    expect(again.status).toBe(409);
    expect(again.msg).toBe('That action is not possible in the current state');
    SIM_UPLOAD.bytesPerSecond = 16 * 1024 * 1024;
    const resumed = await server.call<UploadTaskView>('GET', `${BASE}/uploadVideoControl?taskId=${id}&control=resume`, { token });
    expect(resumed.data.state).toBe('uploading');
    await until(stateIs(id, 'done'), 20_000, 50);
    expect((await task(id)).receivedBytes).toBe(simRecordingFile(rec).length);
  }, 40_000);

  it('cancels a transfer: the task is cancelled, its credentials revoked, and no file is kept', async () => {
    SIM_UPLOAD.bytesPerSecond = 512 * 1024;
    const { vehicleId, deviceNo } = online[2]!;
    const rec = recordingOf(deviceNo, 2);
    const id = (await request(vehicleId, rec)).data.id;
    await until(stateIs(id, 'uploading'), 20_000, 50);
    const cancelled = await server.call<UploadTaskView>('GET', `${BASE}/uploadVideoControl?taskId=${id}&control=cancel`, { token });
    expect(cancelled.code).toBe(200);
    expect(cancelled.data.state).toBe('cancelled');
    expect(server.app.recordingUpload.ftp.isGranted(id)).toBe(false);
    await new Promise((r) => setTimeout(r, 1500));
    const after = await task(id);
    expect(after.state).toBe('cancelled');
    expect(after.files).toEqual([]);
    const dir = path.join(server.config.dataDir, 'media', 'recordings', String(id));
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });

  it('fails a task whose terminal stops sending for half an hour, but never a paused one', async () => {
    SIM_UPLOAD.bytesPerSecond = 256 * 1024;
    const { vehicleId, deviceNo } = online[0]!;
    const a = (await request(vehicleId, recordingOf(deviceNo, 3))).data.id;
    const b = (await request(vehicleId, recordingOf(deviceNo, 4))).data.id;
    await until(stateIs(a, 'uploading'), 20_000, 50);
    await until(stateIs(b, 'uploading'), 20_000, 50);
    expect((await server.call<UploadTaskView>('GET', `${BASE}/uploadVideoControl?taskId=${b}&control=pause`, { token })).data.state).toBe('paused');
    const runtime = server.app.recordingUpload;
    // Data arrived moments ago: nothing is idle now, both would be 31 minutes from now.
    expect(await runtime.sweep(Date.now())).toEqual([]);
    expect(await runtime.sweep(Date.now() + 31 * 60_000)).toEqual([a]);
    const failed = await server.call<UploadTaskView[]>('POST', `${BASE}/uploadVideoResult`, { token, lang: 'en', body: { taskIds: [a] } });
    expect(failed.data[0]).toMatchObject({ state: 'failed', failReason: 'stalled', failMessage: 'Upload timed out: the terminal sent nothing for too long' });
    expect(runtime.ftp.isGranted(a)).toBe(false);
    expect((await task(b)).state).toBe('paused');
    await server.call('GET', `${BASE}/uploadVideoControl?taskId=${b}&control=cancel`, { token });
  });

  it('shows a task and its files only to its creator: another user with the page gets 404 and an empty result', async () => {
    // Give the operator's role the page, so only ownership stands between it and the admin's task.
    const roles = await server.call<{ id: number; name: string }[]>('GET', '/service-priv/role/list', { token });
    const monitorRole = roles.data.find((r) => r.name === '监控员')!;
    const granted = await server.call<{ permissionIds: number[] }>('GET', `/service-priv/role/role_permissions?roleId=${monitorRole.id}`, { token });
    await server.call('POST', '/service-priv/role/role_permissions', { token, body: { roleId: monitorRole.id, permissionIds: [...granted.data.permissionIds, 8] } });
    const operator = await server.login('operator', 'operator123');
    const mine = await server.call<{ records: UploadTaskView[] }>('GET', `${BASE}/myFtpVideo?size=50`, { token });
    const done = mine.data.records.find((t) => t.state === 'done' && t.files.length > 0)!;
    expect((await server.call<{ records: UploadTaskView[] }>('GET', `${BASE}/myFtpVideo`, { token: operator })).data.records).toEqual([]);
    expect((await server.call<UploadTaskView[]>('POST', `${BASE}/uploadVideoResult`, { token: operator, body: { taskIds: [done.id] } })).data).toEqual([]);
    expect((await server.call('GET', `${BASE}/ftpList?taskId=${done.id}`, { token: operator })).status).toBe(404);
    expect((await server.call('GET', `${BASE}/uploadVideoControl?taskId=${done.id}&control=cancel`, { token: operator })).status).toBe(404);
    const { port } = server.app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}${BASE}/ftpdownload?fileId=${done.files[0]!.id}`, { headers: { 'x-jwt': operator } });
    expect(res.status).toBe(404);
  });

  it('answers "vehicle not online" for a vehicle without a terminal session, in the caller\'s language', async () => {
    const rec = { startTime: Date.now() - 7_200_000, endTime: Date.now() - 3_600_000 };
    const zh = await request(offlineVehicle, rec);
    expect(zh.status).toBe(409);
    expect(zh.msg).toBe('车辆不在线');
    const en = await request(offlineVehicle, rec, 'en');
    expect(en.msg).toBe('The vehicle is not online');
  });

  it('refuses bad ranges and unknown fields before anything is sent', async () => {
    const { vehicleId } = online[0]!;
    const now = Date.now();
    const before = (await server.call<{ total: number }>('GET', `${BASE}/myFtpVideo`, { token })).data.total;
    const reversed = await request(vehicleId, { startTime: now - 1000, endTime: now - 5000 }, 'en');
    expect(reversed.status).toBe(400);
    expect(reversed.msg).toBe('The start time must be before the end time');
    const tooLong = await request(vehicleId, { startTime: now - 30 * 3_600_000, endTime: now }, 'en');
    expect(tooLong.msg).toBe('At most 24 hours of recordings can be uploaded at once');
    const extra = await server.call('POST', `${BASE}/uploadVideoDirect`, { token, body: { vehicleId, channel: 1, startTime: 0, endTime: 1, ftp: 'x' } });
    expect(extra.status).toBe(400);
    expect((await server.call<{ total: number }>('GET', `${BASE}/myFtpVideo`, { token })).data.total).toBe(before);
  });

  it('fails the task when the terminal has no recording in the range (0x1206 failure)', async () => {
    const { vehicleId } = online[0]!;
    // 02:00–03:00 China time: simulated terminals record between 06:00 and 22:00 only.
    const day = Math.floor((Date.now() - 86_400_000 + 8 * 3_600_000) / 86_400_000) * 86_400_000 - 8 * 3_600_000;
    const id = (await request(vehicleId, { startTime: day + 2 * 3_600_000, endTime: day + 3 * 3_600_000 }, 'en')).data.id;
    await until(stateIs(id, 'failed'), 20_000, 50);
    const t = await task(id);
    expect(t.result).toBe(1);
    expect(t.failReason).toBe('uploadFailed');
  });
});

describe('the FTP receiver', () => {
  const port = () => server.app.recordingUpload.ftp.port;
  /** A task row for a receiver-only probe (files reference their task). */
  const probeTask = () =>
    server.app.storage.recordingUploads.create({
      userId: 1, vehicleId: offlineVehicle, deviceNo: '0', channel: 1, startTime: 0, endTime: 1, alarmFlags: 0n, mediaType: 0, streamType: 0, storageType: 0,
      ftpUser: 'probe', createdAt: Date.now(),
    });

  it('refuses a wrong password and unknown users', async () => {
    const ftp = server.app.recordingUpload.ftp;
    const dir = path.join(server.config.dataDir, 'media', 'recordings', 'probe-1');
    const taskId = await probeTask();
    ftp.grant({ taskId, username: 'recprobe1', password: 'right-secret', dir });
    for (const [user, password] of [['recprobe1', 'wrong-secret'], ['nobody', 'right-secret'], ['anonymous', 'guest@']] as const) {
      const c = new Client(5000);
      await expect(c.access({ host: '127.0.0.1', port: port(), user, password })).rejects.toThrow(/530/);
      c.close();
    }
    ftp.revoke(taskId);
  });

  it('keeps a login inside its task directory and allows storing only', async () => {
    const ftp = server.app.recordingUpload.ftp;
    const root = path.join(server.config.dataDir, 'media', 'recordings');
    const dir = path.join(root, 'probe-2');
    const taskId = await probeTask();
    ftp.grant({ taskId, username: 'recprobe2', password: 'secret-2', dir });
    const c = new Client(5000);
    await c.access({ host: '127.0.0.1', port: port(), user: 'recprobe2', password: 'secret-2' });
    await c.uploadFrom(Readable.from([Buffer.from('escape attempt')]), '../../../escape.h264');
    expect(existsSync(path.join(dir, 'escape.h264'))).toBe(true);
    expect(existsSync(path.join(root, 'escape.h264'))).toBe(false);
    expect(existsSync(path.join(server.config.dataDir, 'escape.h264'))).toBe(false);
    await c.cd('/../..');
    expect(await c.pwd()).toBe('/');
    await expect(c.downloadTo(path.join(server.config.dataDir, 'copy'), 'escape.h264')).rejects.toThrow(/^55\d/);
    await expect(c.remove('escape.h264')).rejects.toThrow(/^55\d/);
    expect(existsSync(path.join(dir, 'escape.h264'))).toBe(true);
    c.close();
    ftp.revoke(taskId);
    const late = new Client(5000);
    await expect(late.access({ host: '127.0.0.1', port: port(), user: 'recprobe2', password: 'secret-2' })).rejects.toThrow(/530/);
    late.close();
  });
});
