/**
 * The photo wall's calls against a live server with three simulated terminals (their cameras answer
 * 0x8801 with real JPEG uploads): CRUD, my walls, the wall's vehicles and latest photos, snap now,
 * doAlarm into the alarm processing list, and the rules: 400 naming the field with nothing written,
 * 403 by button bits, a branch never sees or saves another branch's vehicles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { startSimFleet, type SimFleet } from '../../test/sim-fleet.ts';
import { createUserWithRole } from '../../test/users.ts';

interface Wall { id: number; name: string; companyId: number; channels: number[]; refreshSeconds: number; vehicleCount: number; createdByName: string }
interface Tile { vehicleId: number; vehiidno: string; channel: number; online: boolean; photo: { id: number; url: string; captureTime: number; alarmId: number | null } | null }

let fleet: SimFleet;
let admin: string;
let db: SqliteStorage['db'];
let eastId: number;
let inEast: number;
let outside: number;
let east: string, viewer: string;

const call = <T>(method: string, url: string, token: string, body?: unknown) => fleet.server.call<T>(method, url, { token, body });
const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

beforeAll(async () => {
  fleet = await startSimFleet(30, 11);
  admin = fleet.adminToken;
  db = (fleet.server.app.storage as SqliteStorage).db;
  eastId = (db.prepare("SELECT company_id AS id FROM user WHERE username = 'branch'").get() as { id: number }).id;
  const eastPath = (db.prepare('SELECT path FROM company WHERE id = ?').get(eastId) as { path: string }).path;
  const pick = (inside: boolean) => (db.prepare(`SELECT v.id FROM vehicle v JOIN company c ON c.id = v.company_id
    WHERE (c.path >= ? AND c.path < ?) = ? ORDER BY v.id LIMIT 1`).get(eastPath, `${eastPath}~`, inside ? 1 : 0) as { id: number }).id;
  inEast = pick(true);
  outside = pick(false);
  east = await createUserWithRole(fleet.server, 'pw_east', eastId, [3, 350, 351, 352, 353, 354, 355]);
  viewer = await createUserWithRole(fleet.server, 'pw_viewer', 1, [3, 350]);
}, 60_000);
afterAll(() => fleet?.close());

describe('photo wall', () => {
  it('creates a wall of online vehicles, lists it (paged, mine), shows its vehicles with online state and channels', async () => {
    const ids = fleet.online.map((v) => v.vehicleId);
    const created = await call<Wall>('POST', '/service-priv/photowall', admin, { name: '  早班巡查 ', vehicleIds: ids, channels: [2, 1], refreshSeconds: 20 });
    expect(created.code).toBe(200);
    expect(created.data).toMatchObject({ name: '早班巡查', channels: [1, 2], refreshSeconds: 20, vehicleCount: 3 });
    const page = await call<{ records: Wall[]; total: number }>('GET', '/service-priv/photowall?current=1&size=10&name=早班', admin);
    expect(page.data.records.map((w) => w.id)).toContain(created.data.id);
    const mine = await call<Wall[]>('GET', '/service-priv/photowall/mylist', admin);
    expect(mine.data.map((w) => w.id)).toContain(created.data.id);
    expect((await call<Wall[]>('GET', '/service-priv/photowall/mylist', viewer)).data).toEqual([]);
    const vehicles = await call<{ records: { id: number; online: boolean; channels: number[] }[]; hidden: number }>('GET', `/service-priv/photowall/vehicles?wallId=${created.data.id}`, admin);
    expect(vehicles.data.records.map((v) => v.id)).toEqual(ids);
    expect(vehicles.data.records.every((v) => v.online && v.channels.join() === '1,2')).toBe(true);
    expect(vehicles.data.hidden).toBe(0);
  });

  it('snap now asks the online terminals; the wall then shows their real photos, and the photo file is a JPEG', async () => {
    const wall = (await call<Wall>('POST', '/service-priv/photowall', admin, { name: '抓拍墙', vehicleIds: fleet.online.map((v) => v.vehicleId), channels: [1] })).data;
    const snap = await call<{ asked: number; photos: number }>('POST', '/service-priv/photowall/snap', admin, { wallId: wall.id });
    expect(snap.code).toBe(200);
    expect(snap.data.asked).toBe(3);
    expect(snap.data.photos).toBeGreaterThanOrEqual(3);
    const snaps = await call<{ tiles: Tile[] }>('GET', `/service-priv/photowall/snaps?wallId=${wall.id}`, admin);
    expect(snaps.data.tiles).toHaveLength(3);
    expect(snaps.data.tiles.every((t) => t.photo !== null && t.channel === 1)).toBe(true);
    const res = await fleet.server.app.inject({ method: 'GET', url: snaps.data.tiles[0]!.photo!.url, headers: { 'x-jwt': viewer } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    const bytes = res.rawPayload;
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
  });

  it('doAlarm raises a manual alarm at the photo time and place, attached, visible in alarm processing; a second flag is 409', async () => {
    const wall = (await call<Wall>('POST', '/service-priv/photowall', admin, { name: '违章墙', vehicleIds: [fleet.online[0]!.vehicleId], channels: [1] })).data;
    await call('POST', '/service-priv/photowall/snap', admin, { wallId: wall.id });
    const tile = (await call<{ tiles: Tile[] }>('GET', `/service-priv/photowall/snaps?wallId=${wall.id}`, admin)).data.tiles[0]!;
    const photo = tile.photo!;
    const bad = await call('POST', '/service-priv/photowall/doAlarm', admin, { mediaId: photo.id, alarmType: 17001, reason: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.msg).toContain('alarmType');
    const raised = await call<{ alarmId: number; startTime: number; alarmName: string }>('POST', '/service-priv/photowall/doAlarm', admin, { mediaId: photo.id, alarmType: 90001, reason: '照片可见闯红灯', wallId: wall.id });
    expect(raised.code).toBe(200);
    expect(raised.data.startTime).toBe(photo.captureTime);
    const now = fleet.server.clock.now();
    const list = await call<{ records: { id: number; alarmType: number; vehicleId: number }[] }>('POST', '/service-safe/alarmInfo', admin, {
      current: 1, size: 50, startTime: now - 86_400_000, endTime: now + 86_400_000, alarmTypes: [90001],
    });
    expect(list.data.records.find((a) => a.id === raised.data.alarmId)).toMatchObject({ alarmType: 90001, vehicleId: tile.vehicleId });
    const log = db.prepare('SELECT action, content FROM alarm_deal_log WHERE alarm_id = ?').all(raised.data.alarmId);
    expect(log).toEqual([{ action: 'photoWallRaise', content: '照片可见闯红灯' }]);
    const after = (await call<{ tiles: Tile[] }>('GET', `/service-priv/photowall/snaps?wallId=${wall.id}`, admin)).data.tiles[0]!;
    expect(after.photo!.alarmId).toBe(raised.data.alarmId);
    const alarms = count('alarm');
    const again = await call('POST', '/service-priv/photowall/doAlarm', admin, { mediaId: photo.id, alarmType: 90002, reason: '再次' });
    expect(again.status).toBe(409);
    expect(count('alarm')).toBe(alarms);
  });

  it('refuses bad input with 400 naming the field and writes nothing', async () => {
    const walls = count('photo_wall');
    const rows = count('photo_wall_vehicle');
    for (const body of [
      { name: '', vehicleIds: [inEast] },
      { name: 'x'.repeat(51), vehicleIds: [inEast] },
      { name: '空墙', vehicleIds: [] },
      { name: '刷新', vehicleIds: [inEast], refreshSeconds: 5 },
      { name: '不存在', vehicleIds: [inEast, 9_999_999] },
      { name: '通道', vehicleIds: [inEast], channels: [0] },
    ]) {
      const r = await call('POST', '/service-priv/photowall', admin, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.msg).toMatch(/name|vehicleIds|refreshSeconds|channels/);
    }
    expect([count('photo_wall'), count('photo_wall_vehicle')]).toEqual([walls, rows]);
  });

  it('403 without the button bits', async () => {
    expect((await call('POST', '/service-priv/photowall', viewer, { name: '无权', vehicleIds: [inEast] })).status).toBe(403);
    expect((await call('POST', '/service-priv/photowall/doAlarm', viewer, { mediaId: 1, alarmType: 90001, reason: 'r' })).status).toBe(403);
    expect((await call('POST', '/service-priv/photowall/snap', viewer, { wallId: 1 })).status).toBe(403);
    expect((await call('DELETE', '/service-priv/photowall', viewer, { ids: [1] })).status).toBe(403);
  });

  it('a branch cannot save or see a vehicle outside its subtree, nor touch another branch\'s wall', async () => {
    const walls = count('photo_wall');
    const refused = await call('POST', '/service-priv/photowall', east, { name: '越界', vehicleIds: [inEast, outside] });
    expect(refused.status).toBe(400);
    expect(refused.msg).toContain('vehicleIds');
    expect(count('photo_wall')).toBe(walls);
    // An administrator saves a mixed wall for the east branch: the branch sees only its own vehicle.
    const mixed = (await call<Wall>('POST', '/service-priv/photowall', admin, { name: '混合墙', vehicleIds: [outside, inEast], ownerCompanyId: eastId })).data;
    const seen = await call<{ records: { id: number }[]; hidden: number }>('GET', `/service-priv/photowall/vehicles?wallId=${mixed.id}`, east);
    expect(seen.data.records.map((v) => v.id)).toEqual([inEast]);
    expect(seen.data.hidden).toBe(1);
    const tiles = (await call<{ tiles: Tile[] }>('GET', `/service-priv/photowall/snaps?wallId=${mixed.id}`, east)).data.tiles;
    expect(tiles.length).toBeGreaterThan(0);
    expect(tiles.every((t) => t.vehicleId === inEast)).toBe(true);
    // The branch edits it: the vehicle it cannot see stays on the wall.
    expect((await call('PUT', '/service-priv/photowall', east, { id: mixed.id, name: '混合墙2', vehicleIds: [inEast] })).code).toBe(200);
    expect((await call<{ records: { id: number }[] }>('GET', `/service-priv/photowall/vehicles?wallId=${mixed.id}`, admin)).data.records.map((v) => v.id).sort()).toEqual([inEast, outside].sort());
    // A wall of the head office is not the branch's: not listed, 404, and a delete naming it deletes nothing.
    const head = (await call<Wall>('POST', '/service-priv/photowall', admin, { name: '总部墙', vehicleIds: [outside] })).data;
    const list = await call<{ records: Wall[] }>('GET', '/service-priv/photowall?current=1&size=100', east);
    expect(list.data.records.map((w) => w.id)).toContain(mixed.id);
    expect(list.data.records.map((w) => w.id)).not.toContain(head.id);
    expect((await call('GET', `/service-priv/photowall/snaps?wallId=${head.id}`, east)).status).toBe(404);
    const before = count('photo_wall');
    expect((await call('DELETE', '/service-priv/photowall', east, { ids: [mixed.id, head.id] })).status).toBe(404);
    expect(count('photo_wall')).toBe(before);
    expect((await call('DELETE', '/service-priv/photowall', east, { ids: [mixed.id] })).code).toBe(200);
    expect(count('photo_wall')).toBe(before - 1);
  });
});
