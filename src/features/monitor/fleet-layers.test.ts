import { describe, expect, it } from 'vitest';
import { VehicleState } from '../../../domain/vehicle/state.ts';
import { FleetLayers, formatCount, HEADING_MIN_ZOOM } from './fleet-layers.ts';
import type { LiveFrame } from './live-source.ts';
import { STATE_RGBA, ALARM_RGBA } from './palette.ts';
import type { ClustersResult } from '../../live/cluster/cluster-index.ts';

function frame(states: number[], opts: { alarm?: number[]; headings?: number[] } = {}): LiveFrame {
  const n = states.length;
  const positions = new Float32Array(n * 2);
  for (let i = 0; i < n; i++) {
    positions[2 * i] = 116 + i * 0.01;
    positions[2 * i + 1] = 39 + i * 0.01;
  }
  return {
    type: 'frame',
    count: n,
    ids: Int32Array.from(states.map((_, i) => 1000 + i)),
    positions,
    headings: Float32Array.from(opts.headings ?? states.map(() => 90)),
    states: Uint8Array.from(states),
    alarm: Uint8Array.from(opts.alarm ?? states.map(() => 0)),
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- attribute descriptors are inspected loosely
type Attrs = Record<string, any>;
function attrs(fleet: FleetLayers, id: string): { length: number; attributes: Attrs } {
  const layer = fleet.layers().find((l) => l.id === id);
  if (!layer) throw new Error(`no layer ${id}`);
  return layer.props.data as unknown as { length: number; attributes: Attrs };
}

describe('FleetLayers', () => {
  it('feeds the vehicle layer with the frame positions and one colour per state', () => {
    const fleet = new FleetLayers();
    fleet.ingest(frame([VehicleState.Driving, VehicleState.Parking, VehicleState.Offline], { alarm: [0, 0, 1] }));
    const data = attrs(fleet, 'monitor-vehicles');
    expect(data.length).toBe(3);
    const pos = data.attributes.getPosition as { value: Float32Array };
    expect(pos.value[2]).toBeCloseTo(116.01, 4);
    const colors = (data.attributes.getFillColor as { value: Uint8Array }).value;
    expect(Array.from(colors.subarray(0, 4))).toEqual([...STATE_RGBA[VehicleState.Driving]]);
    expect(Array.from(colors.subarray(4, 8))).toEqual([...STATE_RGBA[VehicleState.Parking]]);
    expect(Array.from(colors.subarray(8, 12))).toEqual([...ALARM_RGBA]); // an alarm outranks the state
  });

  it('keeps the colour descriptor when no state changed, so deck.gl skips the upload', () => {
    const fleet = new FleetLayers();
    fleet.ingest(frame([2, 3]));
    const before = attrs(fleet, 'monitor-vehicles').attributes.getFillColor;
    fleet.ingest(frame([2, 3]));
    expect(attrs(fleet, 'monitor-vehicles').attributes.getFillColor).toBe(before);
    expect(attrs(fleet, 'monitor-vehicles').attributes.getPosition).not.toBe(undefined);
    fleet.ingest(frame([2, 4]));
    expect(attrs(fleet, 'monitor-vehicles').attributes.getFillColor).not.toBe(before);
  });

  it('hides vehicles folded into clusters and shows the cluster circles', () => {
    const fleet = new FleetLayers();
    fleet.ingest(frame([2, 2, 2, 3]));
    const clusters: ClustersResult = {
      type: 'clusters', seq: 1, zoom: 4, vehicleCount: 4, clusterCount: 1,
      positions: new Float32Array([116.01, 39.01]), sizes: new Float32Array([3]), radii: new Float32Array([14]), ids: new Float64Array([99]),
      hidden: new Uint8Array([1, 1, 1, 0]),
    };
    fleet.setClusters(clusters);
    const scale = (attrs(fleet, 'monitor-vehicles').attributes.getRadius as { value: Float32Array }).value;
    expect(Array.from(scale.subarray(0, 4))).toEqual([0, 0, 0, 1]);
    const layers = fleet.layers();
    expect(layers.find((l) => l.id === 'monitor-clusters')?.props.visible).toBe(true);
    expect(attrs(fleet, 'monitor-clusters').length).toBe(1);
    expect(fleet.clusterSize(0)).toBe(3);
    expect(fleet.clusterId(0)).toBe(99);
  });

  it('switches from dots to heading arrows at zoom 9, turning headings into counter-clockwise angles', () => {
    const fleet = new FleetLayers();
    fleet.ingest(frame([2], { headings: [90] }));
    expect(fleet.layers().find((l) => l.id === 'monitor-headings')?.props.visible).toBe(false);
    fleet.setZoom(HEADING_MIN_ZOOM);
    fleet.ingest(frame([2], { headings: [90] }));
    const layers = fleet.layers();
    expect(layers.find((l) => l.id === 'monitor-headings')?.props.visible).toBe(true);
    expect(layers.find((l) => l.id === 'monitor-vehicles')?.props.visible).toBe(false);
    const angle = (attrs(fleet, 'monitor-headings').attributes.getAngle as { value: Float32Array }).value;
    expect(angle[0]).toBe(-90);
  });

  it('keeps the same layer ids on every call', () => {
    const fleet = new FleetLayers();
    fleet.ingest(frame([2]));
    const ids = fleet.layers().map((l) => l.id);
    fleet.ingest(frame([2, 3, 4]));
    expect(fleet.layers().map((l) => l.id)).toEqual(ids);
    expect(fleet.idAt(2)).toBe(1002);
    expect(fleet.indexOf(1001)).toBe(1);
  });

  it('abbreviates big cluster counts', () => {
    expect(formatCount(950)).toBe('950');
    expect(formatCount(1234)).toBe('1.2k');
    expect(formatCount(45_600)).toBe('46k');
  });
});
