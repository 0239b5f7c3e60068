/**
 * The monitor page's coordinator (outside React): takes the stream's frames and stats, owns the
 * fleet layers and the cluster worker, and exposes two external stores:
 *   - the layer feed, notified once per frame (MapView hands the layers to deck.gl without React);
 *   - the panel snapshot (counts, connection, list version), notified at ≤ 2 Hz for React.
 * The vehicle list reads ids from here and plates lazily from the worker's directory, only for
 * the rows on screen, so React never holds per-vehicle objects for the fleet.
 */
import { ScatterplotLayer, TextLayer } from '@deck.gl/layers';
import { CollisionFilterExtension } from '@deck.gl/extensions';
import type { Layer } from '@deck.gl/core';
import { VehicleState } from '../../../domain/vehicle/state.ts';
import type { DisplayCrs } from '../../../domain/geo/gcj02.ts';
import { createClusterClient, type ClusterClient } from '../../live/cluster/client.ts';
import type { ClustersResult } from '../../live/cluster/cluster-index.ts';
import { FleetLayers } from './fleet-layers.ts';
import type { Connection, DirectoryEntry, LiveCounts, LiveFrame, LiveMessage, LiveSource } from './live-source.ts';
import { MonitorSelection } from './selection.ts';

export const STATE_TABS = ['all', 'online', 'driving', 'parking', 'idling', 'offline', 'neverOnline'] as const;
export type StateTab = (typeof STATE_TABS)[number];

/** Does a vehicle state belong in a tab? */
export function inTab(tab: StateTab, state: number): boolean {
  switch (tab) {
    case 'all':
      return true;
    case 'online':
      return state >= VehicleState.Driving;
    case 'driving':
      return state === VehicleState.Driving;
    case 'parking':
      return state === VehicleState.Parking;
    case 'idling':
      return state === VehicleState.Idling;
    case 'offline':
      return state === VehicleState.Offline;
    case 'neverOnline':
      return state === VehicleState.NeverOnline;
  }
}

export interface PanelSnapshot {
  counts: LiveCounts | null;
  connection: Connection;
  attempt: number;
  /** Bumps when the list ids or directory entries changed. */
  listVersion: number;
  listLength: number;
  /** Frames received (the e2e checks the fleet arrived). */
  frames: number;
  vehicleCount: number;
}

/** 500 ms: the list and panels follow the stats cadence (≤ 2 Hz), not the 60 Hz frames. */
export const PANEL_INTERVAL_MS = 500;
const FOLLOW_INTERVAL_MS = 1000;
const DIRECTORY_CACHE_MAX = 5000;
/** Plate labels from street zoom on (spec: labels beside vehicles when streets are readable). */
export const LABEL_MIN_ZOOM = 14;
/** Most labels considered at once: at zoom ≥ 14 a screen holds a few streets, rarely more vehicles. */
export const LABEL_MAX = 600;
/** One collision filter for the labels layer (deck.gl extensions are compared by reference). */
const COLLISION = [new CollisionFilterExtension()];

export interface ViewBounds {
  west: number;
  south: number;
  east: number;
  north: number;
  zoom: number;
}

export interface MonitorControllerOptions {
  /** Injected in tests and the benchmark (a worker-less clock and no cluster worker). */
  clusters?: boolean;
  now?: () => number;
  /** Pans the map to a display position (following a vehicle). */
  panTo?: (lng: number, lat: number) => void;
  /** Runs a callback before the next render. @default requestAnimationFrame (tests: run at once) */
  schedule?: (cb: () => void) => void;
  /** Called with the main-thread ms each applied frame cost (the benchmark's data-path figure). */
  onApplied?: (ms: number) => void;
  /** Plate labels at street zoom. @default true (the benchmark's labels-off run measures their cost against false) */
  plateLabels?: boolean;
}

export class MonitorController {
  readonly fleet = new FleetLayers();
  readonly selection = new MonitorSelection();
  private readonly cluster: ClusterClient | null;
  private readonly now: () => number;
  private readonly layerListeners = new Set<() => void>();
  private readonly panelListeners = new Set<() => void>();
  private panel: PanelSnapshot = { counts: null, connection: 'connecting', attempt: 0, listVersion: 0, listLength: 0, frames: 0, vehicleCount: 0 };
  private lastPanelAt = -Infinity;
  /** A frame was drawn inside the 500 ms window after the last panel refresh, so the list lags it. */
  private panelStale = false;
  private lastFollowAt = -Infinity;
  private tab: StateTab = 'all';
  private list = new Int32Array(0);
  private listDirty = true;
  private readonly directoryCache = new Map<number, DirectoryEntry>();
  private readonly pendingDirectory = new Set<number>();
  private currentLayers: Layer[] = [];
  private highlightIdx: number[] = [];
  private view: ViewBounds | null = null;
  /** Layer indices of the vehicles labelled now (in view, not folded into a cluster, plate known). */
  private labelIdx: number[] = [];
  private labelVersion = 0;
  private followId = -1;
  private focusId = -1;
  private unsubscribe: (() => void) | null = null;
  panTo: ((lng: number, lat: number) => void) | undefined;
  /** Flies the map to a chosen vehicle (display position). */
  flyTo: ((lng: number, lat: number) => void) | undefined;
  private pending: LiveFrame | null = null;
  private scheduled = false;
  /** Deferred to later animation frames (see pump): a cluster snapshot, the ≤ 2 Hz panel refresh. */
  private clusterDue = false;
  private panelDue = false;
  private appliedLast = false;
  private lastJob: 'cluster' | 'panel' = 'panel';
  private readonly schedule: (cb: () => void) => void;
  private readonly onApplied: ((ms: number) => void) | undefined;
  private readonly plateLabels: boolean;

  constructor(
    private readonly source: LiveSource,
    opts: MonitorControllerOptions = {},
  ) {
    this.now = opts.now ?? (() => performance.now());
    this.panTo = opts.panTo;
    this.schedule = opts.schedule ?? ((cb) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => cb()) : queueMicrotask(cb)));
    this.onApplied = opts.onApplied;
    this.plateLabels = opts.plateLabels ?? true;
    this.cluster = opts.clusters === false ? null : createClusterClient((r) => this.onClusters(r));
    this.unsubscribe = source.subscribe((m) => this.onMessage(m));
    this.selection.subscribe(() => {
      this.source.setSelection?.([...this.selection.get()]);
      this.refreshHighlights();
      this.emitLayers();
    });
  }

  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.cluster?.dispose();
    this.source.dispose();
    this.layerListeners.clear();
    this.panelListeners.clear();
  }

  // ---- external stores -------------------------------------------------------------------------
  subscribeLayers = (l: () => void): (() => void) => {
    this.layerListeners.add(l);
    return () => this.layerListeners.delete(l);
  };
  layers = (): Layer[] => this.currentLayers;
  subscribePanel = (l: () => void): (() => void) => {
    this.panelListeners.add(l);
    return () => this.panelListeners.delete(l);
  };
  getPanel = (): PanelSnapshot => this.panel;

  private emitLayers(): void {
    this.currentLayers = [...this.fleet.layers(), this.labelLayer(), this.highlightLayer()];
    for (const l of this.layerListeners) l();
  }

  private emitPanel(patch: Partial<PanelSnapshot>): void {
    this.panel = { ...this.panel, ...patch };
    for (const l of this.panelListeners) l();
  }

  // ---- stream ----------------------------------------------------------------------------------
  private onMessage(m: LiveMessage): void {
    switch (m.type) {
      case 'frame':
        this.onFrame(m);
        break;
      case 'stats':
        this.emitPanel({ counts: m.counts });
        // Frames refresh the list at most every 500 ms, so the last frame before the fleet goes quiet
        // (the snapshot right after the worker's first, empty frame; a report while everything is parked)
        // can land inside that window with no later frame to list it. Stats keep their 2 Hz without new
        // data: they carry the panel's trailing refresh.
        if (this.panelStale && !this.panelDue && this.now() - this.lastPanelAt >= PANEL_INTERVAL_MS) {
          this.lastPanelAt = this.now();
          this.panelStale = false;
          this.panelDue = true;
          this.pump();
        }
        break;
      case 'status':
        this.emitPanel({ connection: m.connection, attempt: m.attempt });
        break;
    }
  }

  /**
   * A frame arrived. Only the newest frame per animation frame is applied: when the GPU renders
   * slower than the worker sends (software GL, 100k vehicles), older frames go straight back.
   */
  onFrame(frame: LiveFrame): void {
    if (this.pending) this.source.release(this.pending);
    this.pending = frame;
    this.pump();
  }

  /**
   * One unit of main-thread work per animation frame: the newest stream frame if one waits, else one
   * deferred job (the cluster snapshot, then the ≤ 2 Hz labels + list + panel). Each of those passes
   * over the whole fleet (at 100k: an 800 KB copy, 100k states), so running them in the frame that
   * copied the positions made that frame's p95 three to five times its median (bench/console.bench.ts).
   */
  private pump(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      if (!this.unsubscribe) {
        if (this.pending) this.source.release(this.pending);
        this.pending = null;
        return;
      }
      // A deferred job is not starved by a gliding fleet (a frame every animation frame): after a
      // frame it takes its turn, and the waiting frame (kept newest by onFrame) the one after.
      const jobTurn = this.appliedLast && (this.clusterDue || this.panelDue);
      const f = jobTurn ? null : this.pending;
      if (f) this.pending = null;
      this.appliedLast = f !== null;
      // The two jobs take turns too: every frame marks the cluster snapshot due again.
      const cluster = this.clusterDue && (!this.panelDue || this.lastJob === 'panel');
      if (f) this.applyFrame(f);
      else if (cluster) {
        this.lastJob = 'cluster';
        this.clusterDue = false;
        const views = this.fleet.views();
        this.cluster?.offer(views.positions, views.count);
      } else if (this.panelDue) {
        this.lastJob = 'panel';
        this.panelDue = false;
        const t = this.now();
        if (this.refreshLabels()) this.emitLayers();
        this.refreshPanel(t);
      }
      if (this.pending || this.clusterDue || this.panelDue) this.pump();
    });
  }

  /** Copy into the layer buffers, give the frame back, hand deck.gl new layers; the rest in later frames. */
  private applyFrame(frame: LiveFrame): void {
    const started = this.onApplied ? performance.now() : 0;
    this.fleet.ingest(frame);
    this.source.release(frame);
    if (this.cluster?.due()) this.clusterDue = true;
    const t = this.now();
    if (t - this.lastPanelAt >= PANEL_INTERVAL_MS) {
      // Claimed now so the following frames do not queue it again; runs in a later frame.
      this.lastPanelAt = t;
      this.panelDue = true;
    } else {
      this.panelStale = !this.panelDue;
      if (this.panel.frames === 0) this.emitPanel({ frames: 1 });
    }
    this.emitLayers();
    this.panel.frames++;
    if (this.followId >= 0 && t - this.lastFollowAt >= FOLLOW_INTERVAL_MS) {
      this.lastFollowAt = t;
      const i = this.fleet.indexOf(this.followId);
      if (i >= 0) {
        const [lng, lat] = this.fleet.positionAt(i);
        if (Number.isFinite(lng) && Number.isFinite(lat)) this.panTo?.(lng, lat);
      }
    }
    this.onApplied?.(performance.now() - started);
  }

  /** The ≤ 2 Hz part of a frame: list ids of the state tab, monitored highlights. */
  private refreshPanel(t: number): void {
    this.lastPanelAt = t;
    this.panelStale = false;
    this.listDirty = true;
    this.refreshHighlights();
    this.refreshList();
  }

  private onClusters(r: ClustersResult): void {
    this.fleet.setClusters(r);
    this.emitLayers();
  }

  // ---- view ------------------------------------------------------------------------------------
  setZoom(zoom: number): void {
    this.fleet.setZoom(zoom);
    this.cluster?.setZoom(zoom);
    this.emitLayers();
  }

  /** The map moved: zoom for clusters and arrows, bounds for the plate labels. */
  setView(view: ViewBounds): void {
    this.view = view;
    this.fleet.setZoom(view.zoom);
    this.cluster?.setZoom(view.zoom);
    this.refreshLabels();
    this.emitLayers();
  }

  /**
   * Which vehicles get a plate label (answers whether the label layer must be rebuilt): at ≤ 2 Hz (and on map moves), not per frame — one pass over
   * positions in view, capped at LABEL_MAX; plates not known yet are asked in one directory call
   * and appear at the next refresh. Overlaps are left to the GPU collision filter.
   */
  private refreshLabels(): boolean {
    const v = this.view;
    const before = this.labelIdx.length;
    if (!v || v.zoom < LABEL_MIN_ZOOM || !this.plateLabels) {
      this.labelIdx = [];
      if (before) this.labelVersion++;
      return before > 0;
    }
    const { ids, positions, count } = this.fleet.views();
    const out: number[] = [];
    for (let i = 0; i < count && out.length < LABEL_MAX; i++) {
      const x = positions[2 * i] as number;
      const y = positions[2 * i + 1] as number;
      if (x < v.west || x > v.east || y < v.south || y > v.north || this.fleet.hiddenAt(i)) continue;
      const id = ids[i] as number;
      if (this.directoryCache.has(id)) out.push(i);
      else this.requestDirectory(id);
    }
    this.labelIdx = out;
    this.labelVersion++;
    return true;
  }

  /** Vehicle ids labelled now (tests and the benchmark). */
  labelledIds(): number[] {
    return this.labelIdx.map((i) => this.fleet.idAt(i));
  }

  private labelLayer(): Layer {
    const fleet = this.fleet;
    const cache = this.directoryCache;
    return new TextLayer<number>({
      id: 'monitor-plates',
      data: this.labelIdx,
      getPosition: (i: number) => fleet.positionAt(i),
      getText: (i: number) => cache.get(fleet.idAt(i))?.plate ?? '',
      getSize: 12,
      getColor: [20, 20, 20, 255],
      getPixelOffset: [12, 0],
      getTextAnchor: 'start',
      getAlignmentBaseline: 'center',
      background: true,
      getBackgroundColor: [255, 255, 255, 220],
      backgroundPadding: [3, 1],
      characterSet: 'auto',
      fontFamily: 'system-ui, "PingFang SC", "Microsoft YaHei", sans-serif',
      visible: this.labelIdx.length > 0,
      extensions: COLLISION,
      // Focused and monitored vehicles keep their labels when labels collide.
      getCollisionPriority: (i: number) => (fleet.idAt(i) === this.focusId ? 2 : this.selection.get().has(fleet.idAt(i)) ? 1 : 0),
      updateTriggers: { getPosition: this.panel.frames, getText: this.labelVersion, getCollisionPriority: [this.focusId, this.labelVersion] },
    } as never) as Layer;
  }

  setDisplayCrs(crs: DisplayCrs): void {
    this.source.setDisplayCrs(crs);
  }

  expansionZoom(clusterId: number): Promise<number> {
    return this.cluster?.expansionZoom(clusterId) ?? Promise.resolve(17);
  }

  // ---- list ------------------------------------------------------------------------------------
  setTab(tab: StateTab): void {
    this.tab = tab;
    this.listDirty = true;
    this.refreshList();
  }

  private refreshList(): void {
    if (!this.listDirty) return;
    this.listDirty = false;
    const { ids, states, count } = this.fleet.views();
    const tab = this.tab;
    let n = 0;
    const out = this.list.length >= count ? this.list : new Int32Array(count);
    for (let i = 0; i < count; i++) if (inTab(tab, states[i] as number)) out[n++] = ids[i] as number;
    this.list = out;
    this.emitPanel({ listLength: n, listVersion: this.panel.listVersion + 1, vehicleCount: count });
  }

  /** Vehicle id of list row `row`. */
  listId(row: number): number {
    return row < this.panel.listLength ? (this.list[row] as number) : -1;
  }

  /** Row of a vehicle in the current tab's list, or -1 (scrolls the list to a chosen vehicle). */
  rowOf(vehicleId: number): number {
    const n = this.panel.listLength;
    for (let r = 0; r < n; r++) if (this.list[r] === vehicleId) return r;
    return -1;
  }

  /** Current state of a vehicle (for the row badge), or -1 when unknown. */
  stateOf(vehicleId: number): number {
    const i = this.fleet.indexOf(vehicleId);
    return i < 0 ? -1 : this.fleet.stateAt(i);
  }

  /** Directory entry of a vehicle if loaded; otherwise queues a batched lookup for the visible rows. */
  entry(vehicleId: number): DirectoryEntry | undefined {
    const e = this.directoryCache.get(vehicleId);
    if (!e && vehicleId >= 0) this.requestDirectory(vehicleId);
    return e;
  }

  private requestDirectory(id: number): void {
    if (this.pendingDirectory.has(id)) return;
    const first = this.pendingDirectory.size === 0;
    this.pendingDirectory.add(id);
    // One worker call per render pass: the rows of a scroll frame ask in the same microtask.
    if (first) {
      queueMicrotask(() => {
        const ids = [...this.pendingDirectory];
        void this.source
          .directory(ids)
          .then((entries) => {
            if (this.directoryCache.size > DIRECTORY_CACHE_MAX) this.directoryCache.clear();
            for (const e of entries) this.directoryCache.set(e.vehicleId, e);
            this.emitPanel({ listVersion: this.panel.listVersion + 1 });
          })
          .catch(() => undefined)
          .finally(() => {
            for (const i of ids) this.pendingDirectory.delete(i);
          });
      });
    }
  }

  // ---- selection, follow, focus -----------------------------------------------------------------
  follow(vehicleId: number): void {
    this.followId = vehicleId;
    this.lastFollowAt = -Infinity;
    this.refreshHighlights();
  }
  get following(): number {
    return this.followId;
  }
  focus(vehicleId: number): void {
    this.focusId = vehicleId;
    this.refreshHighlights();
    this.emitLayers();
  }

  /**
   * A vehicle was chosen (list, tree, search, map): it becomes the focused one (its card opens) and
   * the map flies to it. Answers false when the fleet has no position for it (the card still opens).
   */
  choose(vehicleId: number): boolean {
    this.focus(vehicleId);
    const p = this.positionOf(vehicleId);
    if (p) this.flyTo?.(p[0], p[1]);
    return p !== undefined;
  }

  /** Online as the stream knows it now; undefined while the vehicle is not in the fleet yet. */
  isOnline(vehicleId: number): boolean | undefined {
    const s = this.stateOf(vehicleId);
    return s < 0 ? undefined : s >= VehicleState.Driving;
  }

  /** Plate of one vehicle (directory cache, else one worker lookup); '' when unknown. */
  async plateOf(vehicleId: number): Promise<string> {
    const cached = this.directoryCache.get(vehicleId);
    if (cached) return cached.plate;
    const [e] = await this.source.directory([vehicleId]).catch(() => []);
    return e?.plate ?? '';
  }

  /** Display position of a vehicle now (for flyTo from the list), or undefined. */
  positionOf(vehicleId: number): [number, number] | undefined {
    const i = this.fleet.indexOf(vehicleId);
    if (i < 0) return undefined;
    const p = this.fleet.positionAt(i);
    return Number.isFinite(p[0]) && Number.isFinite(p[1]) ? p : undefined;
  }

  private refreshHighlights(): void {
    const want = new Set(this.selection.get());
    if (this.followId >= 0) want.add(this.followId);
    if (this.focusId >= 0) want.add(this.focusId);
    this.highlightIdx = [...want].map((id) => this.fleet.indexOf(id)).filter((i) => i >= 0);
  }

  private highlightLayer(): Layer {
    const fleet = this.fleet;
    const focus = this.focusId;
    return new ScatterplotLayer<number>({
      id: 'monitor-highlight',
      data: this.highlightIdx,
      getPosition: (i) => fleet.positionAt(i),
      radiusUnits: 'pixels',
      getRadius: (i) => (fleet.idAt(i) === focus ? 13 : 10),
      filled: false,
      stroked: true,
      lineWidthUnits: 'pixels',
      getLineWidth: 2.5,
      getLineColor: (i) => (fleet.idAt(i) === focus ? [220, 40, 40, 255] : [255, 196, 0, 255]),
      // Positions glide every frame: re-read the ≤ 100 highlighted vehicles each time.
      updateTriggers: { getPosition: this.panel.frames, getRadius: focus, getLineColor: focus },
    }) as Layer;
  }
}
