import { auth } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Strict, type App } from '../../http/route.ts';
import type { LiveRuntime } from '../../live/runtime.ts';
import type { ServiceDeps } from '../deps.ts';
import { MonitorMessages, realtimeRoutes } from './realtime.ts';

/** Every /service-monitor call of server/API.md. */
export function monitorRoutes(app: App, deps: ServiceDeps & { readonly live: LiveRuntime }): void {
  realtimeRoutes(app, { storage: deps.storage, store: deps.live.store });

  // Operators' view of the gateway: counters of frames, bad frames, registrations, history queue.
  app.get('/service-monitor/gateway/stats', {
    config: { permission: 'session' },
    schema: { querystring: Strict({}) },
  }, async (request) => {
    if (!auth(request).isAdmin) throw fail.forbidden(MonitorMessages.adminOnly);
    const { gateway, history, store } = deps.live;
    return ok({ gateway: gateway.snapshotStats(), history: { ...history.stats, pending: history.pending }, vehicles: store.count }, requestLang(request));
  });
}
