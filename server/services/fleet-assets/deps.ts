import type { FleetSync } from '../../live/fleet-sync.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import type { ServiceDeps } from '../deps.ts';

/** What the machine-affairs calls need: storage, and the live side that must follow master-data changes. */
export interface FleetAssetDeps extends ServiceDeps {
  readonly live: LiveRuntime;
  readonly fleetSync: FleetSync;
}
