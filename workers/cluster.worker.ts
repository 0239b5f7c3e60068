/**
 * Cluster worker entry: owns a ClusterIndex (src/live/cluster/cluster-index.ts) and answers the
 * messages of src/live/cluster/protocol.ts. Results go back with their buffers transferred.
 */
import { ClusterIndex } from '../src/live/cluster/cluster-index.ts';
import type { ClusterRequest, ClusterResponse } from '../src/live/cluster/protocol.ts';

const index = new ClusterIndex();
const scope = self as unknown as { postMessage(msg: ClusterResponse, transfer: Transferable[]): void; onmessage: ((e: MessageEvent<ClusterRequest>) => void) | null };

scope.onmessage = (e) => {
  const msg = e.data;
  switch (msg.type) {
    case 'load':
      index.load(msg.positions, msg.count);
      break;
    case 'query': {
      const r = index.query(msg.zoom, msg.seq);
      scope.postMessage(r, [r.positions.buffer, r.sizes.buffer, r.radii.buffer, r.ids.buffer, r.hidden.buffer]);
      break;
    }
    case 'expansion':
      scope.postMessage({ type: 'expansion', seq: msg.seq, zoom: index.expansionZoom(msg.clusterId) }, []);
      break;
  }
};
