import { describe, expect, it } from 'vitest';
import { OFFLINE_AFTER_MS, VehicleState } from '../../domain/vehicle/state.ts';
import { LiveStore, TOUCH_NOTIFY_MS, type LivePosition } from './store.ts';

const T0 = Date.UTC(2026, 10, 22, 4, 0, 0);

function clock(start = T0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const pos = (vehicleId: number, gpsTime: number, over: Partial<LivePosition> = {}): LivePosition => ({
  vehicleId, lng: 121.47, lat: 31.23, speed: 42, heading: 90, altitude: 12, statusFlags: 3, alarmFlags: 0, gpsTime, ...over,
});

describe('the latest-state store', () => {
  it('knows loaded vehicles as never online until they report', () => {
    const store = new LiveStore({ clock: clock().now });
    store.load([{ vehicleId: 7, companyId: 3, companyPath: '/1/3/' }, { vehicleId: 9, companyId: 4, companyPath: '/1/4/' }]);
    expect(store.count).toBe(2);
    expect(store.slotOf(9)).toBe(1);
    expect(store.slotOf(99)).toBe(-1);
    expect(store.companyPathOf(1)).toBe('/1/4/');
    expect(Number.isNaN(store.columns.lastContact[0]!)).toBe(true);
    expect(store.stateOf(0)).toBe(VehicleState.NeverOnline);
  });

  it('grows its columns past the initial capacity and keeps every value', () => {
    const store = new LiveStore({ capacity: 2, clock: clock().now });
    for (let i = 1; i <= 1000; i++) store.upsertVehicle({ vehicleId: i, companyId: 1, companyPath: '/1/' });
    for (let i = 1; i <= 1000; i++) expect(store.applyPosition(pos(i, T0, { lng: 100 + i / 1000 }))).toBe(true);
    expect(store.count).toBe(1000);
    expect(store.capacity).toBeGreaterThanOrEqual(1000);
    expect(store.columns.vehicleId[999]).toBe(1000);
    expect(store.columns.lng[0]).toBeCloseTo(100.001, 9);
  });

  it('refuses a position older than the latest (blind-area re-upload) and keeps the newer one', () => {
    const store = new LiveStore({ clock: clock().now });
    const slot = store.upsertVehicle({ vehicleId: 1, companyId: 1, companyPath: '/1/' });
    expect(store.applyPosition(pos(1, T0, { lng: 120 }))).toBe(true);
    expect(store.applyPosition(pos(1, T0 - 60_000, { lng: 110 }))).toBe(false);
    expect(store.columns.lng[slot]).toBe(120);
    expect(store.applyPosition(pos(99, T0))).toBe(false);
  });

  it('derives driving, then offline once the clock passes the threshold without contact', () => {
    const c = clock();
    const store = new LiveStore({ clock: c.now });
    const slot = store.upsertVehicle({ vehicleId: 1, companyId: 1, companyPath: '/1/' });
    store.applyPosition(pos(1, T0, { speed: 60 }));
    expect(store.stateOf(slot)).toBe(VehicleState.Driving);
    c.advance(OFFLINE_AFTER_MS);
    expect(store.stateOf(slot)).toBe(VehicleState.Driving);
    c.advance(1);
    expect(store.stateOf(slot)).toBe(VehicleState.Offline);
    store.touch(1);
    expect(store.stateOf(slot)).toBe(VehicleState.Driving);
  });

  it('notifies listeners per accepted position and on contact that changes the state, not on every heartbeat', () => {
    const c = clock();
    const store = new LiveStore({ clock: c.now });
    store.upsertVehicle({ vehicleId: 1, companyId: 1, companyPath: '/1/' });
    const seen: number[] = [];
    const off = store.onChange((slot) => seen.push(slot));
    store.touch(1); // never online → online
    c.advance(10_000);
    store.touch(1); // still online, recent notification: quiet
    store.applyPosition(pos(1, T0));
    store.applyPosition(pos(1, T0 - 1)); // refused: no notification
    c.advance(TOUCH_NOTIFY_MS);
    store.touch(1); // a minute later: refresh
    expect(seen).toEqual([0, 0, 0]);
    off();
    c.advance(OFFLINE_AFTER_MS + 1);
    store.touch(1);
    expect(seen).toHaveLength(3);
  });

  it('starts a vehicle with history as offline at its last fix, not never online', () => {
    const store = new LiveStore({ clock: clock(T0 + 3600_000).now });
    const slot = store.upsertVehicle({ vehicleId: 5, companyId: 2, companyPath: '/1/2/', last: { ...pos(5, T0), receivedAt: T0 + 1000 } });
    expect(store.stateOf(slot)).toBe(VehicleState.Offline);
    expect(store.columns.lat[slot]).toBeCloseTo(31.23, 9);
  });
});
