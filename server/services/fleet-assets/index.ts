/**
 * Issue 15, machine affairs (/information/*): vehicles, devices, drivers, installation records, lines
 * and the operator logs. Company and device types are on /service-priv (services/priv).
 */
import type { App } from '../../http/route.ts';
import type { FleetAssetDeps } from './deps.ts';
import { registerDeviceCalls } from './devices.ts';
import { registerDriverCalls } from './drivers.ts';
import { registerInstallationCalls } from './installations.ts';
import { registerLineCalls } from './lines.ts';
import { registerOperatorLogCalls } from './operator-log.ts';
import { registerVehicleCalls } from './vehicles.ts';

export function fleetAssetRoutes(app: App, deps: FleetAssetDeps): void {
  registerVehicleCalls(app, deps);
  registerDeviceCalls(app, deps);
  registerDriverCalls(app, deps);
  registerInstallationCalls(app, deps);
  registerLineCalls(app, deps);
  registerOperatorLogCalls(app, deps);
}
