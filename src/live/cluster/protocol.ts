/**
 * Messages between the main thread and the cluster worker (raw postMessage with transfer lists: the
 * position snapshot is 800 KB at 100k vehicles, too big for Comlink's structured clone on every load).
 */

/** main → worker */
export type ClusterRequest =
  /** Rebuild the index over `count` (lng, lat) pairs in display coordinates; NaN pairs are skipped. */
  | { type: 'load'; positions: Float32Array; count: number }
  /** Clusters of the whole world at `zoom` (answered with 'clusters'). */
  | { type: 'query'; seq: number; zoom: number }
  /** The zoom at which a cluster breaks apart (answered with 'expansion'). */
  | { type: 'expansion'; seq: number; clusterId: number };

/** worker → main */
export type ClusterResponse =
  | {
      type: 'clusters';
      seq: number;
      /** Integer zoom the clusters are for. */
      zoom: number;
      /** Vehicles the index was built over (length of `hidden`). */
      vehicleCount: number;
      clusterCount: number;
      /** (lng, lat) per cluster, display coordinates. */
      positions: Float32Array;
      /** Vehicles per cluster. */
      sizes: Float32Array;
      /** Circle radius per cluster in pixels (grows with log10 of the size). */
      radii: Float32Array;
      /** Supercluster ids, for `expansion`. */
      ids: Float64Array;
      /** Per vehicle slot: 1 when folded into a cluster at this zoom (the vehicle layer hides it). */
      hidden: Uint8Array;
    }
  | { type: 'expansion'; seq: number; zoom: number };

/** Spec §9: clustering minimum 3 vehicles, max zoom 16 (above it every vehicle is drawn). */
export const CLUSTER_MIN_POINTS = 3;
export const CLUSTER_MAX_ZOOM = 16;
