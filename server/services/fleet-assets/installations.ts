/** Issue 15: installation records (/information/vehicle_installed). Placeholder laid down with migration 22; its owner fills it. */
import type { App } from '../../http/route.ts';
import type { FleetAssetDeps } from './deps.ts';

export function registerInstallationCalls(_app: App, _deps: FleetAssetDeps): void {}
