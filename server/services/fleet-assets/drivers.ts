/** Issue 15: drivers (/information/driver), photos, sign-ins. Placeholder laid down with migration 22; its owner fills it. */
import type { App } from '../../http/route.ts';
import type { FleetAssetDeps } from './deps.ts';

export function registerDriverCalls(_app: App, _deps: FleetAssetDeps): void {}
