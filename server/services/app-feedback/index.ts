/**
 * Feedback threads, the drivers'-app API and app push (issue 19; design: ./CONTEXT.md).
 */
import type { Config } from '../../config.ts';
import type { Storage } from '../../db/repositories.ts';
import type { App } from '../../http/route.ts';
import { appApiRoutes } from './app-api.ts';
import { appPushRoutes } from './app-push.ts';
import { feedbackRoutes } from './feedback.ts';

export function appFeedbackRoutes(app: App, deps: { storage: Storage; config: Config }): void {
  feedbackRoutes(app, deps);
  appPushRoutes(app, deps);
  appApiRoutes(app, deps);
}
