/**
 * Text and audio resources and batch voice dispatch against a live server with simulated terminals:
 * audio accepted or refused by its bytes (not its name), one file at a time, size cap, nothing kept on a
 * 400; templates; the 500-vehicle cap in words; an online terminal acknowledging its 0x8300 and an
 * offline one receiving it when it comes back inside the validity window, never after it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { startSimFleet, until, type SimFleet } from '../../test/sim-fleet.ts';
import { createUserWithRole } from '../../test/users.ts';
import { readProvisionedTerminals, startSimulator, type RunningSimulator } from '../../sim/index.ts';
import { sniffAudio } from './audio-format.ts';

interface Answer<T> { code: number; msg: string; data: T; errors?: Record<string, unknown> }
interface Audio { id: number; name: string; format: string; size: number; url: string; fileName: string }
interface TaskView { id: number; counts: Record<string, number>; text: string; types: string[]; expired: boolean }
interface Log { task: TaskView; records: { vehicleId: number; state: string; result: number | null }[] }

let fleet: SimFleet;
let admin: string;
let viewer: string;
let db: SqliteStorage['db'];
let dir: string;
let late: RunningSimulator | undefined;

const call = <T>(method: string, url: string, token: string, body?: unknown) => fleet.server.call<T>(method, url, { token, body, lang: 'en' });
const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const files = () => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);

/** Multipart as a browser sends it: the given parts in order. */
async function upload(token: string, fields: Record<string, string>, parts: { bytes: Uint8Array; name: string }[]): Promise<Answer<Audio>> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const p of parts) form.append('file', new Blob([p.bytes], { type: 'audio/mpeg' }), p.name);
  const req = new Request('http://local/', { method: 'POST', body: form });
  const res = await fleet.server.app.inject({
    method: 'POST', url: '/service-ops/audioManage/add',
    headers: { 'x-jwt': token, 'x-lang': 'en', 'content-type': req.headers.get('content-type')! },
    payload: Buffer.from(await req.arrayBuffer()),
  });
  return res.json() as Answer<Audio>;
}

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const wav = () => new Uint8Array([...ascii('RIFF'), 36, 0, 0, 0, ...ascii('WAVEfmt '), ...new Array(40).fill(1)]);
const ogg = () => new Uint8Array([...ascii('OggS'), 0, 2, ...new Array(30).fill(3)]);
const mp3Id3 = () => new Uint8Array([...ascii('ID3'), 4, 0, 0, 0, 0, 0, 10, ...new Array(30).fill(0)]);
/** A bare MPEG-1 Layer III frame header (128 kb/s, 44.1 kHz) with no tag. */
const mp3Frame = () => new Uint8Array([0xff, 0xfb, 0x90, 0x64, ...new Array(40).fill(0)]);

beforeAll(async () => {
  fleet = await startSimFleet(12, 31);
  admin = fleet.adminToken;
  db = (fleet.server.app.storage as SqliteStorage).db;
  dir = path.join(fleet.server.config.dataDir, 'audio-resources');
  // Sees every screen of the issue, holds no button bit.
  viewer = await createUserWithRole(fleet.server, 'voice_viewer', 1, [106, 107, 108, 109, 110, 112, 113]);
}, 60_000);
afterAll(async () => {
  await late?.stop();
  await fleet?.close();
});

describe('audio type by content', () => {
  it('reads mp3 (ID3 or a bare frame), wav and ogg from the first bytes, and nothing else', () => {
    expect(sniffAudio(mp3Id3())).toBe('mp3');
    expect(sniffAudio(mp3Frame())).toBe('mp3');
    expect(sniffAudio(wav())).toBe('wav');
    expect(sniffAudio(ogg())).toBe('ogg');
    expect(sniffAudio(new TextEncoder().encode('hello, this is text'))).toBeNull();
    expect(sniffAudio(new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0]))).toBeNull(); // MZ: a Windows program
    expect(sniffAudio(new Uint8Array([0xff, 0xff, 0xff, 0xff]))).toBeNull(); // sync bits but a reserved layout
  });
});

describe('audio resources', () => {
  it('refuses by content, size and file count, in words, and keeps neither a row nor a file', async () => {
    const text = await upload(admin, { name: 'fake' }, [{ bytes: new TextEncoder().encode('not audio at all'), name: 'alarm.mp3' }]);
    expect([text.code, text.msg]).toEqual([400, 'file: The file is not MP3, WAV or OGG audio (read from its content)']);
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(wav());
    const tooBig = await upload(admin, { name: 'big' }, [{ bytes: big, name: 'big.wav' }]);
    expect([tooBig.code, tooBig.msg]).toEqual([400, 'file: The audio file must be at most 10 MiB']);
    const two = await upload(admin, { name: 'two' }, [{ bytes: wav(), name: 'a.wav' }, { bytes: ogg(), name: 'b.ogg' }]);
    expect([two.code, two.msg]).toEqual([400, 'file: Upload one file at a time']);
    const none = await upload(admin, { name: 'none' }, []);
    expect([none.code, none.msg]).toEqual([400, 'file: Choose the audio file']);
    expect(count('audio_resource')).toBe(0);
    expect(files()).toEqual([]);
  });

  it('stores a file by what it is, whatever its name; serves the same bytes with its type; 403 without the bit', async () => {
    const bytes = wav();
    const r = await upload(admin, { name: '到站提示' }, [{ bytes, name: 'prompt.dat' }]);
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ name: '到站提示', format: 'wav', size: bytes.length, fileName: 'prompt.dat' });
    const res = await fleet.server.app.inject({ method: 'GET', url: r.data.url, headers: { 'x-jwt': admin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(new Uint8Array(res.rawPayload)).toEqual(bytes);
    const mp3 = await upload(admin, {}, [{ bytes: mp3Frame(), name: 'chime.mp3' }]);
    expect(mp3.data).toMatchObject({ name: 'chime', format: 'mp3' });
    expect((await upload(viewer, { name: 'x' }, [{ bytes: ogg(), name: 'x.ogg' }])).code).toBe(403);
    const page = await call<{ records: Audio[]; total: number }>('POST', '/service-ops/audioManage/page', viewer, { current: 1, size: 10 });
    expect(page.data.records.map((a) => a.name)).toEqual(['chime', '到站提示']);
    const del = await call('DELETE', '/service-ops/audioManage/delete', admin, { ids: [mp3.data.id] });
    expect(del.code).toBe(200);
    expect(files().length).toBe(1);
  });
});

describe('text templates', () => {
  it('add, edit, refuse an empty text in words; 403 without the bit; the picker lists them', async () => {
    const add = await call<{ id: number; content: string }>('POST', '/service-ops/textManage/add', admin, { name: '安全提醒', content: '请系好安全带，注意行车安全' });
    expect(add.code).toBe(200);
    const empty = await call('POST', '/service-ops/textManage/add', admin, { name: 'x', content: '   ' });
    expect([empty.code, empty.msg]).toEqual([400, 'content: The message content is required']);
    const upd = await call<{ content: string }>('PUT', '/service-ops/textManage/update', admin, { id: add.data.id, name: '安全提醒', content: '请系好安全带' });
    expect(upd.data.content).toBe('请系好安全带');
    expect((await call('POST', '/service-ops/textManage/add', viewer, { name: 'y', content: 'z' })).code).toBe(403);
    const list = await call<{ id: number; name: string }[]>('POST', '/service-ops/textManage/list', viewer, {});
    // Newest first: the one added here, then the demo database's three (server/seed/voice.ts).
    expect(list.data.map((t) => t.name)).toEqual(['安全提醒', '雨天慢行', '疲劳驾驶提醒', '安全带提醒']);
  });
});

describe('batch voice dispatch', () => {
  const send = (token: string, body: Record<string, unknown>) => call<TaskView>('POST', '/service-command/voice/save', token, body);
  const log = (id: number) => call<Log>('GET', `/service-command/voice/searchBatchDistributeLog?id=${id}&current=1&size=50`, admin).then((r) => r.data);
  const texts = (vehicleId: number) => (db.prepare('SELECT content FROM command_record WHERE vehicle_id = ? AND msg_id = ? ORDER BY id').all(vehicleId, 0x8300) as { content: string }[]).map((r) => (JSON.parse(r.content) as { text: string }).text);

  it('more than 500 vehicles is refused in words; text and template together too; nothing stored', async () => {
    const many = Array.from({ length: 501 }, (_, i) => i + 1);
    const r = await send(admin, { vehicleIds: many, text: 'hi', types: ['tts'], validMinutes: 60 });
    expect([r.code, r.msg]).toEqual([400, 'vehicleIds: At most 500 vehicles per dispatch; 501 selected']);
    const tpl = (await call<{ id: number }[]>('POST', '/service-ops/textManage/list', admin, {})).data[0]!;
    const both = await send(admin, { vehicleIds: [fleet.online[0]!.vehicleId], text: 'hi', templateId: tpl.id, types: ['tts'] });
    expect(both.code).toBe(400);
    expect(both.msg).toContain('one of the two');
    expect((await send(viewer, { vehicleIds: [fleet.online[0]!.vehicleId], text: 'hi', types: ['tts'] })).code).toBe(403);
    expect(count('voice_task')).toBe(0);
  });

  it('the online terminal acknowledges at once; the offline one waits, receives it on reconnect inside its window, never after', async () => {
    const online = fleet.online[0]!.vehicleId;
    const offline = fleet.offlineVehicle;
    const tpl = (await call<{ id: number; content: string }[]>('POST', '/service-ops/textManage/list', admin, {})).data[0]!;
    const inWindow = await send(admin, { vehicleIds: [online, offline], templateId: tpl.id, types: ['tts', 'display'], validMinutes: 30 });
    expect(inWindow.code).toBe(200);
    expect(inWindow.data).toMatchObject({ text: '请系好安全带', types: ['tts', 'display'] });
    await until(async () => (await log(inWindow.data.id)).task.counts.ok === 1, 15_000, 100);
    const first = await log(inWindow.data.id);
    expect(first.records.map((r) => [r.vehicleId, r.state])).toEqual([[online, 'ok'], [offline, 'queued']]);
    expect(texts(online)).toEqual(['请系好安全带']);

    // A second dispatch to the same offline vehicle whose window has already closed.
    const closed = await send(admin, { vehicleIds: [offline], text: '过期的通知', types: ['urgent'], validMinutes: 1 });
    db.prepare('UPDATE voice_task SET expire_time = ? WHERE id = ?').run(Date.now() - 1, closed.data.id);
    expect((await log(closed.data.id)).records[0]).toMatchObject({ vehicleId: offline, state: 'expired' });

    // The offline vehicle's terminal powers on.
    const deviceNo = (db.prepare('SELECT device_no AS d FROM vehicle WHERE id = ?').get(offline) as { d: string }).d;
    const spec = readProvisionedTerminals(fleet.server.config.dataDir).find((t) => t.deviceNo === deviceNo)!;
    late = startSimulator({ port: fleet.server.gatewayPort, terminals: [spec], seed: 5, tickMs: 10, rates: { neverOnlineShare: 0, offlinePerDay: 0, blindPerDrivingDay: 0 } });
    await until(async () => (await log(inWindow.data.id)).task.counts.ok === 2, 20_000, 100);
    expect((await log(inWindow.data.id)).records.find((r) => r.vehicleId === offline)).toMatchObject({ state: 'ok', result: 0 });
    await new Promise((r) => setTimeout(r, 1000));
    // Only the text inside its window reached the terminal; the expired one stays expired.
    expect(texts(offline)).toEqual(['请系好安全带']);
    expect((await log(closed.data.id)).task.counts).toMatchObject({ expired: 1, ok: 0, queued: 0 });
    const list = await call<{ records: TaskView[] }>('GET', '/service-command/voice/searchBatchDistribute?current=1&size=10', admin);
    expect(list.data.records.map((t) => [t.id, t.counts.ok, t.counts.expired])).toEqual([[closed.data.id, 0, 1], [inWindow.data.id, 2, 0]]);
  }, 60_000);

  it('withdraw: waiting vehicles become cancelled; nothing waiting is 409', async () => {
    const simulated = new Set([...fleet.online.map((o) => o.vehicleId), fleet.offlineVehicle]);
    const other = (db.prepare('SELECT id FROM vehicle ORDER BY id').all() as { id: number }[]).map((r) => r.id).find((id) => !simulated.has(id))!;
    const t = await send(admin, { vehicleIds: [other], text: '撤销测试', types: ['tts'], validMinutes: 60 });
    expect(t.data.counts.queued).toBe(1);
    expect((await call('POST', `/service-command/voice/disable?id=${t.data.id}`, viewer)).code).toBe(403);
    const w = await call<TaskView>('POST', `/service-command/voice/disable?id=${t.data.id}`, admin);
    expect(w.data.counts).toMatchObject({ queued: 0, cancelled: 1 });
    expect((await call('POST', `/service-command/voice/disable?id=${t.data.id}`, admin)).code).toBe(409);
  });
});
