/**
 * Clustering core of the cluster worker (workers/cluster.worker.ts is its thin entry): supercluster
 * over the live positions, answered as typed arrays for a binary deck.gl layer plus a per-vehicle
 * "hidden" mask so the vehicle layer draws only vehicles not folded into a cluster.
 *
 * Feature objects are allocated once per vehicle slot and reused across loads: supercluster wants
 * GeoJSON points, and rebuilding 100k fresh objects every second would churn the worker's GC.
 */
import Supercluster from 'supercluster';
import { CLUSTER_MAX_ZOOM, CLUSTER_MIN_POINTS, type ClusterResponse } from './protocol.ts';

interface SlotProps {
  slot: number;
}
type PointFeature = Supercluster.PointFeature<SlotProps>;

export interface ClusterIndexOptions {
  /** @default 3 (spec §9) */
  minPoints?: number;
  /** @default 16 (spec §9) */
  maxZoom?: number;
  /** Cluster radius in pixels at 512-px tiles. @default 60 */
  radius?: number;
}

export type ClustersResult = Extract<ClusterResponse, { type: 'clusters' }>;

const WORLD: [number, number, number, number] = [-180, -85, 180, 85];

/** Radius in pixels of a cluster's circle: 14 px for 3 vehicles up to ~38 px for 100k. */
export function clusterRadiusPx(size: number): number {
  return 12 + 5 * Math.log10(Math.max(1, size));
}

export class ClusterIndex {
  private readonly index: Supercluster<SlotProps, Supercluster.AnyProps>;
  private readonly features: PointFeature[] = [];
  private count = 0;
  readonly maxZoom: number;

  constructor(opts: ClusterIndexOptions = {}) {
    this.maxZoom = opts.maxZoom ?? CLUSTER_MAX_ZOOM;
    this.index = new Supercluster<SlotProps>({
      minPoints: opts.minPoints ?? CLUSTER_MIN_POINTS,
      maxZoom: this.maxZoom,
      radius: opts.radius ?? 60,
      extent: 512,
    });
  }

  /** Vehicles of the last load (including skipped NaN positions). */
  get vehicleCount(): number {
    return this.count;
  }

  /** Rebuilds the hierarchy over `count` interleaved (lng, lat) pairs. */
  load(positions: ArrayLike<number>, count: number): void {
    const points: PointFeature[] = [];
    for (let i = 0; i < count; i++) {
      const lng = positions[2 * i] as number;
      const lat = positions[2 * i + 1] as number;
      // Never-online vehicles have no position yet (NaN): nothing to cluster.
      if (!Number.isFinite(lng) || !Number.isFinite(lat)) continue;
      let f = this.features[i];
      if (!f) {
        f = { type: 'Feature', properties: { slot: i }, geometry: { type: 'Point', coordinates: [lng, lat] } };
        this.features[i] = f;
      } else {
        f.geometry.coordinates[0] = lng;
        f.geometry.coordinates[1] = lat;
      }
      points.push(f);
    }
    this.index.load(points);
    this.count = count;
  }

  /** Clusters of the whole world at `zoom` (floored, capped at maxZoom + 1 where nothing clusters). */
  query(zoom: number, seq = 0): ClustersResult {
    const z = Math.max(0, Math.floor(zoom));
    const hidden = new Uint8Array(this.count);
    if (z > this.maxZoom || this.count === 0) {
      return { type: 'clusters', seq, zoom: z, vehicleCount: this.count, clusterCount: 0, positions: new Float32Array(0), sizes: new Float32Array(0), radii: new Float32Array(0), ids: new Float64Array(0), hidden };
    }
    const all = this.index.getClusters(WORLD, z);
    let n = 0;
    for (const f of all) if ('cluster' in f.properties && f.properties.cluster) n++;
    const positions = new Float32Array(n * 2);
    const sizes = new Float32Array(n);
    const radii = new Float32Array(n);
    const ids = new Float64Array(n);
    // Every vehicle starts hidden; those returned as single points at this zoom are shown.
    hidden.fill(1);
    let k = 0;
    for (const f of all) {
      const p = f.properties as Supercluster.ClusterProperties | SlotProps;
      if ('cluster' in p && p.cluster) {
        const [lng, lat] = f.geometry.coordinates as [number, number];
        positions[2 * k] = lng;
        positions[2 * k + 1] = lat;
        sizes[k] = p.point_count;
        radii[k] = clusterRadiusPx(p.point_count);
        ids[k] = p.cluster_id;
        k++;
      } else {
        hidden[(p as SlotProps).slot] = 0;
      }
    }
    // NaN positions were never loaded: keep them hidden (nothing to draw anyway).
    return { type: 'clusters', seq, zoom: z, vehicleCount: this.count, clusterCount: n, positions, sizes, radii, ids, hidden };
  }

  /** The zoom at which a cluster splits (to zoom into it on click). */
  expansionZoom(clusterId: number): number {
    try {
      return Math.min(this.index.getClusterExpansionZoom(clusterId), this.maxZoom + 1);
    } catch {
      return this.maxZoom + 1;
    }
  }
}
