import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chinaDate } from '../../domain/track/days.ts';
import { location, TestTerminal } from '../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { simCanData } from '../sim/can.ts';
import { readProvisionedTerminals } from '../sim/fleet-source.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';

let server: LiveTestServer;
let admin: string;
let truck: { vehicleId: number; deviceNo: string };
let t: TestTerminal;
let t0: number;

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 4 });
  admin = await server.login('admin', 'admin123');
  const v = (await server.app.storage.terminals.allVehicles())[3]!;
  truck = { vehicleId: v.vehicleId, deviceNo: v.deviceNo };
  t = await TestTerminal.connect(server.gatewayPort, truck.deviceNo);
  await t.login();
  t0 = server.clock.now();
  // A simulated truck drives 40 minutes: a 0x0200 with its odometer, then its CAN upload (every 30 s at most).
  for (let i = 0; i < 5; i++) {
    server.clock.advance(60_000);
    const time = Math.floor(server.clock.now() / 1000) * 1000;
    const loc = location({ lng: 121.5 + i * 0.01, lat: 31.2, time, speed: 40 + i * 5, status: 0x3, fuel: 300 - i * 10, mileage: 1000 + i * 2 });
    expect(await t.request({ msgId: 0x0200, ...loc } as never)).toMatchObject({ replyId: 0x0200, result: 0 });
    const upload = simCanData(`${truck.deviceNo}-hist`, 400, loc)!;
    expect(await t.request(upload)).toMatchObject({ replyId: 0x0705, result: 0 });
  }
});
afterAll(async () => {
  await t?.close();
  await server?.close();
});

describe('OBD/CAN history (0x0705 kept per upload → the OBD report calls)', () => {
  it('pages one vehicle’s readings over a range (obd/detail with a range), newest first, with place and odometer', async () => {
    const end = server.clock.now() + 1000;
    const r = await server.call<{ total: number; records: Record<string, unknown>[]; reading: unknown }>('GET',
      `/service-monitor/obd/detail?vehicleId=${truck.vehicleId}&protocol=j1939&startTime=${t0}&endTime=${end}&current=1&size=2`, { token: admin });
    expect(r.code).toBe(200);
    expect(r.data.total).toBe(5);
    expect(r.data.records).toHaveLength(2);
    expect(r.data.records[0]).toMatchObject({ vehicleId: truck.vehicleId, protocol: 'j1939', speedKmh: 60, mileageKm: 1008, lng: 121.54, engineRpm: expect.any(Number), coolantC: expect.any(Number) });
    expect(r.data.reading).toMatchObject({ protocol: 'j1939', speedKmh: 60 });
  });

  it('counts readings per vehicle and China day, summarises a vehicle, pages the fleet and serves the latest CAN values', async () => {
    const end = server.clock.now() + 1000;
    const counts = await server.call<{ vehicleId: number; day: string; count: number; j1939: number; obd2: number }[]>('GET', `/service-monitor/obd/detailCount?startTime=${t0}&endTime=${end}`, { token: admin });
    expect(counts.code).toBe(200);
    const mine = counts.data.filter((c) => c.vehicleId === truck.vehicleId);
    expect(mine.reduce((n, c) => n + c.count, 0)).toBe(10);
    expect(mine.map((c) => c.day)).toContain(chinaDate(end - 1000));

    const info = await server.call<{ count: number; summary: Record<string, number | null>; series: unknown[] }>('GET',
      `/service-qpshell/monitor/getObdHistoryInfo?vehicleId=${truck.vehicleId}&protocol=j1939&startTime=${t0}&endTime=${end}`, { token: admin });
    expect(info.data.count).toBe(5);
    expect(info.data.summary).toMatchObject({ maxSpeedKmh: 60, distanceKm: 8 });
    expect(info.data.summary.fuelChangePct).toBeLessThan(0);
    expect(info.data.series).toHaveLength(5);

    const page = await server.call<{ total: number; records: { vehiidno: string }[] }>('POST', '/service-qpshell/obd/page', { token: admin, body: { startTime: t0, endTime: end, current: 1, size: 20 } });
    expect(page.data.total).toBe(10);
    expect(page.data.records[0]!.vehiidno).toEqual(expect.any(String));

    const can = await server.call<{ vehicleId: number; j1939: { engineRpm: number } | null }[]>('GET', `/service-qpshell/huanghe/getCanData?vehicleId=${truck.vehicleId}`, { token: admin });
    expect(can.data).toEqual([expect.objectContaining({ vehicleId: truck.vehicleId, j1939: expect.objectContaining({ speedKmh: 60 }) })]);

    const hw = await server.call<{ online: boolean; faults: { code: number; fault: boolean }[]; canBus: { reporting: boolean } }>('GET', `/service-qpshell/monitor/getHardwareStatus?vehicleId=${truck.vehicleId}`, { token: admin });
    expect(hw.data.online).toBe(true);
    expect(hw.data.faults.find((f) => f.code === 15008)).toMatchObject({ fault: false });
    expect(hw.data.canBus.reporting).toBe(true);
  });

  it('refuses a reversed or too long range (400 naming endTime), a vehicle outside the scope (404), a user without the report (403)', async () => {
    const now = server.clock.now();
    const reversed = await server.call('GET', `/service-monitor/obd/detailCount?startTime=${now}&endTime=${now - 1}`, { token: admin });
    expect(reversed.status).toBe(400);
    expect(reversed.msg).toMatch(/endTime/);
    const long = await server.call('POST', '/service-qpshell/obd/page', { token: admin, body: { startTime: now - 40 * 86_400_000, endTime: now } });
    expect(long.status).toBe(400);
    const half = await server.call('GET', `/service-monitor/obd/detail?vehicleId=${truck.vehicleId}&protocol=j1939&startTime=${now}`, { token: admin });
    expect(half.status).toBe(400);
    expect(half.msg).toMatch(/endTime/);
    expect((await server.call('GET', `/service-qpshell/monitor/getHardwareStatus?vehicleId=999999`, { token: admin })).status).toBe(404);
    expect((await server.call('GET', `/service-qpshell/huanghe/getCanData?vehicleId=999999`, { token: admin })).status).toBe(404);
    const operator = await server.login('operator', 'operator123');
    expect((await server.call('GET', `/service-qpshell/monitor/getObdHistoryInfo?vehicleId=${truck.vehicleId}&startTime=${now - 1000}&endTime=${now}`, { token: operator })).status).toBe(403);
  });

  it('deletes readings and box state changes older than the position retention, keeps the recent ones', async () => {
    const db = (server.app.storage as unknown as SqliteStorage).db;
    const old = server.clock.now() - 400 * 86_400_000; // positions are kept 180 days by default
    db.prepare("INSERT INTO obd_history (vehicle_id, time, protocol, engine_rpm) VALUES (?, ?, 'j1939', 900)").run(truck.vehicleId, old);
    db.prepare('INSERT INTO box_state_change (vehicle_id, time, lifted, sealed, loaded, speed, lng, lat) VALUES (?, ?, 0, 1, 0, 0, 121, 31)').run(truck.vehicleId, old);
    const swept = await server.app.retention.runAll();
    expect(swept['obd-history']).toEqual({ obdHistory: 1 });
    expect(swept['box-state']).toEqual({ boxStateChanges: 1 });
    expect(db.prepare('SELECT count(*) AS n FROM obd_history WHERE vehicle_id = ?').get(truck.vehicleId)).toEqual({ n: 10 });
  });

  it('simulates the vehicles of type muck as slag trucks (their terminals carry the box item)', () => {
    const db = (server.app.storage as unknown as SqliteStorage).db;
    db.prepare("UPDATE vehicle SET vehicle_type = CASE WHEN id = ? THEN 'muck' ELSE 'car' END").run(truck.vehicleId);
    const specs = readProvisionedTerminals(server.config.dataDir);
    expect(specs.filter((s) => s.slagTruck).map((s) => s.deviceNo)).toEqual([truck.deviceNo]);
  });
});
