import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededSignIns, startServer, type TestServer } from '../test/harness.ts';
import { DEFAULT_PUSH_OPTIONS, PushClose } from './hub.ts';
import { connectPush, type PushTestClient, type Received, type VehicleRecord } from './test-client.ts';

let server: TestServer;
let admin: string;
let branch: string;
let branchPath: string;

beforeAll(async () => {
  server = await startServer();
  ({ admin, branch, branchPath } = await seededSignIns(server));
});
afterAll(async () => server.close());

const store = () => server.app.live.store;
const positionsOf = (c: PushTestClient) => c.received.filter((m): m is Extract<Received, { kind: 'positions' }> => m.kind === 'positions');
const snapshots = (c: PushTestClient) => positionsOf(c).filter((m) => m.mutation === 'REPLACE_POSITIONS');
const deltas = (c: PushTestClient) => positionsOf(c).filter((m) => m.mutation === 'MERGE_POSITIONS');
const alarms = (c: PushTestClient) => c.received.filter((m) => m.kind === 'alarm');

/** A vehicle id inside (or outside) the branch user's subtree. */
function vehicleWhere(inBranch: boolean, skip = 0): number {
  const s = store();
  let seen = 0;
  for (let slot = 0; slot < s.count; slot++) {
    if (s.companyPathOf(slot).startsWith(branchPath) === inBranch && seen++ === skip) return s.columns.vehicleId[slot]!;
  }
  throw new Error('no such vehicle in the seed');
}

let gpsClock = Date.now() - 60_000;
function report(vehicleId: number, lng: number, lat: number, speed = 42): void {
  gpsClock += 1000;
  const accepted = store().applyPosition({ vehicleId, lng, lat, speed, heading: 90, altitude: 30, statusFlags: 1, alarmFlags: 0, gpsTime: gpsClock });
  expect(accepted).toBe(true);
}

function find(list: { vehicles: VehicleRecord[] }[], vehicleId: number): VehicleRecord | undefined {
  for (const m of list) for (const v of m.vehicles) if (v.vehicleId === vehicleId) return v;
  return undefined;
}

describe('push channel /ws-service/websocket', () => {
  it('refuses a connection without a token or with a bad one', async () => {
    await expect(connectPush(server.url, undefined)).rejects.toMatchObject({ status: 401 });
    await expect(connectPush(server.url, 'not-a-token')).rejects.toMatchObject({ status: 401 });
    await expect(connectPush(server.url, admin.slice(0, -3) + 'abc')).rejects.toMatchObject({ status: 401 });
  });

  it('sends the directory and a snapshot of every vehicle, then a delta when a vehicle reports', async () => {
    const c = await connectPush(server.url, admin);
    try {
      await c.waitFor(() => snapshots(c).length === 1);
      const [cursor, dir, snap] = c.received;
      // First the alarm cursor (a first connect replays nothing), then the directory and the snapshot.
      expect(cursor).toMatchObject({ kind: 'alarmReplay', headers: { commandType: 'alarmReplay', mutation: 'REPLAY_ALARMS', state: 'alarm' }, data: { after: null, alarms: [], missed: 0 } });
      expect(dir).toMatchObject({ kind: 'directory', mutation: 'REPLACE_DIRECTORY', headers: { commandType: 'directory', state: 'monitor' } });
      expect(dir!.kind === 'directory' && dir!.vehicles.length).toBe(store().count);
      expect(dir!.kind === 'directory' && dir!.vehicles.every((v) => v.plate.length > 0 && v.companyId > 0)).toBe(true);
      expect(snap).toMatchObject({ kind: 'positions', headers: { commandType: 'positions', mutation: 'REPLACE_POSITIONS', state: 'monitor' } });
      expect(snap!.kind === 'positions' && snap!.vehicles.length).toBe(store().count);

      const id = vehicleWhere(true);
      report(id, 121.473701, 31.230416, 55);
      const v = await c.waitFor(() => find(deltas(c), id));
      expect(v).toMatchObject({ lng: 121.473701, lat: 31.230416, heading: 90, state: 2 });
      expect(v.speed).toBeCloseTo(55, 4);
      expect(Math.abs(v.lastContact - Date.now())).toBeLessThan(5000);
    } finally {
      c.close();
    }
  });

  it('shows a branch user only the vehicles of its subtree', async () => {
    const b = await connectPush(server.url, branch);
    const a = await connectPush(server.url, admin);
    try {
      await b.waitFor(() => snapshots(b).length === 1);
      await a.waitFor(() => snapshots(a).length === 1);
      const dir = b.received.find((m) => m.kind === 'directory')!;
      if (dir.kind !== 'directory') throw new Error('directory first');
      const s = store();
      const expected: number[] = [];
      for (let slot = 0; slot < s.count; slot++) if (s.companyPathOf(slot).startsWith(branchPath)) expected.push(s.columns.vehicleId[slot]!);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(s.count);
      expect(dir.vehicles.map((v) => v.vehicleId).sort((x, y) => x - y)).toEqual(expected.sort((x, y) => x - y));
      expect(snapshots(b)[0]!.vehicles.map((v) => v.vehicleId)).toEqual(expected);

      const inside = vehicleWhere(true, 1);
      const outside = vehicleWhere(false);
      report(outside, 116.4, 39.9);
      report(inside, 120.15, 30.28);
      await a.waitFor(() => find(deltas(a), inside) && find(deltas(a), outside));
      await b.waitFor(() => find(deltas(b), inside));
      await new Promise((r) => setTimeout(r, 200));
      expect(find(deltas(b), outside)).toBeUndefined();
      expect(deltas(b).flatMap((m) => m.vehicles).every((v) => expected.includes(v.vehicleId))).toBe(true);
    } finally {
      a.close();
      b.close();
    }
  });

  it('coalesces a vehicle reporting 4 times a second into at most one delta per second, the latest position last', async () => {
    const c = await connectPush(server.url, admin);
    try {
      await c.waitFor(() => snapshots(c).length === 1);
      const id = vehicleWhere(false, 1);
      for (let i = 1; i <= 10; i++) {
        report(id, 113 + i / 1000, 23);
        await new Promise((r) => setTimeout(r, 250));
      }
      await c.waitFor(() => deltas(c).some((m) => m.vehicles.some((v) => v.vehicleId === id && v.lng === 113.01)), 3000);
      const times = deltas(c).filter((m) => m.vehicles.some((v) => v.vehicleId === id)).map((m) => m.serverTime);
      expect(times.length).toBeGreaterThanOrEqual(2);
      expect(times.length).toBeLessThanOrEqual(4);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(1000);
    } finally {
      c.close();
    }
  });

  it('serves the same content as JSON with format=json', async () => {
    const bin = await connectPush(server.url, branch);
    const json = await connectPush(server.url, branch, { format: 'json' });
    try {
      await bin.waitFor(() => snapshots(bin).length === 1);
      await json.waitFor(() => snapshots(json).length === 1);
      const strip = (r: Received) => (r.kind === 'positions' ? { ...r, at: 0, serverTime: 0 } : r);
      expect(strip(json.received[0]!)).toEqual(strip(bin.received[0]!));
      expect(snapshots(json)[0]!.vehicles).toEqual(snapshots(bin)[0]!.vehicles);
      const id = vehicleWhere(true, 2);
      report(id, 118.796877, 32.060255, 61.3);
      const a = await bin.waitFor(() => find(deltas(bin), id));
      const b = await json.waitFor(() => find(deltas(json), id));
      expect(b).toEqual(a);
      server.app.push.publishAlarm(branchPath, { id: 1, alarmType: 2, vehiidno: 'x' });
      const alarmA = await bin.waitFor(() => alarms(bin)[0]);
      const alarmB = await json.waitFor(() => alarms(json)[0]);
      expect(alarmB).toEqual(alarmA);
      expect(alarmA).toMatchObject({ headers: { commandType: 'alarm', mutation: 'ADD_ALARM', state: 'alarm' }, data: { id: 1, alarmType: 2 } });
    } finally {
      bin.close();
      json.close();
    }
  });

  it('sends alarms only to consoles whose subtree holds the company', async () => {
    const b = await connectPush(server.url, branch);
    const a = await connectPush(server.url, admin);
    try {
      await b.waitFor(() => snapshots(b).length === 1);
      await a.waitFor(() => snapshots(a).length === 1);
      server.app.push.publishAlarm('/999999/', { id: 5 });
      server.app.push.publishAlarm(branchPath, { id: 6 });
      await a.waitFor(() => alarms(a).length === 2);
      await b.waitFor(() => alarms(b).length === 1);
      expect(alarms(b)[0]).toMatchObject({ data: { id: 6 } });
    } finally {
      a.close();
      b.close();
    }
  });

  it('by default (corking on) writes a run of alarms as one corked flush per console: every alarm its own message, in order', async () => {
    // No setOptions: what ships corks (issue 16, bench/alarm-push.bench.ts).
    const bin = await connectPush(server.url, admin);
    const json = await connectPush(server.url, admin, { format: 'json' });
    try {
      await bin.waitFor(() => snapshots(bin).length === 1);
      await json.waitFor(() => snapshots(json).length === 1);
      const before = { ...server.app.push.stats };
      // What the alarm service does with a stored batch: one synchronous loop.
      for (let i = 0; i < 300; i++) server.app.push.publishAlarm('/', { id: 1000 + i, alarmType: 12001 });
      await bin.waitFor(() => alarms(bin).length === 300);
      await json.waitFor(() => alarms(json).length === 300);
      const ids = (c: PushTestClient) => alarms(c).map((a) => (a.kind === 'alarm' ? (a.data as { id: number }).id : -1));
      expect(ids(bin)).toEqual([...Array(300).keys()].map((i) => 1000 + i));
      expect(ids(json)).toEqual(ids(bin));
      expect(server.app.push.stats.alarms - before.alarms).toBe(600);
      expect(server.app.push.stats.alarmFlushes - before.alarmFlushes).toBe(1);
      // A later run is a batch of its own, and nothing stays corked in between.
      server.app.push.publishAlarm('/', { id: 2000 });
      await bin.waitFor(() => alarms(bin).length === 301);
      expect(server.app.push.stats.alarmFlushes - before.alarmFlushes).toBe(2);
    } finally {
      server.app.push.setOptions({ corkAlarms: DEFAULT_PUSH_OPTIONS.corkAlarms });
      bin.close();
      json.close();
    }
  });

  it('delivers every alarm with corking off (the benchmarks\' baseline), one write each', async () => {
    server.app.push.setOptions({ corkAlarms: false });
    const c = await connectPush(server.url, admin);
    try {
      await c.waitFor(() => snapshots(c).length === 1);
      const before = server.app.push.stats.alarmFlushes;
      for (let i = 0; i < 50; i++) server.app.push.publishAlarm('/', { id: i });
      await c.waitFor(() => alarms(c).length === 50);
      expect(server.app.push.stats.alarmFlushes).toBe(before);
    } finally {
      server.app.push.setOptions({ corkAlarms: DEFAULT_PUSH_OPTIONS.corkAlarms });
      c.close();
    }
  });

  describe('a slow consumer', () => {
    afterAll(() => server.app.push.setOptions(DEFAULT_PUSH_OPTIONS));

    async function fillUntil(c: PushTestClient, done: () => boolean, alarmsSent: { n: number }): Promise<void> {
      const id = vehicleWhere(false, 2);
      const pad = 'x'.repeat(64 * 1024);
      const end = Date.now() + 15_000;
      while (!done()) {
        if (Date.now() > end) throw new Error('the consumer never fell behind');
        for (let i = 0; i < 8; i++) server.app.push.publishAlarm('/', { seq: alarmsSent.n++, pad });
        report(id, 100 + Math.random(), 30);
        await new Promise((r) => setTimeout(r, 60));
      }
      void c;
    }

    it('gets a fresh snapshot instead of stale deltas, and every alarm in order', async () => {
      server.app.push.setOptions({ highWaterBytes: 256 * 1024, lowWaterBytes: 64 * 1024, maxBufferedBytes: 1 << 30, maxBehindMs: 60_000, minIntervalMs: 0 });
      const c = await connectPush(server.url, admin);
      try {
        await c.waitFor(() => snapshots(c).length === 1);
        const before = { ...server.app.push.stats };
        const sent = { n: 0 };
        const socket = (c.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
        socket.pause();
        await fillUntil(c, () => server.app.push.stats.deltaFrames > before.deltaFrames && server.app.push.stats.resnapshots === before.resnapshots && behind(), sent);
        const id = vehicleWhere(false, 3);
        report(id, 101.5, 25.5);
        socket.resume();
        await c.waitFor(() => alarms(c).length === sent.n, 30_000);
        await c.waitFor(() => snapshots(c).length === 2, 10_000);
        expect(server.app.push.stats.resnapshots).toBe(before.resnapshots + 1);
        expect(alarms(c).map((a) => (a.kind === 'alarm' ? (a.data as { seq: number }).seq : -1))).toEqual([...Array(sent.n).keys()]);
        // The fresh snapshot carries the report made while the consumer was behind.
        expect(find([snapshots(c)[1]!], id)).toMatchObject({ lng: 101.5, lat: 25.5 });
      } finally {
        c.close();
      }
    });

    it('is closed with code 4008 when it stays behind too long', async () => {
      server.app.push.setOptions({ highWaterBytes: 256 * 1024, lowWaterBytes: 64 * 1024, maxBufferedBytes: 1 << 30, maxBehindMs: 300, minIntervalMs: 0 });
      const c = await connectPush(server.url, admin);
      await c.waitFor(() => snapshots(c).length === 1);
      const closedBefore = server.app.push.stats.slowClosed;
      const socket = (c.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
      socket.pause();
      await fillUntil(c, () => server.app.push.stats.slowClosed > closedBefore, { n: 0 });
      socket.resume();
      expect(await c.closed).toMatchObject({ code: PushClose.SlowConsumer });
    });

    function behind(): boolean {
      return server.app.push.behindCount() > 0;
    }
  });
});
