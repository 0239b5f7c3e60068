/**
 * Issue 20 part B, failure tests on the real server process (crash-harness.ts): what a terminal saw
 * acknowledged survives a SIGKILL sent the moment the acknowledgement arrived, and what it sends again
 * after a lost acknowledgement is stored once.
 * - An SOS report's alarm row: the alarm service stores it in its own batch; the run is started with
 *   crash-slow-alarms.ts (each alarm batch 500 ms late, an alarm storm's backlog), so a 0x8001 sent
 *   before the alarm row committed (the old behaviour) is followed by the kill before the row exists.
 * - A 0x0705 CAN upload's history rows (server/obd/history.ts): formerly acknowledged when queued and
 *   written every 2 s.
 * - A resend after the restart of a 0x0200 and a 0x0704 already committed: one row per vehicle and
 *   GPS time (migration 53).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MSG } from '../gateway/jt808/index.ts';
import { location, TestTerminal } from '../gateway/terminal-client.ts';
import { simCanData } from '../sim/can.ts';
import { killHard, startCrashServer, stopClean } from './crash-harness.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-crash-acked-'));
const dbFile = path.join(dataDir, 'fleet.sqlite');
const children = new Set<ChildProcess>();
const slowAlarms = pathToFileURL(path.join(import.meta.dirname, 'crash-slow-alarms.ts')).href;

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function read<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

describe('crash: what was acknowledged the moment before a SIGKILL is kept, a resend is stored once', () => {
  it('keeps an SOS alarm row and 0x0705 CAN rows acknowledged just before the kill; stores a resent 0x0200 and 0x0704 once', { timeout: 300_000 }, async () => {
    const first = await startCrashServer(dataDir, children, { preload: [slowAlarms], env: { CRASH_ALARM_DELAY_MS: '500' } });
    const devices = read<{ id: number; deviceNo: string }>('SELECT id, device_no AS deviceNo FROM vehicle WHERE device_no IS NOT NULL ORDER BY id LIMIT 3');
    expect(devices.length).toBe(3);
    const [sosCar, canCar, resendCar] = await Promise.all(devices.map(async (d) => {
      const t = await TestTerminal.connect(first.gatewayPort, d.deviceNo);
      await t.login();
      return { t, vehicleId: d.id, deviceNo: d.deviceNo };
    }));

    const now = Math.floor(Date.now() / 1000) * 1000;
    const startedAt = Date.now();
    // The resend case first: a report and a blind-area batch, committed (acknowledged) before the kill.
    const resendTimes = [now - 60_000, now - 59_000, now - 58_000, now - 57_000];
    const report = location({ lng: 121.45, lat: 31.21, time: resendTimes[0]!, speed: 40 });
    const batch = { msgId: MSG.BATCH_LOCATION, type: 1, items: resendTimes.slice(1).map((time) => ({ msgId: MSG.LOCATION, ...location({ lng: 121.45, lat: 31.21, time, speed: 40 }) })) };
    expect((await resendCar!.t.report(report)).result).toBe(0);
    expect(await resendCar!.t.request(batch as Parameters<TestTerminal['request']>[0])).toMatchObject({ msgId: MSG.PLATFORM_RESPONSE, result: 0 });

    // SOS (bit 0, alarm 17001) and a CAN upload at once; the kill follows the second acknowledgement at once.
    const sosTime = now - 10_000;
    const upload = simCanData(canCar!.deviceNo, 400, location({ lng: 121.5, lat: 31.2, time: now, speed: 60, status: 0x3, fuel: 250 }))!;
    const [sos, can] = await Promise.all([
      sosCar!.t.report(location({ lng: 121.5, lat: 31.2, time: sosTime, speed: 30, alarm: 1 })),
      canCar!.t.request(upload),
    ]);
    await killHard(first);
    expect(sos.result).toBe(0);
    expect(can).toMatchObject({ msgId: MSG.PLATFORM_RESPONSE, replyId: 0x0705, result: 0 });
    for (const c of [sosCar!, canCar!, resendCar!]) c.t.socket.destroy();

    const second = await startCrashServer(dataDir, children);
    try {
      const alarms = read<{ n: number }>('SELECT count(*) AS n FROM alarm WHERE vehicle_id = ? AND alarm_type = 17001 AND start_time = ?', sosCar!.vehicleId, sosTime);
      expect(alarms[0]!.n, 'the SOS alarm row acknowledged before the kill').toBe(1);
      const canRows = read<{ protocol: string }>('SELECT protocol FROM obd_history WHERE vehicle_id = ? AND time >= ? ORDER BY protocol', canCar!.vehicleId, startedAt);
      expect(canRows.map((r) => r.protocol), 'the CAN history rows acknowledged before the kill').toEqual(['j1939', 'obd2']);

      // The terminal missed nothing here, but a terminal whose ack was lost sends exactly this again.
      const again = await TestTerminal.connect(second.gatewayPort, resendCar!.deviceNo);
      try {
        await again.login();
        expect((await again.report(report)).result).toBe(0);
        expect(await again.request(batch as Parameters<TestTerminal['request']>[0])).toMatchObject({ msgId: MSG.PLATFORM_RESPONSE, result: 0 });
      } finally {
        again.socket.destroy();
      }
      const stored = read<{ t: number; n: number }>(
        `SELECT gps_time AS t, count(*) AS n FROM positions WHERE vehicle_id = ? AND gps_time IN (${resendTimes.map(() => '?').join(', ')}) GROUP BY gps_time ORDER BY gps_time`,
        resendCar!.vehicleId, ...resendTimes);
      expect(stored, 'one row per GPS time after the resend').toEqual(resendTimes.map((t) => ({ t, n: 1 })));
    } finally {
      await stopClean(second);
    }
  });
});
