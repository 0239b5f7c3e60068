/**
 * The socket side of one simulated terminal: connect, register (0x0100) unless it holds an auth
 * code (kept across connections, and handed in from the database at start like a real terminal's
 * flash: the gateway refuses a registered terminal's 0x0100 with result 3), authenticate (0x0102),
 * send what its VehicleProgram emits, keep the link alive with
 * heartbeats, record positions while the link is down and re-upload them as 0x0704 type 1, and
 * reconnect with exponential backoff. It owns no timer: the simulator's single scheduler tick calls
 * `wake(now)` when `wakeAt` has come, and socket events ask it to reschedule.
 */
import net from 'node:net';
import { simDriverCard } from './driver.ts';
import { SimFaceUnit, type FaceLink } from './face.ts';
import { isFaceMessage, type FaceMessage } from '../gateway/jt808/face.ts';
import {
  decodeBody,
  decodeFrame,
  encodeBody,
  encodeFrames,
  FrameSplitter,
  MSG,
  Reassembler,
  REGISTER_RESULT,
  RESULT,
  type FrameResult,
  type Jt808Header,
  type Jt808MessageInput,
  type LocationInput,
} from '../gateway/jt808/index.ts';
import { LIVE_COMMAND, LIVE_DATA, MEDIA_MSG, type AvAttributes } from '../gateway/jt808/media-signalling.ts';
import { AUDIO_FRAME_BYTES } from './clip-streams.ts';
import { MediaStreamer } from './media-streamer.ts';
import type { SimBox } from './box.ts';
import { cameraCommand, cameraSawReport, type CameraLink } from './camera.ts';
import { handleSimFileUpload } from './file-upload.ts';
import { PHONE_CALLBACK } from '../gateway/jt808/phone.ts';
import { isParameterMessage, type ParameterMessage, type TerminalParameter } from '../gateway/jt808/parameters.ts';
import { isUpgradeMessage, type UpgradePackage } from '../gateway/jt808/upgrade.ts';
import { simFirmwareVersion, simUpgrade, SubpackageLoss } from './upgrade.ts';
import { ActivityLog, devlogAnswer } from './devlog.ts';
import { activeSafetyOf, applyActiveSafety, heartbeatMsOf, simDefaultParameters, simParameterCommand } from './parameters.ts';
import { HJWS_PARAMS } from '../../domain/terminal-params/hjws.ts';
import { simCanData } from './can.ts';
import { simPassengerUploads } from './passengers.ts';
import { SimFenceStore } from './fences.ts';
import { SimRouteStore } from './routes.ts';
import { isRouteMessage, type RouteMessage } from '../gateway/jt808/routes.ts';
import { isFenceMessage, type FenceMessage } from '../gateway/jt808/fences.ts';
import { handleIntercomControl, handleIntercomRequest, isIntercomRequest, simIntercom } from './intercom.ts';
import { handlePlaybackSignalling, playbackStreamer } from './playback.ts';
import type { Emission, VehicleProgram } from './vehicle.ts';

/** Simulated terminals have four cameras (JT/T 1076 channels 1–4); other channels are refused. */
export const SIM_CAMERA_CHANNELS = 4;

/**
 * The 0x1003 answer to 0x9003: what a simulated terminal really streams (clip-streams.ts, fixtures/video):
 * G.711A (table 12 code 6), mono, 8 kHz (0), 8-bit A-law samples (0), 320-byte (40 ms) audio frames,
 * audio output (the intercom plays the platform's voice), H.264 (98), and SIM_CAMERA_CHANNELS cameras,
 * each of which carries the audio when asked for audio and video.
 */
export const SIM_AV_ATTRIBUTES: AvAttributes = {
  msgId: 0x1003, audioEncoding: 6, audioChannels: 1, samplingRate: 0, samplingBits: 0, audioFrameLength: AUDIO_FRAME_BYTES,
  audioOutput: true, videoEncoding: 98, maxAudioChannels: SIM_CAMERA_CHANNELS, maxVideoChannels: SIM_CAMERA_CHANNELS,
};

/** One media streamer per process: its single 40 ms timer drives every live channel of every terminal. */
const media = new MediaStreamer();

export interface SimStats {
  /** Terminals in the run, never-online ones included. */
  terminals: number;
  /** Terminals that never connect (the never-online share). */
  neverOnline: number;
  /** Open TCP connections. */
  connected: number;
  /** Connections that completed authentication and report live. */
  authenticated: number;
  registrations: number;
  authentications: number;
  reportsSent: number;
  heartbeatsSent: number;
  /** 0x0704 type 1 messages and the positions they carried. */
  batchesSent: number;
  batchItemsSent: number;
  /** Positions recorded while the link was down and not yet re-uploaded. */
  recordedPending: number;
  driftSent: number;
  /** 0x8001 with result 0 / anything else. */
  acks: number;
  nacks: number;
  registerFailures: number;
  authFailures: number;
  connectErrors: number;
  /** Connections the platform (or the network) closed while the terminal wanted to be online. */
  drops: number;
  /** Frames from the platform the terminal could not decode. */
  badFrames: number;
  bytesSent: number;
  bytesReceived: number;
}

export function emptyStats(): SimStats {
  return {
    terminals: 0, neverOnline: 0, connected: 0, authenticated: 0, registrations: 0, authentications: 0, reportsSent: 0,
    heartbeatsSent: 0, batchesSent: 0, batchItemsSent: 0, recordedPending: 0, driftSent: 0, acks: 0, nacks: 0,
    registerFailures: 0, authFailures: 0, connectErrors: 0, drops: 0, badFrames: 0, bytesSent: 0, bytesReceived: 0,
  };
}

/** Errors worth a glance in the stats line. */
export function errorCount(s: SimStats): number {
  return s.nacks + s.registerFailures + s.authFailures + s.connectErrors + s.drops + s.badFrames;
}

/** What a terminal's 0x0100 says about itself beyond its number and plate (defaults: the simulator's own model). */
export interface SimRegistration {
  readonly makerId?: string;
  readonly model?: string;
  readonly terminalId?: string;
  /** JT/T 415 plate colour. @default 2 (yellow: goods vehicles) */
  readonly plateColor?: number;
}

/** Steps of a terminal's handshake, for a caller that follows a few terminals by name (the CLI with --device-no). */
export type SimTerminalEvent =
  | { readonly kind: 'registered' }
  | { readonly kind: 'registerRefused'; readonly result: number; readonly retryInMs: number }
  | { readonly kind: 'authenticated' }
  | { readonly kind: 'authRefused'; readonly result: number }
  | { readonly kind: 'dropped' };

export interface TerminalContext {
  readonly host: string;
  readonly port: number;
  readonly heartbeatMs: number;
  readonly stats: SimStats;
  readonly clock: () => number;
  /**
   * Send 0x0003 (terminal unregistration) when stopped: for terminals that cannot keep their codes
   * (generated numbers), so the next run may register them again. Off: stop just closes, as a real
   * terminal powering off does, and the code stays valid.
   */
  readonly unregisterOnStop?: boolean;
  /** Called when a socket event changed `wakeAt`. */
  reschedule(t: Terminal): void;
  /** Told of handshake steps and dropped connections (optional). */
  readonly onEvent?: (deviceNo: string, event: SimTerminalEvent) => void;
  /** Least wait before registering again after a refused 0x0100 (grows with the usual back-off). @default 5 min */
  readonly refusedRetryMs?: number;
}

const BACKOFF_MIN_MS = 1000;
const BACKOFF_MAX_MS = 60_000;
/** A refused registration (unknown terminal) is retried slowly, like a real terminal would. */
const REFUSED_BACKOFF_MS = 5 * 60_000;
/** Connect this long before a report is due, so the first report goes live, not as a re-upload. */
const CONNECT_LEAD_MS = 3000;
/**
 * Give up on a connection not authenticated within this much wall-clock time (network latency is
 * real even when the simulation clock runs fast). Checked when the terminal next wakes.
 */
const HANDSHAKE_TIMEOUT_MS = 20_000;
const HANDSHAKE_CHECK_MS = 5000;
/** Sub-packaged messages (photos, long 0x1205 lists) kept for the platform's 0x8003 resend requests. */
const KEPT_SUBPACKAGED = 4;
/** 0x0704 bodies stay under the 1023-byte frame limit (no sub-packaging needed). */
const MAX_BATCH_BODY = 1000;
/**
 * Recorded positions kept while the platform is out of reach (oldest dropped first): about 2.8 h at
 * 10 s, 16 h parked. ~0.4 KB each, so even a whole fleet cut off stays within memory.
 */
const MAX_RECORDED = 1000;

type Phase = 'down' | 'connecting' | 'registering' | 'authenticating' | 'ready';

export class Terminal {
  wakeAt = 0;
  /** Heap entry generation: a stale entry (lower gen) is skipped. */
  gen = 0;
  private socket: net.Socket | null = null;
  private splitter: FrameSplitter | null = null;
  private phase: Phase = 'down';
  private authCode: string | null = null;
  private serial = 0;
  private lastSentAt = 0;
  private reconnectAt = 0;
  /** Power-on: connect shortly before the first report after start or after an offline period. */
  private connectNotBefore: number;
  private backoffMs = BACKOFF_MIN_MS;
  /** Wall-clock (Date.now) deadline of the current handshake. */
  private handshakeDeadline = Infinity;
  private recorded: LocationInput[] = [];
  private stopped = false;
  private attempt = 0;
  /** The platform refused the registration: nothing is recorded until one succeeds. */
  private refused = false;

  /** Its own log (sim/devlog.ts): recent frames and connections, uploaded on a device log request. */
  readonly activity = new ActivityLog();
  /** Packages of recent sub-packaged messages by first serial, sent again on a 0x8003. */
  private readonly kept = new Map<number, Uint8Array[]>();

  /**
   * Parameters the platform set (0x8103), by id (PARAM in gateway/jt808/parameters.ts), kept like a
   * real terminal's flash for as long as the simulator runs: tests read e.g. the plate (0x0083) here.
   */
  readonly parameters = new Map<number, TerminalParameter['value']>();
  /** Versions installed by 0x8108 upgrade packages, by upgrade type (sim/upgrade.ts). */
  readonly upgrades = new Map<number, string>();
  /** Sub-packaged platform messages (0x8108 packages) put back together; sized for a 60 MiB package. */
  private readonly reassembler = new Reassembler({ maxParts: 0xffff, maxMessages: 2, maxBytes: 64 * 1024 * 1024, maxAgeMs: 600_000 });
  /** One sub-package of each long 0x8108 is lost and asked for again with 0x0005 (sim/upgrade.ts). */
  private readonly subpackageLoss = new SubpackageLoss();
  /** Areas the platform sent (0x8600–0x8605), obeyed while driving (sim/fences.ts). */
  readonly fences = new SimFenceStore();
  /** Routes the platform sent (0x8606/0x8607), obeyed while driving (sim/routes.ts): bits 23, 22 + 0x13, 1 + 0x11. */
  readonly routes = new SimRouteStore();
  /** Issue 19: the face-recognition camera (sim/face.ts), null on terminals without one. */
  readonly face: SimFaceUnit | null;
  /** The latest position taken (answers 0x8201; repeated by temporary tracking). */
  private lastLocation: LocationInput | null = null;
  /** 0x8202 temporary tracking: next report and end (simulation clock), null when off. */
  private tracking: { intervalMs: number; nextAt: number; until: number } | null = null;

  constructor(
    readonly program: VehicleProgram,
    private readonly ctx: TerminalContext,
    /** The code this terminal registered with before (kept like a real terminal's flash), if any. */
    authCode: string | null = null,
    private readonly registration: SimRegistration = {},
    /** A slag truck's cargo box (sim/box.ts), null for other vehicles. */
    private readonly box: SimBox | null = null,
  ) {
    this.authCode = authCode;
    this.face = SimFaceUnit.of(program.deviceNo);
    this.connectNotBefore = program.nextAt - CONNECT_LEAD_MS;
    this.wakeAt = this.computeWake(-Infinity);
  }

  get isReady(): boolean {
    return this.phase === 'ready';
  }

  /** Runs everything due at `now` and updates `wakeAt`. */
  wake(now: number): void {
    if (this.stopped) return;
    const p = this.program;
    while (p.nextAt <= now) this.emit(p.step());
    if (p.link === 'up') {
      if (this.phase === 'down' && now >= this.reconnectAt && now >= this.connectNotBefore) this.connect();
      else if (this.phase !== 'down' && this.phase !== 'ready' && Date.now() >= this.handshakeDeadline) this.fail(now);
    }
    const t = this.tracking;
    if (t && now >= t.until) this.tracking = null;
    else if (t && now >= t.nextAt && this.phase === 'ready' && this.lastLocation) {
      this.send({ msgId: MSG.LOCATION, ...this.lastLocation, time: now });
      t.nextAt = now + t.intervalMs;
    }
    // The heartbeat interval follows parameter 0x0001 as the platform last set it (sim/parameters.ts).
    if (this.phase === 'ready' && now - this.lastSentAt >= this.heartbeatMs) {
      this.send({ msgId: MSG.HEARTBEAT });
      this.ctx.stats.heartbeatsSent++;
    }
    this.wakeAt = this.computeWake(now);
  }

  /** Sends a logout and closes; resolves when the socket is gone. */
  stop(): Promise<void> {
    this.stopped = true;
    const socket = this.socket;
    if (!socket) return Promise.resolve();
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      if (this.phase === 'ready' && this.ctx.unregisterOnStop) this.send({ msgId: MSG.LOGOUT });
      socket.end();
      setTimeout(() => socket.destroy(), 2000).unref();
    });
  }

  private computeWake(now: number): number {
    const p = this.program;
    let at = p.nextAt;
    if (p.link === 'up') {
      if (this.phase === 'down') at = Math.min(at, Math.max(this.reconnectAt, this.connectNotBefore));
      else if (this.phase === 'ready') at = Math.min(at, this.lastSentAt + this.heartbeatMs, this.tracking ? Math.min(this.tracking.nextAt, this.tracking.until) : Infinity);
      // Handshaking: look at the wall-clock deadline again a little later.
      else at = Math.min(at, now + HANDSHAKE_CHECK_MS);
    }
    return at;
  }

  private emit(e: Emission): void {
    const stats = this.ctx.stats;
    if (e.link === 'off' || e.link === 'blind') {
      // Powered off or out of coverage: the TCP connection is gone either way.
      if (this.socket) this.close();
      if (e.link === 'off') this.connectNotBefore = this.program.nextAt - CONNECT_LEAD_MS;
    }
    if (!e.location) return;
    // ADAS/DMS alarms follow the thresholds the terminal holds (0xF364/0xF365; sim/parameters.ts).
    // Areas the platform sent raise bit 20 (in/out) and bit 1 (area overspeed) (sim/fences.ts).
    const fenced = this.routes.applyTo(this.fences.applyTo(applyActiveSafety(this.parameters, e.location)));
    // A slag truck's box is reported through the controller parameters it holds (0xF3A0; sim/box.ts).
    const location = this.box ? this.box.applyTo(fenced, activeSafetyOf(this.parameters, HJWS_PARAMS)) : fenced;
    this.lastLocation = location;
    if (e.link === 'up' && this.phase === 'ready') {
      this.send({ msgId: MSG.LOCATION, ...location });
      const can = simCanData(this.program.deviceNo, this.program.tankLitres, { ...location, fuel: this.program.fuelLitres });
      if (can) this.send(can);
      // A bus counts its passengers (and measures their temperature) when it stops at a station (sim/passengers.ts).
      for (const m of simPassengerUploads(this.program.deviceNo, location)) this.send(m);
      stats.reportsSent++;
      if (e.drift) stats.driftSent++;
      cameraSawReport(this.camera(), location);
      return;
    }
    if (this.refused) return;
    if (this.recorded.length >= MAX_RECORDED) {
      this.recorded.shift();
      stats.recordedPending--;
    }
    this.recorded.push(location);
    stats.recordedPending++;
  }

  private connect(): void {
    const stats = this.ctx.stats;
    this.phase = 'connecting';
    this.handshakeDeadline = Date.now() + HANDSHAKE_TIMEOUT_MS;
    this.attempt++;
    const attempt = this.attempt;
    const socket = net.connect({ host: this.ctx.host, port: this.ctx.port });
    socket.setNoDelay(true);
    this.socket = socket;
    this.splitter = new FrameSplitter({ maxBody: 1100 });
    socket.on('connect', () => {
      if (attempt !== this.attempt) return;
      stats.connected++;
      this.activity.add(this.ctx.clock(), 2);
      if (this.authCode) this.authenticate();
      else this.register();
      this.ctx.reschedule(this);
    });
    socket.on('data', (chunk: Buffer) => {
      if (attempt !== this.attempt) return;
      stats.bytesReceived += chunk.length;
      this.splitter?.push(chunk, (frame) => this.receive(frame), () => stats.badFrames++);
    });
    socket.on('error', () => {
      if (attempt === this.attempt && this.phase === 'connecting') stats.connectErrors++;
    });
    socket.on('close', () => {
      if (attempt !== this.attempt) return;
      this.onClosed(socket);
    });
  }

  private onClosed(socket: net.Socket): void {
    // Without its 808 session a terminal stops streaming (the platform can no longer control it).
    media.stop(this.program.deviceNo);
    simIntercom.stop(this.program.deviceNo);
    playbackStreamer.stop(this.program.deviceNo);
    const stats = this.ctx.stats;
    this.activity.add(this.ctx.clock(), 3);
    if (this.phase !== 'connecting') stats.connected--;
    if (this.phase === 'ready') stats.authenticated--;
    const wanted = !this.stopped && this.program.link === 'up';
    if (wanted && this.phase !== 'connecting') {
      stats.drops++;
      this.ctx.onEvent?.(this.program.deviceNo, { kind: 'dropped' });
    }
    this.phase = 'down';
    if (this.socket === socket) {
      this.socket = null;
      this.splitter = null;
    }
    if (wanted) this.backOff(this.ctx.clock());
    this.ctx.reschedule(this);
  }

  private backOff(now: number, minimum = 0): void {
    // Jitter keeps a fleet that lost the platform at once from reconnecting in lockstep.
    const jitter = 0.5 + ((this.attempt * 2654435761) % 1000) / 1000;
    this.reconnectAt = now + Math.max(minimum, this.backoffMs * jitter);
    this.backoffMs = Math.min(BACKOFF_MAX_MS, this.backoffMs * 2);
  }

  /** Closes our side on purpose (link down per the program): no backoff, no drop counted. */
  private close(): void {
    const socket = this.socket;
    if (!socket) return;
    media.stop(this.program.deviceNo);
    simIntercom.stop(this.program.deviceNo);
    playbackStreamer.stop(this.program.deviceNo);
    const stats = this.ctx.stats;
    this.attempt++; // ignore the old socket's late events
    if (this.phase !== 'connecting') stats.connected--;
    if (this.phase === 'ready') stats.authenticated--;
    this.phase = 'down';
    this.socket = null;
    this.splitter = null;
    socket.destroy();
  }

  /** Closes and waits; answers the wait (ms of the simulation clock). */
  private fail(now: number, minimumBackoff = 0): number {
    this.close();
    this.backOff(now, minimumBackoff);
    return this.reconnectAt - now;
  }

  private register(): void {
    const p = this.program;
    this.phase = 'registering';
    this.send({
      msgId: MSG.REGISTER,
      province: Math.floor(p.home.code / 10000),
      city: p.home.code % 10000,
      makerId: this.registration.makerId ?? 'SIMFL',
      model: this.registration.model ?? 'FLEETSIM-808',
      terminalId: this.registration.terminalId ?? p.deviceNo.slice(-7),
      plateColor: this.registration.plateColor ?? 2, // yellow: goods vehicles
      plate: p.plate,
    });
  }

  private authenticate(): void {
    this.phase = 'authenticating';
    this.send({ msgId: MSG.AUTHENTICATE, authCode: this.authCode ?? '', imei: `86${this.program.deviceNo.padStart(13, '0')}`, softwareVersion: 'SIM-1.0' });
  }

  /** A sub-package is held until its message is complete (null meanwhile); then the whole is decoded. */
  private reassemble(r: FrameResult): FrameResult | null {
    if (r.kind !== 'fragment') return r;
    const loss = this.subpackageLoss.onFragment(r.header);
    if (loss === 'drop') return null;
    const whole = this.reassembler.push(r.header, r.body, this.ctx.clock());
    if (loss !== null) this.send(loss);
    if (whole === 'held') return null;
    return typeof whole === 'object' ? decodeBody(whole.header, whole.body) : r;
  }

  private receive(frame: Uint8Array): void {
    const stats = this.ctx.stats;
    const r = this.reassemble(decodeFrame(frame));
    if (r === null) return;
    if (r.kind === 'error' || r.kind === 'fragment') {
      stats.badFrames++;
      return;
    }
    this.activity.add(this.ctx.clock(), 1, r.header.msgId, r.header.serial);
    if (r.kind === 'unsupported') {
      this.reply(r.header, RESULT.UNSUPPORTED);
      return;
    }
    const m = r.message;
    const now = this.ctx.clock();
    switch (m.msgId) {
      case MSG.REGISTER_RESPONSE:
        if (this.phase !== 'registering') return;
        if (m.result === REGISTER_RESULT.OK && m.authCode !== '') {
          stats.registrations++;
          this.refused = false;
          this.authCode = m.authCode;
          this.ctx.onEvent?.(this.program.deviceNo, { kind: 'registered' });
          this.authenticate();
        } else {
          stats.registerFailures++;
          // An unknown terminal: its recordings would never be accepted, so they are not kept.
          this.refused = true;
          stats.recordedPending -= this.recorded.length;
          this.recorded = [];
          const retryInMs = this.fail(now, this.ctx.refusedRetryMs ?? REFUSED_BACKOFF_MS);
          this.ctx.onEvent?.(this.program.deviceNo, { kind: 'registerRefused', result: m.result, retryInMs });
        }
        break;
      case MSG.PLATFORM_RESPONSE:
        if (m.replyId === MSG.AUTHENTICATE && this.phase === 'authenticating') {
          if (m.result === RESULT.OK) {
            stats.authentications++;
            stats.authenticated++;
            this.phase = 'ready';
            this.backoffMs = BACKOFF_MIN_MS;
            this.handshakeDeadline = Infinity;
            this.ctx.onEvent?.(this.program.deviceNo, { kind: 'authenticated' });
            this.flush();
            // The driver signs in (0x0702), so live alarms are attributed to someone (server/sim/driver.ts).
            const card = simDriverCard(this.program.deviceNo, now);
            if (card) this.send(card);
            // Shift start: the face camera compares the driver (sim/face.ts).
            this.face?.shiftStart(now, this.faceLink(r.header));
          } else {
            // A stale code: register afresh on the next connection.
            stats.authFailures++;
            this.authCode = null;
            this.ctx.onEvent?.(this.program.deviceNo, { kind: 'authRefused', result: m.result });
            this.fail(now);
          }
        } else if (m.result === RESULT.OK) {
          stats.acks++;
        } else {
          stats.nacks++;
        }
        break;
      case MSG.RESEND_REQUEST: {
        // The platform lost packages of a sub-packaged message: send those again (if still kept).
        const frames = this.kept.get(m.firstSerial);
        const socket = this.socket;
        if (frames && socket) for (const id of m.packageIds) if (frames[id - 1]) socket.write(frames[id - 1]!);
        break;
      }
      case MSG.TEXT:
      case MSG.ALARM_CONFIRM:
      case PHONE_CALLBACK: // the simulated driver "answers" the callback
        this.reply(r.header, RESULT.OK);
        break;
      case MEDIA_MSG.AV_QUERY: // 0x9003: the answer is the 0x1003 itself (JT/T 1078 has no 0x0001 for it)
        this.send(SIM_AV_ATTRIBUTES);
        break;
      case MEDIA_MSG.LIVE_REQUEST: {
        if (isIntercomRequest(m.dataType)) {
          handleIntercomRequest({ deviceNo: this.program.deviceNo, simLength: this.program.edition === 2019 ? 10 : 6, reply: (result) => this.reply(r.header, result) }, m);
          break;
        }
        // Answer first, then connect to the media port, as real terminals do.
        const camera = m.channel >= 1 && m.channel <= SIM_CAMERA_CHANNELS;
        this.reply(r.header, camera ? RESULT.OK : RESULT.FAIL);
        if (camera) {
          const p = this.program;
          void media
            .start({ host: m.host, port: m.tcpPort, sim: p.deviceNo, simLength: p.edition === 2019 ? 10 : 6, channel: m.channel, streamType: m.streamType, withAudio: m.dataType === LIVE_DATA.AUDIO_VIDEO })
            .catch(() => undefined);
        }
        break;
      }
      case MEDIA_MSG.LIVE_CONTROL:
        this.reply(r.header, RESULT.OK);
        // Close type 1 closes audio only (a broadcast): live video of the channel goes on.
        if (m.command === LIVE_COMMAND.CLOSE && m.closeType !== 1) media.stop(this.program.deviceNo, m.channel);
        handleIntercomControl(this.program.deviceNo, m);
        break;
      case MEDIA_MSG.RESOURCE_QUERY:
      case MEDIA_MSG.PLAYBACK_REQUEST:
      case MEDIA_MSG.PLAYBACK_CONTROL: {
        const p = this.program;
        handlePlaybackSignalling({ deviceNo: p.deviceNo, simLength: p.edition === 2019 ? 10 : 6, send: (msg) => this.send(msg), reply: (result) => this.reply(r.header, result) }, m, r.header.serial);
        break;
      }
      case 0x9206: // file upload to the platform's FTP server (sim/file-upload.ts)
      case 0x9207:
        handleSimFileUpload({ deviceNo: this.program.deviceNo, serial: r.header.serial, cameras: SIM_CAMERA_CHANNELS, reply: (result) => this.reply(r.header, result), send: (msg) => this.send(msg), now: this.ctx.clock }, m);
        break;
      case 0x8900: { // device log request (sim/devlog.ts): its own recent activity, in 0x0900
        const answer = devlogAnswer(this.activity, m, r.header.serial);
        if (answer) this.send(answer);
        else this.reply(r.header, RESULT.UNSUPPORTED);
        break;
      }
      case 0x8801: // camera shoot, stored-media search and uploads (sim/camera.ts)
      case 0x8802:
      case 0x8803:
      case 0x8805:
        cameraCommand(this.camera(), r.header, m, this.ctx.clock());
        break;
      default:
        if (isFaceMessage(m.msgId)) {
          if (this.face) this.face.command(m as FaceMessage, r.header.serial, now, this.faceLink(r.header));
          else this.reply(r.header, RESULT.UNSUPPORTED);
        }
        if (isFenceMessage(m.msgId)) {
          this.fences.apply(m as FenceMessage);
          this.reply(r.header, RESULT.OK);
        }
        if (isRouteMessage(m.msgId)) {
          this.routes.apply(m as RouteMessage);
          this.reply(r.header, RESULT.OK);
        }
        if (isUpgradeMessage(m.msgId)) {
          simUpgrade({ makerId: this.registration.makerId ?? 'SIM01', versions: this.upgrades, send: (msg) => this.send(msg), reply: (result) => this.reply(r.header, result) }, m as UpgradePackage);
        }
        if (isParameterMessage(m.msgId)) {
          simParameterCommand(this.parameterLink(r.header), r.header, m as ParameterMessage);
          // A new heartbeat interval or temporary tracking moves the next wake.
          this.wakeAt = this.computeWake(now);
        }
        break;
    }
    this.ctx.reschedule(this);
  }

  /** Re-uploads recorded positions (0x0704 type 1), packed into bodies under the frame limit. */
  private flush(): void {
    const stats = this.ctx.stats;
    const items = this.recorded;
    if (items.length === 0) return;
    this.recorded = [];
    stats.recordedPending -= items.length;
    let batch: LocationInput[] = [];
    let size = 3;
    const sendBatch = () => {
      if (batch.length === 0) return;
      this.send({ msgId: MSG.BATCH_LOCATION, type: 1, items: batch });
      stats.batchesSent++;
      stats.batchItemsSent += batch.length;
      batch = [];
      size = 3;
    };
    for (const item of items) {
      const itemSize = 2 + encodeBody({ msgId: MSG.LOCATION, ...item }).length;
      if (size + itemSize > MAX_BATCH_BODY) sendBatch();
      batch.push(item);
      size += itemSize;
    }
    sendBatch();
  }

  private get heartbeatMs(): number {
    return heartbeatMsOf(this.parameters, this.ctx.heartbeatMs);
  }

  /** This terminal as the parameter commands see it (sim/parameters.ts). */
  private parameterLink(header: Jt808Header) {
    return {
      deviceNo: this.program.deviceNo,
      parameters: this.parameters,
      factory: () => simDefaultParameters({ plate: this.program.plate, heartbeatMs: this.ctx.heartbeatMs }),
      registration: this.registration,
      firmwareVersion: () => simFirmwareVersion(this.upgrades, 'SIM-808-1.0'),
      // Before its first report a real unit still has a fix: where the vehicle is now.
      lastLocation: () => this.lastLocation ?? { alarm: 0, status: 0b11, ...this.program.position, altitude: 0, direction: 0, time: this.ctx.clock() },
      send: (msg: Jt808MessageInput) => this.send(msg),
      reply: (result: number) => this.reply(header, result),
      track: (intervalS: number, validityS: number) => {
        const now = this.ctx.clock();
        this.tracking = intervalS > 0 && validityS > 0 ? { intervalMs: intervalS * 1000, nextAt: now + intervalS * 1000, until: now + validityS * 1000 } : null;
      },
    };
  }

  /** This terminal as its face camera sees it (sim/face.ts). */
  private faceLink(header: Jt808Header): FaceLink {
    return { send: (msg) => this.send(msg), reply: (result) => this.reply(header, result), position: () => this.lastLocation ?? this.program.position };
  }

  /** This terminal as its cameras see it (sim/camera.ts). */
  private camera(): CameraLink {
    return { deviceNo: this.program.deviceNo, edition: this.program.edition, send: (msg) => this.send(msg) };
  }

  private reply(request: Jt808Header, result: number): void {
    this.send({ msgId: MSG.TERMINAL_RESPONSE, replySerial: request.serial, replyId: request.msgId, result });
  }

  private send(message: Jt808MessageInput): void {
    const socket = this.socket;
    if (!socket) return;
    const p = this.program;
    const body = encodeBody(message, p.edition);
    // A body over 1023 bytes (a long 0x1205 list) goes in sub-packages with consecutive serials.
    const frames = encodeFrames({ phone: p.deviceNo, serial: this.serial, version: p.edition, msgId: message.msgId }, body);
    this.activity.add(this.ctx.clock(), 0, message.msgId, this.serial);
    if (frames.length > 1) {
      this.kept.set(this.serial, frames);
      if (this.kept.size > KEPT_SUBPACKAGED) this.kept.delete(this.kept.keys().next().value!);
    }
    this.serial = (this.serial + frames.length) & 0xffff;
    this.lastSentAt = this.ctx.clock();
    for (const bytes of frames) {
      this.ctx.stats.bytesSent += bytes.length;
      socket.write(bytes);
    }
  }
}
