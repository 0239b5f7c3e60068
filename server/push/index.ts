/**
 * The push channel route: `GET /ws-service/websocket?token=<jwt>[&format=json][&companyId=]` (spec §7).
 * Browsers cannot set `x-jwt` on a websocket, so the token comes in the query and goes through the
 * same check as every HTTP call (server/http/auth.ts); the connection is scoped to the caller's
 * company subtree (narrowed by `companyId` when given).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@fastify/type-provider-typebox';
import { ALL_COMPANIES, type Scope } from '../db/scope.ts';
import type { Storage } from '../db/repositories.ts';
import { auth, narrowedScope } from '../http/auth.ts';
import { Strict, type App } from '../http/route.ts';
import { PushHub, type DirectorySource, type PushOptions, type PushStore } from './hub.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The websocket push hub (tests read its stats and publish alarms through it). */
    push: PushHub;
  }
}

export const PUSH_PATH = '/ws-service/websocket';

/**
 * Copies `?token=` into the `x-jwt` header of websocket routes so the shared auth hook checks it.
 * Must be installed before installAuth (hooks run in registration order).
 */
export function installQueryToken(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/ws-service') || request.headers['x-jwt']) return;
    const token = (request.query as { token?: unknown } | undefined)?.token;
    if (typeof token === 'string' && token.length > 0) request.headers['x-jwt'] = token;
  });
}

/** Plates and terminal numbers from the vehicle repository. */
export function storageDirectory(storage: Storage): DirectorySource {
  const toEntry = (v: { id: number; companyId: number; vehiidno: string; deviceNo: string }) => ({ vehicleId: v.id, companyId: v.companyId, plate: v.vehiidno, deviceNo: v.deviceNo });
  return {
    async inScope(scope: Scope) {
      // An empty keyword matches every vehicle in the scope.
      return (await storage.fleet.searchVehicles(scope, '', 10_000_000)).map(toEntry);
    },
    async byIds(ids) {
      const found = await Promise.all(ids.map((id) => storage.fleet.getVehicle(ALL_COMPANIES, id)));
      return found.filter((v) => v !== undefined).map(toEntry);
    },
  };
}

const PushQuery = Strict({
  token: Type.String({ minLength: 1 }),
  format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('binary')])),
});

/** Mounts the websocket route and starts the hub; the hub stops when the app closes. */
export function registerPush(app: App, store: PushStore, storage: Storage, options: Partial<PushOptions> = {}): PushHub {
  const hub = new PushHub(store, storageDirectory(storage), options);
  app.decorate('push', hub);
  app.addHook('onReady', async () => hub.start());
  app.addHook('preClose', async () => hub.close());
  app.get(PUSH_PATH, { websocket: true, config: { permission: 'session' }, schema: { querystring: PushQuery } }, async (socket, request) => {
    const ctx = auth(request);
    const query = request.query;
    let scope: Scope;
    try {
      scope = await narrowedScope(storage, ctx, query.companyId);
    } catch {
      socket.close(4003, 'companyId outside your companies');
      return;
    }
    socket.on('error', (err) => request.log.warn({ err }, 'push socket error'));
    await hub.connect(socket, scope, query.format === 'json').catch((err: unknown) => {
      request.log.error({ err }, 'push connect failed');
      socket.close(1011, 'server error');
    });
  });
  return hub;
}
