/**
 * Accident analysis against a real server: an officer files an accident for a vehicle of their branch,
 * links only that vehicle's alarms inside the window, grading and handling rules answer in Chinese, a
 * refused call writes nothing, another branch neither sees nor touches the accident, evidence is read
 * by its bytes (a text file named .jpg is refused), and a closed case published to a company reaches
 * that company's users until it is unpublished.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVIDENCE_FILES_MAX } from '../../../domain/accidents/evidence.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { startServer, type Answer, type TestServer } from '../../test/harness.ts';
import { createUserWithRole, permissionId } from '../../test/users.ts';

interface Accident { id: number; plate: string; level: string; state: string; alarmCount: number; published: boolean; companyId: number }
interface Detail extends Accident { own: boolean; alarms: { id: number }[]; track: { vehicleId: number; startTime: number; endTime: number } | null; files: { id: number; kind: string }[]; publicity: { title: string } | null }

let server: TestServer;
let db: SqliteStorage['db'];
let officer: string, viewer: string, westOfficer: string, westReader: string, siblingReader: string;
let siblingId: number;
let eastVehicle: { id: number; device_no: string; company_id: number };
let eastOther: { id: number; device_no: string; company_id: number };
let westId: number;
const NOW = Date.now();
const T = NOW - 3_600_000;

const M = '/safeManagement/accidentAnalysis/manualProcessing';
const P = '/safeManagement/accidentAnalysis/accidentPublicity';
const call = <T>(method: string, url: string, token: string, body?: unknown) => server.call<T>(method, url, { token, body, lang: 'zh' });
const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

function alarm(v: { id: number; device_no: string; company_id: number }, start: number, type = 18005): number {
  return Number(db.prepare(`INSERT INTO alarm (vehicle_id, device_no, company_id, alarm_type, source, start_time, end_time, last_time, lng, lat, speed, risk_level, create_time)
    VALUES (?, ?, ?, ?, 'bit', ?, ?, ?, 116.4, 39.9, 42, 'high', ?)`).run(v.id, v.device_no, v.company_id, type, start, start + 30_000, start + 30_000, start).lastInsertRowid);
}
const body = (over: Record<string, unknown> = {}) => ({
  vehicleId: eastVehicle.id, time: T, lng: 116.41, lat: 39.91, place: '京港澳高速 K12+300', type: 'collision',
  lightInjuries: 1, propertyLoss: 8_000, description: '追尾前车', ...over,
});

async function upload(token: string, id: number, bytes: Uint8Array, name: string): Promise<Answer<{ id: number; kind: string }>> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'image/jpeg' }), name);
  const req = new Request('http://local/', { method: 'POST', body: form });
  const res = await server.app.inject({
    method: 'POST', url: `/service-crm/accident/upload?id=${id}`,
    headers: { 'x-jwt': token, 'x-lang': 'zh', 'content-type': req.headers.get('content-type')! },
    payload: Buffer.from(await req.arrayBuffer()),
  });
  return res.json() as Answer<{ id: number; kind: string }>;
}

beforeAll(async () => {
  server = await startServer();
  db = (server.app.storage as SqliteStorage).db;
  const east = db.prepare("SELECT id, path FROM company WHERE name = '华东分公司'").get() as { id: number; path: string };
  westId = (db.prepare('SELECT id FROM company WHERE pid = 1 AND id <> ? ORDER BY id LIMIT 1').get(east.id) as { id: number }).id;
  const inEast = db.prepare("SELECT v.id, v.device_no, v.company_id FROM vehicle v JOIN company c ON c.id = v.company_id WHERE c.path LIKE ? || '%' ORDER BY v.id LIMIT 2").all(east.path) as typeof eastVehicle[];
  [eastVehicle, eastOther] = [inEast[0]!, inEast[1]!];
  const all = [M, `${M}:create`, `${M}:update`, `${M}:delete`, P, `${P}:publish`, `${P}:unpublish`, `${P}:upload`, `${P}:deleteFile`].map(permissionId);
  // A page's bit counts with its menu groups' (as a role the role screen saves holds them).
  const groups = [permissionId('/safeManagement'), permissionId('/safeManagement/accidentAnalysis')];
  officer = await createUserWithRole(server, 'acc_officer', east.id, [...groups, ...all]);
  viewer = await createUserWithRole(server, 'acc_viewer', east.id, [...groups, permissionId(M), permissionId(P)]);
  westOfficer = await createUserWithRole(server, 'acc_west', westId, [...groups, ...all]);
  westReader = await createUserWithRole(server, 'acc_west_reader', westId, [...groups, permissionId(P)]);
  // A fleet of the same branch beside the vehicle's: it reads the branch's case only once published to it.
  siblingId = (db.prepare('SELECT id FROM company WHERE pid = ? AND id <> ? ORDER BY id LIMIT 1').get(east.id, eastVehicle.company_id) as { id: number }).id;
  siblingReader = await createUserWithRole(server, 'acc_sibling_reader', siblingId, [...groups, permissionId(P)]);
}, 60_000);
afterAll(() => server?.close());

describe('accident manual processing', () => {
  it('offers only the vehicle’s own alarms inside ±10 minutes, and refuses linking another vehicle’s or a later one', async () => {
    const inside = alarm(eastVehicle, T - 5 * 60_000);
    const outside = alarm(eastVehicle, T + 25 * 60_000);
    const otherVehicle = alarm(eastOther, T);
    const offered = await call<{ alarms: { id: number; alarmName: string }[] }>('GET', `/service-crm/accident/alarms?vehicleId=${eastVehicle.id}&time=${T}`, officer);
    expect(offered.code).toBe(200);
    expect(offered.data.alarms.map((a) => a.id)).toEqual([inside]);
    expect(offered.data.alarms[0]!.alarmName).toBe('碰撞预警');
    // A wider window, chosen by the officer, reaches the later one.
    const wide = await call<{ alarms: { id: number }[] }>('GET', `/service-crm/accident/alarms?vehicleId=${eastVehicle.id}&time=${T}&windowMinutes=30`, officer);
    expect(wide.data.alarms.map((a) => a.id)).toEqual([inside, outside]);

    for (const bad of [otherVehicle, outside]) {
      const before = count('accident');
      const r = await call('POST', '/service-crm/accident/save', officer, body({ alarmIds: [inside, bad] }));
      expect(r.status).toBe(400);
      expect(r.msg).toContain('告警不属于该车辆，或不在事故时间前后 10 分钟内');
      expect(count('accident')).toBe(before);
    }
    const saved = await call<Accident>('POST', '/service-crm/accident/save', officer, body({ alarmIds: [inside] }));
    expect(saved.code).toBe(200);
    expect(saved.data).toMatchObject({ alarmCount: 1, level: 'ordinary', state: 'reported' });
    const detail = await call<Detail>('GET', `/service-crm/accident/detail?id=${saved.data.id}`, viewer);
    expect(detail.data.alarms.map((a) => a.id)).toEqual([inside]);
    expect(detail.data.track).toEqual({ vehicleId: eastVehicle.id, plate: saved.data.plate, startTime: T - 600_000, endTime: T + 600_000 });
  });

  it('answers bad fields with a clear Chinese message and writes nothing', async () => {
    const before = count('accident');
    const cases: [Record<string, unknown>, string][] = [
      [{ deaths: 1, level: 'ordinary' }, '按伤亡和财产损失，事故等级至少为重大事故'],
      [{ time: NOW + 3_600_000 }, '事故时间不能晚于当前时间'],
      [{ lng: 0, lat: 0 }, '坐标不在中国境内'],
      [{ place: '   ' }, '请填写事故地点'],
      [{ state: 'closed', responsibility: 'full' }, '处理状态不能从“已上报”改为“已结案”'],
    ];
    for (const [over, words] of cases) {
      const r = await call('POST', '/service-crm/accident/save', officer, body(over));
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.msg).toContain(words);
    }
    const noType = await call('POST', '/service-crm/accident/save', officer, { ...body(), type: 'explosion' });
    expect(noType.status).toBe(400);
    expect(count('accident')).toBe(before);
  });

  it('moves an accident to closed only through investigation and with the responsibility determined', async () => {
    const a = (await call<Accident>('POST', '/service-crm/accident/save', officer, body())).data;
    const upd = (over: Record<string, unknown>) => call<Accident>('PUT', '/service-crm/accident/update', officer, { ...body(over), vehicleId: undefined, id: a.id });
    expect((await upd({ state: 'investigating' })).data.state).toBe('investigating');
    const pending = await upd({ state: 'closed' });
    expect(pending.status).toBe(400);
    expect(pending.msg).toContain('结案前须认定事故责任');
    expect((await upd({ state: 'closed', responsibility: 'main' })).data.state).toBe('closed');
  });

  it('refuses a caller without the create bit with 403 and writes nothing', async () => {
    const before = count('accident');
    const r = await call('POST', '/service-crm/accident/save', viewer, body());
    expect(r.status).toBe(403);
    expect(count('accident')).toBe(before);
  });

  it('attack: another branch’s officer cannot list, read, edit, delete, publish or upload to the accident by its id', async () => {
    const a = (await call<Accident>('POST', '/service-crm/accident/save', officer, body())).data;
    const page = await call<{ records: Accident[] }>('POST', '/service-crm/accident/page', westOfficer, { current: 1, size: 100 });
    expect(page.data.records.some((r) => r.id === a.id)).toBe(false);
    expect((await call('GET', `/service-crm/accident/detail?id=${a.id}`, westOfficer)).status).toBe(404);
    expect((await call('PUT', '/service-crm/accident/update', westOfficer, { ...body(), vehicleId: undefined, id: a.id, place: 'hacked' })).status).toBe(404);
    expect((await call('DELETE', '/service-crm/accident/delete', westOfficer, { ids: [a.id] })).status).toBe(404);
    expect((await call('POST', '/service-crm/accident/publish', westOfficer, { id: a.id, title: 'x', summary: 'y', companyIds: [westId] })).status).toBe(404);
    expect((await upload(westOfficer, a.id, new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]), 'a.jpg')).code).toBe(404);
    // Nor file one for the other branch's vehicle.
    expect((await call('POST', '/service-crm/accident/save', westOfficer, body())).status).toBe(404);
    expect(db.prepare('SELECT place FROM accident WHERE id = ?').get(a.id)).toEqual({ place: '京港澳高速 K12+300' });
  });
});

describe('accident publicity', () => {
  it('refuses a text file named .jpg, keeps a JPEG, publishes a closed case to the chosen company and unpublishes it', async () => {
    const a = (await call<Accident>('POST', '/service-crm/accident/save', officer, body({ state: 'investigating' }))).data;
    const early = await call('POST', '/service-crm/accident/publish', officer, { id: a.id, title: '追尾事故警示', summary: '保持车距', companyIds: [westId] });
    expect(early.status).toBe(400);
    expect(early.msg).toContain('只有已结案的事故可以公示');

    const text = await upload(officer, a.id, new TextEncoder().encode('this is not a photo at all'), 'scene.jpg');
    expect(text.code).toBe(400);
    expect(text.msg).toContain('文件内容不是 JPEG、PNG 图片、MP4 视频或 PDF 文档');
    expect(count('accident_file')).toBe(0);
    const jpeg = await upload(officer, a.id, new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 2, 3]), 'scene.jpg');
    expect(jpeg.code).toBe(200);
    expect(jpeg.data.kind).toBe('jpeg');

    await call('PUT', '/service-crm/accident/update', officer, { ...body({ state: 'closed', responsibility: 'full' }), vehicleId: undefined, id: a.id });
    // The sibling fleet reads nothing before publishing; west (outside the officer's branch) cannot be chosen.
    expect((await call('GET', `/service-crm/accident/detail?id=${a.id}`, siblingReader)).status).toBe(404);
    const west = await call('POST', '/service-crm/accident/publish', officer, { id: a.id, title: '追尾事故警示', summary: '保持车距', companyIds: [westId] });
    expect(west.status).toBe(400);
    expect(west.msg).toContain('单位不存在或不在权限范围内');
    const pub = await call<Accident>('POST', '/service-crm/accident/publish', officer, { id: a.id, title: '追尾事故警示', summary: '保持车距', companyIds: [siblingId] });
    expect(pub.data.published).toBe(true);
    // Published: no edit, no delete until unpublished.
    expect((await call('DELETE', '/service-crm/accident/delete', officer, { ids: [a.id] })).msg).toContain('请先取消公示');

    const page = await call<{ records: (Accident & { title: string; own: boolean })[] }>('POST', '/service-crm/accident/publicity/page', siblingReader, { current: 1, size: 50 });
    expect(page.data.records.map((r) => [r.id, r.title, r.own])).toEqual([[a.id, '追尾事故警示', false]]);
    expect((await call<{ records: unknown[] }>('POST', '/service-crm/accident/publicity/page', westReader, { current: 1, size: 50 })).data.records).toEqual([]);
    const seen = await call<Detail>('GET', `/service-crm/accident/detail?id=${a.id}`, siblingReader);
    expect(seen.data).toMatchObject({ own: false, alarms: [], track: null, publicity: { title: '追尾事故警示' } });
    expect(seen.data.files.map((f) => f.kind)).toEqual(['jpeg']);
    const file = await server.app.inject({ method: 'GET', url: `/service-crm/accident/file?id=${jpeg.data.id}`, headers: { 'x-jwt': siblingReader } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    // Evidence may be sensitive (injuries, plates): no cache keeps it after the session or the publication ends.
    expect(file.headers['cache-control']).toBe('no-store');
    expect((await server.app.inject({ method: 'GET', url: `/service-crm/accident/file?id=${jpeg.data.id}`, headers: { 'x-jwt': westReader } })).statusCode).toBe(404);
    // A reader of the case may not unpublish it.
    expect((await call('POST', '/service-crm/accident/unpublish', siblingReader, { id: a.id })).status).toBe(403);

    expect((await call<Accident>('POST', '/service-crm/accident/unpublish', officer, { id: a.id })).data.published).toBe(false);
    expect((await call('GET', `/service-crm/accident/detail?id=${a.id}`, siblingReader)).status).toBe(404);
    expect((await call<{ records: unknown[] }>('POST', '/service-crm/accident/publicity/page', siblingReader, { current: 1, size: 50 })).data.records).toEqual([]);
  });

  const jpegOf = (n: number) => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, n & 0xff, (n >> 8) & 0xff, 7]);
  const stored = (bytes: Uint8Array) => path.join(server.config.dataDir, 'accident-files', createHash('sha256').update(bytes).digest('hex'));

  it('two uploads at once with room for one: exactly one is kept, the other refused in words', async () => {
    const a = (await call<Accident>('POST', '/service-crm/accident/save', officer, body())).data;
    const put = db.prepare("INSERT INTO accident_file (accident_id, file_name, kind, size, sha256, uploaded_by_name, upload_time) VALUES (?, 'old.jpg', 'jpeg', 1, ?, '测试', ?)");
    for (let i = 0; i < EVIDENCE_FILES_MAX - 1; i++) put.run(a.id, `seed-${i}`, NOW);
    const answers = await Promise.all([upload(officer, a.id, jpegOf(9001), 'a.jpg'), upload(officer, a.id, jpegOf(9002), 'b.jpg')]);
    expect(answers.map((r) => r.code).sort()).toEqual([200, 400]);
    expect(answers.find((r) => r.code === 400)!.msg).toContain(`一个事故最多上传 ${EVIDENCE_FILES_MAX} 个证据文件`);
    expect((db.prepare('SELECT count(*) AS n FROM accident_file WHERE accident_id = ?').get(a.id) as { n: number }).n).toBe(EVIDENCE_FILES_MAX);
    // The refused upload's bytes are not left on disk.
    expect([fs.existsSync(stored(jpegOf(9001))), fs.existsSync(stored(jpegOf(9002)))].sort()).toEqual([false, true]);
  });

  it('evidence files leave the disk with their accident, and with a deleted company whose accidents cascade away', async () => {
    const admin = await server.login('admin', 'admin123');
    const a = (await call<Accident>('POST', '/service-crm/accident/save', officer, body())).data;
    const bytes = jpegOf(9100);
    expect((await upload(officer, a.id, bytes, 'x.jpg')).code).toBe(200);
    expect(fs.existsSync(stored(bytes))).toBe(true);
    expect((await call('DELETE', '/service-crm/accident/delete', officer, { ids: [a.id] })).code).toBe(200);
    expect(fs.existsSync(stored(bytes))).toBe(false);

    // An accident of a company that no longer has vehicles (its vehicle moved away since): deleting the company
    // cascades to the accident and its file rows; the file goes too.
    const gone = (await server.app.storage.companies.create(1, { name: '已撤销车队', contact: '', phone: '', address: '', remark: '' })).id;
    const b = (await call<Accident>('POST', '/service-crm/accident/save', officer, body())).data;
    db.prepare('UPDATE accident SET company_id = ? WHERE id = ?').run(gone, b.id);
    const other = jpegOf(9200);
    expect((await upload(admin, b.id, other, 'y.jpg')).code).toBe(200);
    expect(fs.existsSync(stored(other))).toBe(true);
    const del = await call('DELETE', `/service-priv/company?ids=${gone}`, admin);
    expect(del.code).toBe(200);
    expect(db.prepare('SELECT id FROM accident WHERE id = ?').get(b.id)).toBeUndefined();
    expect(fs.existsSync(stored(other))).toBe(false);
  });
});
