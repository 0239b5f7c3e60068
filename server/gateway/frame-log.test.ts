/**
 * The frame log on its own (issue 17): frames recorded both ways are written in a batch to the day's
 * file, found newest first by device and time, and whole days are dropped past the retention; the
 * block format (one row per terminal-minute) packs and unpacks exactly, and day files of the earlier
 * one-row-per-frame format stay readable.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame, encodeFrameBody, encodePacket, MSG } from './jt808/index.ts';
import { BlockBuilder, packBlock, unpackBlock } from './frame-log-block.ts';
import { FRAME_SCHEMA_V1 } from './frame-log-protocol.ts';
import { dayKey, DOWN, FrameLog, peekPhone, UP } from './frame-log.ts';
import { readHeader } from './jt808/header.ts';
import { unescapeFrame } from './jt808/framing.ts';

const DAY = 86_400_000;
const dirs: string[] = [];
const logs: FrameLog[] = [];
function open(retentionDays: number, clock: () => number): { log: FrameLog; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'framelog-'));
  dirs.push(dir);
  const log = new FrameLog({ dir, retentionDays, clock, flushMs: 60_000 });
  logs.push(log);
  return { log, dir };
}
afterEach(async () => {
  for (const l of logs.splice(0)) await l.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const phone = '13800001111';
const heartbeat = (serial: number) => encodeFrameBody({ msgId: MSG.HEARTBEAT, phone, serial }, new Uint8Array(0));
const ack = (serial: number) => encodePacket({ phone, serial }, { msgId: MSG.PLATFORM_RESPONSE, replySerial: serial, replyId: MSG.HEARTBEAT, result: 0 });

describe('FrameLog', () => {
  it('keeps frames both ways, unescaped, with id, serial, phone and the resolved vehicle; newest first and paged', async () => {
    let now = Date.UTC(2026, 10, 28, 2, 0, 0);
    const { log } = open(7, () => now);
    log.resolveVehicle = (p) => (p === phone ? 42 : null);
    for (let i = 1; i <= 5; i++) {
      log.record(UP, heartbeat(i));
      log.record(DOWN, ack(i));
      now += 1000;
    }
    expect(log.pending).toBe(10);
    const all = (await log.search({ from: now - 60_000, to: now, vehicleId: 42, offset: 0, limit: 3 }));
    expect(log.pending).toBe(0);
    expect(all.total).toBe(10);
    expect(all.rows.map((r) => [r.direction, r.msgId, r.serial])).toEqual([[DOWN, MSG.PLATFORM_RESPONSE, 5], [UP, MSG.HEARTBEAT, 5], [DOWN, MSG.PLATFORM_RESPONSE, 4]]);
    expect(all.rows[1]!.raw).toEqual(heartbeat(5));
    expect(all.rows[1]!.vehicleId).toBe(42);
    expect((await log.search({ from: now - 60_000, to: now, phone, direction: UP, offset: 4, limit: 10 })).rows.map((r) => r.serial)).toEqual([1]);
    expect((await log.search({ from: now - 60_000, to: now - 2500, phone, msgIds: [MSG.HEARTBEAT], offset: 0, limit: 10 })).rows.map((r) => r.serial)).toEqual([3, 2, 1]);
    expect((await log.search({ from: now - 60_000, to: now, phone: '1', offset: 0, limit: 10 })).total).toBe(0);
  });

  it('a search across midnight (China time) reads both day files in order', async () => {
    const midnight = Date.UTC(2026, 10, 27, 16, 0, 0); // 2026-11-28 00:00 GMT+8
    let now = midnight - 1000;
    const { log, dir } = open(7, () => now);
    log.record(UP, heartbeat(1));
    now = midnight + 1000;
    log.record(UP, heartbeat(2));
    await log.flush();
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.db')).sort()).toEqual(['frames-20261127.db', 'frames-20261128.db']);
    expect((await log.search({ from: midnight - 5000, to: midnight + 5000, phone, offset: 0, limit: 10 })).rows.map((r) => r.serial)).toEqual([2, 1]);
    expect((await log.search({ from: midnight - 5000, to: midnight + 5000, phone, offset: 1, limit: 10 })).rows.map((r) => r.serial)).toEqual([1]);
  });

  it('retention drops whole day files past the configured days, and keeps the rest', async () => {
    const today = Date.UTC(2026, 10, 28, 4, 0, 0);
    let now = today - 8 * DAY;
    const { log, dir } = open(7, () => now);
    log.record(UP, heartbeat(1));
    now = today - 6 * DAY;
    log.record(UP, heartbeat(2));
    now = today;
    log.record(UP, heartbeat(3));
    await log.flush();
    expect(log.dayFiles()).toHaveLength(3);
    expect(await log.sweep(today)).toEqual({ days: [dayKey(today - 8 * DAY)] });
    expect(log.dayFiles()).toEqual([dayKey(today - 6 * DAY), dayKey(today)]);
    expect(fs.readdirSync(dir).some((n) => n.includes(dayKey(today - 8 * DAY)))).toBe(false);
    expect((await log.search({ from: today - 8 * DAY - 1000, to: today - 8 * DAY + 1000, phone, offset: 0, limit: 10 })).total).toBe(0);
    expect((await log.search({ from: today - 6 * DAY - 1000, to: today - 6 * DAY + 1000, phone, offset: 0, limit: 10 })).total).toBe(1);
  });

  it('a full batch drops later frames (counted) instead of growing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'framelog-'));
    dirs.push(dir);
    const log = new FrameLog({ dir, retentionDays: 7, maxPending: 2, flushMs: 60_000 });
    logs.push(log);
    for (let i = 1; i <= 5; i++) log.record(UP, heartbeat(i));
    expect(log.pending).toBe(2);
    expect(log.dropped).toBe(3);
  });
});

describe('frame blocks (format 2)', () => {
  it('pack then unpack gives back every frame: time, direction and bytes, in record order', () => {
    const raws = [heartbeat(1), new Uint8Array(0), new Uint8Array(300).map((_, i) => (i * 7) & 0xff), ack(2).subarray(1, -1)];
    const times = [1_764_300_000_000, 1_764_300_000_000, 1_764_300_059_999, 1_764_300_000_500];
    const dirs = [UP, DOWN, UP, DOWN];
    const frames = unpackBlock(packBlock(times, dirs, raws));
    expect(frames.map((f) => f.time)).toEqual(times);
    expect(frames.map((f) => f.direction)).toEqual(dirs);
    expect(frames.map((f) => [...f.raw])).toEqual(raws.map((r) => [...r]));
  });

  it('a damaged blob is refused, not misread', () => {
    const blob = packBlock([1000, 2000], [UP, DOWN], [heartbeat(1), heartbeat(2)]);
    expect(() => unpackBlock(blob.subarray(0, blob.length - 1))).toThrow(/cut inside a frame/);
    const other = blob.slice();
    other[0] = 9;
    expect(() => unpackBlock(other)).toThrow(/format 9/);
    expect(() => packBlock([], [], [])).toThrow();
  });

  it('a block built frame by frame from ranges of a shared buffer grows past its first size and packs exactly', () => {
    const long = new Uint8Array(500).map((_, i) => (i * 13) & 0xff);
    const shared = new Uint8Array([...heartbeat(1), ...long, ...ack(2)]);
    const hb = heartbeat(1).length;
    const b = new BlockBuilder(16);
    const ranges: [number, number][] = [[0, hb], [hb, hb + 500], [hb + 500, shared.length], [hb, hb]];
    const times = [1_764_300_000_400, 1_764_300_000_100, 1_764_300_000_900, 1_764_300_000_400];
    const dirs = [UP, UP, DOWN, DOWN];
    ranges.forEach(([from, to], i) => b.append(times[i]!, dirs[i]!, shared, from, to));
    expect([b.n, b.tMin, b.tMax]).toEqual([4, 1_764_300_000_100, 1_764_300_000_900]);
    const frames = unpackBlock(b.finish());
    expect(frames.map((f) => f.time)).toEqual(times); // the second frame is 300 ms before the base: a negative offset
    expect(frames.map((f) => f.direction)).toEqual(dirs);
    expect(frames.map((f) => [...f.raw])).toEqual(ranges.map(([from, to]) => [...shared.subarray(from, to)]));
    expect([...b.finish()]).toEqual([...packBlock(times, dirs, ranges.map(([from, to]) => shared.subarray(from, to)))]);
  });
});

describe('FrameLog blocks', () => {
  const other = '13800002222';
  const hbOf = (p: string, serial: number) => encodeFrameBody({ msgId: MSG.HEARTBEAT, phone: p, serial }, new Uint8Array(0));

  it('writes one row per terminal-minute; a range cutting blocks across a minute boundary finds exactly its frames, both ways, newest first and paged', async () => {
    const minute = Date.UTC(2026, 10, 28, 3, 0, 0);
    let now = minute - 1500; // 10:59:58.5 China time
    const { log, dir } = open(7, () => now);
    log.resolveVehicle = (p) => (p === phone ? 42 : p === other ? 43 : null);
    // Serials 1..6 every 500 ms: three frames in the minute before, three after; the other terminal in between.
    for (let i = 1; i <= 6; i++) {
      log.record(UP, heartbeat(i));
      log.record(DOWN, ack(i));
      log.record(UP, hbOf(other, 100 + i));
      now += 500;
    }
    await log.flush();
    const file = new Database(path.join(dir, `frames-${dayKey(minute)}.db`), { readonly: true });
    const blocks = file.prepare('SELECT phone, vehicle_id AS v, minute, n FROM block ORDER BY phone, minute').all();
    file.close();
    expect(blocks).toEqual([
      { phone, v: 42, minute: minute / 60_000 - 1, n: 6 },
      { phone, v: 42, minute: minute / 60_000, n: 6 },
      { phone: other, v: 43, minute: minute / 60_000 - 1, n: 3 },
      { phone: other, v: 43, minute: minute / 60_000, n: 3 },
    ]);
    // From serial 2 (minute - 1000) to serial 5 (minute + 500): cuts both blocks.
    const range = { from: minute - 1000, to: minute + 500, vehicleId: 42 };
    const page1 = await log.search({ ...range, offset: 0, limit: 5 });
    expect(page1.total).toBe(8);
    expect(page1.rows.map((r) => [r.direction, r.serial, r.time - minute])).toEqual([
      [DOWN, 5, 500], [UP, 5, 500], [DOWN, 4, 0], [UP, 4, 0], [DOWN, 3, -500],
    ]);
    const page2 = await log.search({ ...range, offset: 5, limit: 5 });
    expect(page2.rows.map((r) => [r.direction, r.serial])).toEqual([[UP, 3], [DOWN, 2], [UP, 2]]);
    expect(page2.rows[2]!.raw).toEqual(heartbeat(2));
    expect(page2.rows[1]!.msgId).toBe(MSG.PLATFORM_RESPONSE);
    expect(new Set([...page1.rows, ...page2.rows].map((r) => r.id)).size).toBe(8);
    expect((await log.search({ ...range, direction: DOWN, offset: 0, limit: 10 })).rows.map((r) => r.serial)).toEqual([5, 4, 3, 2]);
    expect((await log.search({ ...range, msgIds: [MSG.HEARTBEAT], offset: 1, limit: 2 })).rows.map((r) => r.serial)).toEqual([4, 3]);
    expect((await log.search({ from: minute - 1000, to: minute + 500, phone: other, offset: 0, limit: 10 })).rows.map((r) => r.serial)).toEqual([105, 104, 103, 102]);
  });

  it('a search finds frames still in an open block (sealed on demand), and the next ones go to a new row of the same minute', async () => {
    let now = Date.UTC(2026, 10, 28, 3, 0, 10);
    const { log } = open(7, () => now);
    log.record(UP, heartbeat(1));
    log.record(UP, hbOf(other, 9));
    expect((await log.search({ from: now - 1000, to: now + 60_000, phone, offset: 0, limit: 10 })).rows.map((r) => r.serial)).toEqual([1]);
    now += 1000;
    log.record(UP, heartbeat(2));
    const both = await log.search({ from: now - 5000, to: now + 60_000, phone, offset: 0, limit: 10 });
    expect(both.rows.map((r) => r.serial)).toEqual([2, 1]);
    expect((await log.search({ from: now - 5000, to: now + 60_000, phone: other, offset: 0, limit: 10 })).rows.map((r) => r.serial)).toEqual([9]);
  });

  it('an outbound frame whose header holds an escape still gets its vehicle', async () => {
    const now = Date.UTC(2026, 10, 28, 3, 0, 0);
    const { log } = open(7, () => now);
    log.resolveVehicle = (p) => (p === phone ? 42 : null);
    // Body of 0x7e bytes: the length byte of the header is escaped on the wire (0x7d 0x02).
    const wire = encodeFrame({ msgId: 0x8103, phone, serial: 7 }, new Uint8Array(0x7e).fill(1));
    expect([...wire.subarray(1, 5)]).toEqual([0x81, 0x03, 0x00, 0x7d]);
    log.record(DOWN, wire);
    const { rows } = await log.search({ from: now - 1000, to: now + 1000, vehicleId: 42, offset: 0, limit: 10 });
    expect(rows.map((r) => [r.msgId, r.serial, r.vehicleId, r.raw.length])).toEqual([[0x8103, 7, 42, 12 + 0x7e + 1]]);
  });

  it('device messages are found across vehicles without a device (the message screen), and by vehicle', async () => {
    const now = Date.UTC(2026, 10, 28, 3, 0, 0);
    const { log } = open(7, () => now);
    log.resolveVehicle = (p) => (p === phone ? 42 : p === other ? 43 : null);
    const transparent = (p: string, serial: number) => encodeFrameBody({ msgId: 0x0900, phone: p, serial }, Uint8Array.of(0xf1, 1, 2));
    log.record(UP, transparent(phone, 1));
    log.record(UP, heartbeat(2));
    log.record(UP, transparent(other, 3));
    const scope = await log.search({ from: now - 1000, to: now + 1000, vehicleIds: [42, 43, 44], direction: UP, msgIds: [0x0900], offset: 0, limit: 10 });
    expect(scope.rows.map((r) => [r.vehicleId, r.serial])).toEqual([[43, 3], [42, 1]]);
    expect((await log.search({ from: now - 1000, to: now + 1000, vehicleIds: [43], msgIds: [0x0900], offset: 0, limit: 10 })).total).toBe(1);
    expect((await log.search({ from: now - 1000, to: now + 1000, vehicleId: 42, phone, msgIds: [0x0900], offset: 0, limit: 10 })).rows.map((r) => r.serial)).toEqual([1]);
  });

  it('a day file of the earlier format (one row per frame) stays readable, also when today continues in blocks', async () => {
    const now = Date.UTC(2026, 10, 28, 3, 0, 0);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'framelog-'));
    dirs.push(dir);
    const old = new Database(path.join(dir, `frames-${dayKey(now)}.db`));
    old.exec(FRAME_SCHEMA_V1);
    const insert = old.prepare('INSERT INTO frame (t, dir, msg_id, serial, phone, vehicle_id, raw) VALUES (?, ?, ?, ?, ?, ?, ?)');
    insert.run(now - 2000, UP, MSG.HEARTBEAT, 1, phone, 42, heartbeat(1));
    insert.run(now - 1000, UP, 0x0900, 2, phone, 42, encodeFrameBody({ msgId: 0x0900, phone, serial: 2 }, Uint8Array.of(0xf1)));
    old.close();
    const log = new FrameLog({ dir, retentionDays: 7, clock: () => now, flushMs: 60_000 });
    logs.push(log);
    log.resolveVehicle = () => 42;
    log.record(UP, heartbeat(3));
    const all = await log.search({ from: now - 5000, to: now, vehicleId: 42, offset: 0, limit: 10 });
    expect(all.total).toBe(3);
    expect(all.rows.map((r) => [r.serial, r.id.startsWith(`${dayKey(now)}:`)])).toEqual([[3, true], [2, true], [1, true]]);
    expect(all.rows[2]!.raw).toEqual(heartbeat(1));
    expect((await log.search({ from: now - 5000, to: now, vehicleId: 42, offset: 1, limit: 1 })).rows.map((r) => r.serial)).toEqual([2]);
    expect((await log.search({ from: now - 5000, to: now, vehicleIds: [42], msgIds: [0x0900], offset: 0, limit: 10 })).rows.map((r) => r.serial)).toEqual([2]);
  });
});

describe('FrameLog batches', () => {
  const phoneOf = (k: number) => `1380000${String(k).padStart(4, '0')}`;

  it('frames of many terminals, both ways, beyond the first staging buffers, keep their bytes, phone and vehicle; a terminal split across batches of one minute stays one row', async () => {
    const minute = Date.UTC(2026, 10, 28, 3, 0, 0);
    let now = minute + 1000;
    const { log, dir } = open(7, () => now);
    log.resolveVehicle = (p) => (p.startsWith('1380000') ? 1000 + Number(p.slice(-4)) : null);
    const v2019 = '12345678901234567890';
    const sent: { phone: string; dir: number; raw: Uint8Array }[] = [];
    const up = (p: string, serial: number, body: Uint8Array, version?: 2019) => {
      const raw = encodeFrameBody({ msgId: 0x0200, phone: p, serial, version }, body);
      log.record(UP, raw);
      sent.push({ phone: p, dir: UP, raw });
    };
    const down = (p: string, serial: number, body: Uint8Array) => {
      const wire = encodeFrame({ msgId: 0x8103, phone: p, serial }, body);
      log.record(DOWN, wire);
      sent.push({ phone: p, dir: DOWN, raw: unescapeFrame(wire.subarray(1, -1)) as Uint8Array });
    };
    // 3,000 frames (past 1,024 staged), 300 KB (past 64 KiB): runs of one terminal, terminals alternating, a
    // phone differing from the run's only in its last digit, a 2019 phone, long bodies and escaped headers.
    for (let i = 0; i < 500; i++) {
      const k = i % 7;
      up(phoneOf(k), i, new Uint8Array(i % 50 === 0 ? 900 : 20).fill(i & 0xff));
      down(phoneOf(k), i, new Uint8Array(i % 25 === 0 ? 0x7e : 5).fill(1)); // 0x7e bytes of body: an escaped length byte
      up(phoneOf(k + 1), i, new Uint8Array(30));
      up(v2019, i, new Uint8Array(10), 2019);
      up(phoneOf(k), i, new Uint8Array(3).fill(0x7d)); // 0x7d inside an inbound (unescaped) frame: data, not an escape
      down(phoneOf(k + 1), i, new Uint8Array(1));
      if (i === 250) {
        // A targeted search hands the batch over and seals the other terminal's blocks only.
        expect((await log.search({ from: minute, to: minute + 60_000, vehicleId: 1009, offset: 0, limit: 1 })).total).toBe(0);
        now += 1000;
      }
    }
    expect(fs.existsSync(path.join(dir, `frames-${dayKey(minute)}.db`))).toBe(false); // nothing sealed yet: all in open blocks
    await log.flush();
    const db = new Database(path.join(dir, `frames-${dayKey(minute)}.db`), { readonly: true });
    const rows = db.prepare('SELECT phone, vehicle_id AS v, count(*) AS blocks, sum(n) AS n FROM block GROUP BY phone ORDER BY phone').all();
    db.close();
    const perPhone = new Map<string, number>();
    for (const x of sent) perPhone.set(x.phone, (perPhone.get(x.phone) ?? 0) + 1);
    expect(rows).toEqual([...perPhone.keys()].sort().map((p) => ({ phone: p, v: p === v2019 ? null : 1000 + Number(p.slice(-4)), blocks: 1, n: perPhone.get(p) })));
    for (const p of [phoneOf(0), phoneOf(7), v2019]) {
      const found = await log.search({ from: minute, to: minute + 60_000, phone: p, offset: 0, limit: 10_000 });
      const mine = sent.filter((x) => x.phone === p);
      expect(found.total).toBe(mine.length);
      expect(found.rows.reverse().map((r) => [r.direction, [...r.raw]])).toEqual(mine.map((x) => [x.dir, [...x.raw]]));
    }
  });
});

describe('peekPhone', () => {
  it('reads the phone exactly when readHeader does, also from an escaped wire frame', () => {
    const v2019 = encodeFrameBody({ msgId: MSG.HEARTBEAT, phone: '12345678901234567890', serial: 1, version: 2019 }, new Uint8Array(0));
    const sub = encodeFrameBody({ msgId: 0x0801, phone, serial: 1, packageTotal: 3, packageIndex: 2 }, Uint8Array.of(1, 2, 3));
    const reserved = heartbeat(1).slice();
    reserved[2]! |= 0x80;
    const badBcd = heartbeat(1).slice();
    badBcd[6] = 0xab;
    const badPackage = sub.slice();
    badPackage[15] = 4; // index 4 of 3
    for (const frame of [heartbeat(1), v2019, sub, reserved, badBcd, badPackage, heartbeat(1).subarray(0, 11), Uint8Array.of(1, 2)]) {
      const h = readHeader(frame);
      expect(peekPhone(frame, false)).toBe(h instanceof Error ? undefined : h.header.phone);
    }
    expect(peekPhone(heartbeat(1), false)).toBe(phone);
    expect(peekPhone(badBcd, false)).toBeUndefined();
    expect(peekPhone(encodeFrame({ msgId: 0x8103, phone, serial: 7 }, new Uint8Array(0x7e)), true)).toBe(phone);
  });

  it('a frame whose header cannot be read is kept with no phone nor vehicle', async () => {
    const now = Date.UTC(2026, 10, 28, 3, 0, 0);
    const { log } = open(7, () => now);
    log.resolveVehicle = () => 42;
    const reserved = heartbeat(1).slice();
    reserved[2]! |= 0x80;
    log.record(UP, reserved);
    const { rows } = await log.search({ from: now - 1000, to: now + 1000, offset: 0, limit: 10 });
    expect(rows.map((r) => [r.msgId, r.phone, r.vehicleId, r.serial])).toEqual([[MSG.HEARTBEAT, null, null, null]]);
  });
});
