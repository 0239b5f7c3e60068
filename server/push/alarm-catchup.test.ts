/**
 * Alarm catch-up across a reconnect (issue 12 §5): a console whose socket drops during an alarm burst
 * gets back every alarm raised while it was away, none twice, only those of its own companies, and a
 * marked gap when it missed more than the replay holds. The console's own stream worker against a real
 * server: e2e/alarm-catchup.e2e.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import { ALARM_FLAGS } from '../../domain/alarms/sources.ts';
import type { LocationReport } from '../gateway/jt808/index.ts';
import { ALL_COMPANIES, type Scope } from '../db/scope.ts';
import { seededSignIns, startServer, type TestServer } from '../test/harness.ts';
import { ALARM_REPLAY_MAX, PushHub, type AlarmMessage, type AlarmReplay, type AlarmReplaySource, type PushStore } from './hub.ts';
import { connectPush, type PushTestClient } from './test-client.ts';

const alarmIds = (c: PushTestClient): number[] =>
  c.received.flatMap((m) => (m.kind === 'alarm' ? [(m.data as { id: number }).id] : m.kind === 'alarmReplay' ? m.data.alarms.map((a) => a.id as number) : []));
const replayOf = (c: PushTestClient) => c.received.find((m) => m.kind === 'alarmReplay')?.data;

/** State bits (one alarm per rise, held while set): a vehicle raising them one by one raises one alarm per report. */
const STATE_BITS = ALARM_FLAGS.filter((f) => f.kind === 'state' && f.editions.includes(2013)).map((f) => f.bit);

describe('alarm catch-up on a real server', () => {
  let server: TestServer;
  let admin: string;
  let branch: string;
  let branchPath: string;

  beforeAll(async () => {
    server = await startServer();
    ({ admin, branch, branchPath } = await seededSignIns(server));
  });
  afterAll(async () => server.close());

  /** Everything the gateway would hand the alarm service for one report. */
  function report(vehicleId: number, alarm: number): void {
    const loc = { msgId: 0x0200, alarm, status: 0x3, lat: 31.2, lng: 121.4, altitude: 10, speed: 30, direction: 0, time: Math.floor(Date.now() / 1000) * 1000, adas: undefined, dms: undefined };
    server.app.alarms.onReport(vehicleId, loc as unknown as LocationReport, 2013);
  }

  /** Raises `rounds` alarms on each vehicle (the next state bit per round), one round per macrotask, like reports arriving from sockets. */
  async function burst(vehicleIds: readonly number[], fromRound: number, rounds: number, onRound?: (round: number) => void | Promise<void>): Promise<void> {
    for (let r = fromRound; r < fromRound + rounds; r++) {
      let word = 0;
      for (let b = 0; b <= r; b++) word |= 1 << STATE_BITS[b]!;
      for (const id of vehicleIds) report(id, word >>> 0);
      await onRound?.(r);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await server.app.alarms.idle();
  }

  const storedIdsAfter = async (scope: Scope, after: number) => (await server.app.storage.alarms.since(scope, after, 100_000, 1)).records.map((a) => a.id);

  it('gives back every alarm raised while the socket was down, none twice, when the socket drops mid-burst', async () => {
    const vehicles = (await server.app.storage.terminals.allVehicles()).slice(0, 20).map((v) => v.vehicleId);
    const first = await connectPush(server.url, admin);
    const cursor = (await first.waitFor(() => replayOf(first))).lastId;

    let second: PushTestClient | undefined;
    let highest = -1;
    // 12 rounds × 20 vehicles = 240 alarms. The socket is cut (no close handshake: what a dropped network
    // does) after round 3; the console comes back after round 6 while the burst goes on, so the
    // catch-up read races live publishes.
    await burst(vehicles, 0, 12, async (round) => {
      if (round === 3) {
        await server.app.alarms.idle();
        await first.waitFor(() => alarmIds(first).length > 0);
        first.ws.terminate();
        highest = Math.max(...alarmIds(first));
      }
      if (round === 6) second = await connectPush(server.url, admin, { alarmsAfter: String(highest) });
    });
    const expected = await storedIdsAfter(ALL_COMPANIES, cursor);
    expect(expected.length).toBeGreaterThanOrEqual(240);
    const c = second!;
    try {
      await c.waitFor(() => alarmIds(first).length + alarmIds(c).length >= expected.length);
      await new Promise((resolve) => setTimeout(resolve, 200)); // anything sent twice would arrive by now
      const before = alarmIds(first);
      const after = alarmIds(c);
      expect(before.every((id) => id <= highest)).toBe(true);
      const all = [...before, ...after];
      expect(new Set(all).size).toBe(all.length); // no duplicate
      expect([...all].sort((a, b) => a - b)).toEqual(expected); // no hole
      const replay = replayOf(c)!;
      expect(replay).toMatchObject({ after: highest, missed: 0, missedCapped: false });
      expect(replay.alarms.length).toBeGreaterThan(0); // rounds 4–6 were raised while it was away
      // A replayed alarm is the same message a live one is, linkage included.
      expect(replay.alarms[0]).toMatchObject({ id: expect.any(Number), alarmType: expect.any(Number), vehiidno: expect.any(String), popup: expect.any(Boolean), voice: expect.any(Boolean) });
    } finally {
      c.close();
    }
  });

  it('replays only the alarms of the console\'s own companies (attack: catching up on another company\'s alarms)', async () => {
    const all = (await server.app.storage.terminals.allVehicles()).slice(20); // vehicles the first test left quiet
    const store = server.app.live.store;
    const inBranch = (id: number) => store.companyPathOf(store.slotOf(id)).startsWith(branchPath);
    const mixed = [...all.filter((v) => inBranch(v.vehicleId)).slice(0, 3), ...all.filter((v) => !inBranch(v.vehicleId)).slice(0, 3)].map((v) => v.vehicleId);
    const cursor = (await server.app.storage.alarms.since(ALL_COMPANIES, undefined, 0, 1)).lastId;
    await burst(mixed, 0, 4);
    const c = await connectPush(server.url, branch, { alarmsAfter: String(cursor), format: 'json' });
    try {
      const replay = await c.waitFor(() => replayOf(c));
      const ids = replay.alarms.map((a) => a.id as number);
      expect(ids.length).toBeGreaterThan(0);
      const branchScope = (await server.app.storage.companies.listAll(ALL_COMPANIES)).find((x) => x.path === branchPath)!;
      expect(ids).toEqual(await storedIdsAfter({ all: false, rootId: branchScope.id, rootPath: branchPath }, cursor));
      expect(replay.alarms.every((a) => inBranch(a.vehicleId as number))).toBe(true);
      expect((await storedIdsAfter(ALL_COMPANIES, cursor)).length).toBeGreaterThan(ids.length);
    } finally {
      c.close();
    }
  });

  it('sends the newest 500 and marks the gap when more were missed', async () => {
    const cursor = (await server.app.storage.alarms.since(ALL_COMPANIES, undefined, 0, 1)).lastId;
    const [v] = await server.app.storage.terminals.allVehicles();
    const now = Date.now();
    await server.app.storage.transaction(async (tx) => {
      for (let i = 0; i < ALARM_REPLAY_MAX + 37; i++) {
        await tx.alarms.insert({
          vehicleId: v!.vehicleId, deviceNo: v!.deviceNo, companyId: v!.companyId, alarmType: 12001, source: 'bit', startTime: now + i, lng: 121, lat: 31,
          speed: 0, riskLevel: 'low', dealStatus: 0, createTime: now + i,
        } as Parameters<typeof tx.alarms.insert>[0]);
      }
    });
    const c = await connectPush(server.url, admin, { alarmsAfter: String(cursor) });
    try {
      const replay = await c.waitFor(() => replayOf(c));
      const stored = await storedIdsAfter(ALL_COMPANIES, cursor);
      expect(replay.alarms.map((a) => a.id)).toEqual(stored.slice(-ALARM_REPLAY_MAX));
      expect(replay).toMatchObject({ missed: stored.length - ALARM_REPLAY_MAX, missedCapped: false, lastId: stored.at(-1) });
    } finally {
      c.close();
    }
  });

  it('refuses a malformed cursor with 400 instead of replaying everything', async () => {
    await expect(connectPush(server.url, admin, { alarmsAfter: '-1' })).rejects.toMatchObject({ status: 400 });
    await expect(connectPush(server.url, admin, { alarmsAfter: 'x' })).rejects.toMatchObject({ status: 400 });
  });
});

/** A websocket stand-in: records what the hub sends. */
class FakeSocket extends EventEmitter {
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: string[] = [];
  send(data: string | Uint8Array): void {
    if (typeof data === 'string') this.sent.push(data);
  }
  close(): void {
    this.readyState = 3;
    this.emit('close');
  }
}

const emptyStore: PushStore = {
  count: 0,
  columns: {
    vehicleId: new Int32Array(0), companyId: new Int32Array(0), lng: new Float64Array(0), lat: new Float64Array(0), speed: new Float32Array(0),
    heading: new Uint16Array(0), statusFlags: new Uint32Array(0), alarmFlags: new Uint32Array(0), gpsTime: new Float64Array(0), lastContact: new Float64Array(0),
  },
  companyPathOf: () => '/1/',
  onChange: () => () => undefined,
  clock: () => Date.now(),
};

describe('the hub during a catch-up read', () => {
  it('holds live alarms published while the store is read and sends each alarm once, in id order', async () => {
    // The store holds 1..5 when read; 4 and 5 were committed but their live publish comes after the read
    // started (the alarm service commits, then publishes); 6 and 7 are committed after the read.
    let release!: () => void;
    const source: AlarmReplaySource = {
      since: async (_scope, after): Promise<AlarmReplay> => {
        await new Promise<void>((resolve) => (release = resolve));
        return { after: after ?? null, lastId: 5, alarms: [3, 4, 5].map((id) => ({ id })), missed: 0, missedCapped: false };
      },
    };
    const hub = new PushHub(emptyStore, { inScope: async () => [], byIds: async () => [] }, {}, source);
    const ws = new FakeSocket();
    const connected = hub.connect(ws as unknown as Parameters<PushHub['connect']>[0], ALL_COMPANIES, true, 2);
    for (const id of [4, 5, 6]) hub.publishAlarm('/1/', { id });
    release();
    await connected;
    hub.publishAlarm('/1/', { id: 5 } as AlarmMessage); // a late duplicate publish is skipped too
    hub.publishAlarm('/1/', { id: 7 });
    const got = ws.sent.map((t) => JSON.parse(t) as { commandType: string; commandBody: { data: { id?: number; alarms?: { id: number }[] } } })
      .flatMap((m) => (m.commandType === 'alarmReplay' ? m.commandBody.data.alarms!.map((a) => a.id) : m.commandType === 'alarm' ? [m.commandBody.data.id!] : []));
    expect(got).toEqual([3, 4, 5, 6, 7]);
    expect(hub.stats.alarmsDeduplicated).toBe(3);
    hub.close();
  });

  it('on a first connect (no cursor) skips nothing published during the read', async () => {
    const source: AlarmReplaySource = { since: async (_scope, after) => ({ after: after ?? null, lastId: 9, alarms: [], missed: 0, missedCapped: false }) };
    const hub = new PushHub(emptyStore, { inScope: async () => [], byIds: async () => [] }, {}, source);
    const ws = new FakeSocket();
    const connected = hub.connect(ws as unknown as Parameters<PushHub['connect']>[0], ALL_COMPANIES, true);
    hub.publishAlarm('/1/', { id: 8 });
    await connected;
    const kinds = ws.sent.map((t) => (JSON.parse(t) as { commandType: string }).commandType);
    expect(kinds.slice(0, 2)).toEqual(['alarmReplay', 'alarm']);
    hub.close();
  });
});
