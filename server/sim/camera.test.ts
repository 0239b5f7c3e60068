import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Jt808Header, Jt808MessageInput, LocationInput } from '../gateway/jt808/index.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { cameraCommand, cameraSawReport, resetCamera, storedPhotos } from './camera.ts';
import { startSimulator, type RunningSimulator } from './simulator.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/video');
const header = (msgId: number, serial: number): Jt808Header => ({
  msgId, serial, bodyLength: 0, encryption: 0, subpackage: false, version: 2013, protocolVersion: 0, phone: '13900000001', packageTotal: 0, packageIndex: 0,
});
const loc = (over: Partial<LocationInput> = {}): LocationInput => ({ alarm: 0, status: 3, lat: 30.5, lng: 114.3, altitude: 20, speed: 40, direction: 10, time: Date.UTC(2026, 10, 22, 1), ...over });

function fakeTerminal(deviceNo: string) {
  resetCamera(deviceNo);
  const sent: Jt808MessageInput[] = [];
  return { sent, link: { deviceNo, edition: 2013 as const, send: (m: Jt808MessageInput) => void sent.push(m) } };
}

describe('simulated cameras', () => {
  it('answer 0x8801 with 0x0805 and then upload each photo of that channel as 0x0801 (the committed JPEGs)', () => {
    const { sent, link } = fakeTerminal('013900000001');
    cameraSawReport(link, loc());
    cameraCommand(link, header(0x8801, 7), { msgId: 0x8801, channel: 3, command: 2, interval: 0, saveFlag: 0, resolution: 1, quality: 5, brightness: 0, contrast: 0, saturation: 0, chroma: 0 }, Date.UTC(2026, 10, 22, 1, 0, 5));
    expect(sent[0]).toEqual({ msgId: 0x0805, replySerial: 7, result: 0, mediaIds: [1, 2] });
    const uploads = sent.slice(1) as Extract<Jt808MessageInput, { msgId: 0x0801 }>[];
    expect(uploads.map((u) => [u.msgId, u.mediaId, u.channel, u.eventCode])).toEqual([[0x0801, 1, 3, 0], [0x0801, 2, 3, 0]]);
    expect(uploads[0]!.data).toEqual(new Uint8Array(readFileSync(path.join(FIXTURES, 'photo-ch3-f10-320x180.jpg'))));
    expect(uploads[1]!.data).toEqual(new Uint8Array(readFileSync(path.join(FIXTURES, 'photo-ch3-f60-320x180.jpg'))));
    expect(uploads[0]!.location).toMatchObject({ lat: 30.5, lng: 114.3, time: Date.UTC(2026, 10, 22, 1, 0, 5) });
  });

  it('refuse a channel they do not have with result 2 and no upload', () => {
    const { sent, link } = fakeTerminal('013900000002');
    cameraCommand(link, header(0x8801, 9), { msgId: 0x8801, channel: 9, command: 1, interval: 0, saveFlag: 0, resolution: 1, quality: 5, brightness: 0, contrast: 0, saturation: 0, chroma: 0 }, Date.now());
    expect(sent).toEqual([{ msgId: 0x0805, replySerial: 9, result: 2, mediaIds: [] }]);
  });

  it('list stored photos for 0x8802 and upload one for 0x8805', () => {
    const now = Date.UTC(2026, 10, 22, 12);
    const { sent, link } = fakeTerminal('013900000003');
    cameraCommand(link, header(0x8802, 3), { msgId: 0x8802, mediaType: 0, channel: 2, eventCode: 0, startTime: now - 3_600_000, endTime: now }, now);
    const list = sent[0] as Extract<Jt808MessageInput, { msgId: 0x0802 }>;
    // Every 30 minutes in the last hour, both ends included: 11:00, 11:30, 12:00.
    expect(list.items.map((i) => [i.channel, i.location.time])).toEqual([[2, now - 3_600_000], [2, now - 1_800_000], [2, now]]);
    expect(storedPhotos(2, now - 3_600_000, now, now).map((p) => p.id)).toEqual(list.items.map((i) => i.mediaId));
    cameraCommand(link, header(0x8805, 4), { msgId: 0x8805, mediaId: list.items[1]!.mediaId, deleteFlag: 0 }, now);
    expect(sent[1]).toEqual({ msgId: 0x0001, replySerial: 4, replyId: 0x8805, result: 0 });
    expect(sent[2]).toMatchObject({ msgId: 0x0801, mediaId: list.items[1]!.mediaId, channel: 2, eventCode: 1 });
    cameraCommand(link, header(0x8805, 5), { msgId: 0x8805, mediaId: 12345, deleteFlag: 0 }, now);
    expect(sent[3]).toEqual({ msgId: 0x0001, replySerial: 5, replyId: 0x8805, result: 1 });
  });

  it('upload an alarm photo (event code 2) once when SOS rises, and for ADAS / DMS events', () => {
    const { sent, link } = fakeTerminal('013900000004');
    cameraSawReport(link, loc());
    cameraSawReport(link, loc({ alarm: 1 }));
    cameraSawReport(link, loc({ alarm: 1 }));
    expect(sent.map((m) => [m.msgId, (m as { eventCode?: number }).eventCode, (m as { channel?: number }).channel])).toEqual([[0x0801, 2, 1]]);
    const identification = { terminalId: 'T', time: Date.UTC(2026, 10, 22), seq: 0, attachments: 0, reserved: 0 };
    cameraSawReport(link, loc({
      alarm: 1,
      adas: { alarmId: 1, flag: 0, type: 1, level: 1, frontSpeed: 0, frontDistance: 0, deviationType: 0, roadSignType: 0, roadSignValue: 0, speed: 40, altitude: 0, lat: 30.5, lng: 114.3, time: Date.UTC(2026, 10, 22), vehicleStatus: 0, identification },
    }));
    expect(sent.at(-1)).toMatchObject({ msgId: 0x0801, eventCode: 2, channel: 2 });
  });
});

describe('simulated cameras against the real server', () => {
  let server: LiveTestServer;
  let sim: RunningSimulator;
  let vehicleIds: number[];
  let token: string;
  let baseUrl: string;

  beforeAll(async () => {
    server = await startLiveServer({ seedVehicles: 3 });
    const vehicles = await server.app.storage.terminals.allVehicles();
    vehicleIds = vehicles.map((v) => v.vehicleId);
    sim = startSimulator({
      port: server.gatewayPort, terminals: vehicles.map((v) => ({ deviceNo: v.deviceNo })), seed: 5, tickMs: 10,
      rates: { neverOnlineShare: 0, offlinePerDay: 0 },
    });
    const deadline = Date.now() + 15_000;
    while (!vehicleIds.every((id) => server.app.live.gateway.isReachable(id))) {
      if (Date.now() > deadline) throw new Error('simulated terminals did not authenticate');
      await new Promise((r) => setTimeout(r, 25));
    }
    token = await server.login('admin', 'admin123');
    const address = server.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    baseUrl = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await sim.stop();
    await server.close();
  });

  it('a snapshot of every camera answers four photos whose files are the committed JPEGs', async () => {
    const r = await server.call<{ items: { channel: number; url: string; size: number }[] }>('POST', '/service-command/command/snapMedia', { token, body: { vehicleId: vehicleIds[0] } });
    expect(r.status).toBe(200);
    expect(r.data.items.map((i) => i.channel).sort()).toEqual([1, 2, 3, 4]);
    for (const item of r.data.items) {
      const res = await fetch(baseUrl + item.url, { headers: { 'x-jwt': token } });
      const bytes = Buffer.from(await res.arrayBuffer());
      // Each camera sends its two frames in turn: the photo is one of that channel's pair.
      const pair = [10, 60].map((n) => readFileSync(path.join(FIXTURES, `photo-ch${item.channel}-f${n}-320x180.jpg`)));
      expect(pair.some((f) => f.equals(bytes))).toBe(true);
    }
  });
});
