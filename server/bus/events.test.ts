/**
 * The events bus's pieces without a NATS server (issue 20, events.ts): the wire codec, subjects, contact
 * batches, and how one node's hub, store and FleetSync hook to the bus (what is published, what is applied,
 * nothing echoed). The real thing across three processes: two-node-events.pgtest.ts.
 */
import { pack } from 'msgpackr';
import { describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Role } from '../config.ts';
import type { FleetSync } from '../live/fleet-sync.ts';
import { LiveStore } from '../live/store.ts';
import { PushHub, type AlarmHandled } from '../push/hub.ts';
import type { StoredPhoto } from '../services/multimedia/capture.ts';
import { decodeEvent, encodeEvent, EVENT_CODEC_VERSION } from './events-codec.ts';
import { companyOfPath, eventSubject } from './events-nats.ts';
import { attachBusEvents, BusEventLink, CONTACT_BATCH_MAX, ContactBatcher, type BusEvent, type EventBus } from './events.ts';

const handled: AlarmHandled = { alarmIds: [5, 6], dealStatus: 2, boardItemId: null, userId: 3, time: 1_790_000_000_000 };
const alarm = { id: 41, alarmType: 12001, vehicleId: 7, companyId: 12, alarmName: '超速报警', popup: true, voice: false, lng: 121.5, createTime: 1_790_000_000_000 };

describe('event codec', () => {
  it('round-trips every kind with its origin', () => {
    const events: BusEvent[] = [
      { kind: 'alarm', companyPath: '/1/3/12/', alarm },
      { kind: 'handled', companyPath: '/1/3/', handled },
      { kind: 'contacts', vehicleIds: [7, 8], times: [1_790_000_000_000, 1_790_000_000_500] },
      { kind: 'fleet', vehicleIds: [9], deviceNos: ['013800000001'] },
      { kind: 'rules', what: 'fences', ids: [3, 4] },
      { kind: 'rules', what: 'settings', ids: undefined },
      { kind: 'media', vehicleId: 7, channel: 2, deviceMediaId: 0xffff_fffe, itemId: 901 },
    ];
    for (const e of events) expect(decodeEvent(encodeEvent('node-a', e))).toEqual({ origin: 'node-a', event: e });
  });

  it('refuses what is not an event of this version, and contact batches that do not pair', () => {
    expect(() => decodeEvent(new Uint8Array([0x95, 0x01]))).toThrow(/^bus: not an event message/);
    expect(() => decodeEvent(pack([EVENT_CODEC_VERSION + 1, 'n', 1, '/1/', {}]))).toThrow(/codec version/);
    expect(() => decodeEvent(pack([EVENT_CODEC_VERSION, 'n', 9, '/1/', {}]))).toThrow(/unknown kind/);
    expect(() => decodeEvent(pack([EVENT_CODEC_VERSION, 'n', 1, 5, {}]))).toThrow(/company path/);
    expect(() => decodeEvent(pack([EVENT_CODEC_VERSION, 'n', 3, [1, 2], [3]]))).toThrow(/do not pair/);
    expect(() => decodeEvent(pack([EVENT_CODEC_VERSION, 'n', 4, [1], [2]]))).toThrow(/device numbers/);
    expect(() => decodeEvent(pack([EVENT_CODEC_VERSION, 'n', 5, 'geofences', null]))).toThrow(/rule set/);
    expect(() => decodeEvent(pack([EVENT_CODEC_VERSION, 'n', 5, 'fences', ['3']]))).toThrow(/rule set|not numbers/);
  });

  it('refuses a stored-photo event without its vehicle, or whose channel, media id or row id is not an integer in range', () => {
    const media = (vehicleId: unknown, rest: unknown) => pack([EVENT_CODEC_VERSION, 'n', 6, vehicleId, rest]);
    expect(decodeEvent(media(7, [1, 0, 3])).event).toEqual({ kind: 'media', vehicleId: 7, channel: 1, deviceMediaId: 0, itemId: 3 });
    for (const bad of [media('7', [1, 2, 3]), media(0, [1, 2, 3]), media(1.5, [1, 2, 3]), media(7, null), media(7, [1, 2]), media(7, { channel: 1 })]) {
      expect(() => decodeEvent(bad)).toThrow('bus: a stored-photo event without a vehicle id or its [channel, media id, row id]');
    }
    for (const bad of [media(7, [256, 2, 3]), media(7, [-1, 2, 3]), media(7, [1, 2 ** 32, 3]), media(7, [1, 2, 0]), media(7, [1, '2', 3]), media(7, [1, 2, 3.5])]) {
      expect(() => decodeEvent(bad)).toThrow('bus: a stored-photo event whose channel, media id or row id is not an integer in range');
    }
  });

  it('subjects: alarms and handlings per company (the last id of the path), contacts and fleet changes one each', () => {
    expect(companyOfPath('/1/3/12/')).toBe(12);
    expect(companyOfPath('')).toBe(0);
    expect(eventSubject({ kind: 'alarm', companyPath: '/1/3/12/', alarm })).toBe('fleet.evt.alarm.12');
    expect(eventSubject({ kind: 'handled', companyPath: '/1/3/', handled })).toBe('fleet.evt.handled.3');
    expect(eventSubject({ kind: 'contacts', vehicleIds: [], times: [] })).toBe('fleet.evt.contact');
    expect(eventSubject({ kind: 'fleet', vehicleIds: [], deviceNos: [] })).toBe('fleet.evt.fleet');
    // Every node follows the fleet subject: a gateway node evaluating fences learns of a change made on an API node.
    expect(eventSubject({ kind: 'rules', what: 'routes', ids: undefined })).toBe('fleet.evt.fleet');
    // So is a stored photo: the API node whose snapshot waits for it follows only the fleet subject when it is no push node.
    expect(eventSubject({ kind: 'media', vehicleId: 7, channel: 1, deviceMediaId: 5, itemId: 9 })).toBe('fleet.evt.fleet');
  });
});

describe('ContactBatcher', () => {
  it('publishes the latest contact per vehicle once per flush, in parts of CONTACT_BATCH_MAX, and once more at stop', () => {
    const sent: BusEvent[] = [];
    const b = new ContactBatcher((e) => sent.push(e), 60_000);
    b.note(7, 1000);
    b.note(7, 3000);
    b.note(7, 2000);
    b.note(8, 1500);
    b.flush();
    expect(sent).toEqual([{ kind: 'contacts', vehicleIds: [7, 8], times: [3000, 1500] }]);
    b.flush();
    expect(sent).toHaveLength(1);
    for (let i = 0; i < CONTACT_BATCH_MAX + 1; i++) b.note(i + 100, 5000);
    b.stop();
    expect(sent.slice(1).map((e) => (e.kind === 'contacts' ? e.vehicleIds.length : -1))).toEqual([CONTACT_BATCH_MAX, 1]);
  });
});

class FakeEventBus implements EventBus {
  readonly nodeId = 'n1';
  readonly stats = { published: 0, persisted: 0, retried: 0, received: 0, skippedOwn: 0 };
  readonly sent: BusEvent[] = [];
  followed: { sinceMs: number; only: 'fleet' | undefined } | undefined;
  closed = false;
  publish(e: BusEvent): void {
    this.sent.push(e);
  }
  async follow(sinceMs: number, only: 'fleet' | undefined): Promise<void> {
    this.followed = { sinceMs, only };
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

function node(roles: Role[], now = 1_790_000_000_000) {
  const clock = { now };
  const store = new LiveStore({ clock: () => clock.now });
  for (const vehicleId of [7, 8]) store.upsertVehicle({ vehicleId, companyId: 12, companyPath: '/1/3/12/' });
  const hub = new PushHub(store, { inScope: async () => [], byIds: async () => [] });
  const calls: string[] = [];
  const local: FleetSync = {
    vehiclesChanged: async (ids) => void calls.push(`vehicles ${ids.join(',')}`),
    devicesChanged: async (nos) => void calls.push(`devices ${nos.join(',')}`),
  };
  const bus = new FakeEventBus();
  const link = new BusEventLink(bus, { roles: new Set(roles), store, push: hub, fleetSync: local });
  return { clock, store, hub, calls, bus, link };
}

describe('BusEventLink', () => {
  it('relays the alarms and handlings published on this node; those from the bus reach its consoles only, counted as raised nowhere here', () => {
    const { hub, bus, link } = node(['api', 'push']);
    const raised = vi.fn();
    hub.onAlarm = raised;
    const deliverAlarm = vi.spyOn(hub, 'deliverAlarm');
    const deliverHandled = vi.spyOn(hub, 'deliverHandled');
    hub.publishAlarm('/1/3/12/', alarm);
    hub.publishHandled('/1/3/', handled);
    expect(bus.sent).toEqual([{ kind: 'alarm', companyPath: '/1/3/12/', alarm }, { kind: 'handled', companyPath: '/1/3/', handled }]);
    expect(raised).toHaveBeenCalledTimes(1);
    expect(deliverAlarm).toHaveBeenCalledWith('/1/3/12/', alarm);

    link.apply({ kind: 'alarm', companyPath: '/1/4/', alarm: { ...alarm, id: 42 } });
    link.apply({ kind: 'handled', companyPath: '/1/4/', handled });
    expect(bus.sent).toHaveLength(2);
    expect(raised).toHaveBeenCalledTimes(1);
    expect(deliverAlarm).toHaveBeenLastCalledWith('/1/4/', { ...alarm, id: 42 });
    expect(deliverHandled).toHaveBeenLastCalledWith('/1/4/', handled);
  });

  it('a gateway node publishes its terminals\' contacts; contacts from the bus are applied with their time (never ahead of the clock) and not sent again', async () => {
    const { store, clock, bus, link } = node(['gateway', 'push']);
    store.touch(7, clock.now - 500);
    link.apply({ kind: 'contacts', vehicleIds: [8, 7], times: [clock.now - 200, clock.now - 900] });
    link.apply({ kind: 'contacts', vehicleIds: [8], times: [clock.now + 60_000] });
    await link.stop();
    expect(bus.sent).toEqual([{ kind: 'contacts', vehicleIds: [7], times: [clock.now - 500] }]);
    const c = store.columns;
    expect(c.lastContact[store.slotOf(7)]).toBe(clock.now - 500);
    expect(c.lastContact[store.slotOf(8)]).toBe(clock.now);
    expect(bus.closed).toBe(true);
    // Unhooked at stop.
    store.touch(7, clock.now + 1);
    expect(bus.sent).toHaveLength(1);
  });

  it('a node without the gateway role publishes no contacts', async () => {
    const { store, clock, bus, link } = node(['api', 'push']);
    store.touch(7, clock.now);
    await link.stop();
    expect(bus.sent).toEqual([]);
  });

  it('fleet changes: published after the local FleetSync ran; from the bus, this node\'s FleetSync runs, devices first', async () => {
    const { calls, bus, link } = node(['gateway']);
    await link.fleetSync.devicesChanged(['013800000001']);
    await link.fleetSync.vehiclesChanged([9]);
    expect(calls).toEqual(['devices 013800000001', 'vehicles 9']);
    // Nothing changed, nothing published.
    await link.fleetSync.vehiclesChanged([]);
    calls.pop();
    expect(bus.sent).toEqual([{ kind: 'fleet', vehicleIds: [], deviceNos: ['013800000001'] }, { kind: 'fleet', vehicleIds: [9], deviceNos: [] }]);
    link.apply({ kind: 'fleet', vehicleIds: [10], deviceNos: ['013800000002'] });
    await link.stop();
    expect(calls.slice(2)).toEqual(['devices 013800000002', 'vehicles 10']);
    expect(bus.sent).toHaveLength(2);
  });

  it('alarm rules: a fence, route or settings change made here is published; one from the bus is re-read here and not sent again', async () => {
    const calls: string[] = [];
    // As AlarmService: each call tells the relay first (synchronously), then re-reads.
    const alarms = {
      rulesRelay: undefined as ((what: 'fences' | 'routes' | 'settings', ids?: readonly number[]) => void) | undefined,
      fencesChanged(ids?: readonly number[]) { this.rulesRelay?.('fences', ids); calls.push(`fences ${ids?.join(',') ?? 'all'}`); },
      routesChanged() { this.rulesRelay?.('routes'); calls.push('routes'); },
      async reloadSettings() { this.rulesRelay?.('settings'); await new Promise((r) => setTimeout(r, 5)); calls.push('settings'); },
    };
    const store = new LiveStore();
    const hub = new PushHub(store, { inScope: async () => [], byIds: async () => [] });
    const bus = new FakeEventBus();
    const fleetSync: FleetSync = { vehiclesChanged: async () => undefined, devicesChanged: async () => undefined };
    const link = new BusEventLink(bus, { roles: new Set<Role>(['api', 'push']), store, push: hub, fleetSync, alarms: () => alarms });
    alarms.fencesChanged([5]); // before start (init's first reads): not published
    await link.start(0);
    alarms.fencesChanged([6, 7]);
    alarms.routesChanged();
    await alarms.reloadSettings();
    expect(bus.sent).toEqual([
      { kind: 'rules', what: 'fences', ids: [6, 7] }, { kind: 'rules', what: 'routes', ids: undefined }, { kind: 'rules', what: 'settings', ids: undefined },
    ]);
    calls.length = 0;
    link.apply({ kind: 'rules', what: 'settings', ids: undefined });
    link.apply({ kind: 'rules', what: 'fences', ids: [8] });
    link.apply({ kind: 'rules', what: 'routes', ids: undefined });
    await link.stop();
    // In arrival order (the settings read finished before the fences were re-read), none echoed.
    expect(calls).toEqual(['settings', 'fences 8', 'routes']);
    expect(bus.sent).toHaveLength(3);
    expect(alarms.rulesRelay).toBeUndefined();
  });

  it('stored photos: each one this node stores is published once started; one from the bus goes to this node\'s multimedia service and is not sent again', async () => {
    const elsewhere: StoredPhoto[] = [];
    const multimedia = {
      storedRelay: undefined as ((photo: StoredPhoto) => void) | undefined,
      async storedElsewhere(photo: StoredPhoto) { elsewhere.push(photo); },
    };
    const store = new LiveStore();
    const hub = new PushHub(store, { inScope: async () => [], byIds: async () => [] });
    const bus = new FakeEventBus();
    const fleetSync: FleetSync = { vehiclesChanged: async () => undefined, devicesChanged: async () => undefined };
    const link = new BusEventLink(bus, { roles: new Set<Role>(['gateway']), store, push: hub, fleetSync, multimedia: () => multimedia });
    expect(multimedia.storedRelay).toBeUndefined();
    await link.start(0);
    multimedia.storedRelay?.({ vehicleId: 7, channel: 1, deviceMediaId: 1001, itemId: 55 });
    expect(bus.sent).toEqual([{ kind: 'media', vehicleId: 7, channel: 1, deviceMediaId: 1001, itemId: 55 }]);
    link.apply({ kind: 'media', vehicleId: 8, channel: 2, deviceMediaId: 1002, itemId: 56 });
    expect(elsewhere).toEqual([{ vehicleId: 8, channel: 2, deviceMediaId: 1002, itemId: 56 }]);
    await link.stop();
    expect(bus.sent).toHaveLength(1);
    expect(multimedia.storedRelay).toBeUndefined();
  });

  it('follows every kind on a push node, only fleet changes elsewhere', async () => {
    const push = node(['api', 'push']);
    await push.link.start(123);
    expect(push.bus.followed).toEqual({ sinceMs: 123, only: undefined });
    const gateway = node(['gateway']);
    await gateway.link.start(456);
    expect(gateway.bus.followed).toEqual({ sinceMs: 456, only: 'fleet' });
  });
});

describe('attachBusEvents', () => {
  it('without NATS_URL: nothing connects and no hook is set (a single node keeps its in-process hand-offs only)', async () => {
    const store = new LiveStore();
    const hub = new PushHub(store, { inScope: async () => [], byIds: async () => [] });
    const hooks: string[] = [];
    const app = { addHook: (name: string) => void hooks.push(name) } as unknown as FastifyInstance;
    const local: FleetSync = { vehiclesChanged: async () => undefined, devicesChanged: async () => undefined };
    const attached = await attachBusEvents(app, loadConfig({}), { roles: new Set<Role>(['gateway', 'api', 'push']), store, push: hub, fleetSync: local, followSince: 0 });
    expect(attached).toBeUndefined();
    expect(hooks).toEqual([]);
    expect(hub.relay).toBeUndefined();
    expect(store.onContact).toBeUndefined();
  });
});
