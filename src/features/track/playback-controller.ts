/**
 * The playback coordinator outside React: the track worker client, the loaded tracks (≤ 20) on one
 * shared clock, the deck.gl layers and the per-frame loop. The layers come as two feeds: the static
 * ones (paths, gaps, stops, drift, alarms; `subscribeLayers`/`layers`, changed only on load, remove,
 * stop filter and zoom bucket: MapView's feed) and the vehicles (`subscribeVehicles`/`vehicleLayers`,
 * every frame: drawn on a canvas of their own by vehicle-overlay.ts, so a frame never redraws the path). React reads the
 * panel snapshot (changes on load, remove, filter and zoom-bucket changes only) and the clock state;
 * per-frame consumers (chart cursor, time label, follow) subscribe with `onFrame`.
 */
import type { Layer } from '@deck.gl/core';
import type { DisplayCrs } from '../../../domain/geo/gcj02.ts';
import { DEFAULT_STOP_MINUTES, type TrackStop } from '../../../domain/track/stops.ts';
import type { TrackClient } from '../../live/track/client.ts';
import { PlaybackClock, type PlaybackSpeed } from '../../live/track/clock.ts';
import type { LoadedTrack, PathBuffers } from '../../live/track/protocol.ts';
import { zoomBucket } from '../../live/track/simplify.ts';
import { TrackSet, type SetTrack } from '../../live/track/track-set.ts';
import { TrackLayers, type MarkerCounts } from './track-layers.ts';

/** A loaded track as the set samples it: display coordinates under the sampler's lng/lat names. */
export interface TrackEntry extends SetTrack {
  readonly track: LoadedTrack;
  stops: TrackStop[];
  /** Paths per zoom bucket, each cut once by the worker. */
  readonly paths: Map<number, PathBuffers>;
}

export interface TrackSummary {
  key: number;
  vehicleId: number;
  plate: string;
  color: string;
  points: number;
  total: number;
  mileageKm: number;
}

export interface PanelSnapshot {
  version: number;
  tracks: TrackSummary[];
  /** Key of the track whose chart, table and lists show; −1 when none. */
  active: number;
  loading: boolean;
  counts: MarkerCounts;
  stopMinutes: number;
  following: boolean;
}

export type LoadResult =
  | { kind: 'added' | 'replaced'; key: number; track: LoadedTrack }
  | { kind: 'limit' }
  | { kind: 'empty' }
  | { kind: 'error'; code: number; msg: string };

export interface ControllerDeps {
  client: TrackClient;
  requestFrame?: (cb: () => void) => number;
  cancelFrame?: (id: number) => void;
  now?: () => number;
}

/** What the lists show for the active track: stops (filtered), drift points, alarm runs, gaps. */
function countsOf(e: TrackEntry | undefined): MarkerCounts {
  if (!e) return { stops: 0, drift: 0, alarms: 0, gaps: 0 };
  return { stops: e.stops.length, drift: e.track.drift.length, alarms: alarmRuns(e.track).length, gaps: e.track.gaps.length };
}

/** Alarm episodes: the first point of each run of consecutive points with the same non-zero alarm word. */
/**
 * The columns the vehicle marker is interpolated over: drift points left out, so the marker does not
 * jump to a spike and back (the spike stays marked on the map and listed). The track's own columns
 * when there is no drift; otherwise one copy (≈ 20 MB for a 1 Hz week, once per load).
 */
export function withoutDrift(t: LoadedTrack): Pick<SetTrack, 'time' | 'lng' | 'lat' | 'heading' | 'speed'> {
  const d = t.drift.length;
  if (d === 0) return { time: t.time, lng: t.x, lat: t.y, heading: t.heading, speed: t.speed };
  const m = t.time.length - d;
  const out = { time: new Float64Array(m), lng: new Float64Array(m), lat: new Float64Array(m), heading: new Uint16Array(m), speed: new Float32Array(m) };
  for (let i = 0, k = 0; i < t.time.length; i++) {
    if (t.driftFlags[i] === 1) continue;
    out.time[k] = t.time[i]!;
    out.lng[k] = t.x[i]!;
    out.lat[k] = t.y[i]!;
    out.heading[k] = t.heading[i]!;
    out.speed[k] = t.speed[i]!;
    k++;
  }
  return out;
}

const runsCache = new WeakMap<object, number[]>();
export function alarmRuns(track: Pick<LoadedTrack, 'alarm' | 'alarmPoints'>): number[] {
  const cached = runsCache.get(track.alarmPoints);
  if (cached) return cached;
  const out: number[] = [];
  runsCache.set(track.alarmPoints, out);
  const a = track.alarmPoints;
  for (let j = 0; j < a.length; j++) {
    const i = a[j]!;
    if (j === 0 || a[j - 1] !== i - 1 || track.alarm[i - 1] !== track.alarm[i]) out.push(i);
  }
  return out;
}

const css = (c: readonly [number, number, number]) => `rgb(${c[0]}, ${c[1]}, ${c[2]})`;

export class PlaybackController {
  readonly clock: PlaybackClock;
  readonly set = new TrackSet<TrackEntry>();
  private readonly client: TrackClient;
  private readonly requestFrame: (cb: () => void) => number;
  private readonly cancelFrame: (id: number) => void;
  private readonly trackLayers = new TrackLayers();
  private bucket = zoomBucket(4.1);
  private frame = 0;
  private raf = 0;
  private active = -1;
  private loading = 0;
  private stopMinutes = DEFAULT_STOP_MINUTES;
  private following = false;
  private panel: PanelSnapshot;
  private vehicles: Layer[] = [];
  private readonly layerListeners = new Set<() => void>();
  private readonly vehicleListeners = new Set<() => void>();
  private readonly panelListeners = new Set<() => void>();
  private readonly frameListeners = new Set<(t: number) => void>();
  private disposed = false;
  /** The display CRS the loaded tracks' map positions are in. */
  private crs: DisplayCrs = 'wgs84';
  /** Centres the map on a display position (follow mode); set by the page. */
  centerOn: ((x: number, y: number) => void) | null = null;

  constructor(deps: ControllerDeps) {
    this.client = deps.client;
    this.clock = new PlaybackClock(deps.now);
    this.requestFrame = deps.requestFrame ?? ((cb) => requestAnimationFrame(cb));
    this.cancelFrame = deps.cancelFrame ?? ((id) => cancelAnimationFrame(id));
    this.panel = this.snapshot();
    this.trackLayers.rebuild([]);
    this.clock.subscribe(() => this.schedule());
    // Hand deck.gl the (empty) layers now: their shaders compile while the operator picks a vehicle,
    // not in the first frame of a loaded track (≈ 100–200 ms on software WebGL).
    this.schedule();
  }

  // ------------------------------------------------------------------ tracks

  /** Loads a vehicle's period; a vehicle already loaded gets the new period in place (same colour). */
  async load(vehicleId: number, startTime: number, endTime: number, crs: DisplayCrs): Promise<LoadResult> {
    this.crs = crs;
    const existing = this.set.tracks.find((t) => t.vehicleId === vehicleId);
    if (!existing && this.set.size >= 20) return { kind: 'limit' };
    this.loading++;
    this.publishPanel();
    try {
      const answer = await this.client.load(vehicleId, startTime, endTime, { crs, zoom: this.bucket, stopMinutes: this.stopMinutes });
      if (this.disposed) return { kind: 'error', code: 0, msg: '' };
      if (!answer.ok) return { kind: 'error', code: answer.code, msg: answer.msg };
      const track = answer.track;
      if (track.time.length === 0) {
        this.client.release(track.key);
        return { kind: 'empty' };
      }
      const entry: TrackEntry = {
        key: track.key, vehicleId: track.vehicleId || vehicleId, ...withoutDrift(track), track, stops: track.stops,
        paths: new Map([[track.path.bucket, track.path]]),
      };
      let kind: 'added' | 'replaced' = 'added';
      const old = this.set.replace(entry);
      if (old) {
        kind = 'replaced';
        this.client.release(old.key);
      } else if (this.set.add(entry) === 'limit') {
        this.client.release(track.key);
        return { kind: 'limit' };
      }
      this.active = track.key;
      this.rangeChanged(kind === 'added' && this.set.size === 1 ? track.time[0]! : undefined);
      await this.ensurePaths();
      this.rebuild();
      return { kind, key: track.key, track };
    } finally {
      this.loading--;
      this.publishPanel();
    }
  }

  /**
   * The map source switched CRS (WGS-84 ↔ GCJ-02): load every track again in the new one (same
   * periods, same colours). The worker converts while it indexes, so positions stay transferred columns.
   */
  async setDisplayCrs(crs: DisplayCrs): Promise<void> {
    if (crs === this.crs) return;
    this.crs = crs;
    for (const e of [...this.set.tracks]) await this.load(e.vehicleId, e.track.startTime, e.track.endTime, crs);
  }

  remove(key: number): void {
    const t = this.set.remove(key);
    if (!t) return;
    this.client.release(key);
    if (this.active === key) this.active = this.set.tracks[0]?.key ?? -1;
    this.rangeChanged();
    this.rebuild();
  }

  /** The time of a clicked stop, drift or alarm marker (undefined for anything else). */
  markerTime(layerId: string, index: number): number | undefined {
    return this.trackLayers.timeOf(layerId, index);
  }

  setActive(key: number): void {
    if (this.active === key) return;
    this.active = key;
    this.publishPanel();
  }

  activeEntry(): TrackEntry | undefined {
    return this.set.tracks.find((t) => t.key === this.active);
  }

  /** Stops again with the minutes filter, through the rule module in the worker. */
  async setStopMinutes(minutes: number): Promise<void> {
    if (!(minutes >= 0) || minutes === this.stopMinutes) return;
    this.stopMinutes = minutes;
    const entries = [...this.set.tracks];
    const answers = await Promise.all(entries.map((e) => this.client.stops(e.key, minutes)));
    // A newer filter value may have been asked for while these were computed.
    if (this.stopMinutes !== minutes) return;
    entries.forEach((e, i) => {
      e.stops = answers[i] ?? e.stops;
    });
    this.rebuild();
  }

  async setZoom(zoom: number): Promise<void> {
    const b = zoomBucket(zoom);
    if (b === this.bucket) return;
    this.bucket = b;
    await this.ensurePaths();
    if (this.bucket === b) this.rebuild();
  }

  // ------------------------------------------------------------------ playback

  play(): void {
    this.clock.play();
  }

  pause(): void {
    this.clock.pause();
  }

  seek(time: number): void {
    this.clock.seek(time);
  }

  setSpeed(speed: PlaybackSpeed): void {
    this.clock.setSpeed(speed);
  }

  setFollow(on: boolean): void {
    this.following = on;
    this.publishPanel();
    this.schedule();
  }

  /** The track time now (per-frame consumers read it in their listener instead). */
  get time(): number {
    return this.clock.currentTime;
  }

  // ------------------------------------------------------------------ subscriptions

  /** The static layers changed (a rebuild): never called per frame. */
  subscribeLayers = (l: () => void): (() => void) => {
    this.layerListeners.add(l);
    return () => this.layerListeners.delete(l);
  };

  layers = (): readonly Layer[] => this.trackLayers.staticLayers();

  /** The vehicle layers changed: once per drawn frame. */
  subscribeVehicles = (l: () => void): (() => void) => {
    this.vehicleListeners.add(l);
    return () => this.vehicleListeners.delete(l);
  };

  vehicleLayers = (): readonly Layer[] => this.vehicles;

  subscribePanel = (l: () => void): (() => void) => {
    this.panelListeners.add(l);
    return () => this.panelListeners.delete(l);
  };

  getPanel = (): PanelSnapshot => this.panel;

  /** Called once per drawn frame with the track time. */
  onFrame(l: (t: number) => void): () => void {
    this.frameListeners.add(l);
    return () => this.frameListeners.delete(l);
  }

  dispose(): void {
    this.disposed = true;
    if (this.raf) this.cancelFrame(this.raf);
    this.raf = 0;
    this.client.dispose();
    this.layerListeners.clear();
    this.vehicleListeners.clear();
    this.panelListeners.clear();
    this.frameListeners.clear();
  }

  // ------------------------------------------------------------------ internals

  /** One frame: advance the clock, sample every vehicle, hand deck.gl the vehicle layers, tell listeners. */
  renderFrame = (): void => {
    this.raf = 0;
    if (this.disposed) return;
    const t = this.clock.tick();
    this.set.sampleAll(t);
    this.frame++;
    this.vehicles = this.trackLayers.vehicleLayers(
      { count: this.set.size, positions: this.set.positions, headings: this.set.headings, visible: this.set.visible, colorOf: (slot) => this.set.color(this.set.tracks[slot]?.key ?? -1) },
      this.frame,
    );
    for (const l of this.vehicleListeners) l();
    for (const l of this.frameListeners) l(t);
    if (this.following && this.centerOn) {
      const slot = this.set.tracks.findIndex((e) => e.key === this.active);
      if (slot >= 0 && this.set.visible[slot] === 1) this.centerOn(this.set.positions[2 * slot]!, this.set.positions[2 * slot + 1]!);
    }
    if (this.clock.isPlaying) this.schedule();
  };

  private schedule(): void {
    if (this.raf || this.disposed) return;
    this.raf = this.requestFrame(this.renderFrame);
  }

  private rangeChanged(startAt?: number): void {
    const r = this.set.range();
    if (!r) {
      this.clock.pause();
      this.clock.setRange(0, 0);
      return;
    }
    this.clock.setRange(r.start, r.end);
    if (startAt !== undefined) this.clock.seek(startAt);
  }

  private async ensurePaths(): Promise<void> {
    const b = this.bucket;
    await Promise.all(
      this.set.tracks.map(async (e) => {
        if (e.paths.has(b)) return;
        const p = await this.client.path(e.key, b);
        if (p) e.paths.set(b, p);
      }),
    );
  }

  /** The path of the current bucket, or the nearest one cut so far while it is being cut. */
  private pathOf(e: TrackEntry): PathBuffers {
    const exact = e.paths.get(this.bucket);
    if (exact) return exact;
    let best: PathBuffers = e.track.path;
    for (const p of e.paths.values()) if (Math.abs(p.bucket - this.bucket) < Math.abs(best.bucket - this.bucket)) best = p;
    return best;
  }

  private rebuild(): void {
    this.trackLayers.rebuild(
      this.set.tracks.map((e) => ({
        key: e.key, color: this.set.color(e.key), path: this.pathOf(e), gapPositions: e.track.gapPositions, x: e.track.x, y: e.track.y, time: e.track.time,
        stops: e.stops, drift: e.track.drift, alarmPoints: e.track.alarmPoints,
      })),
    );
    for (const l of this.layerListeners) l();
    this.publishPanel();
    this.schedule();
  }

  private snapshot(): PanelSnapshot {
    return {
      version: (this.panel?.version ?? 0) + 1,
      tracks: this.set.tracks.map((e) => ({
        key: e.key, vehicleId: e.vehicleId, plate: e.track.plate, color: css(this.set.color(e.key)), points: e.track.count, total: e.track.total,
        mileageKm: e.track.mileageKm,
      })),
      active: this.active,
      loading: this.loading > 0,
      counts: countsOf(this.activeEntry()),
      stopMinutes: this.stopMinutes,
      following: this.following,
    };
  }

  private publishPanel(): void {
    this.panel = this.snapshot();
    for (const l of this.panelListeners) l();
  }
}
