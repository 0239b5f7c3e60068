/**
 * Recordings on the terminal (issue 6, /monitor/mediaRemoteExtraction): search them over the
 * terminal's JT/T 808 session (0x9205 → 0x1205) and play one back (0x9201, 0x9202) to a viewer's
 * websocket. See server/API.md "Recordings on the terminal".
 */
import { Type } from '@fastify/type-provider-typebox';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { isOnline } from '../../../domain/vehicle/state.ts';
import { MAX_LOGICAL_CHANNEL, videoMessage } from '../../../domain/video/limits.ts';
import { alarmBits, parsePlaybackControl, playbackMessage, RECORDING_SEARCH_MAX_MS, type PlaybackControlAnswer, type PlaybackStatus } from '../../../domain/video/playback.ts';
import type { Storage } from '../../db/repositories.ts';
import { pathInScope } from '../../db/scope.ts';
import { auth, narrowedScope } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, Strict, type App } from '../../http/route.ts';
import type { LiveStore } from '../../live/store.ts';
import type { PlaybackHub } from '../../media/playback-hub.ts';
import { queryResources, type PlaybackGateway } from './playback-signalling.ts';

/** How long a new playback waits for the channel's previous session to end before "busy". */
const BUSY_GRACE_MS = 1500;

export const PLAYBACK_PATH = '/ws-service/playback';
export const RESOURCE_LIST_PATH = '/service-command/1078command/resourceList';

export interface PlaybackDeps {
  readonly storage: Storage;
  readonly store: LiveStore;
  readonly hub: PlaybackHub;
  readonly gateway: PlaybackGateway;
}

/** Whole seconds: JT/T 1078 times are BCD seconds; 2000–2099 is what BCD[6] holds. */
const Time = Type.Integer({ minimum: 946_656_000_000, maximum: 4_102_415_999_000 });

const ResourceQuery = Strict({
  vehicleId: Id,
  /** 0 = every channel. */
  channel: Type.Integer({ minimum: 0, maximum: MAX_LOGICAL_CHANNEL }),
  startTime: Time,
  endTime: Time,
  /** Only recordings marked with an alarm. */
  alarmOnly: Type.Optional(Type.Boolean()),
});

const PlaybackQuery = Strict({
  token: Type.String({ minLength: 1 }),
  vehicleId: Id,
  channel: Type.Integer({ minimum: 1, maximum: MAX_LOGICAL_CHANNEL }),
  startTime: Time,
  endTime: Time,
});

const problem = (key: string): Message => (lang: Lang) => playbackMessage(key, lang);

const periodProblem = (lang: Lang): string =>
  lang === 'zh' ? '开始时间不能晚于结束时间，且查询时段不能超过7天' : 'The start must not be after the end, and the period must not exceed 7 days';

export function playbackRoutes(app: App, deps: PlaybackDeps): void {
  const { storage, store, hub, gateway } = deps;

  /** The vehicle in the caller's scope (404 otherwise) and whether its terminal is online. */
  async function vehicleFor(request: Parameters<typeof auth>[0], vehicleId: number, companyId: number | undefined) {
    const ctx = auth(request);
    const scope = await narrowedScope(storage, ctx, companyId);
    const vehicle = await storage.fleet.getVehicle(scope, vehicleId);
    if (!vehicle) return undefined;
    const slot = store.slotOf(vehicleId);
    const online = slot >= 0 && pathInScope(scope, store.companyPathOf(slot)) && isOnline(store.stateOf(slot));
    // A vehicle without an installed device is never online; its (empty) number is then never used.
    return { vehicle: { ...vehicle, deviceNo: vehicle.deviceNo ?? '' }, online: online && vehicle.deviceNo !== null };
  }

  app.get(RESOURCE_LIST_PATH, {
    config: { permission: '/monitor/mediaRemoteExtraction' },
    schema: { querystring: ResourceQuery },
  }, async (request) => {
    const { vehicleId, channel, startTime, endTime, alarmOnly, companyId } = request.query;
    if (startTime > endTime || endTime - startTime > RECORDING_SEARCH_MAX_MS) throw fail.badRequest(periodProblem);
    const found = await vehicleFor(request, vehicleId, companyId);
    if (!found) throw fail.notFound();
    if (!found.online) throw fail.conflict((lang) => videoMessage('vehicleOffline', lang));
    let items;
    try {
      items = await queryResources(gateway, vehicleId, { channel, startTime, endTime, alarmFlags: alarmOnly ? 0xffff_ffff_ffff_ffffn : 0n });
    } catch (reason) {
      throw fail.conflict(problem(typeof reason === 'string' ? reason : 'connectFailed'));
    }
    const list = items
      .filter((i) => !alarmOnly || i.alarmFlags !== 0n)
      .sort((a, b) => a.startTime - b.startTime || a.channel - b.channel)
      .map((i) => ({
        channel: i.channel,
        startTime: i.startTime,
        endTime: i.endTime,
        alarms: alarmBits(i.alarmFlags),
        mediaType: i.mediaType,
        streamType: i.streamType,
        storageType: i.storageType,
        fileSize: i.fileSize,
      }));
    return ok(list, requestLang(request));
  });

  app.get(PLAYBACK_PATH, {
    websocket: true,
    config: { permission: '/monitor/mediaRemoteExtraction' },
    schema: { querystring: PlaybackQuery },
  }, async (socket, request) => {
    const { vehicleId, channel, startTime, endTime, companyId } = request.query;
    const stop = (reason: string) => {
      const s: PlaybackStatus = { type: 'status', state: 'stopped', reason };
      socket.send(JSON.stringify(s));
      socket.close(1000, reason);
    };
    if (startTime >= endTime || endTime - startTime > RECORDING_SEARCH_MAX_MS) return stop('badControl');
    const found = await vehicleFor(request, vehicleId, companyId).catch(() => undefined);
    if (!found) return stop('notFound');
    if (!found.online) return stop('vehicleOffline');
    // The viewer may have left during the lookup: its 'close' came before any listener, so opening now
    // would leave a session nobody ends (the channel then answers "busy" to everyone).
    if (socket.readyState !== socket.OPEN) return;
    // A tile re-opened at once (the console closes and reopens its socket) finds its own previous session
    // still registered until that socket's close is handled: give it a moment before answering "busy".
    for (let waited = 0; hub.isHeld(found.vehicle.deviceNo, channel) && waited < BUSY_GRACE_MS; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
    }
    if (socket.readyState !== socket.OPEN) return;
    const handle = hub.open({ vehicleId, sim: found.vehicle.deviceNo, channel, startTime, endTime }, {
      send(data) {
        socket.send(data);
        if (typeof data === 'string' && data.includes('"stopped"')) socket.close(1000);
      },
      get bufferedAmount() {
        return socket.bufferedAmount;
      },
      get gone() {
        return socket.readyState !== socket.OPEN;
      },
    });
    if (!handle) {
      socket.close(1000, 'busy');
      return;
    }
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      const control = isBinary ? undefined : parsePlaybackControl(String(data));
      if (!control) {
        const a: PlaybackControlAnswer = { type: 'control', action: 'pause', ok: false, reason: 'badControl' };
        socket.send(JSON.stringify(a));
        return;
      }
      void handle.control(control);
    });
    socket.on('error', (err) => request.log.warn({ err }, 'playback socket error'));
    socket.on('close', () => handle.leave());
  });
}
