/**
 * The alarm pop-up's voice buttons (issue 5 / 6), server/API.md "Intercom and reminders":
 * - `GET /ws-service/talk?token&vehicleId[&channel][&companyId]` (websocket, `/global/alarm:talk`):
 *   two-way intercom. Text messages are TalkStatus JSON (connecting / talking / stopped + reason),
 *   binary down is the terminal's audio as media frames (proto/media-frame.ts), binary up is the
 *   operator's G.711A (8 kHz, 20–200 ms a message).
 * - `POST /service-command/command/startFun` (musicReminder / audioReminder): a reminder sound on the
 *   terminal's speaker by centre broadcast.
 * - `POST /service-command/command/callAlarm` (phoneReminder): 0x8400 telephone callback.
 */
import { Type } from '@fastify/type-provider-typebox';
import { isOnline } from '../../../domain/vehicle/state.ts';
import { MAX_LOGICAL_CHANNEL, videoMessage } from '../../../domain/video/limits.ts';
import type { Storage } from '../../db/repositories.ts';
import { pathInScope } from '../../db/scope.ts';
import { CALLBACK_FLAG, PHONE_CALLBACK } from '../../gateway/jt808/phone.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, Strict, type App } from '../../http/route.ts';
import type { LiveStore } from '../../live/store.ts';
import { reminderSound, type ReminderSound } from '../../media/reminder-sounds.ts';
import type { TalkHub, TalkStatus } from '../../media/talk.ts';
import { SafeMessages, terminalResultText, TERMINAL_NO_REPLY, TERMINAL_OFFLINE } from '../safe/messages.ts';
import type { CommandSender } from './signalling.ts';
import { isCallbackPhone } from '../../../domain/vehicle/callback-phone.ts';

export const TALK_PATH = '/ws-service/talk';

/**
 * The intercom's logical channel unless the caller names one: 1, the driver's position (JT/T 1076
 * table 2), where cab terminals mount the microphone and speaker the driver uses.
 */
export const DEFAULT_TALK_CHANNEL = 1;

const REPLY_TIMEOUT_MS = 5000;

export interface TalkDeps {
  readonly storage: Storage;
  readonly store: LiveStore;
  readonly talk: TalkHub;
  readonly gateway: CommandSender;
  readonly clock?: () => number;
}

const ChannelField = Type.Integer({ minimum: 1, maximum: MAX_LOGICAL_CHANNEL });

const intercomFailed: Message = (lang) => videoMessage('intercomFailed', lang);
/** The operator's socket is pinged this often; no pong before the next ping ends the intercom. */
const TALK_PING_MS = 15_000;

const phoneInvalid: Message = (lang) => (lang === 'zh' ? '请输入正确的电话号码（3–20位数字）' : 'Enter a valid phone number (3–20 digits)');


export function talkRoutes(app: App, deps: TalkDeps): void {
  const { storage, store, talk, gateway } = deps;
  const clock = deps.clock ?? Date.now;

  /** The vehicle in the caller's (narrowed) scope, and whether its terminal is online now. */
  async function vehicleOf(ctx: AuthContext, vehicleId: number, companyId: number | undefined) {
    const scope = await narrowedScope(storage, ctx, companyId).catch(() => null);
    const vehicle = scope ? await storage.fleet.getVehicle(scope, vehicleId) : undefined;
    if (!scope || !vehicle) return undefined;
    const slot = store.slotOf(vehicleId);
    const online = slot >= 0 && pathInScope(scope, store.companyPathOf(slot)) && isOnline(store.stateOf(slot));
    // A vehicle without an installed device is never online; its (empty) number is then never used.
    return { vehicle: { ...vehicle, deviceNo: vehicle.deviceNo ?? '' }, online: online && vehicle.deviceNo !== null };
  }

  const displayName = (ctx: AuthContext) => ctx.user.realName || ctx.user.username;

  /** Logs a reminder on the alarm it answers (the alarm's deal log), when one is named. */
  async function logOnAlarm(ctx: AuthContext, alarmId: number | undefined, action: string, content: string, result: number) {
    if (alarmId === undefined) return;
    await storage.alarms.addLog({ alarmId, userId: ctx.user.id, username: displayName(ctx), action, dealType: null, content, terminalResult: result, resultText: '', createTime: clock() });
  }

  async function alarmOf(ctx: AuthContext, alarmId: number | undefined, vehicleId: number) {
    if (alarmId === undefined) return;
    const alarm = await storage.alarms.get(ctx.scope, alarmId);
    if (!alarm || alarm.vehicleId !== vehicleId) throw fail.notFound(SafeMessages.alarmNotFound);
  }

  app.get(TALK_PATH, {
    websocket: true,
    config: { permission: '/global/alarm:talk' },
    schema: { querystring: Strict({ token: Type.String({ minLength: 1 }), vehicleId: Id, channel: Type.Optional(ChannelField) }) },
  }, async (socket, request) => {
    const ctx = auth(request);
    const { vehicleId, channel = DEFAULT_TALK_CHANNEL, companyId } = request.query;
    const stop = (reason: string) => {
      const s: TalkStatus = { type: 'status', state: 'stopped', reason };
      socket.send(JSON.stringify(s));
      socket.close(1000, reason);
    };
    const found = await vehicleOf(ctx, vehicleId, companyId);
    if (!found) return stop('notFound');
    if (!found.online) return stop('deviceOffline'); // "the device is offline": the video wording ("…cannot play") does not fit an intercom
    let open = true;
    const session = talk.open({ vehicleId, sim: found.vehicle.deviceNo, channel }, 'talk', {
      send(data) {
        if (open) socket.send(data);
      },
      stopped() {
        if (open) socket.close(1000, 'stopped');
      },
    });
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      // Binary: one G.711A frame of the operator's voice; text: {"type":"stop"} hangs up.
      // A listener that throws would take the whole server down: a bad frame only ends this intercom.
      try {
        if (isBinary) session.sendAudio(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
        else if (String(data).includes('"stop"')) session.close();
      } catch (err) {
        request.log.warn({ err }, 'talk frame refused');
        session.close();
      }
    });
    // An operator whose browser vanished without a close (Wi-Fi gone, laptop asleep) would hold the
    // terminal's one intercom and keep its microphone streaming: a ping unanswered by the next one ends it.
    let alive = true;
    socket.on('pong', () => {
      alive = true;
    });
    const ping = setInterval(() => {
      if (!alive) {
        socket.terminate();
        return;
      }
      alive = false;
      socket.ping();
    }, TALK_PING_MS);
    ping.unref();
    socket.on('error', (err) => request.log.warn({ err }, 'talk socket error'));
    socket.on('close', () => {
      clearInterval(ping);
      open = false;
      session.close();
    });
  });

  app.post('/service-command/command/startFun', {
    // The area; the button (musicReminder / audioReminder) is checked below by `fun`.
    config: { permission: '/global/alarm' },
    schema: {
      body: Strict({
        vehicleId: Id,
        fun: Type.Union([Type.Literal('music'), Type.Literal('audio')]),
        channel: Type.Optional(ChannelField),
        alarmId: Type.Optional(Id),
      }),
    },
  }, async (request) => {
    const lang = requestLang(request);
    const ctx = auth(request);
    const { vehicleId, fun, channel = DEFAULT_TALK_CHANNEL, alarmId, companyId } = request.body;
    const button = fun === 'music' ? 'musicReminder' : 'audioReminder';
    if (!ctx.isAdmin && !ctx.access.hasButton('/global/alarm', button)) throw fail.forbidden();
    const found = await vehicleOf(ctx, vehicleId, companyId);
    if (!found) throw fail.notFound(SafeMessages.vehicleNotFound);
    await alarmOf(ctx, alarmId, vehicleId);
    if (!found.online) throw fail.conflict(SafeMessages.deviceOffline);
    try {
      const { durationMs } = await talk.broadcast({ vehicleId, sim: found.vehicle.deviceNo, channel }, reminderSound(fun as ReminderSound));
      await logOnAlarm(ctx, alarmId, fun, '', 0);
      return ok({ vehicleId, fun, channel, durationMs }, lang);
    } catch (detail) {
      const code = detail === 'deviceOffline' ? TERMINAL_OFFLINE : detail === 'noResponse' ? TERMINAL_NO_REPLY : 1;
      await logOnAlarm(ctx, alarmId, fun, '', code);
      if (detail === 'deviceOffline') throw fail.conflict(SafeMessages.deviceOffline);
      if (detail === 'noResponse') throw new AppError(504, SafeMessages.deviceNoReply);
      throw fail.conflict(intercomFailed);
    }
  });

  app.post('/service-command/command/callAlarm', {
    config: { permission: '/global/alarm:phoneReminder' },
    schema: {
      body: Strict({
        vehicleId: Id,
        phone: Type.String({ maxLength: 40 }),
        /** true: the terminal calls in listen mode (the caller only hears the cab). */
        listen: Type.Optional(Type.Boolean({ default: false })),
        alarmId: Type.Optional(Id),
      }),
    },
  }, async (request) => {
    const lang = requestLang(request);
    const ctx = auth(request);
    const { vehicleId, listen = false, alarmId, companyId } = request.body;
    const phone = request.body.phone.replace(/[\s-]/g, '');
    if (!isCallbackPhone(phone)) throw fail.badRequest(phoneInvalid);
    const found = await vehicleOf(ctx, vehicleId, companyId);
    if (!found) throw fail.notFound(SafeMessages.vehicleNotFound);
    await alarmOf(ctx, alarmId, vehicleId);
    const flag = listen ? CALLBACK_FLAG.LISTEN : CALLBACK_FLAG.TALK;
    const outcome = await gateway.sendCommand(vehicleId, { msgId: PHONE_CALLBACK, flag, phone }, REPLY_TIMEOUT_MS);
    const code = outcome.kind === 'reply' ? outcome.result : outcome.kind === 'offline' ? TERMINAL_OFFLINE : TERMINAL_NO_REPLY;
    await logOnAlarm(ctx, alarmId, 'phone', phone, code);
    if (outcome.kind === 'offline') throw fail.conflict(SafeMessages.deviceOffline);
    if (outcome.kind === 'timeout') throw new AppError(504, SafeMessages.deviceNoReply);
    return ok({ vehicleId, phone, flag, result: outcome.result, resultText: terminalResultText(outcome.result, lang) }, lang);
  });
}
