/**
 * Per-connection protocol state (issue 12 §2): attacks on sub-package reassembly and on terminal
 * state from connections that did not authenticate as the terminal, over real TCP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COMPANIES } from '../db/scope.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { encodeBody, encodeFrames, MSG, RESULT, type Jt808MessageInput, type LocationInput } from './jt808/index.ts';
import { simCanData } from '../sim/can.ts';
import { Jt808Gateway } from './server.ts';
import { location, TestTerminal, type PlatformReply } from './terminal-client.ts';

const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

let server: LiveTestServer;
let vehicles: { vehicleId: number; deviceNo: string }[];
let next = 0;
const fresh = () => vehicles[next++]!;
/** A gateway on the test server's store, history and alarm pipeline, with fast reassembly timing. */
let fast: Jt808Gateway;
let fastPort: number;
const opened: TestTerminal[] = [];

async function connect(port: number, deviceNo: string): Promise<TestTerminal> {
  const t = await TestTerminal.connect(port, deviceNo);
  opened.push(t);
  return t;
}

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 20 });
  vehicles = (await server.app.storage.terminals.allVehicles()).map((v) => ({ vehicleId: v.vehicleId, deviceNo: v.deviceNo }));
  fast = new Jt808Gateway(
    { store: server.app.live.store, history: server.app.live.history, terminals: server.app.storage.terminals },
    { idleMs: 60_000, autoRegister: false, reassembly: { resendAfterMs: 150, maxResendRounds: 2, tickMs: 25, budgetBytes: 64 * 1024 } },
  );
  fast.onReport = server.app.live.gateway.onReport; // the real alarm generation
  await fast.init();
  fastPort = await fast.listen(0, '127.0.0.1');
});
afterAll(async () => {
  await Promise.all(opened.map((t) => t.close()));
  await fast.stop();
  await server.close();
});

async function positionRows(vehicleId: number) {
  await server.app.live.history.flush();
  return server.app.storage.positions.range(vehicleId, 0, Number.MAX_SAFE_INTEGER, 100);
}

async function alarmCount(vehicleId: number): Promise<number> {
  await server.app.alarms.idle();
  const now = server.clock.now();
  return (await server.app.storage.alarms.query(ALL_COMPANIES, { startTime: now - 86_400_000, endTime: now + 86_400_000, vehicleIds: [vehicleId] }, 0, 100)).total;
}

function mediaRows(vehicleId: number): number {
  const db = (server.app.storage as SqliteStorage).db;
  return (db.prepare('SELECT COUNT(*) AS n FROM media_item WHERE vehicle_id = ?').get(vehicleId) as { n: number }).n;
}

/** Sub-package frames of `message` for `phone`, from serial `first` (what an attacker writes raw). */
function forgedParts(phone: string, first: number, message: Jt808MessageInput, packageSize: number): Uint8Array[] {
  return encodeFrames({ msgId: message.msgId, phone, serial: first, version: 2013 }, encodeBody(message, 2013), packageSize);
}

/** The replies naming `serial` that arrive within `ms`. */
async function repliesTo(t: TestTerminal, serial: number, ms = 150): Promise<PlatformReply[]> {
  await sleep(ms);
  return t.replies.filter((r) => r.replySerial === serial);
}

const real = (): LocationInput => location({ lng: 121.473701, lat: 31.230416, time: seconds(server.clock.now()), speed: 40 });
const fake = (): LocationInput => location({ lng: 100.5, lat: 20.5, time: seconds(server.clock.now()) + 1000, speed: 120, alarm: 0b1 });

describe('sub-packages never join across connections', () => {
  it('a stranger\'s forged part 1 of a terminal\'s split 0x0200 is answered result 1 and never joins: the terminal\'s own part completes it, stored once with the real position', async () => {
    const v = fresh();
    const victim = await connect(fastPort, v.deviceNo);
    await victim.login();
    // The victim's split report loses part 1 on the way...
    const first = victim.sendSplit({ msgId: MSG.LOCATION, ...real() }, 12, [1]);
    // ...and a connection that never authenticated sends a forged part 1 with the victim's number and serial.
    const stranger = await connect(fastPort, v.deviceNo);
    const [forgedFirst] = forgedParts(v.deviceNo, first, { msgId: MSG.LOCATION, ...fake() }, 12);
    stranger.raw(forgedFirst!);
    const strangerReplies = await repliesTo(stranger, first, 100);
    expect(strangerReplies).toEqual([{ msgId: MSG.PLATFORM_RESPONSE, replySerial: first, replyId: MSG.LOCATION, result: RESULT.FAIL }]);
    expect(await repliesTo(victim, first, 0)).toEqual([]); // the forged part did not complete the victim's message
    // The gateway asks the victim for part 1 (0x8003) and the victim's own part completes the message.
    const reply = await victim.replyTo(first, 3000);
    expect(victim.resendRequests).toEqual([{ firstSerial: first, packageIds: [1] }]);
    expect(reply).toMatchObject({ replySerial: first, replyId: MSG.LOCATION, result: RESULT.OK });
    const rows = await positionRows(v.vehicleId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ lng: 121.473701, lat: 31.230416 });
    expect(await alarmCount(v.vehicleId)).toBe(0);
  });

  it('a connection authenticated as another terminal cannot add parts under the victim\'s number either', async () => {
    const v = fresh();
    const w = fresh();
    const victim = await connect(fastPort, v.deviceNo);
    await victim.login();
    const other = await connect(fastPort, w.deviceNo);
    await other.login();
    victim.answerResends = false;
    const first = victim.sendSplit({ msgId: MSG.LOCATION, ...real() }, 12, [2]);
    // W's connection sends part 2 of the victim's message (same number, serial and total).
    const forged = forgedParts(v.deviceNo, first, { msgId: MSG.LOCATION, ...real() }, 12);
    other.raw(forged[1]!);
    expect(await repliesTo(other, first + 1, 100)).toMatchObject([{ result: RESULT.FAIL }]);
    expect(await repliesTo(victim, first, 300)).toEqual([]);
    expect(await positionRows(v.vehicleId)).toEqual([]);
    expect(await positionRows(w.vehicleId)).toEqual([]);
  });
});

describe('an unauthenticated connection changes nothing', () => {
  it('its reports, batches, split reports, heartbeats, photo parts, driver cards and CAN data are all answered result 1: no row, no live position, no alarm, no photo', async () => {
    const v = fresh();
    const store = server.app.live.store;
    const slot = store.slotOf(v.vehicleId);
    const contactBefore = store.columns.lastContact[slot];
    const stranger = await connect(server.gatewayPort, v.deviceNo);
    const replies: PlatformReply[] = [];
    replies.push(await stranger.report(fake()));
    replies.push(await stranger.request({ msgId: MSG.BATCH_LOCATION, type: 0, items: [fake(), fake()] }));
    replies.push(await stranger.request({ msgId: MSG.HEARTBEAT }));
    // Driver sign-in (0x0702) and CAN data (0x0705): their handlers never run (a handler's answer would be result 0).
    replies.push(await stranger.request({
      msgId: 0x0702, status: 1, time: seconds(server.clock.now()), readResult: 0, name: '冒名', certificate: '330000000000000001',
      authority: '道路运输管理局', validUntil: '2030-12-31', idCard: '',
    } as Jt808MessageInput));
    const can = simCanData(v.deviceNo, 400, location({ lng: 121, lat: 31, time: seconds(server.clock.now()), speed: 50 }));
    expect(can).not.toBeNull();
    replies.push(await stranger.request(can!));
    const splitFirst = stranger.sendSplit({ msgId: MSG.LOCATION, ...fake() }, 12);
    const photo = { msgId: 0x0801, mediaId: 7, mediaType: 0, format: 0, eventCode: 1, channel: 1,
      location: { alarm: 0, status: 3, lat: 20.5, lng: 100.5, altitude: 0, speed: 0, direction: 0, time: seconds(server.clock.now()) },
      data: new Uint8Array(3000).fill(0xff) } as Jt808MessageInput;
    const photoFirst = stranger.sendSplit(photo, 1000);
    await sleep(200);
    for (const serial of [splitFirst, splitFirst + 1, photoFirst, photoFirst + 1, photoFirst + 2]) {
      replies.push(...stranger.replies.filter((r) => r.replySerial === serial));
    }
    expect(replies).toHaveLength(5 + 5);
    expect(replies.every((r) => r.msgId === MSG.PLATFORM_RESPONSE && r.result === RESULT.FAIL)).toBe(true);
    expect(await positionRows(v.vehicleId)).toEqual([]);
    expect(store.columns.lastContact[slot]).toBe(contactBefore);
    expect(await alarmCount(v.vehicleId)).toBe(0);
    expect(mediaRows(v.vehicleId)).toBe(0);

    // The same messages from the terminal's own authenticated connection do change it (the assertions above can fail).
    const own = await connect(server.gatewayPort, v.deviceNo);
    await own.login();
    expect((await own.report(fake())).result).toBe(RESULT.OK);
    expect(await positionRows(v.vehicleId)).toHaveLength(1);
    expect(store.columns.lastContact[slot]).not.toBe(contactBefore);
    expect(await alarmCount(v.vehicleId)).toBe(1);
  });

  it('a stranger cannot answer a request sent to the terminal: the answer settles only on the terminal\'s own connection', async () => {
    const v = fresh();
    const own = await connect(server.gatewayPort, v.deviceNo);
    own.commandResult = null; // the terminal stays silent
    await own.login();
    const pending = server.app.live.gateway.sendCommand(v.vehicleId, { msgId: MSG.TEXT, flags: 8, textType: 1, text: 'hi' }, 400);
    await until('the command', () => own.commands.length === 1);
    const serial = own.commands[0]!.serial;
    const stranger = await connect(server.gatewayPort, v.deviceNo);
    expect((await stranger.request({ msgId: MSG.TERMINAL_RESPONSE, replySerial: serial, replyId: MSG.TEXT, result: 0 })).result).toBe(RESULT.FAIL);
    expect(await pending).toEqual({ kind: 'timeout' });
  });
});

describe('one terminal, one session', () => {
  it('an older connection (a half-open socket, or someone who once had the code) stops acting as the terminal when it authenticates anew', async () => {
    const v = fresh();
    const older = await connect(server.gatewayPort, v.deviceNo);
    await older.login();
    const newer = await connect(server.gatewayPort, v.deviceNo);
    await newer.login();
    expect((await older.report(real())).result).toBe(RESULT.FAIL);
    expect((await newer.report(real())).result).toBe(RESULT.OK);
    expect(await positionRows(v.vehicleId)).toHaveLength(1);
    expect(server.app.live.gateway.stats.displaced).toBeGreaterThanOrEqual(1);
  });
});

describe('lost and abandoned sub-packages', () => {
  it('asks for a lost part with 0x8003 after a short wait and stores the completed report exactly once', async () => {
    const v = fresh();
    const t = await connect(fastPort, v.deviceNo);
    await t.login();
    const before = { ...fast.stats };
    const first = t.sendSplit({ msgId: MSG.LOCATION, ...real() }, 10, [2]);
    const reply = await t.replyTo(first, 3000);
    expect(reply).toMatchObject({ replyId: MSG.LOCATION, result: RESULT.OK });
    expect(t.resendRequests).toEqual([{ firstSerial: first, packageIds: [2] }]);
    await sleep(300); // a late duplicate round must not store it twice
    expect(await positionRows(v.vehicleId)).toHaveLength(1);
    expect(fast.stats.resendRequests - before.resendRequests).toBe(1);
    expect(fast.stats.reassembled - before.reassembled).toBe(1);
    expect(t.replies.filter((r) => r.replySerial === first)).toHaveLength(1);
  });

  it('drops and counts a message whose parts never come, and keeps memory bounded under many first parts never completed', async () => {
    const v = fresh();
    const t = await connect(fastPort, v.deviceNo);
    await t.login();
    t.answerResends = false; // a terminal that keeps nothing
    const before = { ...fast.stats };
    const batch: Jt808MessageInput = { msgId: MSG.BATCH_LOCATION, type: 1, items: Array.from({ length: 20 }, () => real()) };
    const parts = Math.ceil(encodeBody(batch).length / 100);
    const drop = Array.from({ length: parts - 1 }, (_, i) => i + 2);
    let peak = 0;
    for (let i = 0; i < 300; i++) {
      t.sendSplit(batch, 100, drop);
      if (i % 20 === 0) {
        await sleep(5);
        peak = Math.max(peak, fast.snapshotStats().reassemblyHeldBytes);
      }
    }
    await until('every message evicted or abandoned', () => fast.stats.reassemblyEvicted + fast.stats.reassemblyAbandoned - before.reassemblyEvicted - before.reassemblyAbandoned === 300);
    // At most 8 messages in flight on the connection: the rest were evicted, the last 8 abandoned after 2 rounds of 0x8003.
    expect(fast.stats.reassemblyEvicted - before.reassemblyEvicted).toBeGreaterThanOrEqual(292);
    expect(fast.stats.reassemblyAbandoned - before.reassemblyAbandoned).toBeGreaterThanOrEqual(1);
    expect(peak).toBeLessThanOrEqual(8 * 100);
    expect(fast.snapshotStats().reassemblyHeldBytes).toBe(0);
    expect(t.resendRequests.length).toBeGreaterThan(0);
    expect(await positionRows(v.vehicleId)).toEqual([]);
  });

  it('bounds the bytes held across connections by the gateway-wide budget', async () => {
    const ts = await Promise.all([fresh(), fresh(), fresh()].map(async (v) => {
      const t = await connect(fastPort, v.deviceNo);
      await t.login();
      t.answerResends = false;
      return t;
    }));
    const photo = { msgId: 0x0801, mediaId: 1, mediaType: 0, format: 0, eventCode: 0, channel: 1,
      location: { alarm: 0, status: 3, lat: 31, lng: 121, altitude: 0, speed: 0, direction: 0, time: seconds(server.clock.now()) },
      data: new Uint8Array(40_000) } as Jt808MessageInput;
    // Each terminal sends all but the last part of a 40 KB photo: 3 × 39 KB held would exceed 64 KiB.
    for (const t of ts) t.sendSplit(photo, 1000, [41]);
    await sleep(100);
    expect(fast.snapshotStats().reassemblyHeldBytes).toBeLessThanOrEqual(64 * 1024);
    expect(fast.stats.reassemblyRefused).toBeGreaterThan(0);
  });
});
