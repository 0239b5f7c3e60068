import { describe, expect, it, vi } from 'vitest';
import { VehicleState } from '../../../domain/vehicle/state.ts';
import { MonitorController, inTab } from './monitor-controller.ts';
import type { DirectoryEntry, LiveFrame, LiveMessage, LiveSource } from './live-source.ts';

function fakeSource() {
  let listener: ((m: LiveMessage) => void) | undefined;
  const released: LiveFrame[] = [];
  const directoryCalls: number[][] = [];
  const source: LiveSource = {
    subscribe(l) {
      listener = l;
      return () => (listener = undefined);
    },
    release: (f) => released.push(f),
    setDisplayCrs: vi.fn(),
    setSelection: vi.fn(),
    directory: (ids) => {
      directoryCalls.push([...ids]);
      return Promise.resolve(ids.map((id): DirectoryEntry => ({ vehicleId: id, plate: `京A${id}`, companyId: 1, deviceNo: `D${id}` })));
    },
    dispose: vi.fn(),
  };
  return { source, released, directoryCalls, emit: (m: LiveMessage) => listener?.(m) };
}

function frame(states: number[]): LiveFrame {
  const n = states.length;
  return {
    type: 'frame',
    count: n,
    ids: Int32Array.from(states.map((_, i) => 10 + i)),
    positions: new Float32Array(n * 2).fill(116),
    headings: new Float32Array(n),
    states: Uint8Array.from(states),
    alarm: new Uint8Array(n),
  };
}

describe('MonitorController', () => {
  it('applies a frame, hands its buffers back and pushes new layers to the map', () => {
    const { source, released, emit } = fakeSource();
    let clock = 0;
    const c = new MonitorController(source, { clusters: false, schedule: (cb) => cb(), now: () => clock });
    const onLayers = vi.fn();
    c.subscribeLayers(onLayers);
    const f = frame([VehicleState.Driving, VehicleState.Parking, VehicleState.Offline]);
    emit(f);
    expect(released).toEqual([f]);
    expect(onLayers).toHaveBeenCalledTimes(1);
    expect(c.layers().map((l) => l.id)).toContain('monitor-vehicles');
    expect(c.getPanel().listLength).toBe(3);
    clock = 100;
    emit(frame([2, 3, 1]));
    expect(onLayers).toHaveBeenCalledTimes(2);
  });

  it('applies only the newest of several frames that arrive before a render', () => {
    const { source, released, emit } = fakeSource();
    const queued: (() => void)[] = [];
    const c = new MonitorController(source, { clusters: false, schedule: (cb) => queued.push(cb) });
    const a = frame([2]);
    const b = frame([3]);
    emit(a);
    emit(b);
    expect(released).toEqual([a]); // dropped unseen, straight back to the worker
    queued.forEach((cb) => cb());
    expect(released).toEqual([a, b]);
    expect(c.stateOf(10)).toBe(3);
  });

  it('spreads the work of a frame: positions in one animation frame, the list in the next', () => {
    const { source, emit } = fakeSource();
    const queued: (() => void)[] = [];
    const c = new MonitorController(source, { clusters: false, schedule: (cb) => queued.push(cb) });
    emit(frame([VehicleState.Driving, VehicleState.Parking]));
    queued.shift()!();
    expect(c.fleet.views().count).toBe(2); // the map draws the fleet in this frame
    expect(c.getPanel().listLength).toBe(0); // the list pass waits for the next one
    expect(queued).toHaveLength(1);
    queued.shift()!();
    expect(c.getPanel().listLength).toBe(2);
    expect(queued).toHaveLength(0); // nothing left: no animation frame is requested while idle
  });

  it('refreshes the list while frames keep coming every animation frame (a gliding fleet)', () => {
    const { source, emit } = fakeSource();
    const queued: (() => void)[] = [];
    const c = new MonitorController(source, { clusters: false, schedule: (cb) => queued.push(cb) });
    for (let i = 0; i < 4; i++) {
      emit(frame([VehicleState.Driving, VehicleState.Parking, VehicleState.Idling]));
      queued.shift()?.();
    }
    expect(c.getPanel().listLength).toBe(3);
  });

  it('lists the vehicles of the chosen state tab', () => {
    const { source, emit } = fakeSource();
    const c = new MonitorController(source, { clusters: false, schedule: (cb) => cb() });
    emit(frame([VehicleState.Driving, VehicleState.Parking, VehicleState.Idling, VehicleState.Offline, VehicleState.NeverOnline]));
    c.setTab('online');
    expect(c.getPanel().listLength).toBe(3);
    expect([0, 1, 2].map((r) => c.listId(r))).toEqual([10, 11, 12]);
    c.setTab('neverOnline');
    expect(c.getPanel().listLength).toBe(1);
    expect(c.listId(0)).toBe(14);
    expect(inTab('offline', VehicleState.Offline)).toBe(true);
    expect(inTab('online', VehicleState.Offline)).toBe(false);
  });

  it('loads plates of the rows on screen in one batched directory call', async () => {
    const { source, emit, directoryCalls } = fakeSource();
    const c = new MonitorController(source, { clusters: false, schedule: (cb) => cb() });
    emit(frame([2, 2, 2]));
    expect(c.entry(10)).toBeUndefined();
    expect(c.entry(11)).toBeUndefined();
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(directoryCalls).toEqual([[10, 11]]);
    expect(c.entry(10)?.plate).toBe('京A10');
  });

  it('forwards the monitoring selection and the display CRS to the stream', () => {
    const { source } = fakeSource();
    const c = new MonitorController(source, { clusters: false, schedule: (cb) => cb() });
    c.selection.toggle(10);
    expect(source.setSelection).toHaveBeenCalledWith([10]);
    c.setDisplayCrs('gcj02');
    expect(source.setDisplayCrs).toHaveBeenCalledWith('gcj02');
    c.dispose();
    expect(source.dispose).toHaveBeenCalled();
  });

  it('choosing a vehicle (search, tree, list, map) focuses it and flies the map to where it is now', () => {
    const { source, emit } = fakeSource();
    const c = new MonitorController(source, { clusters: false, schedule: (cb) => cb() });
    const f = frame([VehicleState.Driving, VehicleState.Offline]);
    f.positions.set([116.3, 39.9, 121.47, 31.23]);
    emit(f);
    const flights: [number, number][] = [];
    c.flyTo = (lng, lat) => flights.push([lng, lat]);
    expect(c.choose(11)).toBe(true);
    expect(flights).toHaveLength(1);
    expect(flights[0]![0]).toBeCloseTo(121.47, 4);
    expect(flights[0]![1]).toBeCloseTo(31.23, 4);
    // The focused vehicle gets the red ring of the highlight layer.
    const ring = c.layers().find((l) => l.id === 'monitor-highlight');
    expect((ring?.props as { data: number[] }).data).toEqual([1]);
    expect(c.isOnline(11)).toBe(false);
    expect(c.isOnline(10)).toBe(true);
    // A vehicle the stream does not know yet: no flight, the card still opens.
    expect(c.choose(99)).toBe(false);
    expect(flights).toHaveLength(1);
    expect(c.isOnline(99)).toBeUndefined();
  });

  it('labels plates of the vehicles in view from street zoom on, after their plates arrived', async () => {
    const { source, emit, directoryCalls } = fakeSource();
    let clock = 0;
    const c = new MonitorController(source, { clusters: false, schedule: (cb) => cb(), now: () => clock });
    const f = frame([2, 3, 2]);
    f.positions.set([116.30, 39.90, 116.31, 39.91, 121.47, 31.23]); // the third is in Shanghai, out of view
    emit(f);
    const beijing = { west: 116.2, south: 39.8, east: 116.4, north: 40.0 };
    c.setView({ ...beijing, zoom: 12 });
    expect(c.labelledIds()).toEqual([]);
    expect(directoryCalls).toEqual([]); // below street zoom nothing is even asked
    c.setView({ ...beijing, zoom: 15 });
    await new Promise((r) => setTimeout(r, 0));
    expect(directoryCalls).toEqual([[10, 11]]);
    clock = 1000; // the next panel refresh picks up the plates
    const g = frame([2, 3, 2]);
    g.positions.set(f.positions);
    emit(g);
    expect(c.labelledIds()).toEqual([10, 11]);
    const layer = c.layers().find((l) => l.id === 'monitor-plates');
    expect(layer?.props.visible).toBe(true);
    c.setView({ ...beijing, zoom: 13 });
    expect(c.labelledIds()).toEqual([]);
  });

  it('answers a plate from the directory for the menu', async () => {
    const { source } = fakeSource();
    const c = new MonitorController(source, { clusters: false, schedule: (cb) => cb() });
    expect(await c.plateOf(12)).toBe('京A12');
  });

  it('shows the stream connection state and live counts', () => {
    const { source, emit } = fakeSource();
    const c = new MonitorController(source, { clusters: false, schedule: (cb) => cb() });
    emit({ type: 'status', connection: 'reconnecting', attempt: 3 });
    expect(c.getPanel()).toMatchObject({ connection: 'reconnecting', attempt: 3 });
    emit({ type: 'stats', counts: { total: 5, online: 3, driving: 1, parking: 1, idling: 1, offline: 1, neverOnline: 1 }, errors: 0 });
    expect(c.getPanel().counts?.online).toBe(3);
  });
});
