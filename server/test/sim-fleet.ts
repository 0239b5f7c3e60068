/**
 * Video integration tests: a live server with three provisioned terminals run by the simulator (none
 * goes offline or into a blind area), signed in as admin, and a wait-for-condition helper.
 */
import { expect } from 'vitest';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { readProvisionedTerminals, startSimulator, type RunningSimulator } from '../sim/index.ts';

/** Waits until `cond` holds (polling every `everyMs`), then asserts it: a timeout fails the test. */
export async function until(cond: () => boolean | Promise<boolean>, ms = 15_000, everyMs = 20): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond()) && Date.now() < end) await new Promise((r) => setTimeout(r, everyMs));
  expect(await cond()).toBe(true);
}

export interface SimFleet {
  readonly server: LiveTestServer;
  readonly sim: RunningSimulator;
  readonly adminToken: string;
  /** Vehicles whose simulated terminals are connected, with their device numbers. */
  readonly online: readonly { vehicleId: number; deviceNo: string }[];
  /** A vehicle without a simulated terminal. */
  readonly offlineVehicle: number;
  close(): Promise<void>;
}

/** Starts the server with `seedVehicles`, simulates three of its terminals (`seed` draws them) and waits until they are reachable. */
export async function startSimFleet(seedVehicles: number, seed: number): Promise<SimFleet> {
  const server = await startLiveServer({ seedVehicles });
  const terminals = readProvisionedTerminals(server.config.dataDir, 3);
  const sim = startSimulator({ port: server.gatewayPort, terminals, seed, rates: { neverOnlineShare: 0, offlinePerDay: 0, blindPerDrivingDay: 0 } });
  const close = async () => {
    await sim.stop();
    await server.close();
  };
  try {
    const adminToken = await server.login('admin', 'admin123');
    const all = await server.app.storage.terminals.allVehicles();
    const simulated = new Set(terminals.map((t) => t.deviceNo));
    const online = all.filter((v) => simulated.has(v.deviceNo)).map((v) => ({ vehicleId: v.vehicleId, deviceNo: v.deviceNo }));
    const offlineVehicle = all.find((v) => !simulated.has(v.deviceNo))!.vehicleId;
    await until(() => online.every((v) => server.app.live.gateway.isReachable(v.vehicleId)));
    return { server, sim, adminToken, online, offlineVehicle, close };
  } catch (err) {
    await close();
    throw err;
  }
}
