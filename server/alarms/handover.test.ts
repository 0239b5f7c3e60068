/**
 * Issue 20, a terminal moving between gateway nodes (server/cluster-jobs.md "Alarm engine from reports"): the
 * condition it holds (a terminal state bit) was raised on node A; the terminal then authenticates on node B, which
 * had started before that alarm existed. B reads the vehicle's alarm state back at the authentication
 * (`adoptVehicle`): the held condition stays one alarm, merged on B and ended by B when the bit clears. The old code
 * opened a second alarm on B for the same held condition, and A's stayed open. Two AlarmServices on one server's
 * database stand for the two gateway nodes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ALARM_FLAGS } from '../../domain/alarms/sources.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import type { LocationReport } from '../gateway/jt808/index.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { AlarmService } from './service.ts';

let server: LiveTestServer | undefined;
const services: AlarmService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.stop();
  await server?.close();
});

/** Overspeed as the terminal reports it: a state bit, held while set. */
const OVERSPEED = ALARM_FLAGS.find((r) => r.code === 12001 && r.kind === 'state')!;

function report(time: number, alarm: number): LocationReport {
  return {
    msgId: 0x0200, alarm, status: 0x3, lng: 121.47, lat: 31.23, altitude: 5, speed: 20, direction: 90, time,
    mileage: undefined, fuel: undefined, recorderSpeed: undefined, alarmEventId: undefined, extSignal: undefined, ioStatus: undefined,
    analog: undefined, signal: undefined, satellites: undefined, adas: undefined, dms: undefined, extras: undefined,
  };
}

describe('a held alarm when the terminal moves to another gateway node', () => {
  it('stays one alarm: merged on the new node and ended there when the condition clears', { timeout: 120_000 }, async () => {
    server = await startLiveServer({ seedVehicles: 2 });
    const { app, clock } = server;
    await app.alarms.stop(); // the two below are the "nodes"
    const db = (app.storage as SqliteStorage).db;
    const [vehicle] = await app.storage.terminals.allVehicles();
    const id = vehicle!.vehicleId;
    const rows = () => db.prepare('SELECT id, count, end_time AS endTime FROM alarm WHERE vehicle_id = ? AND alarm_type = 12001 ORDER BY id').all(id) as { id: number; count: number; endTime: number | null }[];
    const publisher = { publishAlarm: () => undefined };
    const nodeA = new AlarmService(app.storage, app.live.store, publisher, {});
    const nodeB = new AlarmService(app.storage, app.live.store, publisher, {});
    services.push(nodeA, nodeB);
    await nodeA.init();
    await nodeB.init(); // before the alarm exists: its start-up restore cannot know it

    const t0 = Math.floor(clock.now() / 1000) * 1000;
    const bit = 1 << OVERSPEED.bit;
    // Gateway A stores the report (its history writer) and its engine raises the alarm.
    await app.storage.positions.append([{ vehicleId: id, gpsTime: t0, lng: 121.47, lat: 31.23, speed: 20, heading: 90, altitude: 5, status: 0x3, alarm: bit, mileage: null, fuel: null, receivedAt: t0 + 200 }]);
    nodeA.onReport(id, report(t0, bit), 2019);
    await nodeA.idle();
    expect(rows()).toEqual([{ id: expect.any(Number), count: 1, endTime: null }]);
    const raised = rows()[0]!.id;

    // The terminal authenticates on B (gateway A died, the balancer chose B) and reports: the bit is still set,
    // which B knows from A's stored position (not a rise: no second occurrence counted).
    const adopted = nodeB.adoptVehicle(id);
    nodeB.onReport(id, report(t0 + 30_000, bit), 2019); // arrives while B reads the state back: waits, not lost
    await adopted;
    await nodeB.idle();
    expect(rows().map((r) => r.id)).toEqual([raised]); // the old code: a second alarm here

    // The condition clears on B: B ends the alarm A raised.
    nodeB.onReport(id, report(t0 + 60_000, 0), 2019);
    await nodeB.idle();
    expect(rows()).toEqual([{ id: raised, count: 1, endTime: t0 + 60_000 }]);
  });
});
