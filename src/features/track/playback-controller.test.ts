import { describe, expect, it } from 'vitest';
import { decodeTrack, encodeTrack } from '../../../proto/track-codec.ts';
import type { TrackClient } from '../../live/track/client.ts';
import { TrackCore } from '../../live/track/track-core.ts';
import { synthTrack } from '../../live/track/synthetic.ts';
import { PlaybackController } from './playback-controller.ts';

/** A client over an in-process TrackCore: vehicle v's track starts v minutes after the first. */
function fakeClient(): { client: TrackClient; loads: number[] } {
  const loads: number[] = [];
  let current = 0;
  const core = new TrackCore({
    decode: decodeTrack,
    fetch: async () => {
      // Parked 10 min at the end of every 2,000 s: two stops per track.
      const t = synthTrack(4000, { start: Date.UTC(2026, 10, 1) + current * 60_000, stopEvery: 2000, stopLength: 600 });
      t.vehicleId = current;
      return new Response(encodeTrack(t) as BodyInit, { headers: { 'content-type': 'application/x-protobuf' } });
    },
  });
  const client: TrackClient = {
    async load(vehicleId, startTime, endTime, opts) {
      loads.push(vehicleId);
      current = vehicleId;
      return core.load({ url: 'http://x/', token: 't', lang: 'zh', vehicleId, startTime, endTime, crs: opts.crs, zoom: opts.zoom, stopMinutes: opts.stopMinutes });
    },
    path: async (key, bucket) => core.path(key, bucket),
    stops: async (key, minutes) => core.stops(key, minutes),
    release: (key) => core.release(key),
    dispose: () => undefined,
  };
  return { client, loads };
}

function controller() {
  const { client, loads } = fakeClient();
  let now = 0;
  const frames: (() => void)[] = [];
  const c = new PlaybackController({ client, now: () => now, requestFrame: (cb) => frames.push(cb), cancelFrame: () => undefined });
  const step = (ms: number) => {
    now += ms;
    for (const f of frames.splice(0)) f();
  };
  return { c, loads, step };
}

describe('the playback controller', () => {
  it('refuses the 21st vehicle without asking the server', async () => {
    const { c, loads } = controller();
    for (let v = 1; v <= 20; v++) expect((await c.load(v, 0, 1, 'wgs84')).kind).toBe('added');
    expect(await c.load(21, 0, 1, 'wgs84')).toEqual({ kind: 'limit' });
    expect(loads).toHaveLength(20);
    expect(c.getPanel().tracks).toHaveLength(20);
    expect(new Set(c.getPanel().tracks.map((t) => t.color)).size).toBe(20);
  });

  it('loads a vehicle again with the new period in place of the old one', async () => {
    const { c } = controller();
    await c.load(1, 0, 1, 'wgs84');
    const again = await c.load(1, 0, 2, 'wgs84');
    expect(again.kind).toBe('replaced');
    expect(c.getPanel().tracks).toHaveLength(1);
  });

  it('moves every loaded vehicle on the shared clock and tells frame listeners the time', async () => {
    const { c, step } = controller();
    await c.load(1, 0, 1, 'wgs84');
    await c.load(2, 0, 1, 'wgs84');
    const seen: number[] = [];
    c.onFrame((t) => seen.push(t));
    const start = c.clock.get().start;
    c.setSpeed('slow');
    c.play();
    step(16);
    step(1000);
    expect(seen.at(-1)).toBe(start + 1016 * 10);
    // The second vehicle's track starts a minute later: after 10 s of track time it is not shown yet.
    expect(c.set.visible[0]).toBe(1);
    expect(c.set.visible[1]).toBe(0);
    c.seek(start + 120_000);
    step(16);
    expect(c.set.visible[1]).toBe(1);
    expect(c.layers().map((l) => l.id)).toEqual(['track-paths', 'track-gaps', 'track-alarms', 'track-stops', 'track-drift']);
    expect(c.vehicleLayers().map((l) => l.id)).toEqual(['track-vehicles', 'track-headings']);
  });

  it('moves the vehicles every frame without handing deck.gl new path or marker layers', async () => {
    // Software WebGL redraws a canvas whole when any of its layers changes: the path must stay put.
    const { c, step } = controller();
    await c.load(1, 0, 1, 'wgs84');
    let staticChanges = 0;
    let vehicleChanges = 0;
    c.subscribeLayers(() => staticChanges++);
    c.subscribeVehicles(() => vehicleChanges++);
    const statics = c.layers();
    c.play();
    step(16);
    const first = c.vehicleLayers();
    const at = [c.set.positions[0], c.set.positions[1]];
    step(16);
    step(16);
    expect(vehicleChanges).toBe(3);
    expect(c.vehicleLayers()).not.toBe(first);
    expect([c.set.positions[0], c.set.positions[1]]).not.toEqual(at);
    expect(staticChanges).toBe(0);
    expect(c.layers()).toBe(statics);
    // A change of what the static layers show (the stop filter) hands them over again.
    await c.setStopMinutes(15);
    expect(staticChanges).toBe(1);
    expect(c.layers()).not.toBe(statics);
  });

  it('shows as many stops as the minutes filter keeps', async () => {
    const { c } = controller();
    await c.load(1, 0, 1, 'wgs84');
    expect(c.getPanel().counts.stops).toBe(2);
    await c.setStopMinutes(15);
    expect(c.getPanel().counts.stops).toBe(0);
    await c.setStopMinutes(5);
    expect(c.getPanel().counts.stops).toBe(2);
    expect(c.getPanel().stopMinutes).toBe(5);
  });
});

describe('the vehicle marker', () => {
  it('never jumps to a drift point: it moves between the points around it', async () => {
    const { c, step } = controller();
    const r = await c.load(1, 0, 1, 'wgs84');
    if (r.kind !== 'added') throw new Error(r.kind);
    // synthTrack puts a 0.1° drift spike at point 500.
    expect(r.track.driftFlags[500]).toBe(1);
    c.seek(r.track.time[500]!);
    step(16);
    const lat = c.set.positions[1]!;
    expect(Math.abs(lat - r.track.lat[499]!)).toBeLessThan(0.001);
    expect(Math.abs(lat - r.track.lat[500]!)).toBeGreaterThan(0.05);
  });
});

describe('follow mode', () => {
  it('centres the map on the active vehicle in every frame while on, and leaves the map alone when off', async () => {
    const { c, step } = controller();
    await c.load(1, 0, 1, 'wgs84');
    const centres: [number, number][] = [];
    c.centerOn = (x, y) => centres.push([x, y]);
    c.play();
    step(16);
    expect(centres).toHaveLength(0);
    c.setFollow(true);
    step(16);
    step(16);
    expect(centres).toHaveLength(2);
    expect(centres[1]).toEqual([c.set.positions[0], c.set.positions[1]]);
    c.setFollow(false);
    step(16);
    expect(centres).toHaveLength(2);
  });
});

describe('switching to a GCJ-02 map source', () => {
  it('loads the tracks again with positions in the new display CRS, keeping their colours', async () => {
    const { c } = controller();
    await c.load(1, 0, 1, 'wgs84');
    const colour = c.getPanel().tracks[0]!.color;
    const before = c.set.tracks[0]!.lng[0]!;
    await c.setDisplayCrs('gcj02');
    expect(c.getPanel().tracks).toHaveLength(1);
    expect(c.getPanel().tracks[0]!.color).toBe(colour);
    // GCJ-02 is offset from WGS-84 by a few hundred metres around Beijing.
    expect(Math.abs(c.set.tracks[0]!.lng[0]! - before)).toBeGreaterThan(0.001);
    expect(c.set.tracks[0]!.track.lng[0]).toBeCloseTo(before, 9);
  });
});

describe('markers on the map', () => {
  it('seek to the time of the clicked stop or drift point', async () => {
    const { c } = controller();
    const r = await c.load(1, 0, 1, 'wgs84');
    if (r.kind !== 'added') throw new Error(r.kind);
    expect(c.markerTime('track-drift', 0)).toBe(r.track.time[500]);
    expect(c.markerTime('track-stops', 1)).toBe(r.track.time[r.track.stops[1]!.from]);
    expect(c.markerTime('track-paths', 0)).toBeUndefined();
  });
});
