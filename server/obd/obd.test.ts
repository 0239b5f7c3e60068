import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { location, TestTerminal } from '../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { simCanData } from '../sim/can.ts';
import { OBD_FLUSH_MS } from './index.ts';

let server: LiveTestServer;
let admin: string;
let devices: { vehicleId: number; deviceNo: string }[];
const open: TestTerminal[] = [];

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 4 });
  admin = await server.login('admin', 'admin123');
  devices = (await server.app.storage.terminals.allVehicles()).map((v) => ({ vehicleId: v.vehicleId, deviceNo: v.deviceNo }));
});
afterAll(async () => {
  await Promise.all(open.map((t) => t.close()));
  await server?.close();
});

describe('vehicle CAN data (0x0705 → /service-monitor/obd/detail)', () => {
  it('acknowledges a terminal’s CAN upload and serves its J1939 and OBD-II values for the two OBD buttons', async () => {
    const d = devices[0]!;
    const t = await TestTerminal.connect(server.gatewayPort, d.deviceNo);
    open.push(t);
    await t.login();
    const now = Date.now();
    // What a simulated truck with a 400 L tank sends at 60 km/h with 250 L left.
    const upload = simCanData(d.deviceNo, 400, location({ lng: 121.5, lat: 31.2, time: now, speed: 60, status: 0x3, fuel: 250 }))!;
    expect(upload.items).toHaveLength(11);
    const reply = await t.request(upload);
    expect(reply).toMatchObject({ msgId: 0x8001, replyId: 0x0705, result: 0 });

    const big = await server.call<{ reading: Record<string, unknown> }>('GET', `/service-monitor/obd/detail?vehicleId=${d.vehicleId}&protocol=j1939`, { token: admin });
    expect(big.code).toBe(200);
    expect(big.data.reading).toMatchObject({ protocol: 'j1939', engineRpm: 1740, coolantC: 88, fuelPct: 62.4, speedKmh: 60, engineLoadPct: 60, engineHours: expect.any(Number) });
    const light = await server.call<{ reading: Record<string, unknown> }>('GET', `/service-monitor/obd/detail?vehicleId=${d.vehicleId}&protocol=obd2`, { token: admin });
    expect(light.data.reading).toMatchObject({ protocol: 'obd2', engineRpm: 1740, coolantC: 88, speedKmh: 60, engineHours: null });
  });

  it('answers null for a vehicle that never sent CAN data, 404 outside the scope, 400 for an unknown protocol, 403 without the OBD buttons', async () => {
    const none = await server.call<{ reading: unknown }>('GET', `/service-monitor/obd/detail?vehicleId=${devices[1]!.vehicleId}&protocol=obd2`, { token: admin });
    expect(none.data.reading).toBeNull();
    expect((await server.call('GET', '/service-monitor/obd/detail?vehicleId=999999&protocol=obd2', { token: admin })).status).toBe(404);
    expect((await server.call('GET', `/service-monitor/obd/detail?vehicleId=${devices[1]!.vehicleId}&protocol=can`, { token: admin })).status).toBe(400);
    const operator = await server.login('operator', 'operator123');
    expect((await server.call('GET', `/service-monitor/obd/detail?vehicleId=${devices[1]!.vehicleId}&protocol=obd2`, { token: operator })).status).toBe(403);
  });

  it('keeps the latest reading across a restart on the same data directory (a restart must not blank every OBD panel)', async () => {
    const d = devices[2]!;
    const t = await TestTerminal.connect(server.gatewayPort, d.deviceNo);
    open.push(t);
    await t.login();
    const upload = simCanData(d.deviceNo, 400, location({ lng: 121.5, lat: 31.2, time: Date.now(), speed: 30, status: 0x3, fuel: 100 }))!;
    expect(await t.request(upload)).toMatchObject({ msgId: 0x8001, replyId: 0x0705, result: 0 });
    const path = `/service-monitor/obd/detail?vehicleId=${d.vehicleId}&protocol=j1939`;
    const before = await server.call<{ reading: Record<string, unknown> }>('GET', path, { token: admin });
    expect(before.data.reading).toMatchObject({ protocol: 'j1939', speedKmh: 30 });
    await t.close();
    // Written within OBD_FLUSH_MS without waiting for a shutdown: a crash loses at most that interval.
    const db = (server.app.storage as unknown as { db: { prepare(sql: string): { pluck(): { get(...p: unknown[]): unknown } } } }).db;
    const stored = () => db.prepare('SELECT count(*) FROM obd_reading WHERE vehicle_id = ?').pluck().get(d.vehicleId);
    const until = Date.now() + OBD_FLUSH_MS + 2000;
    while (stored() !== 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(stored()).toBe(2);

    const dataDir = server.config.dataDir;
    await server.close(true);
    server = await startLiveServer({ seedVehicles: 4, dataDir });
    admin = await server.login('admin', 'admin123');
    const after = await server.call<{ reading: Record<string, unknown> }>('GET', path, { token: admin });
    // The same values and the same arrival time: what the terminal sent, not a reading made up at start.
    expect(after.data.reading).toEqual(before.data.reading);
    // A vehicle that never sent CAN data still answers null after the restart.
    const none = await server.call<{ reading: unknown }>('GET', `/service-monitor/obd/detail?vehicleId=${devices[1]!.vehicleId}&protocol=obd2`, { token: admin });
    expect(none.data.reading).toBeNull();
  });

  it('acknowledges a CAN upload only once its history rows are committed (issue 20: nothing acknowledged is lost)', async () => {
    const d = devices[3]!;
    const t = await TestTerminal.connect(server.gatewayPort, d.deviceNo);
    open.push(t);
    await t.login();
    const upload = simCanData(d.deviceNo, 400, location({ lng: 121.5, lat: 31.2, time: Date.now(), speed: 45, status: 0x3, fuel: 200 }))!;
    const db = (server.app.storage as unknown as { db: { prepare(sql: string): { pluck(): { get(...p: unknown[]): unknown } } } }).db;
    const rows = () => db.prepare('SELECT count(*) FROM obd_history WHERE vehicle_id = ? AND speed_kmh = 45').pluck().get(d.vehicleId);
    expect(rows()).toBe(0);
    expect(await t.request(upload)).toMatchObject({ msgId: 0x8001, replyId: 0x0705, result: 0 });
    // Read at the moment the 0x8001 arrived, no flush asked for: both protocols' rows are in the table.
    expect(rows()).toBe(2);
  });

  it('sends CAN data only with the engine on and at most every 30 s per terminal', () => {
    const base = { lng: 121.5, lat: 31.2, speed: 0, fuel: 100 };
    expect(simCanData('sim-x', 200, location({ ...base, time: 1_000_000, status: 0x2 }))).toBeNull();
    expect(simCanData('sim-x', 200, location({ ...base, time: 1_000_000, status: 0x3 }))).not.toBeNull();
    expect(simCanData('sim-x', 200, location({ ...base, time: 1_020_000, status: 0x3 }))).toBeNull();
    expect(simCanData('sim-x', 200, location({ ...base, time: 1_030_000, status: 0x3 }))).not.toBeNull();
  });
});
