import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriverIdentity } from '../../gateway/jt808/driver.ts';
import { location, TestTerminal } from '../../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';

interface DriverRow { driverKey: string; identified: boolean; driverName: string; driverCert: string; vehicleId: number; count: number; vehicles: number }
interface AlarmRow { alarmType: number; driverName: string; driverCert: string }

const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;
let server: LiveTestServer;
let admin: string;
const terminals: TestTerminal[] = [];

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 10 });
  admin = await server.login('admin', 'admin123');
});

afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
  await server.close();
});

function card(status: 1 | 2, time: number, name = '', certificate = ''): DriverIdentity {
  return { msgId: 0x0702, status, time: seconds(time), readResult: status === 1 ? 0 : null, name, certificate, authority: status === 1 ? '杭州市运管局' : '', validUntil: status === 1 ? '2030-01-31' : '', idCard: '' };
}

async function report(t: TestTerminal, alarm: number) {
  server.clock.advance(1000);
  expect((await t.report(location({ lng: 121.5, lat: 31.2, time: seconds(server.clock.now()), speed: 70, alarm }))).result).toBe(0);
  await server.app.alarms.idle();
}

describe('alarms are attributed to the driver signed in by 0x0702', () => {
  it('records the signed-in driver on new alarms, groups a driver across vehicles, and stops after the card is removed', async () => {
    const [a, b] = await server.app.storage.terminals.allVehicles();
    const ta = await TestTerminal.connect(server.gatewayPort, a!.deviceNo);
    const tb = await TestTerminal.connect(server.gatewayPort, b!.deviceNo);
    terminals.push(ta, tb);
    await ta.login();
    await tb.login();
    const start = server.clock.now();

    // Vehicle A: an alarm before anyone signs in stays with the vehicle's unidentified driver.
    await report(ta, 0);
    await report(ta, 1 << 1); // overspeed
    await report(ta, 0);
    expect((await ta.request(card(1, server.clock.now(), '王建国', '330100198001011234'))).result).toBe(0);
    await report(ta, 1 << 2); // driving time (10032) while 王建国 drives A
    // The same driver moves to vehicle B.
    expect((await ta.request(card(2, server.clock.now()))).result).toBe(0);
    expect((await tb.request(card(1, server.clock.now(), '王建国', '330100198001011234'))).result).toBe(0);
    await report(tb, 0);
    await report(tb, 1 << 1);
    // A's card is out: its next new alarm (emergency, bit 0) is unidentified again. (A repeat of the
    // overspeed would merge into the first one inside the 30-minute window, not raise a new alarm.)
    await report(ta, 1 << 0);

    const period = { startTime: start - 60_000, endTime: server.clock.now() + 60_000 };
    const r = await server.call<{ records: DriverRow[] }>('POST', '/service-safe/aggregate/alarm/driver', { token: admin, body: period });
    expect(r.code).toBe(200);
    const wang = r.data.records.find((x) => x.identified);
    expect(wang).toMatchObject({ driverKey: 'c:330100198001011234', driverName: '王建国', driverCert: '330100198001011234', count: 2, vehicles: 2, vehicleId: b!.vehicleId });
    const unidentifiedA = r.data.records.find((x) => x.driverKey === `v:${a!.vehicleId}`);
    expect(unidentifiedA?.count).toBe(2);
    expect(r.data.records.reduce((s, x) => s + x.count, 0)).toBe(4);

    const list = await server.call<{ records: AlarmRow[] }>('POST', '/service-safe/aggregate/alarms', { token: admin, body: { ...period, driverKey: 'c:330100198001011234' } });
    expect(list.data.records.map((x) => [x.alarmType, x.driverName]).sort()).toEqual([[10032, '王建国'], [12001, '王建国']]);
  });
});
