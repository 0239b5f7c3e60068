import { describe, expect, it } from 'vitest';
import { wgs84ToGcj02 } from '../../../domain/geo/gcj02.ts';
import { OFFLINE_AFTER_MS, VehicleState } from '../../../domain/vehicle/state.ts';
import { Commands, DirectoryKind, FrameKind, PushEncoder, type PositionSource } from '../../../proto/codec.ts';
import { jsonPositions } from '../../../proto/json.ts';
import { allocateFrameBuffers, GLIDE_MAX_VEHICLES } from './fleet-state.ts';
import { StreamCore } from './stream-core.ts';

const T0 = Date.UTC(2026, 10, 22, 8, 0, 0);
const encoder = new PushEncoder();

function source(rows: { id: number; lng: number; lat: number; speed?: number; state?: number; alarm?: number; contact?: number }[]): PositionSource {
  return {
    vehicleId: rows.map((r) => r.id), lng: rows.map((r) => r.lng), lat: rows.map((r) => r.lat), speed: rows.map((r) => r.speed ?? 40),
    heading: rows.map(() => 90), state: rows.map((r) => r.state ?? VehicleState.Driving), alarmFlags: rows.map((r) => r.alarm ?? 0),
    gpsTime: rows.map((r) => r.contact ?? T0), lastContact: rows.map((r) => r.contact ?? T0),
  };
}

function frame(kind: FrameKind, serverTime: number, rows: Parameters<typeof source>[0]): Uint8Array {
  return encoder.positions(kind, serverTime, source(rows), rows.map((_, i) => i), rows.length);
}

/** Local clock = server clock − 5 s (the worker must judge offline on the server's clock). */
const local = (serverTime: number) => serverTime - 5000;

/** Where the vehicle is drawn at local time `now`. */
function positionOf(core: StreamCore, id: number, now: number): [number, number] {
  const f = core.fleet.fillFrame(allocateFrameBuffers(core.fleet.count), now);
  const i = Array.from(f.ids.subarray(0, core.fleet.count)).indexOf(id);
  return [f.positions[2 * i]!, f.positions[2 * i + 1]!];
}

function snapshotCore(): StreamCore {
  const core = new StreamCore();
  core.handleMessage(encoder.directory(DirectoryKind.Full, [
    { vehicleId: 1, companyId: 10, plate: '京A00001', deviceNo: 'T1' },
    { vehicleId: 2, companyId: 11, plate: '沪B00002', deviceNo: 'T2' },
  ]), local(T0));
  core.handleMessage(frame(FrameKind.Snapshot, T0, [
    { id: 1, lng: 116.4, lat: 39.9 },
    { id: 2, lng: 121.4, lat: 31.2, speed: 0, state: VehicleState.Parking, alarm: 4 },
    { id: 3, lng: NaN, lat: NaN, state: VehicleState.NeverOnline, contact: NaN },
  ]), local(T0));
  return core;
}

describe('StreamCore', () => {
  it('keeps every vehicle of the snapshot in columns and answers lookups with the directory', () => {
    const core = snapshotCore();
    expect(core.fleet.count).toBe(3);
    expect(core.fleet.lookup(2)).toMatchObject({ plate: '沪B00002', companyId: 11, deviceNo: 'T2', lng: 121.4, lat: 31.2, state: VehicleState.Parking, alarmFlags: 4 });
    expect(core.fleet.lookup(3)).toMatchObject({ state: VehicleState.NeverOnline });
    expect(core.fleet.lookup(99)).toBeUndefined();
    expect(core.fleet.directory([2, 1, 42])).toEqual([
      { vehicleId: 2, companyId: 11, plate: '沪B00002', deviceNo: 'T2' },
      { vehicleId: 1, companyId: 10, plate: '京A00001', deviceNo: 'T1' },
    ]);
    const stats = core.stats(local(T0));
    expect(stats.counts).toEqual({ total: 3, online: 2, driving: 1, parking: 1, idling: 0, offline: 0, neverOnline: 1 });
    expect(stats.byCompany?.get(10)).toEqual({ total: 1, online: 1 });
  });

  it('glides a vehicle from its previous to its new position over the report interval', () => {
    const core = snapshotCore();
    core.release(core.takeFrame(local(T0))!);
    // The snapshot was the previous report: the delta one second later glides over one second.
    core.handleMessage(frame(FrameKind.Delta, T0 + 1000, [{ id: 1, lng: 116.402, lat: 39.9, contact: T0 + 1000 }]), local(T0 + 1000));
    expect(positionOf(core, 1, local(T0 + 1000))[0]).toBeCloseTo(116.4, 4);
    expect(positionOf(core, 1, local(T0 + 1500))[0]).toBeCloseTo(116.401, 4);
    expect(positionOf(core, 1, local(T0 + 2000))[0]).toBeCloseTo(116.402, 4);
    // Frames keep coming while it glides, then stop.
    core.release(core.takeFrame(local(T0 + 1500))!);
    core.release(core.takeFrame(local(T0 + 1900))!);
    expect(core.takeFrame(local(T0 + 2100))).toBeNull();
  });

  it('moves a fleet larger than GLIDE_MAX_VEHICLES once per report, without frames in between', () => {
    const n = GLIDE_MAX_VEHICLES + 1;
    const rows = (lng: number, t: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1, lng: lng + (i % 100) * 0.001, lat: 30, contact: t }));
    const core = new StreamCore();
    core.handleMessage(frame(FrameKind.Snapshot, T0, rows(116.4, T0)), local(T0));
    core.release(core.takeFrame(local(T0))!);
    core.handleMessage(frame(FrameKind.Delta, T0 + 1000, rows(116.402, T0 + 1000)), local(T0 + 1000));
    // Drawn at the report at once (no glide from 116.4), one frame, then nothing until the next report.
    expect(positionOf(core, 1, local(T0 + 1000))[0]).toBeCloseTo(116.402, 4);
    core.release(core.takeFrame(local(T0 + 1000))!);
    expect(core.takeFrame(local(T0 + 1016))).toBeNull();
  });

  it('draws a jump of more than 5 km at once instead of gliding across the map', () => {
    const core = snapshotCore();
    core.handleMessage(frame(FrameKind.Delta, T0 + 1000, [{ id: 1, lng: 116.41, lat: 39.9 }]), local(T0 + 1000));
    core.handleMessage(frame(FrameKind.Delta, T0 + 2000, [{ id: 1, lng: 117.5, lat: 39.9 }]), local(T0 + 2000));
    expect(positionOf(core, 1, local(T0 + 2000))[0]).toBeCloseTo(117.5, 4);
  });

  it('turns a vehicle offline 3 minutes after its last contact on the server clock', () => {
    const core = snapshotCore();
    expect(core.stats(local(T0 + OFFLINE_AFTER_MS)).counts.offline).toBe(0);
    const later = core.stats(local(T0 + OFFLINE_AFTER_MS + 1000));
    expect(later.counts).toMatchObject({ offline: 2, online: 0, neverOnline: 1 });
    const f = core.takeFrame(local(T0 + OFFLINE_AFTER_MS + 1000))!;
    expect(Array.from(f.states.subarray(0, 3))).toEqual([VehicleState.Offline, VehicleState.Offline, VehicleState.NeverOnline]);
  });

  it('counts a malformed push message as an error and keeps every vehicle', () => {
    const core = snapshotCore();
    const good = frame(FrameKind.Delta, T0 + 1000, [{ id: 2, lng: 121.5, lat: 31.3 }]);
    core.handleMessage(good.subarray(0, good.length - 3), local(T0 + 1000));
    core.handleMessage(new Uint8Array([0xff, 0xff, 0xff]), local(T0 + 1000));
    core.handleMessage('{"commandType":"positions"', local(T0 + 1000));
    expect(core.errors).toBe(3);
    expect(core.fleet.count).toBe(3);
    expect(core.fleet.lookup(2)).toMatchObject({ lng: 121.4, lat: 31.2 });
    expect(core.stats(local(T0 + 1000)).errors).toBe(3);
    core.handleMessage(good, local(T0 + 1000));
    expect(core.fleet.lookup(2)).toMatchObject({ lng: 121.5, lat: 31.3 });
  });

  it('replaces everything on a snapshot after a reconnect (full resync)', () => {
    const core = snapshotCore();
    core.handleReconnect();
    core.handleMessage(frame(FrameKind.Snapshot, T0 + 60_000, [{ id: 2, lng: 120, lat: 30 }]), local(T0 + 60_000));
    expect(core.fleet.count).toBe(1);
    expect(core.fleet.lookup(1)).toBeUndefined();
    expect(core.fleet.lookup(2)).toMatchObject({ lng: 120, lat: 30, plate: '沪B00002' });
  });

  it('hands out at most two buffer sets until the main thread releases one (double buffering)', () => {
    const core = snapshotCore();
    const a = core.takeFrame(local(T0))!;
    core.setDisplayCrs('wgs84');
    core.handleMessage(frame(FrameKind.Delta, T0 + 1000, [{ id: 1, lng: 116.41, lat: 39.9 }]), local(T0 + 1000));
    const b = core.takeFrame(local(T0 + 1000))!;
    expect(b).not.toBeNull();
    expect(b.ids).not.toBe(a.ids);
    core.handleMessage(frame(FrameKind.Delta, T0 + 2000, [{ id: 1, lng: 116.42, lat: 39.9 }]), local(T0 + 2000));
    expect(core.takeFrame(local(T0 + 2000))).toBeNull();
    core.release(a);
    const c = core.takeFrame(local(T0 + 2000))!;
    expect(c.ids).toBe(a.ids);
    expect(c.count).toBe(3);
  });

  it('converts positions to GCJ-02 for display inside China only', () => {
    const core = new StreamCore();
    core.setDisplayCrs('gcj02');
    core.handleMessage(frame(FrameKind.Snapshot, T0, [{ id: 1, lng: 116.397128, lat: 39.916527 }, { id: 2, lng: 2.35, lat: 48.85 }]), local(T0));
    const [x, y] = wgs84ToGcj02(116.397128, 39.916527);
    const p = positionOf(core, 1, local(T0));
    expect(p[0]).toBeCloseTo(x, 4);
    expect(p[1]).toBeCloseTo(y, 4);
    expect(Math.abs(p[0] - 116.397128)).toBeGreaterThan(1e-4);
    expect(positionOf(core, 2, local(T0))[0]).toBeCloseTo(2.35, 4);
    core.setDisplayCrs('wgs84');
    expect(positionOf(core, 1, local(T0))[0]).toBeCloseTo(116.397128, 4);
  });

  it('reads the JSON format too, and passes alarms on', () => {
    const core = new StreamCore();
    const alarms: unknown[] = [];
    core.onAlarm = (a) => alarms.push(a);
    const src = source([{ id: 5, lng: 113.3, lat: 23.1 }]);
    core.handleMessage(jsonPositions(FrameKind.Snapshot, T0, src, [0], 1), local(T0));
    core.handleMessage(encoder.json(Commands.alarm, { data: { id: 9, alarmType: 3 } }), local(T0));
    expect(core.fleet.lookup(5)).toMatchObject({ lng: 113.3, lat: 23.1 });
    expect(alarms).toEqual([{ id: 9, alarmType: 3 }]);
    expect(core.fleet.idsInBounds(113, 23, 114, 24)).toEqual(Int32Array.from([5]));
  });
});
