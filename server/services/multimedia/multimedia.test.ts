import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ALL_COMPANIES } from '../../db/scope.ts';
import { encodeBody, encodeFrames, type Jt808Message } from '../../gateway/jt808/index.ts';
import type { MediaLocation, Multimedia } from '../../gateway/jt808/multimedia.ts';
import type { TestTerminal } from '../../gateway/terminal-client.ts';
import { location } from '../../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';
import { createUserWithRole } from '../../test/users.ts';
import { ScriptedFleet } from '../../test/scripted-fleet.ts';
import type { StoredPhoto } from './capture.ts';

interface MediaView {
  id: number; vehicleId: number; vehiidno: string; channel: number; deviceMediaId: number; eventCode: number; eventName: string; captureTime: number;
  size: number; source: string; alarmId: number | null; alarmName: string | null; requestedBy: number | null; requestedByName: string | null; url: string;
  lng: number | null; lat: number | null;
}
interface SnapAnswer { vehicleId: number; alarmId: number | null; items: MediaView[]; channels: { channel: number; ok: boolean; message?: string; count?: number }[] }
interface Page { records: MediaView[]; total: number }

const DAY = 86_400_000;
const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;

let server: LiveTestServer;
let url: string;
let admin: string, eastUser: string, noMedia: string;
let fleet: ScriptedFleet;
let rawSerial = 30_000;

/** A vehicle not used by another test, inside or outside the east branch. */
const freshVehicle = (inEast = false) => fleet.fresh(inEast);

const terminalFor = (v: { deviceNo: string }, version: 2013 | 2019 = 2013) => fleet.terminal(v, version);

/** A JPEG-shaped payload of `n` bytes (SOI … EOI) with content unique to `seed`. */
function jpeg(n: number, seed: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 17) & 0xff;
  b.set([0xff, 0xd8, 0xff, 0xe0], 0);
  b.set([0xff, 0xd9], n - 2);
  return b;
}

function here(): MediaLocation {
  return { alarm: 0, status: 3, lat: 31.2, lng: 121.5, altitude: 10, speed: 42, direction: 90, time: seconds(server.clock.now()) };
}

/** Sends a body sub-packaged in 512-byte packages, as a terminal uploads a photo. */
function sendLarge(t: TestTerminal, message: Multimedia): void {
  const body = encodeBody(message, t.version);
  const frames = encodeFrames({ msgId: message.msgId, phone: t.phone, serial: rawSerial, version: t.version }, body, 512);
  rawSerial += frames.length;
  for (const f of frames) t.raw(f);
}

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Makes the terminal act as a camera: each 0x8801 is answered with 0x0805 (media ids), then every
 * photo is uploaded with 0x0801 in packages. `upload: false` answers but never uploads.
 */
function camera(t: TestTerminal, opts: { upload?: boolean; answer?: boolean; sent?: Map<number, Uint8Array> } = {}): () => void {
  let seen = 0;
  let nextId = 1000;
  const timer = setInterval(() => {
    while (seen < t.commands.length) {
      const c = t.commands[seen++]!;
      const m = c.message as Jt808Message;
      if (m.msgId !== 0x8801 || opts.answer === false) continue;
      const ids = Array.from({ length: m.command }, () => nextId++);
      t.send({ msgId: 0x0805, replySerial: c.serial, result: 0, mediaIds: ids });
      if (opts.upload === false) continue;
      for (const id of ids) {
        const data = jpeg(3000 + id, id);
        opts.sent?.set(id, data);
        sendLarge(t, { msgId: 0x0801, mediaId: id, mediaType: 0, format: 0, eventCode: 0, channel: m.channel, location: here(), data });
      }
    }
  }, 5);
  return () => clearInterval(timer);
}

async function fetchFile(u: string, token: string): Promise<{ status: number; type: string | null; bytes: Uint8Array }> {
  const res = await fetch(url + u, { headers: { 'x-jwt': token } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
}

function period() {
  const now = server.clock.now();
  return { startTime: now - DAY, endTime: now + DAY };
}

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 40 });
  const address = server.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  url = `http://127.0.0.1:${address.port}`;
  admin = await server.login('admin', 'admin123');
  const branchUser = await server.app.storage.users.findByUsername('branch');
  fleet = await ScriptedFleet.open(server);
  // Registry ids: 66 /report, 81 /report/media, 82 alarmMedia, 83 snapMediaReport; 17/18 safety pages (no media).
  eastUser = await createUserWithRole(server, 'eastmedia', branchUser!.companyId, [66, 81, 82, 83]);
  noMedia = await createUserWithRole(server, 'nomedia', 1, [17, 18]);
});

afterAll(async () => {
  await fleet.close();
  await server.close();
});

describe('snapshots (0x8801 → 0x0805 → sub-packaged 0x0801)', () => {
  it('answers the photos of every channel asked, stores each file byte for byte and answers the terminal 0x8800', async () => {
    const v = freshVehicle();
    const t = await terminalFor(v, 2019);
    const sent = new Map<number, Uint8Array>();
    const stop = camera(t, { sent });
    try {
      const r = await server.call<SnapAnswer>('POST', '/service-command/command/snapMedia', { token: admin, body: { vehicleId: v.vehicleId, channels: [1, 3], count: 2 } });
      expect(r.status).toBe(200);
      expect(r.data.items).toHaveLength(4);
      expect(r.data.channels).toEqual([{ channel: 1, ok: true, count: 2 }, { channel: 3, ok: true, count: 2 }]);
      expect(r.data.items.map((i) => i.channel).sort()).toEqual([1, 1, 3, 3]);
      for (const item of r.data.items) {
        expect(item).toMatchObject({ vehicleId: v.vehicleId, source: 'snap', eventCode: 0, requestedByName: '系统管理员', alarmId: null, lng: 121.5, lat: 31.2 });
        const file = await fetchFile(item.url, admin);
        expect(file.status).toBe(200);
        expect(file.type).toBe('image/jpeg');
        expect(file.bytes).toEqual(sent.get(item.deviceMediaId));
        expect(item.size).toBe(sent.get(item.deviceMediaId)!.length);
        // Under DATA_DIR/media/photos/<vehicle>/...
        const row = await server.app.storage.media.get(ALL_COMPANIES, item.id);
        expect(row!.path.startsWith(path.join('photos', String(v.vehicleId)))).toBe(true);
        expect(readFileSync(path.join(server.config.dataDir, 'media', row!.path))).toEqual(Buffer.from(sent.get(item.deviceMediaId)!));
      }
      await waitFor(() => t.commands.filter((c) => c.message.msgId === 0x8800).length === 4);
      const answers = t.commands.filter((c) => c.message.msgId === 0x8800).map((c) => c.message);
      expect(answers).toContainEqual({ msgId: 0x8800, mediaId: r.data.items[0]!.deviceMediaId, retransmit: [] });
    } finally {
      stop();
    }
  });

  it('says "capture failed, retry" in the caller\'s language when the photos never come, or the terminal never answers', async () => {
    server.app.multimedia.snapTimeoutMs = 300;
    try {
      const v = freshVehicle();
      const t = await terminalFor(v);
      const stop = camera(t, { upload: false });
      const zh = await server.call('POST', '/service-command/command/snapMedia', { token: admin, body: { vehicleId: v.vehicleId, channels: [2] } });
      expect(zh.status).toBe(504);
      expect(zh.msg).toBe('抓拍失败，请重试');
      stop();
      const silent = freshVehicle();
      const u = await terminalFor(silent);
      u.commandResult = null;
      const en = await server.call('POST', '/service-command/command/snapMedia', { token: admin, lang: 'en', body: { vehicleId: silent.vehicleId } });
      expect(en.status).toBe(504);
      expect(en.msg).toBe('Capture failed, retry');
    } finally {
      server.app.multimedia.snapTimeoutMs = 30_000;
    }
  });

  it('scale-out: a photo another node stored (told by the events bus) answers the snapshot waiting for it here; one nobody here asked for is not even read', async () => {
    const v = freshVehicle();
    const t = await terminalFor(v);
    const service = server.app.multimedia;
    const relayed: StoredPhoto[] = [];
    service.storedRelay = (p) => relayed.push(p);
    // This terminal answers the 0x8801 here, but its photo goes to another node (uploads nothing here).
    const stop = camera(t, { upload: false });
    const get = vi.spyOn(server.app.storage.media, 'get');
    try {
      await service.storedElsewhere({ vehicleId: v.vehicleId, channel: 2, deviceMediaId: 1000, itemId: 1 });
      expect(get).not.toHaveBeenCalled();
      const asked = server.call<SnapAnswer>('POST', '/service-command/command/snapMedia', { token: admin, body: { vehicleId: v.vehicleId, channels: [2], count: 1 } });
      await waitFor(() => t.commands.some((c) => c.message.msgId === 0x8801));
      // What the other node did: the row in the shared database, the file in the shared MEDIA_DIR (the camera's first id is 1000).
      const data = jpeg(2000, 77);
      const rel = path.join('photos', String(v.vehicleId), 'elsewhere-2-1000.jpg');
      mkdirSync(path.dirname(path.join(server.config.dataDir, 'media', rel)), { recursive: true });
      writeFileSync(path.join(server.config.dataDir, 'media', rel), data);
      const vehicle = (await server.app.storage.fleet.getVehicle(ALL_COMPANIES, v.vehicleId))!;
      const now = server.clock.now();
      const itemId = await server.app.storage.media.insert({
        vehicleId: v.vehicleId, companyId: vehicle.companyId, deviceMediaId: 1000, mediaType: 0, format: 0, eventCode: 0, channel: 2, captureTime: now, receivedTime: now,
        lng: null, lat: null, speed: null, alarmFlags: 0, size: data.length, path: rel, alarmId: null, requestedBy: null, source: 'event',
      });
      // Another vehicle's id in the event: refused, nothing arrives.
      await service.storedElsewhere({ vehicleId: v.vehicleId, channel: 2, deviceMediaId: 1000, itemId: itemId + 1_000_000 });
      await service.storedElsewhere({ vehicleId: v.vehicleId, channel: 2, deviceMediaId: 1000, itemId });
      const r = await asked;
      expect(r.status).toBe(200);
      expect(r.data.items).toHaveLength(1);
      // Attributed as a snapshot of the user who asked here, as a photo stored on this node would be.
      expect(r.data.items[0]).toMatchObject({ id: itemId, vehicleId: v.vehicleId, channel: 2, deviceMediaId: 1000, source: 'snap', requestedByName: '系统管理员' });
      expect((await fetchFile(r.data.items[0]!.url, admin)).bytes).toEqual(data);
      // Nothing was stored here, so nothing was told to the bus.
      expect(relayed).toEqual([]);
    } finally {
      get.mockRestore();
      stop();
      service.storedRelay = undefined;
    }
  });

  it('scale-out: a photo another node stored while this node asked the vehicle for an upload (0x8805 / 0x8803) is attributed to the user who asked here', async () => {
    const v = freshVehicle();
    const service = server.app.multimedia;
    const asker = (await server.app.storage.users.findByUsername('admin'))!;
    const vehicle = (await server.app.storage.fleet.getVehicle(ALL_COMPANIES, v.vehicleId))!;
    const now = server.clock.now();
    const stored = (deviceMediaId: number) => server.app.storage.media.insert({
      vehicleId: v.vehicleId, companyId: vehicle.companyId, deviceMediaId, mediaType: 0, format: 0, eventCode: 1, channel: 1, captureTime: now - 3_600_000, receivedTime: now,
      lng: null, lat: null, speed: null, alarmFlags: 0, size: 10, path: `photos/${v.vehicleId}/x-${deviceMediaId}.jpg`, alarmId: null, requestedBy: null, source: 'event',
    });
    // Before any upload asked here: not this node's, left as the terminal's own.
    const before = await stored(4001);
    await service.storedElsewhere({ vehicleId: v.vehicleId, channel: 1, deviceMediaId: 4001, itemId: before });
    expect(await server.app.storage.media.get(ALL_COMPANIES, before)).toMatchObject({ source: 'event', requestedBy: null });
    service.expectUpload(v.vehicleId, asker.id);
    const during = await stored(4002);
    await service.storedElsewhere({ vehicleId: v.vehicleId, channel: 1, deviceMediaId: 4002, itemId: during });
    expect(await server.app.storage.media.get(ALL_COMPANIES, during)).toMatchObject({ source: 'upload', requestedBy: asker.id, requestedByName: '系统管理员' });
  });

  it('refuses an offline vehicle, a vehicle outside the caller\'s companies, a caller without the permission, and bad bodies', async () => {
    const offline = freshVehicle();
    const r = await server.call('POST', '/service-command/command/snapMedia', { token: admin, lang: 'en', body: { vehicleId: offline.vehicleId } });
    expect(r.status).toBe(409);
    expect(r.msg).toBe('The device is offline');
    const outside = freshVehicle(false);
    expect((await server.call('POST', '/service-command/command/snapMedia', { token: eastUser, body: { vehicleId: outside.vehicleId } })).status).toBe(404);
    expect((await server.call('POST', '/service-command/command/snapMedia', { token: noMedia, body: { vehicleId: outside.vehicleId } })).status).toBe(403);
    expect((await server.call('POST', '/service-command/command/photoSnap', { token: eastUser, body: { vehicleId: outside.vehicleId } })).status).toBe(403);
    const bad = await server.call('POST', '/service-command/command/snapMedia', { token: admin, lang: 'en', body: { vehicleId: outside.vehicleId, count: 9 } });
    expect(bad.status).toBe(400);
    expect(bad.msg).toMatch(/count/);
  });
});

describe('alarm media', () => {
  it('links a snapshot from the alarm pop-up to its alarm, and a terminal\'s alarm-triggered photo to the alarm raised then', async () => {
    const v = freshVehicle();
    const t = await terminalFor(v);
    server.clock.advance(1000);
    // SOS (bit 0) raises an alarm.
    expect((await t.report(location({ lng: 121.5, lat: 31.2, time: seconds(server.clock.now()), alarm: 1 }))).result).toBe(0);
    await server.app.alarms.idle();
    const alarms = await server.call<{ records: { id: number; vehicleId: number }[] }>('POST', '/service-safe/alarmInfo', { token: admin, body: { ...period(), vehicleIds: [v.vehicleId] } });
    const alarmId = alarms.data.records[0]!.id;

    const stop = camera(t);
    try {
      const snap = await server.call<SnapAnswer>('POST', '/service-command/command/photoSnap', { token: admin, body: { vehicleId: v.vehicleId, channels: [1], alarmId } });
      expect(snap.status).toBe(200);
      expect(snap.data.items[0]).toMatchObject({ alarmId, alarmName: expect.any(String), source: 'snap' });
      // Another vehicle's alarm is refused.
      const other = freshVehicle();
      expect((await server.call('POST', '/service-command/command/photoSnap', { token: admin, body: { vehicleId: other.vehicleId, alarmId } })).status).toBe(400);
    } finally {
      stop();
    }

    // The terminal's own photo, event code 2 (emergency alarm triggered), 30 s later.
    server.clock.advance(30_000);
    const data = jpeg(2500, 77);
    sendLarge(t, { msgId: 0x0801, mediaId: 77, mediaType: 0, format: 0, eventCode: 2, channel: 2, location: { ...here(), alarm: 1 }, data });
    await waitFor(() => t.commands.some((c) => c.message.msgId === 0x8800 && (c.message as { mediaId: number }).mediaId === 77));

    const page = await server.call<Page>('POST', '/service-report/media/alarmMedia', { token: admin, body: { ...period(), vehicleIds: [v.vehicleId] } });
    expect(page.data.total).toBe(2);
    expect(page.data.records.map((r) => [r.channel, r.source, r.alarmId, r.eventCode])).toEqual([[2, 'event', alarmId, 2], [1, 'snap', alarmId, 0]]);
    // A photo without an alarm event stays out of the alarm report.
    sendLarge(t, { msgId: 0x0801, mediaId: 78, mediaType: 0, format: 0, eventCode: 1, channel: 2, location: here(), data });
    await waitFor(() => t.commands.some((c) => c.message.msgId === 0x8800 && (c.message as { mediaId: number }).mediaId === 78));
    expect((await server.call<Page>('POST', '/service-report/media/alarmMedia', { token: admin, body: { ...period(), vehicleIds: [v.vehicleId] } })).data.total).toBe(2);
    const all = await server.call<Page>('POST', '/service-report/media/snapMediaReport', { token: admin, body: { ...period(), vehicleIds: [v.vehicleId] } });
    expect(all.data.total).toBe(3);
    const snaps = await server.call<Page>('POST', '/service-report/media/snapMediaReport', { token: admin, body: { ...period(), vehicleIds: [v.vehicleId], sources: ['snap'] } });
    expect(snaps.data.records.map((r) => r.channel)).toEqual([1]);
  });
});

describe('overlapping snapshots', () => {
  it('attributes each snapshot\'s photos to its own request when two of one vehicle\'s channel overlap', async () => {
    const v = freshVehicle();
    const t = await terminalFor(v);
    server.clock.advance(1000);
    expect((await t.report(location({ lng: 121.5, lat: 31.2, time: seconds(server.clock.now()), alarm: 1 }))).result).toBe(0);
    await server.app.alarms.idle();
    const alarms = await server.call<{ records: { id: number }[] }>('POST', '/service-safe/alarmInfo', { token: admin, body: { ...period(), vehicleIds: [v.vehicleId] } });
    const alarmId = alarms.data.records[0]!.id;
    const stop = camera(t);
    try {
      // The pop-up's snapshot for the alarm and a plain one of the same channel, at once.
      const [fromAlarm, plain] = await Promise.all([
        server.call<SnapAnswer>('POST', '/service-command/command/photoSnap', { token: admin, body: { vehicleId: v.vehicleId, channels: [1], alarmId } }),
        server.call<SnapAnswer>('POST', '/service-command/command/photoSnap', { token: admin, body: { vehicleId: v.vehicleId, channels: [1] } }),
      ]);
      expect(fromAlarm.data.items.map((i) => i.alarmId)).toEqual([alarmId]);
      expect(plain.data.items.map((i) => i.alarmId)).toEqual([null]);
      const page = await server.call<Page>('POST', '/service-report/media/alarmMedia', { token: admin, body: { ...period(), vehicleIds: [v.vehicleId] } });
      expect(page.data.records.map((r) => r.id)).toEqual([fromAlarm.data.items[0]!.id]);
    } finally {
      stop();
    }
  });
});

describe('reports, export and the photo route', () => {
  it('pages, filters by channel, scopes to the caller\'s companies, and exports .xlsx', async () => {
    const east = freshVehicle(true);
    const t = await terminalFor(east);
    const stop = camera(t);
    let eastItems: MediaView[];
    try {
      const r = await server.call<SnapAnswer>('POST', '/service-command/command/snapMedia', { token: eastUser, body: { vehicleId: east.vehicleId, channels: [1, 2, 4] } });
      expect(r.status).toBe(200);
      eastItems = r.data.items;
    } finally {
      stop();
    }
    const mine = await server.call<Page>('POST', '/service-report/media/snapMediaReport', { token: eastUser, body: { ...period(), size: 2 } });
    expect(mine.data.total).toBe(3);
    expect(mine.data.records).toHaveLength(2);
    expect(mine.data.records.every((r) => r.vehicleId === east.vehicleId)).toBe(true);
    const ch = await server.call<Page>('POST', '/service-report/media/snapMediaReport', { token: eastUser, body: { ...period(), channels: [4] } });
    expect(ch.data.records.map((r) => r.channel)).toEqual([4]);
    // The administrator sees everyone's; the east user never sees the other photos, nor their files.
    const everything = await server.call<Page>('POST', '/service-report/media/snapMediaReport', { token: admin, body: period() });
    expect(everything.data.total).toBeGreaterThan(3);
    const foreign = everything.data.records.find((r) => r.vehicleId !== east.vehicleId)!;
    expect((await fetchFile(foreign.url, eastUser)).status).toBe(404);
    expect((await fetchFile(eastItems[0]!.url, eastUser)).status).toBe(200);
    expect((await fetchFile(eastItems[0]!.url, noMedia)).status).toBe(403);
    expect((await fetch(url + eastItems[0]!.url)).status).toBe(401);

    const tooLong = await server.call('POST', '/service-report/media/snapMediaReport', { token: admin, lang: 'en', body: { startTime: 0, endTime: 40 * DAY } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.msg).toBe('The period cannot exceed 31 days');

    const res = await fetch(`${url}/service-report/media/snapMediaReport/export`, {
      method: 'POST', headers: { 'x-jwt': eastUser, 'content-type': 'application/json' }, body: JSON.stringify(period()),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(4);
    expect(sheet.getRow(1).getCell(2).value).toBe('车牌号');
    expect(sheet.getRow(2).getCell(2).value).toBe(eastItems[0]!.vehiidno);
  });
});

describe('stored media on the terminal (0x8802 / 0x8805 / 0x8803)', () => {
  it('searches the terminal\'s stored photos, keeps the result, and uploads chosen ones', async () => {
    const v = freshVehicle();
    const t = await terminalFor(v);
    const stored = { mediaId: 501, mediaType: 0, channel: 3, eventCode: 1, location: here() };
    let seen = 0;
    const timer = setInterval(() => {
      while (seen < t.commands.length) {
        const c = t.commands[seen++]!;
        if (c.message.msgId === 0x8802) t.send({ msgId: 0x0802, replySerial: c.serial, items: [stored] });
        if (c.message.msgId === 0x8805) sendLarge(t, { msgId: 0x0801, ...stored, format: 0, data: jpeg(1800, 501) });
      }
    }, 5);
    try {
      const s = await server.call<{ items: { mediaId: number; channel: number; eventName: string }[] }>('POST', '/service-command/command/searchDeviceMedia', { token: admin, lang: 'en', body: { vehicleId: v.vehicleId } });
      expect(s.status).toBe(200);
      expect(s.data.items).toEqual([expect.objectContaining({ mediaId: 501, channel: 3, eventName: 'Timed' })]);
      const again = await server.call<{ items: unknown[] }>('POST', '/service-command/command/searchDeviceMediaResult', { token: admin, body: { vehicleId: v.vehicleId } });
      expect(again.data.items).toHaveLength(1);
      const asked = t.commands.find((c) => c.message.msgId === 0x8802)!.message;
      expect(asked).toMatchObject({ channel: 0, startTime: NaN, endTime: NaN });

      const up = await server.call<{ results: { mediaId: number; result: number }[] }>('POST', '/service-command/command/uploadDeviceMediaByMediaId', { token: admin, body: { vehicleId: v.vehicleId, mediaIds: [501] } });
      expect(up.data.results).toEqual([expect.objectContaining({ mediaId: 501, result: 0 })]);
      await waitFor(() => t.commands.some((c) => c.message.msgId === 0x8800));
      const got = await server.call<{ items: MediaView[]; missing: number[] }>('POST', '/service-command/command/uploadDeviceMediaByMediaIdResult', { token: admin, body: { vehicleId: v.vehicleId, mediaIds: [501] } });
      expect(got.data.missing).toEqual([]);
      expect(got.data.items[0]).toMatchObject({ deviceMediaId: 501, source: 'upload', channel: 3, requestedByName: '系统管理员' });

      const byTime = await server.call<{ result: number }>('POST', '/service-command/command/uploadDeviceMediaByTime', { token: admin, body: { vehicleId: v.vehicleId, ...period() } });
      expect(byTime.data.result).toBe(0);
      expect(t.commands.find((c) => c.message.msgId === 0x8803)!.message).toMatchObject({ channel: 0, deleteFlag: 0 });
    } finally {
      clearInterval(timer);
    }
  });
});
