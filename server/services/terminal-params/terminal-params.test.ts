/**
 * Terminal parameters against a live server with simulated terminals: query the live values, a set
 * task delivered at once to online terminals and queued for an offline one until it comes back, the
 * command records of it all, templates, and the rules (400 naming the field with nothing written, 403
 * by button bits, another branch's vehicle refused).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { readProvisionedTerminals, startSimulator, type RunningSimulator } from '../../sim/index.ts';
import { startSimFleet, until, type SimFleet } from '../../test/sim-fleet.ts';
import { createUserWithRole } from '../../test/users.ts';

interface Item { id: number; value: number | string; zh: string | null; unit: string | null }
interface Task { id: number; counts: Record<string, number>; vehicles: { vehicleId: number; state: string; result: number | null; recordId: number | null }[] }

let fleet: SimFleet;
let admin: string;
let db: SqliteStorage['db'];
let late: RunningSimulator | undefined;
let east: string, viewer: string, adasOnly: string, adasSender: string, dsmOnly: string, neither: string;
let outside: number;
let eastPath: string;

const call = <T>(method: string, url: string, token: string, body?: unknown) => fleet.server.call<T>(method, url, { token, body });
const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

beforeAll(async () => {
  fleet = await startSimFleet(12, 17);
  admin = fleet.adminToken;
  db = (fleet.server.app.storage as SqliteStorage).db;
  const eastId = (db.prepare("SELECT company_id AS id FROM user WHERE username = 'branch'").get() as { id: number }).id;
  eastPath = (db.prepare('SELECT path FROM company WHERE id = ?').get(eastId) as { path: string }).path;
  outside = (db.prepare(`SELECT v.id FROM vehicle v JOIN company c ON c.id = v.company_id WHERE NOT (c.path >= ? AND c.path < ?) ORDER BY v.id LIMIT 1`).get(eastPath, `${eastPath}~`) as { id: number }).id;
  east = await createUserWithRole(fleet.server, 'tp_east', eastId, [43, 55, 61, 370, 371, 372, 373]);
  viewer = await createUserWithRole(fleet.server, 'tp_viewer', 1, [43, 55, 61]);
  // The ADAS screen (56) with its query and set bits (450, 451) and nothing of the base screen (61, 370–373).
  adasOnly = await createUserWithRole(fleet.server, 'tp_adas', 1, [43, 55, 56, 450, 451]);
  adasSender = await createUserWithRole(fleet.server, 'tp_adas_send', 1, [43, 55, 56, 450, 452]);
  dsmOnly = await createUserWithRole(fleet.server, 'tp_dsm', 1, [43, 55, 57, 453, 454]);
  // Both screens, no button bits.
  neither = await createUserWithRole(fleet.server, 'tp_neither', 1, [43, 55, 56, 57]);
}, 60_000);
afterAll(async () => {
  await late?.stop();
  await fleet?.close();
});

describe('terminal parameters', () => {
  it('queries all parameters of a live terminal, then chosen ids; both are command records with the answer', async () => {
    const v = fleet.online[0]!.vehicleId;
    const all = await call<{ recordId: number; answer: { params: Item[] } }>('POST', '/service-command/params/query', admin, { vehicleId: v });
    expect(all.code).toBe(200);
    expect(all.data.answer.params).toContainEqual(expect.objectContaining({ id: 1, value: 30, unit: 's' }));
    const chosen = await call<{ answer: { params: Item[] } }>('POST', '/service-command/params/query', admin, { vehicleId: v, ids: [0x0055] });
    expect(chosen.data.answer.params).toEqual([expect.objectContaining({ id: 0x0055, value: 100, unit: 'km/h' })]);
    const records = await call<{ records: { fun: string; state: string; userName: string; answer: unknown }[] }>('GET', `/service-command/command_record/fun?vehicleId=${v}`, admin);
    expect(records.data.records.slice(0, 2).map((r) => [r.fun, r.state])).toEqual([['queryChosen', 'ok'], ['queryAll', 'ok']]);
    expect(records.data.records[0]!.answer).toMatchObject({ params: [{ id: 0x0055, value: 100 }] });
  });

  it('a task sets online terminals at once and queues the offline one until its terminal comes back', async () => {
    const online = fleet.online.map((o) => o.vehicleId);
    const offline = fleet.offlineVehicle;
    const created = await call<Task>('POST', '/service-command/params/task', admin, { vehicleIds: [...online.slice(0, 2), offline], params: [{ id: 0x0055, value: 90 }, { id: 0x0001, value: 20 }] });
    expect(created.code).toBe(200);
    const task = () => call<Task>('GET', `/service-command/params/task?id=${created.data.id}`, admin).then((r) => r.data);
    await until(async () => (await task()).counts.ok === 2, 15_000, 100);
    const mid = await task();
    expect(mid.vehicles.find((x) => x.vehicleId === offline)?.state).toBe('queued');
    // Each online terminal really holds the values now.
    const back = await call<{ answer: { params: Item[] } }>('POST', '/service-command/params/query', admin, { vehicleId: online[0], ids: [0x0055, 0x0001] });
    expect(back.data.answer.params.map((p) => [p.id, p.value])).toEqual([[0x0055, 90], [0x0001, 20]]);
    // The offline terminal powers on: the queued row is delivered.
    const deviceNo = db.prepare('SELECT device_no AS d FROM vehicle WHERE id = ?').get(offline) as { d: string };
    const spec = readProvisionedTerminals(fleet.server.config.dataDir).find((t) => t.deviceNo === deviceNo.d)!;
    late = startSimulator({ port: fleet.server.gatewayPort, terminals: [spec], seed: 3, tickMs: 10, rates: { neverOnlineShare: 0, offlinePerDay: 0, blindPerDrivingDay: 0 } });
    await until(async () => (await task()).counts.ok === 3, 20_000, 100);
    expect(late.terminals[0]!.parameters.get(0x0055)).toBe(90);
    const rows = await call<{ records: { state: string; taskId: number; result: number }[]; total: number }>('GET', `/service-command/command_record/fun?taskId=${created.data.id}`, admin);
    expect(rows.data.total).toBe(3);
    expect(rows.data.records.every((r) => r.state === 'ok' && r.result === 0)).toBe(true);
  });

  it('terminalFun: attributes, position, tracking, control answered by the terminal; an offline vehicle is 409 and nothing is recorded', async () => {
    const v = fleet.online[1]!.vehicleId;
    const attrs = await call<{ answer: { firmwareVersion: string } }>('POST', '/service-command/command/terminalFun', admin, { vehicleId: v, fun: 'attributes' });
    expect(attrs.data.answer.firmwareVersion).toBe('SIM-808-1.0');
    const pos = await call<{ answer: { location: { lat: number } } }>('POST', '/service-command/command/terminalFun', admin, { vehicleId: v, fun: 'position' });
    expect(pos.data.answer.location.lat).toBeGreaterThan(15);
    expect((await call('POST', '/service-command/command/terminalFun', admin, { vehicleId: v, fun: 'tracking', interval: 5, validity: 60 })).code).toBe(200);
    const noInterval = await call('POST', '/service-command/command/terminalFun', admin, { vehicleId: v, fun: 'tracking', validity: 60 });
    expect(noInterval.status).toBe(400);
    expect(noInterval.msg).toMatch(/interval/);
    const off = await call('POST', '/service-command/command/terminalFun', admin, { vehicleId: fleet.offlineVehicle === v ? v : (db.prepare('SELECT id FROM vehicle WHERE id NOT IN (?, ?, ?, ?) LIMIT 1').get(...fleet.online.map((o) => o.vehicleId), fleet.offlineVehicle) as { id: number }).id, fun: 'position' });
    expect(off.status).toBe(409);
  });

  it('400 naming the field and nothing written: unknown id, wrong type, out-of-range value, too many vehicles, out of scope', async () => {
    const v = fleet.online[0]!.vehicleId;
    const tasks = count('param_task');
    const records = count('command_record');
    const bad = async (body: unknown, field: RegExp) => {
      const r = await call('POST', '/service-command/params/task', admin, body);
      expect(r.status).toBe(400);
      expect(r.msg).toMatch(field);
    };
    await bad({ vehicleIds: [v], params: [{ id: 0xf123, value: 1 }] }, /params\[0\]\.id/);
    await bad({ vehicleIds: [v], params: [{ id: 0x0055, value: 90 }, { id: 0x0083, value: 5 }] }, /params\[1\]\.value/);
    await bad({ vehicleIds: [v], params: [{ id: 0x0031, value: 70000 }] }, /params\[0\]\.value/);
    await bad({ vehicleIds: Array.from({ length: 501 }, (_, i) => i + 1), params: [{ id: 1, value: 10 }] }, /vehicleIds/);
    const r = await call('POST', '/service-command/params/task', east, { vehicleIds: [outside], params: [{ id: 1, value: 10 }] });
    expect(r.status).toBe(400);
    expect(r.msg).toMatch(/vehicleIds/);
    expect((await call('POST', '/service-command/params/query', east, { vehicleId: outside })).status).toBe(400);
    expect(count('param_task')).toBe(tasks);
    expect(count('command_record')).toBe(records);
  });

  it('403 without the button bit; another branch never sees the records', async () => {
    const v = fleet.online[0]!.vehicleId;
    expect((await call('POST', '/service-command/params/query', viewer, { vehicleId: v })).status).toBe(403);
    expect((await call('POST', '/service-command/params/task', viewer, { vehicleIds: [v], params: [{ id: 1, value: 10 }] })).status).toBe(403);
    expect((await call('POST', '/service-priv/paramconfig/save', viewer, { name: 'x', params: [{ id: 1, value: 10 }] })).status).toBe(403);
    const seen = await call<{ records: { vehicleId: number }[] }>('GET', '/service-command/command_record/fun?size=500', east);
    const all = await call<{ total: number }>('GET', '/service-command/command_record/fun?size=500', admin);
    const inEast = (id: number) => {
      const path = (db.prepare('SELECT c.path FROM vehicle v JOIN company c ON c.id = v.company_id WHERE v.id = ?').get(id) as { path: string }).path;
      return path >= eastPath && path < `${eastPath}~`;
    };
    expect(all.data.total).toBeGreaterThan(seen.data.records.length);
    expect(seen.data.records.every((r) => inEast(r.vehicleId))).toBe(true);
  });

  it('paramconfig: save, list, update, a duplicate name is 400, delete; scoped to the company', async () => {
    const made = await call<{ id: number; name: string; params: Item[] }>('POST', '/service-priv/paramconfig/save', east, { name: ' 城市车辆 ', params: [{ id: 0x0055, value: 60 }, { id: 0x0010, value: 'CMNET' }] });
    expect(made.code).toBe(200);
    expect(made.data).toMatchObject({ name: '城市车辆', params: [{ id: 0x0055, value: 60, unit: 'km/h' }, { id: 0x0010, value: 'CMNET' }] });
    const dup = await call('POST', '/service-priv/paramconfig/save', east, { name: '城市车辆', params: [{ id: 1, value: 10 }] });
    expect(dup.status).toBe(400);
    expect(dup.msg).toMatch(/name/);
    const put = await call<{ params: Item[] }>('POST', '/service-priv/paramconfig/update', east, { id: made.data.id, name: '城市车辆', params: [{ id: 0x0055, value: 70 }] });
    expect(put.data.params).toEqual([expect.objectContaining({ id: 0x0055, value: 70 })]);
    const mine = await call<{ records: { id: number }[] }>('GET', '/service-priv/paramconfig/findAll', east);
    expect(mine.data.records.map((t) => t.id)).toContain(made.data.id);
    const other = await call<{ id: number }>('POST', '/service-priv/paramconfig/save', admin, { name: '总部模板', params: [{ id: 1, value: 10 }] });
    expect((await call<{ records: { id: number }[] }>('GET', '/service-priv/paramconfig/findAll', east)).data.records.map((t) => t.id)).not.toContain(other.data.id);
    // remove is all or nothing: one template outside the scope and nothing is deleted.
    expect((await call('GET', `/service-priv/paramconfig/remove?ids=${made.data.id}&ids=${other.data.id}`, east)).status).toBe(404);
    expect((await call<{ records: { id: number }[] }>('GET', '/service-priv/paramconfig/findAll', east)).data.records.map((t) => t.id)).toContain(made.data.id);
    expect((await call('GET', `/service-priv/paramconfig/remove?ids=${made.data.id}`, east)).code).toBe(200);
    expect((await call<{ records: { id: number }[] }>('GET', '/service-priv/paramconfig/findAll', east)).data.records.map((t) => t.id)).not.toContain(made.data.id);
    // The old REST-style names are gone.
    expect((await call('GET', '/service-priv/paramconfig', east)).status).toBe(404);
  });

  it('ADAS block (0xF364): read from the live terminal, set field by field, read back; a field out of range is 400 naming it', async () => {
    const v = fleet.online[1]!.vehicleId;
    type Block = Record<string, number>;
    const read = async () => {
      const r = await call<{ answer: { params: { id: number; value: Block; zh: string | null }[] } }>('POST', '/service-command/params/query', admin, { vehicleId: v, ids: [0xf364] });
      expect(r.code).toBe(200);
      return r.data.answer.params[0]!;
    };
    const before = await read();
    expect(before).toMatchObject({ id: 0xf364, zh: 'ADAS 参数', value: { alarmSpeedThreshold: 30, alarmVolume: 6, forwardCollisionTime: 27, alarmEnable: 0x00010fff } });
    const records = count('command_record');
    const badBlock = await call('POST', '/service-command/params/task', admin, { vehicleIds: [v], params: [{ id: 0xf364, value: { ...before.value, alarmVolume: 9 } }] });
    expect(badBlock.status).toBe(400);
    expect(badBlock.msg).toMatch(/params\[0\]\.value\.alarmVolume/);
    expect(badBlock.msg).toMatch(/0 到 8|0 to 8/);
    expect(count('command_record')).toBe(records);
    const created = await call<Task>('POST', '/service-command/params/task', admin, { vehicleIds: [v], params: [{ id: 0xf364, value: { ...before.value, alarmSpeedThreshold: 55, laneDepartureLevelSpeed: 80 } }] });
    expect(created.code).toBe(200);
    await until(async () => (await call<Task>('GET', `/service-command/params/task?id=${created.data.id}`, admin)).data.vehicles[0]!.state === 'ok', 15_000);
    expect((await read()).value).toMatchObject({ alarmSpeedThreshold: 55, laneDepartureLevelSpeed: 80, alarmVolume: 6 });
    // A template carries the block as well.
    const tpl = await call<{ params: { id: number; value: Block }[] }>('POST', '/service-priv/paramconfig/save', admin, { name: 'ADAS 高速', params: [{ id: 0xf364, value: { ...before.value, alarmSpeedThreshold: 60 } }] });
    expect(tpl.data.params[0]!.value.alarmSpeedThreshold).toBe(60);
  });

  it('slag-truck controller block (0xF3A0): factory values read from the terminal, a loaded speed limit set and read back; out of range is 400', async () => {
    const v = fleet.online[0]!.vehicleId;
    type Block = Record<string, number>;
    const read = async () => {
      const r = await call<{ answer: { params: { id: number; value: Block; zh: string | null }[] } }>('POST', '/service-command/params/query', admin, { vehicleId: v, ids: [0xf3a0] });
      expect(r.code).toBe(200);
      return r.data.answer.params[0]!;
    };
    const before = await read();
    expect(before).toMatchObject({ id: 0xf3a0, zh: '环卫/渣土车控制器参数', value: { liftAngle: 10, loadedThreshold: 5, loadedSpeedLimit: 60, alarmEnable: 7 } });
    const bad = await call('POST', '/service-command/params/task', admin, { vehicleIds: [v], params: [{ id: 0xf3a0, value: { ...before.value, loadedSpeedLimit: 5 } }] });
    expect(bad.status).toBe(400);
    expect(bad.msg).toMatch(/params\[0\]\.value\.loadedSpeedLimit/);
    expect(bad.msg).toMatch(/10 到 120|10 to 120/);
    const created = await call<Task>('POST', '/service-command/params/task', admin, { vehicleIds: [v], params: [{ id: 0xf3a0, value: { ...before.value, loadedSpeedLimit: 40, liftLock: 1 } }] });
    expect(created.code).toBe(200);
    await until(async () => (await call<Task>('GET', `/service-command/params/task?id=${created.data.id}`, admin)).data.vehicles[0]!.state === 'ok', 15_000);
    expect((await read()).value).toMatchObject({ loadedSpeedLimit: 40, liftLock: 1, liftAngle: 10 });
  });

  it('ADAS / DSM screen bits (450–455): a role with only screen 56 queries and sets the ADAS block, and nothing else', async () => {
    const v = fleet.online[2]!.vehicleId;
    type Block = Record<string, number>;
    // The screen's reads: its task progress, records and templates.
    expect((await call('GET', '/service-command/command_record/fun', adasOnly)).status).toBe(200);
    expect((await call('GET', '/service-priv/paramconfig/findAll', adasOnly)).status).toBe(200);
    const read = await call<{ answer: { params: { id: number; value: Block }[] } }>('POST', '/service-command/params/query', adasOnly, { vehicleId: v, ids: [0xf364] });
    expect(read.status).toBe(200);
    const block = read.data.answer.params[0]!.value;
    const set = await call<Task>('POST', '/service-command/params/task', adasOnly, { vehicleIds: [v], params: [{ id: 0xf364, value: { ...block, alarmVolume: 3 } }] });
    expect(set.status).toBe(200);
    await until(async () => (await call<Task>('GET', `/service-command/params/task?id=${set.data.id}`, adasOnly)).data.vehicles[0]!.state === 'ok', 15_000);
    const back = await call<{ answer: { params: { value: Block }[] } }>('POST', '/service-command/params/query', adasOnly, { vehicleId: v, ids: [0xf364] });
    expect(back.data.answer.params[0]!.value.alarmVolume).toBe(3);
  });

  it('ADAS / DSM screen bits: the block screen reaches no other parameter, no batch without 批量下发, no template; each refusal is 403 and writes nothing', async () => {
    const [a, b] = fleet.online.map((o) => o.vehicleId);
    const records = count('command_record');
    const tasks = count('param_task');
    const refused = async (token: string, url: string, body: unknown, msg?: RegExp) => {
      const r = await fleet.server.call('POST', url, { token, body, lang: 'en' });
      expect(r.status, `${url} ${JSON.stringify(body).slice(0, 80)}`).toBe(403);
      if (msg) expect(r.msg).toMatch(msg);
    };
    const block = (await call<{ answer: { params: { value: Record<string, number> }[] } }>('POST', '/service-command/params/query', admin, { vehicleId: a, ids: [0xf364] })).data.answer.params[0]!.value;
    const dsm = (await call<{ answer: { params: { value: Record<string, number> }[] } }>('POST', '/service-command/params/query', admin, { vehicleId: a, ids: [0xf365] })).data.answer.params[0]!.value;
    const recordsAfterReads = count('command_record');
    expect(recordsAfterReads).toBe(records + 2);
    // Query all, a base parameter, the DSM block: not the ADAS screen's.
    await refused(adasOnly, '/service-command/params/query', { vehicleId: a }, /all parameters/);
    await refused(adasOnly, '/service-command/params/query', { vehicleId: a, ids: [0xf364, 0x0001] }, /0x0001/);
    await refused(adasOnly, '/service-command/params/query', { vehicleId: a, ids: [0xf365] }, /0xf365/);
    // Set: a base parameter (the heartbeat), smuggled beside the block; the DSM block; several vehicles with 设置 only.
    await refused(adasOnly, '/service-command/params/task', { vehicleIds: [a], params: [{ id: 0xf364, value: block }, { id: 0x0001, value: 5 }] }, /0x0001/);
    await refused(adasOnly, '/service-command/params/task', { vehicleIds: [a], params: [{ id: 0xf365, value: dsm }] }, /0xf365/);
    await refused(adasOnly, '/service-command/params/task', { vehicleIds: [a, b], params: [{ id: 0xf364, value: block }] }, /several vehicles/);
    await refused(adasOnly, '/service-priv/paramconfig/save', { name: 'adas-only', params: [{ id: 0xf364, value: block }] });
    await refused(adasOnly, '/service-command/command/terminalFun', { vehicleId: a, fun: 'position' });
    // The DSM screen's bits do not open the ADAS block; a role with both screens and no button bit gets nothing.
    await refused(dsmOnly, '/service-command/params/task', { vehicleIds: [a], params: [{ id: 0xf364, value: block }] }, /0xf364/);
    await refused(neither, '/service-command/params/query', { vehicleId: a, ids: [0xf364] });
    await refused(neither, '/service-command/params/task', { vehicleIds: [a], params: [{ id: 0xf364, value: block }] });
    await refused(neither, '/service-command/params/task', { vehicleIds: [a], params: [{ id: 0xf365, value: dsm }] });
    expect(count('command_record')).toBe(recordsAfterReads);
    expect(count('param_task')).toBe(tasks);
    // 批量下发 (452) sends the block to several vehicles; the DSM screen sets its own block.
    expect((await call('POST', '/service-command/params/task', adasSender, { vehicleIds: [a, b], params: [{ id: 0xf364, value: block }] })).status).toBe(200);
    expect((await call('POST', '/service-command/params/task', dsmOnly, { vehicleIds: [a], params: [{ id: 0xf365, value: dsm }] })).status).toBe(200);
    expect(count('param_task')).toBe(tasks + 2);
  });

  it('hjwsParam / usualParam bits (486–489): a role with only the controller screen reaches the 0xF3A0 block and gets 403 on base ids; the usual screen reaches the usual ids only', async () => {
    const [a, b] = fleet.online.map((o) => o.vehicleId);
    // The slag-truck controller screen (58) with its query and set bits, nothing of the base screen.
    const hjwsOnly = await createUserWithRole(fleet.server, 'tp_hjws', 1, [43, 55, 58, 486, 487]);
    const usualOnly = await createUserWithRole(fleet.server, 'tp_usual', 1, [43, 55, 62, 488, 489]);
    const read = await call<{ answer: { params: { id: number; value: Record<string, number> }[] } }>('POST', '/service-command/params/query', hjwsOnly, { vehicleId: a, ids: [0xf3a0] });
    expect(read.status).toBe(200);
    const block = read.data.answer.params[0]!.value;
    expect(block).toMatchObject({ liftAngle: expect.any(Number), ratedLoad: expect.any(Number) });
    const records = count('command_record');
    const tasks = count('param_task');
    const refused = async (token: string, url: string, body: unknown, msg?: RegExp) => {
      const r = await fleet.server.call('POST', url, { token, body, lang: 'en' });
      expect(r.status, `${url} ${JSON.stringify(body).slice(0, 80)}`).toBe(403);
      if (msg) expect(r.msg).toMatch(msg);
    };
    await refused(hjwsOnly, '/service-command/params/query', { vehicleId: a, ids: [0x0001] }, /0x0001/);
    await refused(hjwsOnly, '/service-command/params/query', { vehicleId: a }, /all parameters/);
    await refused(hjwsOnly, '/service-command/params/query', { vehicleId: a, ids: [0xf364] }, /0xf364/);
    await refused(hjwsOnly, '/service-command/params/task', { vehicleIds: [a], params: [{ id: 0xf3a0, value: block }, { id: 0x0001, value: 5 }] }, /0x0001/);
    // No send bit for the controller screen: several vehicles need the base screen's 设置.
    await refused(hjwsOnly, '/service-command/params/task', { vehicleIds: [a, b], params: [{ id: 0xf3a0, value: block }] }, /several vehicles/);
    await refused(usualOnly, '/service-command/params/query', { vehicleId: a, ids: [0xf3a0] }, /0xf3a0/);
    await refused(usualOnly, '/service-command/params/task', { vehicleIds: [a], params: [{ id: 0x0010, value: 1 }] }, /0x0010/); // APN: not a usual id
    expect(count('command_record')).toBe(records);
    expect(count('param_task')).toBe(tasks);
    // What each screen may do: the controller block on one vehicle; the usual ids (heartbeat 0x0001) read and set.
    expect((await call('POST', '/service-command/params/task', hjwsOnly, { vehicleIds: [a], params: [{ id: 0xf3a0, value: block }] })).status).toBe(200);
    expect((await call('POST', '/service-command/params/query', usualOnly, { vehicleId: a, ids: [0x0001, 0x0055] })).status).toBe(200);
    expect((await call('GET', '/service-command/params/table', usualOnly)).status).toBe(200);
    expect((await call('POST', '/service-command/params/task', usualOnly, { vehicleIds: [a], params: [{ id: 0x0001, value: 30 }] })).status).toBe(200);
    expect(count('param_task')).toBe(tasks + 2);
  });
});
