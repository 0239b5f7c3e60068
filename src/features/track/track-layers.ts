/**
 * deck.gl layers of track playback, stable ids:
 *   track-paths (driving, one colour per track), track-gaps (discontinuous gaps, amber, thinner),
 *   track-stops, track-drift, track-alarms (markers), track-vehicles + track-headings (per frame).
 * Paths and markers are binary attributes rebuilt only when the tracks, the zoom bucket or the stop
 * filter change; per frame only the ≤ 20 vehicle markers change. The two groups are handed out apart
 * (`staticLayers`, `vehicleLayers`) so that they can be drawn on two canvases: deck.gl redraws every
 * layer of its canvas when any one changes, and on software WebGL redrawing the path each frame is
 * what held playback to a frame or two per second (vehicle-overlay.ts).
 */
import { IconLayer, PathLayer, ScatterplotLayer } from '@deck.gl/layers';
import type { Layer } from '@deck.gl/core';
import type { TrackStop } from '../../../domain/track/stops.ts';
import type { PathBuffers } from '../../live/track/protocol.ts';
import { arrowAtlasUrl } from '../monitor/fleet-layers.ts';

export const GAP_COLOR: [number, number, number, number] = [245, 159, 0, 230];
export const STOP_COLOR: [number, number, number, number] = [47, 158, 68, 255];
export const DRIFT_COLOR: [number, number, number, number] = [190, 75, 219, 255];
export const ALARM_COLOR: [number, number, number, number] = [224, 49, 49, 255];
const ICON_MAPPING = { arrow: { x: 0, y: 0, width: 64, height: 64, mask: true } };

export interface TrackDrawInput {
  key: number;
  color: readonly [number, number, number];
  path: PathBuffers;
  gapPositions: Float32Array;
  x: Float64Array;
  y: Float64Array;
  /** Epoch ms per point: a clicked marker seeks to its time. */
  time: Float64Array;
  stops: readonly TrackStop[];
  drift: Int32Array;
  alarmPoints: Int32Array;
}

interface BinaryData {
  length: number;
  startIndices?: Uint32Array;
  attributes: Record<string, { value: ArrayBufferView; size: number; normalized?: boolean }>;
}

function points(inputs: readonly TrackDrawInput[], pick: (t: TrackDrawInput) => ArrayLike<number>): { data: BinaryData; times: Float64Array } {
  let n = 0;
  for (const t of inputs) n += pick(t).length;
  const pos = new Float32Array(2 * n);
  const times = new Float64Array(n);
  let k = 0;
  for (const t of inputs) {
    const idx = pick(t);
    for (let j = 0; j < idx.length; j++, k++) {
      const i = idx[j]!;
      pos[2 * k] = t.x[i]!;
      pos[2 * k + 1] = t.y[i]!;
      times[k] = t.time[i]!;
    }
  }
  return { data: { length: n, attributes: { getPosition: { value: pos, size: 2 } } }, times };
}

/** Concatenated paths of every track with a per-vertex colour (deck.gl binary PathLayer). */
export function mergePaths(inputs: readonly TrackDrawInput[]): BinaryData {
  let vertices = 0;
  let paths = 0;
  for (const t of inputs) {
    vertices += t.path.vertices;
    paths += t.path.startIndices.length;
  }
  const positions = new Float32Array(2 * vertices);
  const colors = new Uint8Array(4 * vertices);
  const startIndices = new Uint32Array(paths);
  let v = 0;
  let p = 0;
  for (const t of inputs) {
    positions.set(t.path.positions.subarray(0, 2 * t.path.vertices), 2 * v);
    for (const s of t.path.startIndices) startIndices[p++] = s + v;
    const [r, g, b] = t.color;
    for (let j = 0; j < t.path.vertices; j++) {
      const o = 4 * (v + j);
      colors[o] = r;
      colors[o + 1] = g;
      colors[o + 2] = b;
      colors[o + 3] = 230;
    }
    v += t.path.vertices;
  }
  return { length: paths, startIndices, attributes: { getPath: { value: positions, size: 2 }, getColor: { value: colors, size: 4, normalized: true } } };
}

export function mergeGaps(inputs: readonly TrackDrawInput[]): BinaryData {
  let segments = 0;
  for (const t of inputs) segments += t.gapPositions.length / 4;
  const positions = new Float32Array(4 * segments);
  const startIndices = new Uint32Array(segments);
  let s = 0;
  for (const t of inputs) {
    positions.set(t.gapPositions, 4 * s);
    const m = t.gapPositions.length / 4;
    for (let j = 0; j < m; j++) startIndices[s + j] = 2 * (s + j);
    s += m;
  }
  return { length: segments, startIndices, attributes: { getPath: { value: positions, size: 2 } } };
}

export interface MarkerCounts {
  stops: number;
  drift: number;
  alarms: number;
  gaps: number;
}

/** The live vehicles (≤ 20): read by accessors from the shared flat arrays, refreshed per frame by `frame`. */
export interface VehicleView {
  count: number;
  positions: Float32Array;
  headings: Float32Array;
  visible: Uint8Array;
  colorOf(slot: number): readonly [number, number, number];
}

export class TrackLayers {
  private statics: Layer[] = [];
  counts: MarkerCounts = { stops: 0, drift: 0, alarms: 0, gaps: 0 };
  /** Slot numbers 0..count−1: the vehicle layers' data, replaced only when the count changes. */
  private slots: number[] = [];

  /** Marker index → epoch ms, per pickable marker layer. */
  private markerTimes = new Map<string, Float64Array>();

  /** The time of a picked marker (a click on a stop, drift or alarm point seeks there). */
  timeOf(layerId: string, index: number): number | undefined {
    return this.markerTimes.get(layerId)?.[index];
  }

  rebuild(inputs: readonly TrackDrawInput[]): void {
    const stopPts = points(inputs, (t) => t.stops.map((s) => s.from));
    const driftPts = points(inputs, (t) => t.drift);
    const alarmPts = points(inputs, (t) => t.alarmPoints);
    const [stops, drift, alarms] = [stopPts.data, driftPts.data, alarmPts.data];
    this.markerTimes = new Map([['track-stops', stopPts.times], ['track-drift', driftPts.times], ['track-alarms', alarmPts.times]]);
    const gaps = mergeGaps(inputs);
    this.counts = { stops: stops.length, drift: drift.length, alarms: alarms.length, gaps: gaps.length };
    this.statics = [
      new PathLayer({
        id: 'track-paths', data: mergePaths(inputs) as never, _pathType: 'open', widthUnits: 'pixels', getWidth: 4,
        // Miter joints: rounded ones cost fragments on every vertex of a week-long path, and at 4 px
        // the difference is invisible.
      }) as Layer,
      new PathLayer({ id: 'track-gaps', data: gaps as never, _pathType: 'open', widthUnits: 'pixels', getWidth: 2, getColor: GAP_COLOR }) as Layer,
      new ScatterplotLayer({ id: 'track-alarms', data: alarms as never, radiusUnits: 'pixels', getRadius: 2, getFillColor: ALARM_COLOR, pickable: true }) as Layer,
      new ScatterplotLayer({
        id: 'track-stops', data: stops as never, radiusUnits: 'pixels', getRadius: 7, getFillColor: STOP_COLOR, stroked: true, pickable: true,
        lineWidthUnits: 'pixels', getLineWidth: 2, getLineColor: [255, 255, 255, 255],
      }) as Layer,
      new ScatterplotLayer({
        id: 'track-drift', data: drift as never, radiusUnits: 'pixels', getRadius: 5, getFillColor: DRIFT_COLOR, stroked: true, pickable: true,
        lineWidthUnits: 'pixels', getLineWidth: 1, getLineColor: [255, 255, 255, 255],
      }) as Layer,
    ];
  }

  /** Paths and markers: the same array (and layer objects) until the next `rebuild`. */
  staticLayers(): readonly Layer[] {
    return this.statics;
  }

  /**
   * The vehicles at one frame. Accessors, not binary attributes: at ≤ 20 vehicles that is 60
   * accessor calls per frame (≈ 2 µs), and `updateTriggers: {frame}` makes deck.gl re-run them.
   */
  vehicleLayers(v: VehicleView, frame: number): Layer[] {
    if (this.slots.length !== v.count) this.slots = Array.from({ length: v.count }, (_, i) => i);
    const shown = (i: number) => v.visible[i] === 1;
    return [
      new ScatterplotLayer<number>({
        id: 'track-vehicles', data: this.slots, radiusUnits: 'pixels', getRadius: (i) => (shown(i) ? 11 : 0),
        getPosition: (i) => [v.positions[2 * i]!, v.positions[2 * i + 1]!], getFillColor: (i) => [...v.colorOf(i), 255] as [number, number, number, number],
        stroked: true, lineWidthUnits: 'pixels', getLineWidth: 2, getLineColor: [255, 255, 255, 255],
        // Colours too: a removed and a newly added track may leave the count unchanged (20 calls: nothing).
        updateTriggers: { getPosition: frame, getRadius: frame, getFillColor: frame },
      }) as Layer,
      new IconLayer<number>({
        id: 'track-headings', data: this.slots, iconAtlas: arrowAtlasUrl(), iconMapping: ICON_MAPPING, getIcon: () => 'arrow',
        sizeUnits: 'pixels', getSize: (i) => (shown(i) ? 14 : 0), billboard: true,
        getPosition: (i) => [v.positions[2 * i]!, v.positions[2 * i + 1]!],
        // deck.gl angles turn counter-clockwise; headings turn clockwise from north.
        getAngle: (i) => -v.headings[i]!, getColor: [255, 255, 255, 255],
        updateTriggers: { getPosition: frame, getAngle: frame, getSize: frame },
      }) as Layer,
    ];
  }
}
