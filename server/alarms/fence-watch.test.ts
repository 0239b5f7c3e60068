import { afterEach, describe, expect, it } from 'vitest';
import { M_PER_DEG } from '../../domain/fence/geometry.ts';
import { FENCE_CODES } from '../../domain/fence/rules.ts';
import type { Fence } from '../../domain/fence/types.ts';
import { ALL_COMPANIES } from '../db/scope.ts';
import { location, TestTerminal } from '../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import type { FenceSource } from './fence-watch.ts';
import { AlarmService } from './service.ts';

const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;
const servers: LiveTestServer[] = [];
const services: AlarmService[] = [];
afterEach(async () => {
  while (services.length > 0) await services.pop()!.stop();
  while (servers.length > 0) await servers.pop()!.close();
});

const CENTER = [121.47, 31.23] as const; // People's Square, Shanghai
/** Longitude `metres` east of the fence's centre. */
const eastLng = (metres: number) => CENTER[0] + metres / (M_PER_DEG * Math.cos((CENTER[1] * Math.PI) / 180));

const YARD: Fence = {
  id: 41, companyId: 1, name: '人民广场停车场', geometry: { shape: 'circle', center: CENTER, radius: 500 },
  rule: { alarmIn: false, alarmOut: true, forbidIn: false, forbidOut: false, maxSpeed: null, overspeedSeconds: 0, startTime: null, endTime: null },
};

/**
 * A live server whose live reports go to an alarm service evaluating in-memory fences (the stored
 * fences' source is the fence service's; this test owns its list), recording every alarm it pushes.
 */
async function serverWithFences(fences: { fence: Fence; vehicleIds: number[] }[]) {
  const server = await startLiveServer({ seedVehicles: 3 });
  servers.push(server);
  const pushed: Record<string, unknown>[] = [];
  const source: FenceSource = { load: () => fences };
  const app = server.app;
  const service = new AlarmService(app.storage, app.live.store, {
    publishAlarm: (path, alarm) => {
      pushed.push(alarm);
      app.push.publishAlarm(path, alarm);
    },
  }, { fences: source });
  await service.init();
  services.push(service);
  app.live.gateway.onReport = (vehicleId, report, edition) => service.onReport(vehicleId, report, edition);
  return { server, service, pushed, source };
}

async function drive(server: LiveTestServer, service: AlarmService, deviceNo: string, metresEast: readonly number[]): Promise<void> {
  const t = await TestTerminal.connect(server.gatewayPort, deviceNo);
  await t.login();
  for (const x of metresEast) {
    server.clock.advance(10_000);
    expect((await t.report(location({ lng: eastLng(x), lat: CENTER[1], time: seconds(server.clock.now()), speed: 30 }))).result).toBe(0);
    await service.idle();
  }
  await t.close();
}

async function alarmsOf(server: LiveTestServer, vehicleId: number) {
  const now = server.clock.now();
  return (await server.app.storage.alarms.query(ALL_COMPANIES, { startTime: now - 86_400_000, endTime: now + 86_400_000, vehicleIds: [vehicleId] }, 0, 100)).records;
}

describe('platform fences over the gateway', () => {
  it('a bound vehicle driving into the yard and out again raises one leave alarm, stored and pushed once with the fence name', async () => {
    const list: { fence: Fence; vehicleIds: number[] }[] = [];
    const { server, service, pushed } = await serverWithFences(list);
    const [bound, unbound] = await server.app.storage.terminals.allVehicles();
    // Bind now and reload, as the fence service does after a write.
    list.push({ fence: YARD, vehicleIds: [bound!.vehicleId] });
    service.fencesChanged();

    await drive(server, service, bound!.deviceNo, [3000, 1500, 100, 0, 200, 1500, 3000]);
    const stored = await alarmsOf(server, bound!.vehicleId);
    expect(stored).toEqual([expect.objectContaining({ alarmType: FENCE_CODES.leave, source: 'platform', count: 1 })]);
    const [leave] = stored;
    // Dated at the first report beyond the edge (1500 m east), ended at once (an occurrence, not a held state).
    expect(leave!.lng).toBeCloseTo(eastLng(1500), 5);
    expect(leave!.endTime).toBe(leave!.startTime);
    expect((await server.app.storage.alarms.logs(leave!.id)).map((l) => [l.action, l.content])).toEqual([['fence', '围栏：人民广场停车场']]);
    expect(pushed).toEqual([expect.objectContaining({ id: leave!.id, alarmType: FENCE_CODES.leave, alarmName: '离开区域报警', content: '围栏：人民广场停车场' })]);
    // The fence's name is in the alarm queries and the catch-up replay too, not only the live push.
    expect(leave!.content).toBe('围栏：人民广场停车场');
    const replay = await server.app.storage.alarms.since(ALL_COMPANIES, leave!.id - 1, 10, 10);
    expect(replay.records.map((a) => [a.id, a.content])).toEqual([[leave!.id, '围栏：人民广场停车场']]);
    const token = await server.login('admin', 'admin123');
    const one = await server.call<{ id: number; content: string }>('GET', `/service-safe/alarmInfo/${leave!.id}`, { token });
    expect(one.data).toMatchObject({ id: leave!.id, content: '围栏：人民广场停车场' });

    // Another vehicle of the same company crossing the same yard is not bound to it: nothing.
    await drive(server, service, unbound!.deviceNo, [3000, 0, 3000]);
    expect(await alarmsOf(server, unbound!.vehicleId)).toEqual([]);
    expect(pushed).toHaveLength(1);
  });

  it('a forbidden area: held from the entry, ended on leaving; removing the fence ends a held one', async () => {
    const forbidden: Fence = { ...YARD, id: 42, name: '禁区', rule: { ...YARD.rule, alarmOut: false, forbidIn: true } };
    const list: { fence: Fence; vehicleIds: number[] }[] = [];
    const { server, service, source } = await serverWithFences(list);
    const [v] = await server.app.storage.terminals.allVehicles();
    list.push({ fence: forbidden, vehicleIds: [v!.vehicleId] });
    service.fencesChanged();

    await drive(server, service, v!.deviceNo, [3000, 0, 3000]);
    expect(await alarmsOf(server, v!.vehicleId)).toEqual([expect.objectContaining({ alarmType: FENCE_CODES.forbiddenEntry, count: 1, endTime: expect.any(Number) })]);

    await drive(server, service, v!.deviceNo, [100]);
    const [held] = (await alarmsOf(server, v!.vehicleId)).filter((a) => a.endTime === null);
    expect(held).toMatchObject({ alarmType: FENCE_CODES.forbiddenEntry });
    source.load = () => [];
    service.fencesChanged();
    await service.idle();
    expect((await alarmsOf(server, v!.vehicleId)).filter((a) => a.endTime === null)).toEqual([]);
  });

  it('a forbidden entry held across a restart ends at the first report outside the fence (the state was lost with the process)', async () => {
    const forbidden: Fence = { ...YARD, id: 43, name: '禁区', rule: { ...YARD.rule, alarmOut: false, forbidIn: true } };
    const list: { fence: Fence; vehicleIds: number[] }[] = [];
    const first = await serverWithFences(list);
    const [v] = await first.server.app.storage.terminals.allVehicles();
    list.push({ fence: forbidden, vehicleIds: [v!.vehicleId] });
    first.service.fencesChanged();
    await drive(first.server, first.service, v!.deviceNo, [3000, 0]);
    expect((await alarmsOf(first.server, v!.vehicleId)).filter((a) => a.endTime === null)).toHaveLength(1);
    const dataDir = first.server.config.dataDir;
    await services.pop()!.stop();
    await servers.pop()!.close(true);

    const server = await startLiveServer({ seedVehicles: 3, dataDir });
    servers.push(server);
    const service = new AlarmService(server.app.storage, server.app.live.store, server.app.push, { fences: { load: () => list } });
    await service.init();
    services.push(service);
    server.app.live.gateway.onReport = (vehicleId, report, edition) => service.onReport(vehicleId, report, edition);
    server.clock.advance(60_000);
    await drive(server, service, v!.deviceNo, [3000]);
    const after = await alarmsOf(server, v!.vehicleId);
    expect(after).toEqual([expect.objectContaining({ alarmType: FENCE_CODES.forbiddenEntry, endTime: expect.any(Number) })]);
  });
});
