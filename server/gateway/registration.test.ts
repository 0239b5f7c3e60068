/**
 * Re-registration hijack (issue 12 §2): anyone who knows a SIM number could send 0x0100 again and get
 * a fresh auth code, locking the real terminal out. A registered terminal is refused with result 3
 * until it unregisters (0x0003) or an operator resets it; the refusal is logged and visible.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { readProvisionedTerminals } from '../sim/fleet-source.ts';
import { startSimulator } from '../sim/simulator.ts';
import { MSG, REGISTER_RESULT, RESULT } from './jt808/index.ts';
import type { RegistrationView } from './registration-routes.ts';
import { Jt808Gateway } from './server.ts';
import { location, TestTerminal } from './terminal-client.ts';

const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;

let server: LiveTestServer;
let admin: string;
let vehicles: { vehicleId: number; deviceNo: string }[];
let next = 0;
const opened: TestTerminal[] = [];

async function connect(deviceNo: string, port = server.gatewayPort): Promise<TestTerminal> {
  const t = await TestTerminal.connect(port, deviceNo);
  opened.push(t);
  return t;
}

async function registration(vehicleId: number, token = admin) {
  return server.call<RegistrationView>('GET', `/service-priv/device/registration?vehicleId=${vehicleId}`, { token });
}

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 20 });
  admin = await server.login('admin', 'admin123');
  vehicles = (await server.app.storage.terminals.allVehicles()).map((v) => ({ vehicleId: v.vehicleId, deviceNo: v.deviceNo }));
});
afterAll(async () => {
  await Promise.all(opened.map((t) => t.close()));
  await server.close();
});

describe('re-registration of a registered terminal', () => {
  it('is refused with result 3 and no code for a second connection; the real terminal keeps working; the refusal is visible through the call', async () => {
    const v = vehicles[next++]!;
    const real = await connect(v.deviceNo);
    const reg = await real.register();
    expect(reg.result).toBe(REGISTER_RESULT.OK);
    expect((await real.authenticate(reg.authCode)).result).toBe(RESULT.OK);

    const hijacker = await connect(v.deviceNo);
    const refused = await hijacker.register();
    expect(refused).toMatchObject({ result: REGISTER_RESULT.TERMINAL_TAKEN, authCode: '' });
    expect((await hijacker.authenticate('')).result).toBe(RESULT.FAIL);
    expect((await hijacker.report(location({ lng: 100, lat: 20, time: seconds(server.clock.now()) }))).result).toBe(RESULT.FAIL);

    // The real terminal is still authenticated, and its code still works on a new connection.
    expect((await real.report(location({ lng: 121, lat: 31, time: seconds(server.clock.now()) }))).result).toBe(RESULT.OK);
    const again = await connect(v.deviceNo);
    expect((await again.authenticate(reg.authCode)).result).toBe(RESULT.OK);

    const r = await registration(v.vehicleId);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ vehicleId: v.vehicleId, deviceNo: v.deviceNo, registered: true, refusedCount: 1, online: true, unregisterBy: null });
    expect(r.data.refusedAddress).toMatch(/127\.0\.0\.1$/);
    expect(r.data.refusedTime).toBe(server.clock.now());
    expect(server.app.live.gateway.stats.reregisterRefused).toBeGreaterThanOrEqual(1);
  });

  it('works again after the terminal unregisters with 0x0003: its old code is void and the next 0x0100 gets a new one', async () => {
    const v = vehicles[next++]!;
    const real = await connect(v.deviceNo);
    const first = await real.register();
    expect((await real.authenticate(first.authCode)).result).toBe(RESULT.OK);
    expect((await real.unregister()).result).toBe(RESULT.OK);
    // Unregistered: the connection no longer acts as the terminal.
    expect((await real.request({ msgId: MSG.HEARTBEAT })).result).toBe(RESULT.FAIL);
    expect((await registration(v.vehicleId)).data).toMatchObject({ registered: false, unregisterBy: 'terminal' });

    const replacement = await connect(v.deviceNo);
    const second = await replacement.register();
    expect(second.result).toBe(REGISTER_RESULT.OK);
    expect(second.authCode).not.toBe(first.authCode);
    expect((await (await connect(v.deviceNo)).authenticate(first.authCode)).result).toBe(RESULT.FAIL);
    expect((await replacement.authenticate(second.authCode)).result).toBe(RESULT.OK);
    expect((await registration(v.vehicleId)).data).toMatchObject({ registered: true, unregisterBy: null });
  });

  it('works again after an operator with device management resets it from the console; its authenticated connection is closed', async () => {
    const v = vehicles[next++]!;
    const real = await connect(v.deviceNo);
    await real.login();
    const other = await connect(v.deviceNo);
    expect((await other.register()).result).toBe(REGISTER_RESULT.TERMINAL_TAKEN);

    // A monitor-only operator sees the state but may not reset it.
    const operator = await server.login('operator', 'operator123');
    expect((await registration(v.vehicleId, operator)).data).toMatchObject({ registered: true, refusedCount: 1 });
    const denied = await server.call('POST', '/service-priv/device/resetRegistration', { token: operator, body: { vehicleId: v.vehicleId } });
    expect(denied.status).toBe(403);
    expect((await registration(v.vehicleId)).data.registered).toBe(true);

    const reset = await server.call<RegistrationView>('POST', '/service-priv/device/resetRegistration', { token: admin, body: { vehicleId: v.vehicleId } });
    expect(reset.status).toBe(200);
    expect(reset.data).toMatchObject({ registered: false, unregisterBy: 'operator', online: false });
    expect(reset.data.resetUserId).toBeGreaterThan(0);
    await real.closed; // the terminal reconnects, fails 0x0102 and registers afresh
    expect(server.app.live.gateway.isReachable(v.vehicleId)).toBe(false);

    const after = await connect(v.deviceNo);
    const reg = await after.register();
    expect(reg.result).toBe(REGISTER_RESULT.OK);
    expect((await after.authenticate(reg.authCode)).result).toBe(RESULT.OK);
  });

  it('answers 404 in the caller\'s language for a vehicle that does not exist, and 400 for a bad id, writing nothing', async () => {
    const missing = await server.call('GET', '/service-priv/device/registration?vehicleId=999999', { token: admin, lang: 'en' });
    expect(missing).toMatchObject({ status: 404, msg: 'The vehicle does not exist or is outside your scope' });
    const zh = await server.call('POST', '/service-priv/device/resetRegistration', { token: admin, body: { vehicleId: 999999 } });
    expect(zh).toMatchObject({ status: 404, msg: '车辆不存在或不在您的管辖范围内' });
    for (const vehicleId of [0, -1, 1.5, '1', 1e20]) {
      const bad = await server.call('POST', '/service-priv/device/resetRegistration', { token: admin, body: { vehicleId } });
      expect(bad.status).toBe(400);
    }
  });

  it('logs each refusal as a warning with the number and the remote address', async () => {
    const warn = vi.fn();
    const gateway = new Jt808Gateway(
      { store: server.app.live.store, history: server.app.live.history, terminals: server.app.storage.terminals, log: { warn } },
      { idleMs: 60_000, autoRegister: false },
    );
    await gateway.init();
    const port = await gateway.listen(0, '127.0.0.1');
    try {
      const v = vehicles[next++]!;
      await (await connect(v.deviceNo, port)).login();
      expect(warn).not.toHaveBeenCalled();
      expect((await (await connect(v.deviceNo, port)).register()).result).toBe(REGISTER_RESULT.TERMINAL_TAKEN);
      expect(warn).toHaveBeenCalledTimes(1);
      const [fields, text] = warn.mock.calls[0]!;
      expect(fields).toMatchObject({ deviceNo: v.deviceNo, vehicleId: v.vehicleId, remoteAddress: expect.stringMatching(/127\.0\.0\.1$/) });
      expect(text).toMatch(/result 3/);
    } finally {
      await gateway.stop();
    }
  });

  it('warns at start while autoRegister is on', async () => {
    const warn = vi.fn();
    const deps = { store: server.app.live.store, history: server.app.live.history, terminals: server.app.storage.terminals, log: { warn } };
    await new Jt808Gateway(deps, { idleMs: 1000, autoRegister: false }).init();
    expect(warn).not.toHaveBeenCalled();
    await new Jt808Gateway(deps, { idleMs: 1000, autoRegister: true }).init();
    expect(warn).toHaveBeenCalledWith(expect.anything(), expect.stringMatching(/autoRegister is on/));
  });
});

describe('a simulated fleet restarted against the same database', () => {
  it('authenticates with the codes it registered with, never re-registering (so never refused)', async () => {
    const specs = readProvisionedTerminals(server.config.dataDir, 3, 15);
    expect(specs.every((s) => s.authCode === null)).toBe(true);
    const run = async () => {
      const t0 = Date.now();
      const sim = startSimulator({
        port: server.gatewayPort, terminals: readProvisionedTerminals(server.config.dataDir, 3, 15), tickMs: 20,
        clock: () => t0 + (Date.now() - t0) * 20, // the first report is due 5 simulated seconds after start
        rates: { neverOnlineShare: 0, offlinePerDay: 0, blindPerDrivingDay: 0 },
      });
      const deadline = Date.now() + 10_000;
      while (sim.stats.authenticated < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const stats = { ...sim.stats };
      await sim.stop();
      return stats;
    };
    const refusedBefore = server.app.live.gateway.stats.reregisterRefused;
    const first = await run();
    expect(first).toMatchObject({ registrations: 3, authenticated: 3 });
    expect(readProvisionedTerminals(server.config.dataDir, 3, 15).every((s) => typeof s.authCode === 'string')).toBe(true);
    const second = await run();
    expect(second).toMatchObject({ registrations: 0, authentications: 3, registerFailures: 0 });
    expect(server.app.live.gateway.stats.reregisterRefused).toBe(refusedBefore);
  });
});
