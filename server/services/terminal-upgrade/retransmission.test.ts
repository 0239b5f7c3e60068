/**
 * 0x8108 sent again when the terminal never answers it (JT/T 808 §4.4; issue 17): scripted terminals
 * over real TCP, the timeout and retransmission count read from the terminal's own 0x0002 / 0x0003
 * (a parameter set it accepted, as its command record holds). One stays silent on the first send and
 * answers the second: the vehicle ends ok. One never answers: after its N retransmissions (each the
 * whole package, same serials, the waits growing T, 2T, 6T) the vehicle ends failed with the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { decodeFrame, FrameSplitter, MSG, RESULT } from '../../gateway/jt808/index.ts';
import { UPGRADE_MSG } from '../../gateway/jt808/upgrade.ts';
import { TestTerminal } from '../../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';
import { injectForm } from '../../test/multipart.ts';

interface Task { id: number; vehicles: { vehicleId: number; state: string; result: number | null; recordId: number | null; reason: { code: string; retransmissions: number } | null }[] }

let server: LiveTestServer;
let admin: string;
let db: SqliteStorage['db'];
let vehicles: { vehicleId: number; deviceNo: string }[];
const opened: TestTerminal[] = [];

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 4 });
  admin = await server.login('admin', 'admin123');
  db = (server.app.storage as SqliteStorage).db;
  vehicles = (await server.app.storage.terminals.allVehicles()).map((v) => ({ vehicleId: v.vehicleId, deviceNo: v.deviceNo }));
}, 60_000);
afterAll(async () => {
  await Promise.all(opened.map((t) => t.close()));
  await server?.close();
});

/** The terminal's own parameters as the platform knows them: an accepted 0x8103 (its command record). */
function knownParams(vehicleId: number, timeoutS: number, retries: number): void {
  const content = JSON.stringify({ params: [{ id: 0x0002, value: timeoutS }, { id: 0x0003, value: retries }] });
  db.prepare(`INSERT INTO command_record (company_id, vehicle_id, vehiidno, device_no, msg_id, fun, content, task_id, user_id, user_name, send_time, state)
    SELECT company_id, id, vehiidno, device_no, 33027, 'setParams', ?, NULL, NULL, 'test', ?, 'ok' FROM vehicle WHERE id = ?`).run(content, Date.now(), vehicleId);
}

async function upload(data: Uint8Array): Promise<number> {
  const form = new FormData();
  for (const [k, v] of Object.entries({ name: '重传测试', version: 'R2', upgradeType: '0', makerId: 'SIM01' })) form.append(k, v);
  form.append('file', new Blob([data]), 'fw.bin');
  const body = await injectForm<{ id: number }>(server.app, '/service-command/upgrade/package', form, { token: admin });
  expect(body.code).toBe(200);
  return body.data.id;
}

/** A logged-in terminal recording every 0x8108 sub-package (arrival time, serial, index) and answering none by itself. */
async function scripted(deviceNo: string) {
  const t = await TestTerminal.connect(server.gatewayPort, deviceNo);
  opened.push(t);
  await t.login();
  const parts: { at: number; serial: number; index: number; total: number }[] = [];
  const splitter = new FrameSplitter();
  t.socket.on('data', (chunk: Buffer) => splitter.push(chunk, (frame) => {
    const r = decodeFrame(frame);
    if (r.kind === 'fragment' && r.header.msgId === UPGRADE_MSG.ISSUE) parts.push({ at: Date.now(), serial: r.header.serial, index: r.header.packageIndex, total: r.header.packageTotal });
  }));
  return { t, parts };
}

const until = async (ok: () => boolean | Promise<boolean>, ms: number) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};
const taskOf = (id: number) => server.call<Task>('GET', `/service-command/upgrade/task?id=${id}`, { token: admin }).then((r) => r.data);
const data = new Uint8Array(4000).map((_, i) => (i * 17 + 3) & 0xff);

describe('0x8108 retransmission (JT/T 808 §4.4)', () => {
  it('a terminal silent on the first send that answers the second: sent again whole with the same serials, then ok', async () => {
    const v = vehicles[0]!;
    knownParams(v.vehicleId, 1, 2);
    const { t, parts } = await scripted(v.deviceNo);
    const packageId = await upload(data);
    const created = await server.call<Task>('POST', '/service-command/upgrade/task', { token: admin, body: { packageId, vehicleIds: [v.vehicleId] } });
    expect(created.code).toBe(200);
    // 13 bytes of fields + 4000 = 4013: four sub-packages, sent once, then again after T = 1 s without an answer.
    await until(() => parts.length >= 8, 10_000);
    const first = parts.slice(0, 4), second = parts.slice(4, 8);
    expect(first.map((p) => [p.index, p.total])).toEqual([[1, 4], [2, 4], [3, 4], [4, 4]]);
    expect(second.map((p) => [p.serial, p.index])).toEqual(first.map((p) => [p.serial, p.index]));
    expect(second[0]!.at - first[3]!.at).toBeGreaterThanOrEqual(900);
    // The second arrives whole: the terminal accepts it (0x0001 to the first serial) and reports the install.
    t.send({ msgId: MSG.TERMINAL_RESPONSE, replySerial: first[0]!.serial, replyId: UPGRADE_MSG.ISSUE, result: RESULT.OK });
    t.send({ msgId: UPGRADE_MSG.RESULT, upgradeType: 0, result: 0 });
    await until(async () => (await taskOf(created.data.id)).vehicles[0]!.state === 'ok', 10_000);
    expect((await taskOf(created.data.id)).vehicles[0]).toMatchObject({ state: 'ok', result: 0, reason: null });
    // Answered: no third send (T2 = 2 s would have passed).
    await new Promise((r) => setTimeout(r, 2500));
    expect(parts).toHaveLength(8);
  });

  it('a terminal that never answers: N = 2 retransmissions after T = 1 s and T2 = 2 s, then failed after T3 = 6 s, with the reason', async () => {
    const v = vehicles[1]!;
    knownParams(v.vehicleId, 1, 2);
    const { parts } = await scripted(v.deviceNo);
    const packageId = await upload(data);
    const started = Date.now();
    const created = await server.call<Task>('POST', '/service-command/upgrade/task', { token: admin, body: { packageId, vehicleIds: [v.vehicleId] } });
    await until(async () => (await taskOf(created.data.id)).vehicles[0]!.state !== 'sent', 20_000);
    const elapsed = Date.now() - started;
    const done = (await taskOf(created.data.id)).vehicles[0]!;
    expect(done).toMatchObject({ state: 'failed', result: null, reason: { code: 'unanswered', retransmissions: 2 } });
    // Three sends of four sub-packages; the gaps grow: ≥ 1 s, then ≥ 2 s; the end ≥ 6 s after the last.
    expect(parts.map((p) => p.index)).toEqual([1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]);
    expect(parts[4]!.at - parts[3]!.at).toBeGreaterThanOrEqual(900);
    expect(parts[8]!.at - parts[7]!.at).toBeGreaterThanOrEqual(1900);
    expect(elapsed).toBeGreaterThanOrEqual(8500);
    const rec = db.prepare('SELECT state, answer FROM command_record WHERE id = ?').get(done.recordId) as { state: string; answer: string };
    expect({ state: rec.state, answer: JSON.parse(rec.answer) as unknown }).toEqual({ state: 'failed', answer: { reason: 'unanswered', retransmissions: 2 } });
  }, 30_000);
});
