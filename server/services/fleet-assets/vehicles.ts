/** Issue 15: vehicles (/information/vehicle): service-priv vehicle calls. Placeholder laid down with migration 22; its owner fills it. */
import type { App } from '../../http/route.ts';
import type { FleetAssetDeps } from './deps.ts';

export function registerVehicleCalls(_app: App, _deps: FleetAssetDeps): void {}
