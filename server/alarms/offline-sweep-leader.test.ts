/**
 * The platform's offline alarm in a cluster (issue 20, server/cluster-jobs.md): only the node holding the sweep's
 * leadership (`offlineWhen`) raises it, and a node that takes the sweep over adopts the offline alarms its
 * predecessor left open: it ends them when the vehicle is back and never raises a second one. Two AlarmServices on one
 * server's store and database stand for two nodes that both see the terminal.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PLATFORM_RULES } from '../../domain/alarms/sources.ts';
import { OFFLINE_AFTER_MS } from '../../domain/vehicle/state.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { location, TestTerminal } from '../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { AlarmService } from './service.ts';

let server: LiveTestServer | undefined;
const services: AlarmService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.stop();
  await server?.close();
});

describe('offline alarms decided by one node', () => {
  it('a follower raises none; the leader one; a node taking over adopts it (ends it, no second one)', { timeout: 120_000 }, async () => {
    server = await startLiveServer({ seedVehicles: 2 });
    const { app, clock } = server;
    // The app's own service would sweep on its timer too: stopped, the two below are the "nodes".
    await app.alarms.stop();
    const db = (app.storage as SqliteStorage).db;
    const [vehicle] = await app.storage.terminals.allVehicles();
    const offline = () => db.prepare('SELECT end_time AS endTime FROM alarm WHERE vehicle_id = ? AND alarm_type = ? ORDER BY id').all(vehicle!.vehicleId, PLATFORM_RULES.offline) as { endTime: number | null }[];

    const terminal = await TestTerminal.connect(server.gatewayPort, vehicle!.deviceNo!);
    await terminal.login();
    const report = async () => expect((await terminal.report(location({ lng: 121.47, lat: 31.23, time: Math.floor(clock.now() / 1000) * 1000, speed: 20 }))).result).toBe(0);
    await report();

    let leader1 = false;
    let leader2 = false;
    const publisher = { publishAlarm: () => undefined };
    const node1 = new AlarmService(app.storage, app.live.store, publisher, { offlineWhen: () => leader1 });
    const node2 = new AlarmService(app.storage, app.live.store, publisher, { offlineWhen: () => leader2 });
    services.push(node1, node2);
    await node1.init();
    await node2.init();

    await terminal.close();
    clock.advance(OFFLINE_AFTER_MS + 10_000);
    node1.sweep();
    node2.sweep();
    await node1.idle();
    await node2.idle();
    // Neither leads yet: nothing (the old code raised one per node).
    expect(offline()).toEqual([]);

    leader1 = true;
    node1.sweep();
    node2.sweep();
    await node1.idle();
    expect(offline()).toEqual([{ endTime: null }]);

    // Node 1 dies; node 2 takes the sweep over and adopts the open alarm, as the app's onChange wiring does.
    await node1.stop();
    leader1 = false;
    leader2 = true;
    expect(await node2.adoptOpenOffline()).toBe(1);
    node2.sweep();
    await node2.idle();
    expect(offline()).toEqual([{ endTime: null }]);

    // The vehicle is back: the adopted alarm ends.
    const back = await TestTerminal.connect(server.gatewayPort, vehicle!.deviceNo!);
    try {
      await back.login();
      expect((await back.report(location({ lng: 121.47, lat: 31.23, time: Math.floor(clock.now() / 1000) * 1000, speed: 20 }))).result).toBe(0);
      node2.sweep();
      await node2.idle();
      const rows = offline();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.endTime).not.toBeNull();
    } finally {
      await back.close();
    }
  });
});
