/**
 * Issue 20, "push nodes subscribe per company subject": subjects by company path, and a node following only
 * the company subtrees held on it, on a real NATS JetStream server (Debian's nats-server; CI installs it).
 * The attack-shaped case: a branch's console on a node must not make that node receive another branch's
 * positions (company 20's are not under company 2's filter although "/1/20/" starts with "/1/2").
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PositionRow } from '../db/repositories.ts';
import { ALL_COMPANIES, subtreeScope } from '../db/scope.ts';
import { LiveStore } from '../live/store.ts';
import { LEASE_MS, rootsOf } from './follow-scopes.ts';
import { scopedFollowing } from './index.ts';
import { connectNatsBus, PUBLISH_BATCH_MAX, STREAM_NAME } from './nats.ts';
import { positionSubject, scopeFilter } from './subjects.ts';
import { natsSkipReason, startNats, type TestNats } from './test-nats.ts';
import type { BusPosition, PositionBus } from './types.ts';

describe('position subjects by company path', () => {
  it('a company path makes its subject; a subtree is one wildcard that stops at the path end', () => {
    expect(positionSubject('/1/5/12/')).toBe('fleet.pos.1.5.12._');
    expect(positionSubject('/1/')).toBe('fleet.pos.1._');
    expect(scopeFilter(subtreeScope(5, '/1/5/'))).toBe('fleet.pos.1.5.>');
    expect(scopeFilter(ALL_COMPANIES)).toBe('fleet.pos.>');
  });

  it('what is no company path is not published and cannot be followed', () => {
    for (const bad of ['', '\u0000deleted', '/1/5', '1/5/', '/1//5/', '/1/a/', '/1/*/', '/1/>/', '/0/']) expect(positionSubject(bad)).toBeUndefined();
    expect(() => scopeFilter(subtreeScope(5, '/1/>/'))).toThrow(/not a company path/);
  });

  it('roots: a scope inside another held one adds no consumer', () => {
    const a = subtreeScope(2, '/1/2/');
    const b = subtreeScope(3, '/1/2/3/');
    const c = subtreeScope(20, '/1/20/');
    expect(rootsOf([a, b, c])).toEqual([a, c]);
    expect(rootsOf([a, ALL_COMPANIES, c])).toEqual([ALL_COMPANIES]);
  });
});

const skip = natsSkipReason();
if (skip) console.warn(`follow-scopes.test: NATS part skipped: ${skip}`);

const VEHICLES = [
  { vehicleId: 1, companyId: 2, companyPath: '/1/2/' },
  { vehicleId: 2, companyId: 3, companyPath: '/1/2/3/' },
  { vehicleId: 3, companyId: 7, companyPath: '/1/7/' },
  { vehicleId: 4, companyId: 20, companyPath: '/1/20/' },
];
const pathOf = (vehicleId: number) => VEHICLES.find((v) => v.vehicleId === vehicleId)!.companyPath;

describe.skipIf(skip !== '')('a node follows only the company subtrees held on it (real NATS)', () => {
  let nats: TestNats;
  let gateway: PositionBus;
  let push: PositionBus;
  const store = new LiveStore();
  store.load(VEHICLES);
  /** What the database holds as each vehicle's latest row (read back when a subtree starts to be followed). */
  const stored = new Map<number, PositionRow>();
  const asked: number[][] = [];
  let now = Date.now();
  let following: ReturnType<typeof scopedFollowing>;
  let gpsTime = Date.now() - 60_000;

  const position = (vehicleId: number): BusPosition => ({
    vehicleId, companyId: VEHICLES.find((v) => v.vehicleId === vehicleId)!.companyId, lng: 120 + vehicleId / 100, lat: 30, speed: 10, heading: 90,
    altitude: 5, statusFlags: 3, alarmFlags: 0, gpsTime: (gpsTime += 1000), receivedAt: Date.now(),
  });
  const gpsOf = (vehicleId: number) => store.columns.gpsTime[store.slotOf(vehicleId)]!;
  /** Publishes one position per vehicle through the gateway's bus and waits until those of `expectSeen` reached the store. */
  async function publishAll(ids: number[], expectSeen: number[]): Promise<Map<number, number>> {
    const sent = new Map<number, number>();
    for (const id of ids) {
      const p = position(id);
      sent.set(id, p.gpsTime);
      gateway.publish(p, pathOf(id));
    }
    await gateway.drain(5000);
    const deadline = Date.now() + 5000;
    while (!expectSeen.every((id) => gpsOf(id) === sent.get(id))) {
      if (Date.now() > deadline) throw new Error(`not delivered: ${expectSeen.filter((id) => gpsOf(id) !== sent.get(id)).join(', ')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    // Whatever else was going to arrive has had the time the expected ones took, and more.
    await new Promise((r) => setTimeout(r, 300));
    return sent;
  }

  beforeAll(async () => {
    nats = await startNats();
    gateway = await connectNatsBus({ servers: nats.url, nodeId: 'gateway-a' });
    push = await connectNatsBus({ servers: nats.url, nodeId: 'push-b' });
    following = scopedFollowing(push, store, {
      async latestOf(ids) {
        asked.push([...ids].sort((a, b) => a - b));
        return ids.flatMap((id) => (stored.has(id) ? [stored.get(id)!] : []));
      },
    }, { warn: () => undefined, error: (obj, msg) => console.error(msg, obj) }, () => now); // the lease clock is the test's (LEASE_MS is ten minutes)
  }, 30_000);

  afterAll(async () => {
    await following?.close();
    await gateway?.close();
    await push?.close();
    await nats?.stop();
  });

  it('a branch console: its subtree arrives, a sibling branch and a look-alike path do not', async () => {
    const release = await following.hold(subtreeScope(2, '/1/2/'));
    expect(following.roots()).toEqual([subtreeScope(2, '/1/2/')]);
    expect(asked).toEqual([[1, 2]]); // its vehicles read back from the database once
    const before3 = gpsOf(3);
    const before4 = gpsOf(4);
    await publishAll([1, 2, 3, 4], [1, 2]);
    expect(gpsOf(3)).toBe(before3);
    expect(gpsOf(4)).toBe(before4); // /1/20/ is not under /1/2/
    expect(push.stats.received).toBe(2);
    release();
  });

  it('an API caller of another branch: its stored latest is read back, then its live positions follow', async () => {
    stored.set(3, { vehicleId: 3, gpsTime: gpsTime - 500, lng: 121.5, lat: 31.25, speed: 33, heading: 180, altitude: 7, status: 1, alarm: 0, mileage: null, fuel: null, receivedAt: Date.now() - 400 });
    // The hold above was released: its subtree is no longer followed, the caller's is.
    await following.touch(subtreeScope(7, '/1/7/'));
    expect(following.roots()).toEqual([subtreeScope(7, '/1/7/')]);
    expect(asked.at(-1)).toEqual([3]);
    expect(store.columns.lng[store.slotOf(3)]).toBe(121.5); // what the database held, before anything live
    const before1 = gpsOf(1);
    await publishAll([1, 3], [3]);
    expect(gpsOf(1)).toBe(before1); // nobody holds /1/2/ on this node any more
  });

  it('the sweep node follows everything; when it hands the sweep over, the held branches go on without a gap or a reload', async () => {
    const release = await following.hold(subtreeScope(2, '/1/2/'));
    const loads = following.stats.loads;
    await following.followAll(true);
    expect(following.roots()).toEqual([ALL_COMPANIES]);
    await publishAll([1, 4], [1, 4]);
    await following.followAll(false);
    // Both branches were inside "all": started again without reading the database.
    expect(following.stats.loads).toBe(loads + 1);
    expect(following.roots().map((s) => (s.all ? '*' : s.rootPath)).sort()).toEqual(['/1/2/', '/1/7/']);
    await publishAll([1, 3, 4], [1, 3]);
    release();
  });

  it('an API lease ends after LEASE_MS without calls; then that branch is no longer followed', async () => {
    await following.touch(subtreeScope(7, '/1/7/'));
    now += LEASE_MS + 1;
    await following.expire();
    expect(following.roots()).toEqual([]);
    const before3 = gpsOf(3);
    await publishAll([3], []);
    expect(gpsOf(3)).toBe(before3);
  });

  it('a gateway sends what one company reported within the batch window as one message; every ack waits for it', async () => {
    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await jetstreamManager(nc);
      const messages = async () => (await jsm.streams.info(STREAM_NAME)).state.messages;
      const before = await messages();
      const persisted = gateway.stats.persisted;
      const acked: number[] = [];
      for (let i = 0; i < 50; i++) {
        gateway.publish(position(i % 2 === 0 ? 1 : 2), pathOf(i % 2 === 0 ? 1 : 2));
        gateway.afterPersisted(() => acked.push(i));
      }
      expect(acked).toEqual([]); // nothing stored yet: no terminal acknowledged
      expect(await gateway.drain(5000)).toBe(true);
      expect(acked).toEqual([...Array(50).keys()]); // in order
      expect(gateway.stats.persisted - persisted).toBe(50);
      expect(await messages()).toBe(before + 2); // two company subjects, one message each
      // A full batch goes at once, without waiting for the window.
      for (let i = 0; i < PUBLISH_BATCH_MAX; i++) gateway.publish(position(3), pathOf(3));
      await new Promise((r) => setTimeout(r, 5)); // shorter than the window
      expect(await gateway.drain(5000)).toBe(true);
      expect(await messages()).toBe(before + 3);
    } finally {
      await nc.close();
    }
  });
});
