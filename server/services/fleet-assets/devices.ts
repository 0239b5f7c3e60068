/** Issue 15: devices (/information/device), device/pp/search, device/error, refused registrations. Placeholder laid down with migration 22; its owner fills it. */
import type { App } from '../../http/route.ts';
import type { FleetAssetDeps } from './deps.ts';

export function registerDeviceCalls(_app: App, _deps: FleetAssetDeps): void {}
