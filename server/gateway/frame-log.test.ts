/**
 * The frame log on its own (issue 17): frames recorded both ways are written in a batch to the day's
 * file, found newest first by device and time, and whole days are dropped past the retention.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrameBody, encodePacket, MSG } from './jt808/index.ts';
import { dayKey, DOWN, FrameLog, UP } from './frame-log.ts';

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
