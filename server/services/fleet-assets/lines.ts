/** Issue 15: lines and stations (/information/lineManagement). Placeholder laid down with migration 22; its owner fills it. */
import type { App } from '../../http/route.ts';
import type { FleetAssetDeps } from './deps.ts';

export function registerLineCalls(_app: App, _deps: FleetAssetDeps): void {}
