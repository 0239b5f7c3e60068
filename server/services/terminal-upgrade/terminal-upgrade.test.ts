/**
 * Terminal upgrades against a live server with simulated terminals: packages uploaded (400 naming the
 * field, nothing kept), pushed over 0x8108 as sub-packages to an online terminal that installs it and
 * reports its new firmware in 0x0107, a foreign manufacturer's package failed with result 1, an offline
 * vehicle left queued, 403 by button bits and another branch's packages and vehicles refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { startSimFleet, until, type SimFleet } from '../../test/sim-fleet.ts';
import { injectForm } from '../../test/multipart.ts';
import { createUserWithRole } from '../../test/users.ts';
import { readProvisionedTerminals, startSimulator, type RunningSimulator } from '../../sim/index.ts';

interface Pkg { id: number; name: string; version: string; upgradeType: number; makerId: string; size: number; sha256: string }
interface Task { id: number; counts: Record<string, number>; vehicles: { vehicleId: number; state: string; result: number | null; recordId: number | null }[] }
interface Answer<T> { code: number; msg: string; data: T; errors?: Record<string, unknown> }

let fleet: SimFleet;
let admin: string;
let db: SqliteStorage['db'];
let east: string, viewer: string;
let outside: number;
let dir: string;

const call = <T>(method: string, url: string, token: string, body?: unknown) => fleet.server.call<T>(method, url, { token, body, lang: 'en' });
const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const files = () => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);

async function upload<T = Pkg>(token: string, fields: Record<string, string>, file?: Uint8Array): Promise<Answer<T>> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([file]), 'fw.bin');
  return injectForm<T>(fleet.server.app, '/service-command/upgrade/package', form, { token });
}
const bytes = (n: number, seed: number) => new Uint8Array(n).map((_, i) => (i * 31 + seed) & 0xff);
const firmware = async (vehicleId: number) =>
  (await call<{ answer: { firmwareVersion: string; makerId: string } }>('POST', '/service-command/command/terminalFun', admin, { vehicleId, fun: 'attributes' })).data.answer;

beforeAll(async () => {
  fleet = await startSimFleet(12, 23);
  admin = fleet.adminToken;
  db = (fleet.server.app.storage as SqliteStorage).db;
  dir = path.join(fleet.server.config.dataDir, 'upgrade-packages');
  const eastId = (db.prepare("SELECT company_id AS id FROM user WHERE username = 'branch'").get() as { id: number }).id;
  const eastPath = (db.prepare('SELECT path FROM company WHERE id = ?').get(eastId) as { path: string }).path;
  outside = (db.prepare('SELECT v.id FROM vehicle v JOIN company c ON c.id = v.company_id WHERE NOT (c.path >= ? AND c.path < ?) ORDER BY v.id LIMIT 1').get(eastPath, `${eastPath}~`) as { id: number }).id;
  east = await createUserWithRole(fleet.server, 'up_east', eastId, [43, 55, 59, 60, 440, 441, 442]);
  viewer = await createUserWithRole(fleet.server, 'up_viewer', 1, [43, 55, 59, 60]);
}, 60_000);
let late: RunningSimulator | undefined;
afterAll(async () => {
  await late?.stop();
  await fleet?.close();
});

describe('terminal upgrade packages', () => {
  it('a bad upload is 400 naming the field, and keeps neither a row nor a file', async () => {
    const ok = { name: 'fw', version: 'V2', upgradeType: '0', makerId: 'SIM01' };
    const cases: [Record<string, string>, Uint8Array | undefined, string][] = [
      [{ ...ok, name: '' }, bytes(10, 1), 'name'],
      [{ ...ok, version: 'x'.repeat(40) }, bytes(10, 1), 'version'],
      [{ ...ok, upgradeType: '7' }, bytes(10, 1), 'upgradeType'],
      [{ ...ok, makerId: 'TOOLONG' }, bytes(10, 1), 'makerId'],
      [ok, undefined, 'file'],
      [{ ...ok, colour: 'red' }, bytes(10, 1), 'colour'],
    ];
    for (const [fields, file, field] of cases) {
      const r = await upload(admin, fields, file);
      expect(r.code, field).toBe(400);
      expect(r.msg, field).toContain(`${field}:`);
    }
    expect(count('upgrade_package')).toBe(0);
    expect(files().filter((f) => !f.startsWith('.'))).toEqual([]);
    expect(files()).toEqual([]);
  });

  it('stores a package by its SHA-256, lists it, and deletes row and file', async () => {
    const data = bytes(2500, 9);
    const r = await upload(admin, { name: '临时包', version: 'T1', upgradeType: '52', makerId: 'ABC' }, data);
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ name: '临时包', version: 'T1', upgradeType: 52, makerId: 'ABC', size: 2500, sha256: createHash('sha256').update(data).digest('hex') });
    expect(fs.readFileSync(path.join(dir, r.data.sha256))).toEqual(Buffer.from(data));
    const list = await call<{ records: Pkg[] }>('GET', '/service-command/upgrade/package?current=1&size=20', admin);
    expect(list.data.records.map((p) => p.id)).toContain(r.data.id);
    const del = await call('POST', '/service-command/upgrade/package/delete', admin, { ids: [r.data.id] });
    expect(del.code).toBe(200);
    expect(fs.existsSync(path.join(dir, r.data.sha256))).toBe(false);
    expect(count('upgrade_package')).toBe(0);
  });
});

describe('pushing a package', () => {
  it('an online terminal receives it in sub-packages, installs it (0x0108 result 0) and reports the new firmware; an offline vehicle stays queued', async () => {
    const v = fleet.online[0]!.vehicleId;
    const before = await firmware(v);
    expect(before.firmwareVersion).toBe('SIM-808-1.0');
    const pkg = await upload(admin, { name: '终端固件', version: 'SIM-808-2.0', upgradeType: '0', makerId: before.makerId }, bytes(5000, 3));
    expect(pkg.code).toBe(200);
    const created = await call<Task>('POST', '/service-command/upgrade/task', admin, { packageId: pkg.data.id, vehicleIds: [v, fleet.offlineVehicle] });
    expect(created.code).toBe(200);
    const task = () => call<Task>('GET', `/service-command/upgrade/task?id=${created.data.id}`, admin).then((r) => r.data);
    await until(async () => (await task()).counts.ok === 1, 20_000, 100);
    const done = await task();
    expect(done.vehicles.find((x) => x.vehicleId === v)).toMatchObject({ state: 'ok', result: 0 });
    expect(done.vehicles.find((x) => x.vehicleId === fleet.offlineVehicle)).toMatchObject({ state: 'queued', result: null });
    expect((await firmware(v)).firmwareVersion).toBe('SIM-808-2.0');
    const rec = await call<{ records: { fun: string; state: string; msgId: number; answer: { result: number } }[] }>('GET', `/service-command/command_record/fun?taskId=${created.data.id}`, admin);
    expect(rec.data.records.map((x) => [x.fun, x.msgId, x.state, x.answer?.result])).toEqual([['upgrade', 0x8108, 'ok', 0]]);
    const history = await call<{ records: { id: number; counts: Record<string, number> }[] }>('GET', '/service-command/upgrade/tasks?current=1&size=10', admin);
    expect(history.data.records[0]).toMatchObject({ id: created.data.id, counts: { ok: 1, queued: 1 } });
  });

  it('a 512 KiB package (over 500 sub-packages) arrives whole; the link keeps working after it', async () => {
    const v = fleet.online[2]!.vehicleId;
    const { makerId } = await firmware(v);
    const pkg = await upload(admin, { name: 'big', version: 'BIG-1', upgradeType: '0', makerId }, bytes(512 * 1024, 6));
    const started = Date.now();
    const resentBefore = fleet.server.app.live.gateway.stats.subpackagesResent;
    const created = await call<Task>('POST', '/service-command/upgrade/task', admin, { packageId: pkg.data.id, vehicleIds: [v] });
    const task = () => call<Task>('GET', `/service-command/upgrade/task?id=${created.data.id}`, admin).then((r) => r.data);
    await until(async () => (await task()).counts.ok === 1, 60_000, 100);
    console.info(`512 KiB upgrade package pushed and installed in ${Date.now() - started} ms`);
    // The simulated terminal lost one sub-package and asked for it (0x0005): exactly that one was sent again.
    expect(fleet.server.app.live.gateway.stats.subpackagesResent - resentBefore).toBe(1);
    // Serials skipped past the sub-packages: the next command is still matched to its answer.
    expect((await firmware(v)).firmwareVersion).toBe('BIG-1');
  }, 90_000);

  it('a package of another manufacturer is refused by the terminal: failed with result 1, firmware unchanged', async () => {
    const v = fleet.online[1]!.vehicleId;
    const pkg = await upload(admin, { name: 'other', version: 'X-9', upgradeType: '0', makerId: 'ZZZ99' }, bytes(100, 4));
    const created = await call<Task>('POST', '/service-command/upgrade/task', admin, { packageId: pkg.data.id, vehicleIds: [v] });
    const task = () => call<Task>('GET', `/service-command/upgrade/task?id=${created.data.id}`, admin).then((r) => r.data);
    await until(async () => (await task()).counts.failed === 1, 20_000, 100);
    expect((await task()).vehicles[0]).toMatchObject({ state: 'failed', result: 1 });
    expect((await firmware(v)).firmwareVersion).toBe('SIM-808-1.0');
  });

  it('403 without the button bits; another branch sees neither the package nor may push to its vehicles', async () => {
    expect((await upload(viewer, { name: 'a', version: '1', upgradeType: '0', makerId: 'A' }, bytes(5, 1))).code).toBe(403);
    const mine = (await call<{ records: Pkg[] }>('GET', '/service-command/upgrade/package?current=1&size=50', admin)).data.records[0]!;
    expect((await call('POST', '/service-command/upgrade/task', viewer, { packageId: mine.id, vehicleIds: [fleet.online[0]!.vehicleId] })).code).toBe(403);
    expect((await call('POST', '/service-command/upgrade/package/delete', viewer, { ids: [mine.id] })).code).toBe(403);
    // East: the root's packages are not in its scope.
    const seen = await call<{ records: Pkg[] }>('GET', '/service-command/upgrade/package?current=1&size=50', east);
    expect(seen.data.records.map((p) => p.id)).not.toContain(mine.id);
    const tasksBefore = count('upgrade_task');
    const foreign = await call('POST', '/service-command/upgrade/task', east, { packageId: mine.id, vehicleIds: [fleet.online[0]!.vehicleId] });
    expect(foreign.code).toBe(400);
    expect(foreign.msg).toContain('packageId');
    const own = await upload(east, { name: 'east', version: 'E1', upgradeType: '12', makerId: 'E1' }, bytes(20, 5));
    expect(own.code).toBe(200);
    const outsideCar = await call('POST', '/service-command/upgrade/task', east, { packageId: own.data.id, vehicleIds: [outside] });
    expect(outsideCar.code).toBe(400);
    expect(outsideCar.msg).toContain('vehicleIds');
    expect(count('upgrade_task')).toBe(tasksBefore);
  });

  it('cancel: a queued vehicle (one, or the whole task) becomes cancelled and is never sent, also after its terminal comes back; a vehicle no longer queued is 409', async () => {
    const offline = fleet.offlineVehicle;
    const simulated = new Set(fleet.online.map((o) => o.vehicleId));
    const other = (db.prepare('SELECT id FROM vehicle WHERE id <> ? ORDER BY id').all(offline) as { id: number }[]).map((r) => r.id).find((id) => !simulated.has(id))!;
    const pkg = (await call<{ records: Pkg[] }>('GET', '/service-command/upgrade/package?current=1&size=50', admin)).data.records.find((p) => p.version === 'SIM-808-2.0')!;
    const created = await call<Task>('POST', '/service-command/upgrade/task', admin, { packageId: pkg.id, vehicleIds: [offline, other] });
    expect(created.data.counts).toMatchObject({ queued: 2, cancelled: 0 });
    // Bit 500 is needed: the east role and the viewer have not got it.
    expect((await call('POST', '/service-command/upgrade/task/cancel', viewer, { id: created.data.id })).code).toBe(403);
    expect((await call('POST', '/service-command/upgrade/task/cancel', east, { id: created.data.id })).code).toBe(403);
    // One vehicle.
    const one = await call<Task>('POST', '/service-command/upgrade/task/cancel', admin, { id: created.data.id, vehicleIds: [offline] });
    expect(one.code).toBe(200);
    expect(one.data.vehicles.map((v) => [v.vehicleId, v.state])).toEqual([[offline, 'cancelled'], [other, 'queued']]);
    expect(one.data.counts).toMatchObject({ queued: 1, cancelled: 1 });
    // Again: no longer queued → 409 naming it, nothing changed; a vehicle not in the task → 400.
    const again = await call('POST', '/service-command/upgrade/task/cancel', admin, { id: created.data.id, vehicleIds: [offline, other] });
    expect(again.code).toBe(409);
    expect((await call<Task>('GET', `/service-command/upgrade/task?id=${created.data.id}`, admin)).data.counts).toMatchObject({ queued: 1, cancelled: 1 });
    const stranger = await call('POST', '/service-command/upgrade/task/cancel', admin, { id: created.data.id, vehicleIds: [fleet.online[0]!.vehicleId] });
    expect([stranger.code, stranger.msg.includes('vehicleIds')]).toEqual([400, true]);
    // The whole task: the rest; then nothing is left to cancel.
    const all = await call<Task>('POST', '/service-command/upgrade/task/cancel', admin, { id: created.data.id });
    expect(all.data.counts).toMatchObject({ queued: 0, cancelled: 2 });
    expect((await call('POST', '/service-command/upgrade/task/cancel', admin, { id: created.data.id })).code).toBe(409);
    // The first test's push left the same vehicle queued: cancel that whole task too (its ok vehicle stays ok).
    const first = (await call<{ records: { id: number; counts: Record<string, number> }[] }>('GET', '/service-command/upgrade/tasks?current=1&size=50', admin)).data.records
      .filter((t) => t.counts.queued! > 0);
    for (const t of first) {
      const r = await call<Task>('POST', '/service-command/upgrade/task/cancel', admin, { id: t.id });
      expect(r.data.vehicles.filter((v) => v.state === 'ok').length).toBe(t.counts.ok);
    }
    // The offline terminal powers on: nothing is delivered (no command record, firmware unchanged).
    const deviceNo = (db.prepare('SELECT device_no AS d FROM vehicle WHERE id = ?').get(offline) as { d: string }).d;
    const spec = readProvisionedTerminals(fleet.server.config.dataDir).find((t) => t.deviceNo === deviceNo)!;
    late = startSimulator({ port: fleet.server.gatewayPort, terminals: [spec], seed: 3, tickMs: 10, rates: { neverOnlineShare: 0, offlinePerDay: 0, blindPerDrivingDay: 0 } });
    await until(() => fleet.server.app.live.gateway.isReachable(offline), 15_000, 50);
    await new Promise((r) => setTimeout(r, 1500));
    expect(db.prepare('SELECT count(*) AS n FROM command_record WHERE vehicle_id = ? AND msg_id = ?').get(offline, 0x8108)).toEqual({ n: 0 });
    expect((await firmware(offline)).firmwareVersion).toBe('SIM-808-1.0');
    expect((await call<Task>('GET', `/service-command/upgrade/task?id=${created.data.id}`, admin)).data.vehicles[0]).toMatchObject({ vehicleId: offline, state: 'cancelled' });
  }, 60_000);
});
