/**
 * Track playback's calls (issue 4): /service-monitor/trail/* and /service-onlinegps/trajectory*,
 * geography/searchFrameGps. Contract in server/API.md ("Track playback").
 */
import type { LiveRuntime } from '../../live/runtime.ts';
import type { App } from '../../http/route.ts';
import type { ServiceDeps } from '../deps.ts';
import { diagnosisRoutes } from './diagnosis.ts';
import { exportRoutes } from './export.ts';
import { geographyRoutes } from './geography.ts';
import { trailRoutes } from './trail.ts';
import { trajectoryRoutes } from './trajectory.ts';

export function trackRoutes(app: App, deps: ServiceDeps & { readonly live: LiveRuntime }): void {
  // The live store's clock: "the last 30 days" is judged on the same clock as everything live (tests inject one).
  const clock = deps.live.store.clock;
  const { storage } = deps;
  trailRoutes(app, { storage, clock });
  exportRoutes(app, { storage, clock });
  trajectoryRoutes(app, { storage, clock });
  geographyRoutes(app, { storage });
  diagnosisRoutes(app, { storage, clock });
}
