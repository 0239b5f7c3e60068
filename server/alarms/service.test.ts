import { afterEach, describe, expect, it } from 'vitest';
import { location, TestTerminal } from '../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { ALL_COMPANIES } from '../db/scope.ts';

const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;
const servers: LiveTestServer[] = [];

afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});

async function countAlarms(server: LiveTestServer, vehicleId: number): Promise<number> {
  const now = server.clock.now();
  return (await server.app.storage.alarms.query(ALL_COMPANIES, { startTime: now - 86_400_000, endTime: now + 86_400_000, vehicleIds: [vehicleId] }, 0, 100)).total;
}

async function reportOnce(server: LiveTestServer, deviceNo: string, alarm: number): Promise<void> {
  const t = await TestTerminal.connect(server.gatewayPort, deviceNo);
  await t.login();
  server.clock.advance(1000);
  expect((await t.report(location({ lng: 121, lat: 31, time: seconds(server.clock.now()), alarm }))).result).toBe(0);
  await server.app.alarms.idle();
  await t.close();
}

describe('alarm generation across a restart', () => {
  it('does not raise again a bit the terminal still holds after the server restarts', async () => {
    const first = await startLiveServer({ seedVehicles: 3 });
    const [v] = await first.app.storage.terminals.allVehicles();
    await reportOnce(first, v!.deviceNo, 0b10);
    expect(await countAlarms(first, v!.vehicleId)).toBe(1);
    const dataDir = first.config.dataDir;
    await first.close(true);

    const second = await startLiveServer({ seedVehicles: 3, dataDir });
    servers.push(second);
    await reportOnce(second, v!.deviceNo, 0b10);
    expect(await countAlarms(second, v!.vehicleId)).toBe(1);
    await reportOnce(second, v!.deviceNo, 0b11);
    expect(await countAlarms(second, v!.vehicleId)).toBe(2);
  });

  it('ends an alarm held across a restart when its bit falls, and merges a repeat inside the window into it', async () => {
    const first = await startLiveServer({ seedVehicles: 3 });
    const [v] = await first.app.storage.terminals.allVehicles();
    await reportOnce(first, v!.deviceNo, 0b10);
    const dataDir = first.config.dataDir;
    await first.close(true);

    const second = await startLiveServer({ seedVehicles: 3, dataDir });
    servers.push(second);
    await reportOnce(second, v!.deviceNo, 0);
    const now = second.clock.now();
    const find = async () => (await second.app.storage.alarms.query(ALL_COMPANIES, { startTime: now - 86_400_000, endTime: now + 86_400_000, vehicleIds: [v!.vehicleId] }, 0, 10)).records;
    expect((await find())[0]).toMatchObject({ alarmType: 12001, count: 1, endTime: seconds(second.clock.now()) });
    await reportOnce(second, v!.deviceNo, 0b10);
    const list = await find();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ count: 2, endTime: null });
  });

  it('keeps the type catalogue in the database, Chinese-only AEB names included', async () => {
    const server = await startLiveServer({ seedVehicles: 1 });
    servers.push(server);
    const types = await server.app.storage.alarms.listTypes();
    expect(types.length).toBe(221);
    expect(types.find((t) => t.code === 82001)).toMatchObject({ group: 82, en: null });
    expect(types.find((t) => t.code === 10006)).toMatchObject({ group: 19 }); // ADAS under its own group
  });
});

describe('platform overspeed over the gateway', () => {
  it('stores 12003 after 10 s above 100 km/h, dated from the first report above, and ends it when the speed drops', async () => {
    const server = await startLiveServer({ seedVehicles: 2 });
    servers.push(server);
    const [v] = await server.app.storage.terminals.allVehicles();
    const t = await TestTerminal.connect(server.gatewayPort, v!.deviceNo);
    await t.login();
    const send = async (speed: number) => {
      server.clock.advance(5000);
      expect((await t.report(location({ lng: 121, lat: 31, time: seconds(server.clock.now()), speed }))).result).toBe(0);
      await server.app.alarms.idle();
    };
    await send(118);
    const first = seconds(server.clock.now());
    await send(125);
    expect(await countAlarms(server, v!.vehicleId)).toBe(0);
    await send(121);
    const now = server.clock.now();
    const find = async () => (await server.app.storage.alarms.query(ALL_COMPANIES, { startTime: now - 86_400_000, endTime: now + 86_400_000, vehicleIds: [v!.vehicleId] }, 0, 10)).records;
    expect(await find()).toEqual([expect.objectContaining({ alarmType: 12003, source: 'platform', startTime: first, speed: 118, endTime: null })]);
    await send(60);
    expect((await find())[0]).toMatchObject({ alarmType: 12003, count: 1, endTime: seconds(server.clock.now()) });
    await t.close();
  });
});
