import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';
import { simHasFaceCamera } from '../../sim/face.ts';
import { readProvisionedTerminals, startSimulator, type RunningSimulator } from '../../sim/index.ts';
import { until } from '../../test/sim-fleet.ts';

let server: LiveTestServer;
let sim: RunningSimulator;
let admin: string;
let faceTerminals: { deviceNo: string }[];

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 40 });
  admin = await server.login('admin', 'admin123');
  faceTerminals = readProvisionedTerminals(server.config.dataDir, 40).filter((t) => simHasFaceCamera(t.deviceNo)).slice(0, 2);
  sim = startSimulator({ port: server.gatewayPort, terminals: faceTerminals as never, seed: 3, rates: { neverOnlineShare: 0, offlinePerDay: 0, blindPerDrivingDay: 0 } });
});

afterAll(async () => {
  await sim?.stop();
  await server?.close();
});

describe('simulated face cameras against the platform (issue 19)', () => {
  it('report a comparison at shift start for their seeded driver, and answer a sample push', async () => {
    expect(faceTerminals.length).toBe(2);
    const db = (server.app.storage as unknown as SqliteStorage).db;
    const vehicleOf = (deviceNo: string) => (db.prepare('SELECT id FROM vehicle WHERE device_no = ?').get(deviceNo) as { id: number }).id;
    const ids = faceTerminals.map((t) => vehicleOf(t.deviceNo));
    await until(() => (db.prepare(`SELECT COUNT(DISTINCT vehicle_id) AS n FROM face_recognition WHERE vehicle_id IN (${ids.join(',')})`).get() as { n: number }).n === 2, 30_000);
    const list = await server.call<{ records: { vehicleId: number; driverId: number | null; result: string }[] }>('GET', '/service-priv/facerecognition/result?current=1&size=20', { token: admin });
    for (const id of ids) expect(list.data.records.find((r) => r.vehicleId === id)?.driverId).not.toBeNull();
    // The seed recorded these terminals as holding their driver's face: the device list says so.
    const devices = await server.call<{ records: { vehicleId: number; bound: number; synced: number }[] }>('GET', '/service-priv/facerecognition/device?current=1&size=100&filter=bound', { token: admin });
    for (const id of ids) expect(devices.data.records.find((d) => d.vehicleId === id)).toMatchObject({ bound: 1, synced: 1 });
    // A push reaches the simulated terminal, which answers 0x0E11 with the faces it now holds.
    const push = await server.call<{ devices: { state: string; held: string[] }[] }>('POST', '/service-priv/facerecognition/device/addSample', { token: admin, body: { vehicleIds: [ids[0]] } });
    expect(push.data.devices[0]).toMatchObject({ state: 'ok' });
    expect(push.data.devices[0]!.held).toHaveLength(1);
  });
});
