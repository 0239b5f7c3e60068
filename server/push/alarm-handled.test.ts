/**
 * "Alarm handled" on the push channel (issue 13, one workflow, one truth): when an operator handles an
 * alarm (processing list, pop-up) or takes a step on the safety board, every other console whose company
 * scope holds the alarm hears it at once, and no console outside that scope learns of it. The console
 * side (list row, board counts, pop-up queue in a second browser): e2e/safety-board.e2e.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { location, type TestTerminal } from '../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { ScriptedFleet, type SeededVehicle } from '../test/scripted-fleet.ts';
import type { AlarmHandled } from './hub.ts';
import { connectPush, type PushTestClient } from './test-client.ts';

const EMERGENCY = 1 << 0; // 17001, high: opens a safety-board item
const OVERSPEED = 1 << 1; // 12001, medium

let server: LiveTestServer;
let fleet: ScriptedFleet;
let admin: string;
let branch: string;
let url: string;

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 30 });
  fleet = await ScriptedFleet.open(server);
  admin = await server.login('admin', 'admin123');
  branch = await server.login('branch', 'branch123');
  const address = server.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  url = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await fleet.close();
  await server.close();
});

const handledOf = (c: PushTestClient): AlarmHandled[] => c.received.flatMap((m) => (m.kind === 'alarmHandled' ? [m.data] : []));
const alarmOf = (c: PushTestClient, vehicleId: number, alarmType: number): number | undefined =>
  c.received.flatMap((m) => (m.kind === 'alarm' ? [m.data as { id: number; vehicleId: number; alarmType: number }] : []))
    .find((a) => a.vehicleId === vehicleId && a.alarmType === alarmType)?.id;

/** A terminal for the vehicle that reports once clean, then with `alarm` set. */
async function raise(v: SeededVehicle, alarm: number): Promise<TestTerminal> {
  const t = await fleet.terminal(v);
  for (const word of [0, alarm]) {
    server.clock.advance(1000);
    const r = await t.report(location({ lng: 121.5, lat: 31.2, time: Math.floor(server.clock.now() / 1000) * 1000, speed: 70, alarm: word }));
    expect(r.result).toBe(0);
  }
  await server.app.alarms.idle();
  return t;
}

/** Three consoles: the operator who handles, another operator of the whole tree, the east branch's console. */
async function consoles(): Promise<{ a: PushTestClient; b: PushTestClient; east: PushTestClient; close: () => void }> {
  const [a, b, east] = await Promise.all([connectPush(url, admin), connectPush(url, admin), connectPush(url, branch)]);
  await Promise.all([a, b, east].map((c) => c.waitFor(() => c.received.some((m) => m.kind === 'positions'))));
  return { a, b, east, close: () => [a, b, east].forEach((c) => c.close()) };
}

describe('alarm handled push', () => {
  it('a handling from the list reaches every console whose companies hold the alarm, with its ids, state and handler', async () => {
    const { a, b, east, close } = await consoles();
    try {
      const v = fleet.fresh(true);
      await raise(v, OVERSPEED);
      const alarmId = await b.waitFor(() => alarmOf(b, v.vehicleId, 12001));
      const r = await server.call<{ updated: number }>('PUT', '/service-safe/alarmInfo/handle_status', { token: admin, body: { ids: [alarmId], dealType: 1, dealContent: 'called the driver' } });
      expect(r.data.updated).toBe(1);
      const adminUser = await server.app.storage.users.findByUsername('admin');
      for (const c of [a, b, east]) {
        const h = await c.waitFor(() => handledOf(c).find((x) => x.alarmIds.includes(alarmId)));
        expect(h).toMatchObject({ alarmIds: [alarmId], dealStatus: 2, boardItemId: null, userId: adminUser!.id });
      }
      const headers = b.received.find((m) => m.kind === 'alarmHandled')!.headers;
      expect(headers).toEqual({ commandType: 'alarmHandled', mutation: 'HANDLE_ALARMS', state: 'alarm' });
    } finally {
      close();
    }
  });

  it('does not leak another company’s handling: the east console hears nothing of an alarm outside its branch', async () => {
    const { b, east, close } = await consoles();
    try {
      const v = fleet.fresh(false);
      await raise(v, OVERSPEED);
      const alarmId = await b.waitFor(() => alarmOf(b, v.vehicleId, 12001));
      // Marking it invalid is a handling too (the confirm / invalid calls and the batch all publish).
      const r = await server.call('GET', `/service-command/command/invalidAlarmAndReplyDevice?alarmId=${alarmId}`, { token: admin });
      expect(r.code).toBe(200);
      await b.waitFor(() => handledOf(b).find((x) => x.alarmIds.includes(alarmId) && x.dealStatus === 3));
      await new Promise((resolve) => setTimeout(resolve, 300)); // a leak would have arrived by now
      // The leak this guards against: a branch console told the ids (and so the existence) of alarms of companies it may not see.
      expect(handledOf(east).filter((x) => x.alarmIds.includes(alarmId))).toEqual([]);
      expect(handledOf(east)).toEqual([]);
    } finally {
      close();
    }
  });

  it('a safety-board resolve tells the consoles in scope which item changed and which alarms it handled', async () => {
    const { b, east, close } = await consoles();
    try {
      const v = fleet.fresh(false);
      await raise(v, EMERGENCY);
      const alarmId = await b.waitFor(() => alarmOf(b, v.vehicleId, 17001));
      const page = await server.call<{ records: { id: number }[] }>('GET', `/service-safe/saftyBoard/get?current=1&size=10&vehicleIds=${v.vehicleId}`, { token: admin });
      const itemId = page.data.records[0]!.id;
      const r = await server.call('GET', `/service-safe/saftyBoard/resolved?id=${itemId}&note=ok`, { token: admin });
      expect(r.code).toBe(200);
      const h = await b.waitFor(() => handledOf(b).find((x) => x.boardItemId === itemId));
      expect(h).toMatchObject({ boardItemId: itemId, alarmIds: [alarmId], dealStatus: 2 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(handledOf(east)).toEqual([]);
    } finally {
      close();
    }
  });

  it('a board step that handles no alarm (follow) still tells the consoles the item changed', async () => {
    const { b, east, close } = await consoles();
    try {
      const v = fleet.fresh(true);
      await raise(v, EMERGENCY);
      const page = await server.call<{ records: { id: number }[] }>('GET', `/service-safe/saftyBoard/get?current=1&size=10&vehicleIds=${v.vehicleId}`, { token: admin });
      const itemId = page.data.records[0]!.id;
      const r = await server.call('GET', `/service-safe/saftyBoard/follow?id=${itemId}&note=watching&nextFollowTime=${server.clock.now() + 3_600_000}`, { token: admin });
      expect(r.code).toBe(200);
      for (const c of [b, east]) expect(await c.waitFor(() => handledOf(c).find((x) => x.boardItemId === itemId))).toMatchObject({ alarmIds: [], dealStatus: null });
    } finally {
      close();
    }
  });
});
