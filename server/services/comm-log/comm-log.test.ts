/**
 * Communication logs against a live server (issue 17): a scripted TestTerminal's frames both ways are
 * found and decoded by vehicle and time; device messages by type; the device log command answered by
 * a simulated terminal with its own recent activity; 400s naming the field; scope and permission bits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { encodeGbk } from '../../gateway/jt808/bytes.ts';
import { location, TestTerminal } from '../../gateway/terminal-client.ts';
import { startSimFleet, type SimFleet } from '../../test/sim-fleet.ts';
import { createUserWithRole } from '../../test/users.ts';

interface Frame { direction: string; msgId: number; msgIdHex: string; msgName: string; serial: number; hex: string; length: number; decoded: { body?: Record<string, unknown>; text?: string } | null; error: string | null; vehiidno: string | null }
interface Page<T> { total: number; records: T[] }

let fleet: SimFleet;
let admin: string;
let db: SqliteStorage['db'];
let terminal: TestTerminal;
let vehicleId: number;
let outside: number;
let east: string, noBit: string, reader: string;
let eastPath: string;
const t0 = Date.now() - 1000;

const call = <T>(method: string, url: string, token: string, body?: unknown) => fleet.server.call<T>(method, url, { token, body });
const frames = (token: string, q: string) => call<Page<Frame>>('GET', `/service-monitor/commlog/frames?${q}`, token);

beforeAll(async () => {
  fleet = await startSimFleet(12, 23);
  admin = fleet.adminToken;
  db = (fleet.server.app.storage as SqliteStorage).db;
  vehicleId = fleet.offlineVehicle;
  const deviceNo = (db.prepare('SELECT device_no AS d FROM vehicle WHERE id = ?').get(vehicleId) as { d: string }).d;
  terminal = await TestTerminal.connect(fleet.server.gatewayPort, deviceNo);
  await terminal.login();
  const eastId = (db.prepare("SELECT company_id AS id FROM user WHERE username = 'branch'").get() as { id: number }).id;
  eastPath = (db.prepare('SELECT path FROM company WHERE id = ?').get(eastId) as { path: string }).path;
  outside = (db.prepare('SELECT v.id FROM vehicle v JOIN company c ON c.id = v.company_id WHERE NOT (c.path >= ? AND c.path < ?) ORDER BY v.id LIMIT 1').get(eastPath, `${eastPath}~`) as { id: number }).id;
  east = await createUserWithRole(fleet.server, 'cl_east', eastId, [3, 14, 15, 400]);
  noBit = await createUserWithRole(fleet.server, 'cl_nobit', 1, [3, 4]);
  reader = await createUserWithRole(fleet.server, 'cl_reader', 1, [3, 14, 15]);
}, 60_000);
afterAll(async () => {
  await terminal?.close();
  await fleet?.close();
});

describe('communication log', () => {
  it("a terminal's 0x0200 and the platform's command to it are found both ways, decoded, newest first", async () => {
    const ack = await terminal.report(location({ lng: 116.3975, lat: 39.9087, speed: 420, time: Date.now() - 2000 }));
    expect(ack.result).toBe(0);
    const cmd = await call('POST', '/service-command/command/terminalFun', admin, { vehicleId, fun: 'tracking', interval: 5, validity: 60 });
    expect(cmd.code).toBe(200);
    const r = await frames(admin, `vehicleId=${vehicleId}&from=${t0}&to=${Date.now()}&size=100`);
    expect(r.code).toBe(200);
    const list = r.data.records;
    const report = list.find((f) => f.msgId === 0x0200)!;
    expect(report).toMatchObject({ direction: 'up', msgIdHex: '0x0200', msgName: '位置信息汇报', error: null });
    expect(report.decoded!.body).toMatchObject({ lng: 116.3975, lat: 39.9087 });
    expect(report.hex.startsWith('7e0200')).toBe(true);
    expect(report.length).toBe(report.hex.length / 2);
    const down = list.find((f) => f.msgId === 0x8202)!;
    expect(down).toMatchObject({ direction: 'down', error: null });
    expect(down.decoded!.body).toMatchObject({ interval: 5, validity: 60 });
    // The terminal's 0x0001 answering it, and the platform's 0x8001 answering the report.
    expect(list.some((f) => f.msgId === 0x0001 && f.direction === 'up')).toBe(true);
    expect(list.some((f) => f.msgId === 0x8001 && f.direction === 'down')).toBe(true);
    expect(list.findIndex((f) => f.msgId === 0x8202)).toBeLessThan(list.findIndex((f) => f.msgId === 0x0200));
    // Filters: direction, message ids, and a time range before the frames.
    const ups = await frames(admin, `vehicleId=${vehicleId}&from=${t0}&to=${Date.now()}&direction=up&msgIds=0x0200,0102`);
    expect(new Set(ups.data.records.map((f) => f.msgIdHex))).toEqual(new Set(['0x0200', '0x0102']));
    expect((await frames(admin, `vehicleId=${vehicleId}&from=${t0 - 3_600_000}&to=${t0 - 60_000}`)).data.total).toBe(0);
  });

  it('device messages: transparent data, waybill and upgrade result are acknowledged and listed decoded by type', async () => {
    const text = encodeGbk('温度 -18℃');
    expect((await terminal.request({ msgId: 0x0900, type: 0x41, data: text })).result).toBe(0);
    expect((await terminal.request({ msgId: 0x0701, content: encodeGbk('运单 A-1') })).result).toBe(0);
    expect((await terminal.request({ msgId: 0x0108, upgradeType: 0, result: 1 })).result).toBe(0);
    const q = (type: string) => call<Page<{ vehiidno: string; content: Record<string, unknown>; text: string | null }>>('GET', `/service-monitor/commlog/messages?type=${type}&from=${t0}&to=${Date.now()}`, reader);
    const transparent = await q('transparent');
    expect(transparent.data.records[0]).toMatchObject({ text: '温度 -18℃', content: { type: 0x41 } });
    expect((await q('waybill')).data.records[0]!.text).toBe('运单 A-1');
    expect((await q('upgrade')).data.records[0]!.content).toMatchObject({ upgradeType: 0, result: 1 });
    expect((await q('driver')).data.records.every((r) => r.content !== undefined)).toBe(true);
  });

  it('devlogcommand: a simulated terminal uploads its own recent activity; the record and the result are searchable', async () => {
    const v = fleet.online[0]!.vehicleId;
    const up = await call<{ id: number; state: string; log: string; answerLines: number }>('GET', `/service-command/devlogcommand/uploadDevLog?vehicleId=${v}&lines=20`, admin);
    expect(up.code).toBe(200);
    expect(up.data.state).toBe('ok');
    const lines = up.data.log.split('\n');
    expect(lines.length).toBe(up.data.answerLines);
    expect(lines.length).toBeLessThanOrEqual(20);
    // Its last line is the request it is answering; before it, frames it really sent.
    expect(lines.at(-1)).toMatch(/ RX 0x8900 serial=\d+$/);
    expect(lines.some((l) => / TX 0x0(200|002|102|704) /.test(l))).toBe(true);
    const again = await call<{ log: string }>('GET', `/service-command/devlogcommand/uploadDevLogResult?recordId=${up.data.id}`, admin);
    expect(again.data.log).toBe(up.data.log);
    const records = await call<Page<{ id: number; state: string }>>('GET', `/service-command/devlogcommand/searchDevLog?vehicleId=${v}`, admin);
    expect(records.data.records[0]).toMatchObject({ id: up.data.id, state: 'ok' });
    const results = await call<Page<{ log: string }>>('POST', '/service-command/devlogcommand/searchDevLogResult', admin, { vehicleId: v, from: t0, to: Date.now() });
    expect(results.data.records.map((r) => r.log)).toContain(up.data.log);
    // The exchange itself is in the communication log: 0x8900 down, 0x0900 up.
    const ex = await frames(admin, `vehicleId=${v}&from=${t0}&to=${Date.now()}&msgIds=8900,0900`);
    expect(new Set(ex.data.records.map((f) => f.direction + f.msgIdHex))).toEqual(new Set(['down0x8900', 'up0x0900']));
  });

  it('400 naming the field: reversed range, over 24 h, no vehicle, bad message ids, bad lines', async () => {
    const now = Date.now();
    const bad = async (q: string, field: string) => {
      const r = await frames(admin, q);
      expect(r.status).toBe(400);
      expect(r.msg).toMatch(new RegExp(field));
    };
    await bad(`vehicleId=${vehicleId}&from=${now}&to=${now - 1000}`, 'from');
    await bad(`vehicleId=${vehicleId}&from=${now - 25 * 3_600_000}&to=${now}`, 'to');
    await bad(`from=${now - 1000}&to=${now}`, 'vehicleId');
    await bad(`vehicleId=${vehicleId}&from=${now - 1000}&to=${now}&msgIds=zz`, 'msgIds');
    const lines = await call('GET', `/service-command/devlogcommand/uploadDevLog?vehicleId=${vehicleId}&lines=5000`, admin);
    expect(lines.status).toBe(400);
    expect(lines.msg).toMatch(/lines/);
  });

  it("scope and bits: another branch's vehicle is not readable, no screen bit is 403, no button bit cannot ask for a log", async () => {
    const now = Date.now();
    const r = await frames(east, `vehicleId=${outside}&from=${now - 1000}&to=${now}`);
    expect(r.status).toBe(400);
    expect(r.msg).toMatch(/vehicleId/);
    expect((await call('GET', `/service-command/devlogcommand/uploadDevLog?vehicleId=${outside}`, east)).status).toBe(400);
    expect((await frames(noBit, `vehicleId=${vehicleId}&from=${now - 1000}&to=${now}`)).status).toBe(403);
    expect((await call('GET', `/service-monitor/commlog/messages?type=transparent&from=${now - 1000}&to=${now}`, noBit)).status).toBe(403);
    const records = (db.prepare("SELECT count(*) AS n FROM command_record WHERE fun = 'devlog'").get() as { n: number }).n;
    expect((await call('GET', `/service-command/devlogcommand/uploadDevLog?vehicleId=${fleet.online[1]!.vehicleId}`, reader)).status).toBe(403);
    expect((db.prepare("SELECT count(*) AS n FROM command_record WHERE fun = 'devlog'").get() as { n: number }).n).toBe(records);
    // East sees only its own vehicles' device messages.
    const mine = await call<Page<{ vehicleId: number }>>('GET', `/service-monitor/commlog/messages?type=transparent&from=${t0}&to=${Date.now()}`, east);
    const inEast = (id: number) => (db.prepare('SELECT c.path >= ? AND c.path < ? AS inside FROM vehicle v JOIN company c ON c.id = v.company_id WHERE v.id = ?').get(eastPath, `${eastPath}~`, id) as { inside: number }).inside === 1;
    expect(mine.data.records.every((m) => inEast(m.vehicleId))).toBe(true);
    expect(mine.data.records.length > 0).toBe(inEast(vehicleId));
  });
});
