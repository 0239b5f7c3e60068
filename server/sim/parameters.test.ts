import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARAM, PARAM_MSG } from '../gateway/jt808/index.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { startSimulator, type RunningSimulator } from './simulator.ts';

/** A simulated terminal answers the parameter family like a real one, through the real gateway. */
describe('simulated terminal parameters', () => {
  let server: LiveTestServer;
  let sim: RunningSimulator;
  let vehicleId: number;

  beforeAll(async () => {
    server = await startLiveServer({ seedVehicles: 1 });
    const [v] = await server.app.storage.terminals.allVehicles();
    vehicleId = v!.vehicleId;
    // Rare reports and a 30 s heartbeat: within a few seconds the terminal sends no heartbeat unless told to.
    sim = startSimulator({
      port: server.gatewayPort, terminals: [{ deviceNo: v!.deviceNo }], seed: 4, tickMs: 10, rateHz: 0.01, parkedIntervalS: 300, heartbeatS: 30,
      rates: { neverOnlineShare: 0, offlinePerDay: 0, blindPerDrivingDay: 0 },
    });
    const deadline = Date.now() + 15_000;
    while (!server.app.live.gateway.isReachable(vehicleId)) {
      if (Date.now() > deadline) throw new Error('simulated terminal did not authenticate');
      await new Promise((r) => setTimeout(r, 25));
    }
  });
  afterAll(async () => {
    await sim.stop();
    await server.close();
  });

  it('reports its factory parameters on 0x8104, stores 0x8103 and reads it back on 0x8106; unknown ids are left out', async () => {
    const gateway = server.app.live.gateway;
    const all = await gateway.request(vehicleId, { msgId: PARAM_MSG.QUERY_ALL }, PARAM_MSG.ANSWER, 5000);
    if (all.kind !== 'answer' || all.message.msgId !== 0x0104) throw new Error(`no 0x0104: ${all.kind}`);
    expect(all.message.params).toContainEqual({ id: PARAM.heartbeatInterval.id, value: 30 });
    expect(all.message.params.find((p) => p.id === PARAM.plate.id)?.value).toEqual(expect.any(String));

    const set = await gateway.sendCommand(vehicleId, { msgId: 0x8103, params: [{ id: PARAM.maxSpeed.id, value: 88 }, { id: PARAM.mainServerApn.id, value: '专网APN' }] }, 5000);
    expect(set).toEqual({ kind: 'reply', result: 0 });
    const chosen = await gateway.request(vehicleId, { msgId: PARAM_MSG.QUERY_CHOSEN, ids: [PARAM.maxSpeed.id, PARAM.mainServerApn.id, 0xf0f0] }, PARAM_MSG.ANSWER, 5000);
    expect(chosen).toMatchObject({ kind: 'answer', message: { msgId: 0x0104, params: [{ id: 0x0055, value: 88 }, { id: 0x0010, value: '专网APN' }] } });
  });

  it('answers 0x8107 with its attributes, 0x8201 with its position, acknowledges 0x8202 and 0x8105', async () => {
    const gateway = server.app.live.gateway;
    const attrs = await gateway.request(vehicleId, { msgId: PARAM_MSG.QUERY_ATTRIBUTES }, PARAM_MSG.ATTRIBUTES, 5000);
    expect(attrs).toMatchObject({ kind: 'answer', message: { msgId: 0x0107, firmwareVersion: 'SIM-808-1.0', iccid: expect.stringMatching(/^\d{20}$/) } });
    const pos = await gateway.request(vehicleId, { msgId: PARAM_MSG.POSITION_QUERY }, PARAM_MSG.POSITION_ANSWER, 5000);
    if (pos.kind !== 'answer' || pos.message.msgId !== 0x0201) throw new Error(`no 0x0201: ${pos.kind}`);
    expect(pos.message.location.lat).toBeGreaterThan(15);
    expect(await gateway.sendCommand(vehicleId, { msgId: PARAM_MSG.TEMPORARY_TRACKING, interval: 0, validity: 0 }, 5000)).toEqual({ kind: 'reply', result: 0 });
    expect(await gateway.sendCommand(vehicleId, { msgId: PARAM_MSG.CONTROL, command: 9, args: '' }, 5000)).toEqual({ kind: 'reply', result: 3 });
  });

  it('follows a changed heartbeat interval (0x0001): 30 s → 1 s means a heartbeat every second', async () => {
    const gateway = server.app.live.gateway;
    const before = sim.stats.heartbeatsSent;
    await new Promise((r) => setTimeout(r, 2500));
    expect(sim.stats.heartbeatsSent - before).toBe(0);
    expect(await gateway.sendCommand(vehicleId, { msgId: 0x8103, params: [{ id: PARAM.heartbeatInterval.id, value: 1 }] }, 5000)).toEqual({ kind: 'reply', result: 0 });
    const from = sim.stats.heartbeatsSent;
    await new Promise((r) => setTimeout(r, 3500));
    expect(sim.stats.heartbeatsSent - from).toBeGreaterThanOrEqual(2);
    const back = await gateway.request(vehicleId, { msgId: PARAM_MSG.QUERY_CHOSEN, ids: [PARAM.heartbeatInterval.id] }, PARAM_MSG.ANSWER, 5000);
    expect(back).toMatchObject({ kind: 'answer', message: { params: [{ id: 1, value: 1 }] } });
  });
});
