/** Issue 15: operator logs (vehicleLog, deviceLog; binlog/vehicle, binlog/device). Placeholder laid down with migration 22; its owner fills it. */
import type { App } from '../../http/route.ts';
import type { FleetAssetDeps } from './deps.ts';

export function registerOperatorLogCalls(_app: App, _deps: FleetAssetDeps): void {}
