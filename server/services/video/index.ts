/**
 * Live video for viewers (issue 6): the websocket a video tile opens, and the stream-log calls.
 *
 * `GET /ws-service/video?token&vehicleId&channel&stream[&companyId]` (websocket): checks the vehicle
 * is in the caller's scope and online, that the caller watches fewer than 25 live channels across all
 * its sockets and has live-video connections left today (domain/video/limits.ts, every user), then joins the channel through the MediaHub (which asks the terminal with 0x9101 when it is the
 * first viewer). Statuses are JSON text messages, media binary (proto/media-frame.ts). Each
 * connection is one row of the stream log. A channel the device is known not to have (channels.ts:
 * its record, or its terminal's 0x1003) stops with "no camera on device" before the terminal is asked.
 */
import { Type } from '@fastify/type-provider-typebox';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { isOnline } from '../../../domain/vehicle/state.ts';
import { periodMessage } from '../../../domain/track/limits.ts';
import { checkAddChannels, checkDailyConnections, MAX_LOGICAL_CHANNEL, type VideoProblem } from '../../../domain/video/limits.ts';
import type { MediaStatus } from '../../../proto/media-frame.ts';
import type { Storage } from '../../db/repositories.ts';
import { pathInScope } from '../../db/scope.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { EpochMs, Id, PageFields, Strict, type App } from '../../http/route.ts';
import type { LiveStore } from '../../live/store.ts';
import type { MediaHub } from '../../media/media-hub.ts';
import { ChannelDiscovery, deviceChannels, type DiscoveryGateway } from './channels.ts';
import { playbackRoutes, type PlaybackDeps } from './playback.ts';

export const VIDEO_PATH = '/ws-service/video';

export interface VideoDeps {
  readonly storage: Storage;
  readonly store: LiveStore;
  readonly hub: MediaHub;
  /** Recordings on the terminal (playback.ts): the playback hub and the gateway that lists and controls. */
  readonly playback?: Pick<PlaybackDeps, 'hub' | 'gateway'>;
  /**
   * Live-video connections a user may open per China day unless set per user: a number, or a function read
   * at each admission (the system parameter `video.dailyLimit`, issue 19: a change holds without a restart).
   */
  readonly dailyLimit: number | (() => number);
  /** The gateway that asks each terminal for its audio/video attributes (0x9003) once it authenticates. */
  readonly gateway?: DiscoveryGateway;
}

const DAY_MS = 86_400_000;
const GMT8_MS = 8 * 3_600_000;

/** Start (epoch ms) and name ('YYYY-MM-DD') of the China day holding `now`. */
export function chinaDay(now: number): { start: number; day: string } {
  const start = Math.floor((now + GMT8_MS) / DAY_MS) * DAY_MS - GMT8_MS;
  return { start, day: new Date(start + GMT8_MS).toISOString().slice(0, 10) };
}

const VideoQuery = Strict({
  token: Type.String({ minLength: 1 }),
  vehicleId: Id,
  channel: Type.Integer({ minimum: 1, maximum: MAX_LOGICAL_CHANNEL }),
  stream: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)], { default: 1 })),
});

export function videoRoutes(app: App, deps: VideoDeps): void {
  const { storage, store, hub } = deps;
  const dailyLimit = typeof deps.dailyLimit === 'function' ? deps.dailyLimit : ((n: number) => () => n)(deps.dailyLimit);
  if (deps.playback) playbackRoutes(app, { storage, store, ...deps.playback });
  if (deps.gateway) new ChannelDiscovery(storage, deps.gateway, Date.now, app.log).start();
  const watching = new LiveChannelTally();

  app.get(VIDEO_PATH, { websocket: true, config: { permission: '/monitor/videoMonitor' }, schema: { querystring: VideoQuery } }, async (socket, request) => {
    const ctx = auth(request);
    const { vehicleId, channel, stream = 1, companyId } = request.query;
    const stop = (reason: VideoProblem | 'notFound') => {
      const s: MediaStatus = { type: 'status', state: 'stopped', reason };
      socket.send(JSON.stringify(s));
      socket.close(1000, reason);
    };
    const scope = await narrowedScope(storage, ctx, companyId).catch(() => null);
    const vehicle = scope ? await storage.fleet.getVehicle(scope, vehicleId) : undefined;
    if (!scope || !vehicle) return stop('notFound');
    const sim = vehicle.deviceNo;
    // No device installed: nothing can stream.
    if (sim === null) return stop('vehicleOffline');
    const slot = store.slotOf(vehicleId);
    if (slot < 0 || !pathInScope(scope, store.companyPathOf(slot)) || !isOnline(store.stateOf(slot))) return stop('vehicleOffline');
    // Unknown channels leave it to the terminal (its 0x9101 answer); known ones are checked here.
    const known = await deviceChannels(storage, vehicleId);
    if (known.source !== 'unknown' && !known.channels.some((c) => c.channel === channel && c.kind === 'video')) return stop('noCamera');
    const userId = ctx.user.id;
    let admitted = false;
    socket.on('close', () => {
      if (admitted) watching.leave(userId);
    });
    const refused = await watching.admit(userId, async () => {
      // The spec's limits, checked here for every user (administrators by their own configured limit):
      // live channels in all of this user's tabs and sockets, then today's connection count.
      if (checkAddChannels(watching.count(userId), 1) === 'refuse') return 'tooMany';
      const now = Date.now();
      const { start, day } = chinaDay(now);
      if (checkDailyConnections(await storage.streams.countSince(userId, start), await storage.streams.limitFor(userId, day, dailyLimit())) === 'refuse') return 'dailyLimit';
      if (socket.readyState !== socket.OPEN) return 'gone';
      watching.enter(userId);
      admitted = true;
      return await storage.streams.start({ userId, vehicleId, channel, stream, startedAt: now });
    });
    if (refused === 'gone') return;
    if (typeof refused === 'string') return stop(refused);
    const logId = refused;
    if (socket.readyState !== socket.OPEN) {
      // Closed while the log row was written: nobody to join the channel for.
      await storage.streams.end(logId, Date.now(), 0, 'closed').catch((err: unknown) => request.log.warn({ err }, 'stream log end failed'));
      return;
    }
    let bytes = 0;
    let outcome = '';
    const leave = hub.addViewer({ vehicleId, sim, channel, stream }, {
      send(data) {
        if (typeof data === 'string') {
          const s = JSON.parse(data) as MediaStatus;
          if (s.state === 'stopped') outcome = s.reason ?? 'stopped';
        } else bytes += data.byteLength;
        socket.send(data);
      },
      get bufferedAmount() {
        return socket.bufferedAmount;
      },
    });
    socket.on('error', (err) => request.log.warn({ err }, 'video socket error'));
    socket.on('close', () => {
      leave();
      // A socket closed by the server's own shutdown may close after the database: log, never throw.
      storage.streams.end(logId, Date.now(), bytes, outcome).catch((err: unknown) => request.log.warn({ err }, 'stream log end failed'));
    });
  });

  // ---- channels of a vehicle's terminal -----------------------------------------------------------

  app.get('/service-priv/channel/device', {
    config: { permission: 'session' },
    schema: { querystring: Strict({ vehicleId: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const scope = await narrowedScope(storage, ctx, request.query.companyId);
    if (!(await storage.fleet.getVehicle(scope, request.query.vehicleId))) throw fail.notFound();
    return ok(await deviceChannels(storage, request.query.vehicleId), requestLang(request));
  });

  // ---- stream log and limits (service-priv/stream, catalogue) ------------------------------------

  app.get('/service-priv/stream/queryUserStreamLog', {
    config: { permission: '/system/user' },
    schema: { querystring: Strict({ ...PageFields, userId: Type.Optional(Id), startTime: EpochMs, endTime: EpochMs }) },
  }, async (request) => {
    const ctx = auth(request);
    const { current, size, userId, startTime, endTime, companyId } = request.query;
    if (startTime > endTime) throw fail.badRequest(problemPeriod);
    let userIds: number[] | null = null;
    if (userId !== undefined) {
      if (!(await storage.users.get(ctx.scope, userId))) throw fail.notFound();
      userIds = [userId];
    } else if (!ctx.isAdmin || companyId !== undefined) {
      const scope = await narrowedScope(storage, ctx, companyId);
      userIds = (await storage.users.page(scope, { current: 1, size: 100_000 })).records.map((u) => u.id);
    }
    const page = await storage.streams.page({ userIds, from: startTime, to: endTime, offset: (current - 1) * size, limit: size });
    return ok({ ...page, current, size }, requestLang(request));
  });

  app.post('/service-priv/stream/setStream', {
    config: { permission: '/system/user:video' },
    schema: { body: Strict({ userId: Id, dailyLimit: Type.Union([Type.Integer({ minimum: 0, maximum: 100_000 }), Type.Null()]) }) },
  }, async (request) => {
    const { userId, dailyLimit: limit } = request.body;
    if (!(await storage.users.get(auth(request).scope, userId))) throw fail.notFound();
    await storage.streams.setDailyLimit(userId, limit);
    return ok(null, requestLang(request));
  });

  app.post('/service-priv/stream/addUserStreamTimes', {
    config: { permission: '/system/user:video' },
    schema: { body: Strict({ userId: Id, times: Type.Integer({ minimum: 1, maximum: 10_000 }) }) },
  }, async (request) => {
    const { userId, times } = request.body;
    if (!(await storage.users.get(auth(request).scope, userId))) throw fail.notFound();
    await storage.streams.addExtraTimes(userId, chinaDay(Date.now()).day, times);
    return ok(null, requestLang(request));
  });
}

/**
 * Live channels each user watches now, across all of that user's sockets and tabs (the spec's 25-channel
 * cap is per person, not per page), and a per-user admission queue: a user's check-then-start runs one
 * at a time, so two tabs opening their 25th channel at once cannot both pass, nor two connections the
 * last one of the day.
 */
class LiveChannelTally {
  private readonly counts = new Map<number, number>();
  private readonly queues = new Map<number, Promise<unknown>>();

  count(userId: number): number {
    return this.counts.get(userId) ?? 0;
  }

  enter(userId: number): void {
    this.counts.set(userId, this.count(userId) + 1);
  }

  leave(userId: number): void {
    const n = this.count(userId) - 1;
    if (n > 0) this.counts.set(userId, n);
    else this.counts.delete(userId);
  }

  admit<T>(userId: number, check: () => Promise<T>): Promise<T> {
    const run = (this.queues.get(userId) ?? Promise.resolve()).then(check, check);
    const tail = run.catch(() => undefined);
    this.queues.set(userId, tail);
    void tail.then(() => {
      if (this.queues.get(userId) === tail) this.queues.delete(userId);
    });
    return run;
  }
}

const problemPeriod: Message = (lang: Lang) => periodMessage('startAfterEnd', lang);
