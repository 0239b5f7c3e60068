/**
 * The fleet's deck.gl layers, fed with binary attributes (no per-vehicle objects, no accessor
 * functions on the hot path). Each frame of the stream is copied into buffers owned here (so the
 * frame goes straight back to the worker), colours are one 32-bit store per vehicle, and every
 * attribute descriptor object is replaced only when its contents changed: deck.gl compares the
 * descriptor by reference and skips the GPU upload for an unchanged one.
 *
 * Layer ids are stable; layers are toggled with `visible`, never added or removed.
 */
import { IconLayer, ScatterplotLayer, TextLayer } from '@deck.gl/layers';
import type { Layer } from '@deck.gl/core';
import type { ClustersResult } from '../../live/cluster/cluster-index.ts';
import type { LiveFrame } from './live-source.ts';
import { ALARM_WORD, STATE_WORDS } from './palette.ts';

/** Heading arrows from this zoom on; below it a vehicle is a dot. */
export const HEADING_MIN_ZOOM = 9;
const DOT_RADIUS_PX = 4;
const ARROW_SIZE_PX = 18;
const ICON_SIZE = 64;

interface Attr<T extends ArrayBufferView> {
  value: T;
  size: number;
  normalized?: boolean;
}

/** Binary data as deck.gl takes it: `{length, attributes}`. */
export interface BinaryData {
  length: number;
  attributes: Record<string, Attr<ArrayBufferView> | ArrayBufferView>;
}

let arrowAtlas: string | undefined;

/** A white arrow pointing up (north) on a 64×64 canvas: `mask` icons take each vehicle's colour. */
export function arrowAtlasUrl(): string {
  if (arrowAtlas !== undefined) return arrowAtlas;
  if (typeof document === 'undefined') return (arrowAtlas = '');
  const c = document.createElement('canvas');
  c.width = ICON_SIZE;
  c.height = ICON_SIZE;
  const g = c.getContext('2d');
  if (g) {
    g.fillStyle = '#fff';
    g.beginPath();
    g.moveTo(32, 4);
    g.lineTo(54, 58);
    g.lineTo(32, 46);
    g.lineTo(10, 58);
    g.closePath();
    g.fill();
  }
  arrowAtlas = c.toDataURL();
  return arrowAtlas;
}

const ICON_MAPPING = { arrow: { x: 0, y: 0, width: ICON_SIZE, height: ICON_SIZE, mask: true } };

export class FleetLayers {
  count = 0;
  private capacity = 0;
  private ids = new Int32Array(0);
  private positions = new Float32Array(0);
  private states = new Uint8Array(0);
  private colors = new Uint8Array(0);
  private colors32 = new Uint32Array(0);
  private angles = new Float32Array(0);
  /** 1 = drawn, 0 = folded into a cluster: multiplies the dot radius and the arrow size. */
  private scales = new Float32Array(0);
  /** IconLayer's packed per-instance icon definition (offset x/y, frame x/y/w/h, mask): constant. */
  private iconDefs = new Float32Array(0);
  /** Same view object while the count stays: deck.gl re-uploads an external buffer only when it changes. */
  private iconDefsView = new Float32Array(0);
  private clusters: ClustersResult | null = null;
  private hidden: Uint8Array | null = null;
  private zoom = 4;
  private frameNo = 0;

  private positionAttr: Attr<Float32Array> = { value: this.positions, size: 2 };
  private colorAttr: Attr<Uint8Array> = { value: this.colors, size: 4, normalized: true };
  private angleAttr: Attr<Float32Array> = { value: this.angles, size: 1 };
  private scaleAttr: Attr<Float32Array> = { value: this.scales, size: 1 };
  private vehicleData: BinaryData = { length: 0, attributes: {} };
  private arrowData: BinaryData = { length: 0, attributes: {} };
  private clusterData: BinaryData = { length: 0, attributes: {} };
  private clusterLabels: number[] = [];

  /** Vehicle id at a layer index (a picked vehicle), or -1. */
  idAt(index: number): number {
    return index >= 0 && index < this.count ? (this.ids[index] as number) : -1;
  }

  /** Index of a vehicle id, or -1 (linear: used for ≤ 100 selected vehicles at ≤ 2 Hz). */
  indexOf(vehicleId: number): number {
    const n = this.count;
    const ids = this.ids;
    for (let i = 0; i < n; i++) if (ids[i] === vehicleId) return i;
    return -1;
  }

  /** Current display position of a layer index. */
  positionAt(index: number): [number, number] {
    return [this.positions[2 * index] as number, this.positions[2 * index + 1] as number];
  }

  /** True when the vehicle at a layer index is folded into a cluster (not drawn). */
  hiddenAt(index: number): boolean {
    return this.scales[index] === 0;
  }

  stateAt(index: number): number {
    return this.states[index] as number;
  }

  /** Ids and states for the list panel (read-only views, valid until the next frame). */
  views(): { ids: Int32Array; states: Uint8Array; positions: Float32Array; count: number } {
    return { ids: this.ids.subarray(0, this.count), states: this.states.subarray(0, this.count), positions: this.positions.subarray(0, this.count * 2), count: this.count };
  }

  private grow(n: number): void {
    if (n <= this.capacity) return;
    const cap = Math.max(1024, 1 << Math.ceil(Math.log2(n)));
    const copy = <T extends Float32Array | Int32Array | Uint8Array>(old: T, next: T): T => {
      next.set(old);
      return next;
    };
    this.ids = copy(this.ids, new Int32Array(cap));
    this.positions = copy(this.positions, new Float32Array(cap * 2));
    this.states = copy(this.states, new Uint8Array(cap));
    this.colors = copy(this.colors, new Uint8Array(cap * 4));
    this.colors32 = new Uint32Array(this.colors.buffer);
    this.angles = copy(this.angles, new Float32Array(cap));
    const scales = new Float32Array(cap).fill(1);
    scales.set(this.scales.subarray(0, this.count));
    this.scales = scales;
    this.iconDefs = new Float32Array(cap * 7);
    for (let i = 0; i < cap; i++) {
      const k = i * 7;
      this.iconDefs[k + 4] = ICON_SIZE;
      this.iconDefs[k + 5] = ICON_SIZE;
      this.iconDefs[k + 6] = 1;
    }
    this.capacity = cap;
    this.scaleAttr = { value: this.scales, size: 1 };
    this.applyHidden();
  }

  /**
   * Takes a stream frame. Cost at 100k vehicles: one 800 KB copy plus one pass over states
   * (~0.3 ms); arrows add one pass over headings only when they show.
   */
  ingest(frame: LiveFrame): void {
    const n = frame.count;
    this.grow(n);
    const countChanged = n !== this.count;
    this.count = n;
    this.frameNo++;
    this.positions.set(frame.positions.subarray(0, n * 2));
    this.positionAttr = { value: this.positions, size: 2 };
    this.ids.set(frame.ids.subarray(0, n));
    this.states.set(frame.states.subarray(0, n));
    const words = this.colors32;
    const states = frame.states;
    const alarm = frame.alarm;
    let colorsChanged = countChanged;
    for (let i = 0; i < n; i++) {
      const w = alarm[i] ? ALARM_WORD : (STATE_WORDS[(states[i] as number) & 7] as number);
      if (words[i] !== w) {
        words[i] = w;
        colorsChanged = true;
      }
    }
    if (colorsChanged) this.colorAttr = { value: this.colors, size: 4, normalized: true };
    if (this.zoom >= HEADING_MIN_ZOOM) {
      // deck.gl angles turn counter-clockwise; headings turn clockwise from north.
      const h = frame.headings;
      const a = this.angles;
      for (let i = 0; i < n; i++) a[i] = -(h[i] as number);
      this.angleAttr = { value: this.angles, size: 1 };
    }
    if (countChanged) {
      this.iconDefsView = this.iconDefs.subarray(0, n * 7);
      this.applyHidden();
    }
    this.vehicleData = {
      length: n,
      // The scale (0 = folded into a cluster) also zeroes the outline, or hidden dots leave rings.
      attributes: { getPosition: this.positionAttr, getFillColor: this.colorAttr, getRadius: this.scaleAttr, getLineWidth: this.scaleAttr },
    };
    this.arrowData = {
      length: n,
      attributes: {
        getPosition: this.positionAttr,
        getColor: this.colorAttr,
        getAngle: this.angleAttr,
        getSize: this.scaleAttr,
        instanceIconDefs: this.iconDefsView,
      },
    };
  }

  setZoom(zoom: number): void {
    this.zoom = zoom;
  }

  /** Takes the cluster worker's answer: cluster circles and which vehicles they fold away. */
  setClusters(r: ClustersResult): void {
    this.clusters = r;
    this.hidden = r.hidden;
    this.applyHidden();
    this.clusterData = { length: r.clusterCount, attributes: { getPosition: { value: r.positions, size: 2 }, getRadius: { value: r.radii, size: 1 } } };
    this.clusterLabels = Array.from({ length: r.clusterCount }, (_, i) => i);
  }

  /** Size of the cluster at a layer index. */
  clusterSize(index: number): number {
    return (this.clusters?.sizes[index] as number | undefined) ?? 0;
  }

  clusterId(index: number): number {
    return (this.clusters?.ids[index] as number | undefined) ?? -1;
  }

  clusterCount(): number {
    return this.clusters?.clusterCount ?? 0;
  }

  private applyHidden(): void {
    const hidden = this.hidden;
    const s = this.scales;
    const n = this.count;
    // Vehicles beyond the clustered snapshot (new since) are drawn until the next cluster answer.
    const m = hidden ? Math.min(hidden.length, n) : 0;
    for (let i = 0; i < m; i++) s[i] = hidden![i] ? 0 : 1;
    for (let i = m; i < n; i++) s[i] = 1;
    this.scaleAttr = { value: this.scales, size: 1 };
    this.vehicleData = { ...this.vehicleData, attributes: { ...this.vehicleData.attributes, getRadius: this.scaleAttr, getLineWidth: this.scaleAttr } };
    this.arrowData = { ...this.arrowData, attributes: { ...this.arrowData.attributes, getSize: this.scaleAttr } };
  }

  /** The layers for the current data; cheap to call per frame (layer objects are descriptors). */
  layers(): Layer[] {
    const arrows = this.zoom >= HEADING_MIN_ZOOM;
    const clusters = this.clusters;
    const clusterPositions = clusters?.positions;
    return [
      new ScatterplotLayer({
        id: 'monitor-clusters',
        data: this.clusterData as never,
        radiusUnits: 'pixels',
        getFillColor: [30, 110, 220, 190],
        getLineColor: [255, 255, 255, 230],
        lineWidthUnits: 'pixels',
        getLineWidth: 2,
        stroked: true,
        pickable: true,
        visible: (clusters?.clusterCount ?? 0) > 0,
      }) as Layer,
      new TextLayer<number>({
        id: 'monitor-cluster-counts',
        data: this.clusterLabels,
        getPosition: (i) => [clusterPositions?.[2 * i] ?? 0, clusterPositions?.[2 * i + 1] ?? 0],
        getText: (i) => formatCount(clusters?.sizes[i] ?? 0),
        getSize: 12,
        getColor: [255, 255, 255, 255],
        fontWeight: 700,
        characterSet: '0123456789.k',
        visible: (clusters?.clusterCount ?? 0) > 0,
        updateTriggers: { getPosition: clusters, getText: clusters },
      }) as Layer,
      new ScatterplotLayer({
        id: 'monitor-vehicles',
        data: this.vehicleData as never,
        radiusUnits: 'pixels',
        radiusScale: DOT_RADIUS_PX,
        stroked: true,
        getLineColor: [255, 255, 255, 200],
        lineWidthUnits: 'pixels',
        getLineWidth: 1,
        pickable: true,
        visible: !arrows,
      }) as Layer,
      new IconLayer({
        id: 'monitor-headings',
        data: this.arrowData as never,
        iconAtlas: arrowAtlasUrl(),
        iconMapping: ICON_MAPPING,
        getIcon: () => 'arrow',
        sizeUnits: 'pixels',
        sizeScale: ARROW_SIZE_PX,
        // Screen-aligned: the map never rotates or pitches, and a world-plane icon would be drawn
        // upside down (texture rows run south), turning every heading into its mirror image.
        billboard: true,
        pickable: true,
        visible: arrows,
      }) as Layer,
    ];
  }
}

/** Cluster label: 950, 1.2k, 12k (short enough for a 14-px circle). */
export function formatCount(n: number): string {
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}
