/**
 * The demo devices (server/seed/devices-extra.ts): the installed ones are the simulator's terminals,
 * shown with its model, the edition each speaks and the seeded device type of that edition.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness.ts';
import { simulatedEdition } from './devices-extra.ts';

interface Device { deviceNo: string; model: string; protocol: number; deviceTypeId: number | null; deviceTypeName: string | null; plate: string | null; source: string }
interface DeviceType { id: number; devTypeName: string; model: string; protocol: number }
interface Page<T> { records: T[]; total: number }

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin', 'admin123');
});
afterAll(() => server.close());

describe('seeded devices', () => {
  it('installed devices carry the simulator model, the edition it speaks and the device type of that edition', async () => {
    const types = (await server.call<Page<DeviceType>>('GET', '/service-priv/devtype/search?current=1&size=50', { token: admin })).data.records;
    const simType = (protocol: number) => types.find((t) => t.model === 'FLEETSIM-808' && t.protocol === protocol);
    expect(simType(2013)).toBeDefined();
    expect(simType(2019)).toBeDefined();
    const devices = (await server.call<Page<Device>>('GET', '/service-priv/device?current=1&size=100&bound=true', { token: admin })).data.records;
    expect(devices.length).toBeGreaterThan(10);
    for (const d of devices) {
      expect({ no: d.deviceNo, model: d.model, protocol: d.protocol, type: d.deviceTypeId })
        .toEqual({ no: d.deviceNo, model: 'FLEETSIM-808', protocol: simulatedEdition(d.deviceNo), type: simType(simulatedEdition(d.deviceNo))!.id });
      expect(d.deviceTypeName).toBe(simType(d.protocol)!.devTypeName);
    }
    // Both editions occur (a quarter of the simulator's terminals speak 2019).
    expect(new Set(devices.map((d) => d.protocol))).toEqual(new Set([2013, 2019]));
    // Stock devices are typed too; auto-registered ones stay untyped until an operator assigns them.
    const all = (await server.call<Page<Device>>('GET', '/service-priv/device?current=1&size=100&bound=false', { token: admin })).data.records;
    expect(all.filter((d) => d.source === 'operator').every((d) => d.deviceTypeId !== null)).toBe(true);
    expect(all.filter((d) => d.source === 'auto').every((d) => d.deviceTypeId === null)).toBe(true);
  });
});
