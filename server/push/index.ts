/**
 * The push channel route: `GET /ws-service/websocket?token=<jwt>[&format=json][&companyId=]` (spec §7).
 * Browsers cannot set `x-jwt` on a websocket, so the token comes in the query; the auth hook takes it
 * from there on websocket routes only and applies the same check as to every HTTP call
 * (server/http/auth.ts), and the request log redacts it (server/http/log.ts). The connection is
 * scoped to the caller's company subtree (narrowed by `companyId` when given).
 */
import { Type } from '@fastify/type-provider-typebox';
import { ALL_COMPANIES, type Scope } from '../db/scope.ts';
import type { Storage } from '../db/repositories.ts';
import { auth, narrowedScope } from '../http/auth.ts';
import { displayCredentials, displayScope } from '../auth/display.ts';
import { Strict, type App } from '../http/route.ts';
import { defaultLinkage, type Linkage } from '../../domain/alarms/linkage.ts';
import { alarmPushData } from '../alarms/service.ts';
import { ALARM_GAP_COUNT_CAP, ALARM_REPLAY_MAX, PushHub, type AlarmReplaySource, type DirectorySource, type PushOptions, type PushStore } from './hub.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The websocket push hub (tests read its stats and publish alarms through it). */
    push: PushHub;
  }
}

export const PUSH_PATH = '/ws-service/websocket';

/** Plates and terminal numbers from the vehicle repository. */
export function storageDirectory(storage: Storage): DirectorySource {
  // A vehicle without a device is listed with an empty terminal number.
  const toEntry = (v: { id: number; companyId: number; vehiidno: string; deviceNo: string | null }) => ({ vehicleId: v.id, companyId: v.companyId, plate: v.vehiidno, deviceNo: v.deviceNo ?? '' });
  return {
    async inScope(scope: Scope) {
      // An empty keyword matches every vehicle in the scope.
      return (await storage.fleet.searchVehicles(scope, '', 10_000_000)).map(toEntry);
    },
    async byIds(ids) {
      // One query per 500 ids (an import announces 10,000 new vehicles at once), not one per vehicle.
      const labels = await storage.terminals.labels(ALL_COMPANIES, ids);
      return ids.flatMap((id) => {
        const l = labels.get(id);
        return l ? [{ vehicleId: id, companyId: l.companyId, plate: l.vehiidno, deviceNo: l.deviceNo ?? '' }] : [];
      });
    },
  };
}

const PushQuery = Strict({
  token: Type.String({ minLength: 1 }),
  format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('binary')])),
  /** The highest alarm id the console received before it lost its connection (hub.ts catch-up). */
  alarmsAfter: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
});

/**
 * The catch-up over `storage.alarms`: each replayed alarm is the same message a live push carries,
 * with the linkage (`popup`, `voice`) in force now for its company and type (the alarm service's, once
 * it is registered; the defaults before).
 */
export function storageAlarmReplay(storage: Storage, linkageOf: (companyPath: string, alarmType: number) => Pick<Linkage, 'popup' | 'voice'>): AlarmReplaySource {
  return {
    async since(scope, afterId) {
      const r = await storage.alarms.since(scope, afterId, ALARM_REPLAY_MAX, ALARM_GAP_COUNT_CAP);
      return {
        after: afterId ?? null, lastId: r.lastId, missed: r.missed, missedCapped: r.missedCapped,
        alarms: r.records.map((a) => alarmPushData(a, linkageOf(a.companyPath, a.alarmType))),
      };
    },
  };
}

/** Mounts the websocket route and starts the hub; the hub stops when the app closes. */
/** Holds a scope's positions followed (server/bus/follow-scopes.ts `hold`); the answer releases it. */
export type ScopeHolder = (scope: Scope) => Promise<() => void>;

export function registerPush(app: App, store: PushStore, storage: Storage, options: Partial<PushOptions> = {}, follow?: ScopeHolder): PushHub {
  const replay = storageAlarmReplay(storage, (path, type) => (app.hasDecorator('alarms') ? app.alarms.linkageOf(path, type) : defaultLinkage(type)));
  const hub = new PushHub(store, storageDirectory(storage), options, replay);
  app.decorate('push', hub);
  app.addHook('onReady', async () => hub.start());
  app.addHook('preClose', async () => hub.close());
  // `display`: a wall's display credential may open the stream too, scoped to its company (issue 14).
  app.get(PUSH_PATH, { websocket: true, config: { permission: 'session', display: true }, schema: { querystring: PushQuery } }, async (socket, request) => {
    const query = request.query;
    let scope: Scope;
    try {
      scope = request.displayContext ? await displayScope(storage, request.displayContext, query.companyId) : await narrowedScope(storage, auth(request), query.companyId);
    } catch {
      socket.close(4003, 'companyId outside your companies');
      return;
    }
    socket.on('error', (err) => request.log.warn({ err }, 'push socket error'));
    // Issue 20: on a node following the bus by scope, this console's companies are followed while it is open (its snapshot waits for that).
    if (follow) {
      const release = await follow(scope);
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.once('close', release);
      else release();
    }
    if (request.displayContext) displayCredentials(storage).trackSocket(request.displayContext.credentialId, socket);
    await hub.connect(socket, scope, query.format === 'json', query.alarmsAfter, request.displayContext ? undefined : auth(request).user.id).catch((err: unknown) => {
      request.log.error({ err }, 'push connect failed');
      socket.close(1011, 'server error');
    });
  });
  return hub;
}
