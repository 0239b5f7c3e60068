/**
 * Two-way intercom and centre broadcast (JT/T 1078 0x9101 data type 2 / 4) on the media port.
 *
 * - One session per terminal: a terminal has one speaker and one intercom microphone. A second
 *   operator is refused (`busy`) instead of silently cutting the first one off.
 * - Opening sends 0x9101 (`TalkSignalling.open`); the terminal connects to the media port and its
 *   FIRST packet on that connection names its SIM and the intercom channel: the port hands the
 *   connection to this hub (`claim`), so its frames never reach the live-video hub and the platform
 *   can write to it. The port's binding rules apply: only from the terminal's 808 address (unless
 *   MEDIA_ADDRESS_CHECK=off), one connection per session, and a packet naming another SIM or
 *   channel closes the connection.
 * - Terminal → operator: its audio frames (G.711A/U) go to the operator encoded once as
 *   proto/media-frame.ts frames, the same format as live video's audio.
 * - Operator → terminal: G.711A bytes become JT/T 1078 audio packets (data type 3, PT 6) with the
 *   terminal's own SIM spelling and SIM length, the intercom channel, one serial counter and a
 *   timestamp advancing by the audio's duration (8 bytes = 1 ms), written on the SAME TCP connection.
 * - Closing sends 0x9102 command 4 "close two-way intercom" (talk) or 0 "close" (broadcast).
 * - No connection from the terminal within `startTimeoutMs`, a refusal, or the terminal dropping the
 *   connection: the operator gets "stopped" with reason `intercomFailed` (spec §8 "intercom not
 *   opened or connection failed") and the cause in `detail`.
 */
import { encodeMediaFrame, MEDIA_KIND } from '../../proto/media-frame.ts';
import { PAYLOAD_TYPE, Packetizer, type MediaFrame, type SimLength } from './jt1078/index.ts';
import { normalizeSim } from './media-hub.ts';

export type TalkMode = 'talk' | 'broadcast';

export interface TalkTarget {
  readonly vehicleId: number;
  /** The terminal's SIM as stored (device number); its packets may spell it with leading zeros. */
  readonly sim: string;
  /** Logical channel of the intercom (JT/T 1076 table 2). */
  readonly channel: number;
}

export interface TalkSignalling {
  /** 0x9101 with data type 2 (talk) or 4 (broadcast); rejects with a media-hub.ts LiveRefusal. */
  open(target: TalkTarget, mode: TalkMode): Promise<void>;
  /** 0x9102 command 4 (close intercom) for talk, 0 (close) for broadcast. */
  close(target: TalkTarget, mode: TalkMode): Promise<void>;
}

/** The operator's end (a websocket, or the broadcaster). */
export interface TalkPeer {
  send(data: Uint8Array | string): void;
  /** The session ended (after its last status was sent). */
  stopped?(): void;
}

export type TalkState = 'connecting' | 'talking' | 'stopped';

/** JSON text message to the operator. `reason` is a key of domain/video/limits.ts VideoProblem. */
export interface TalkStatus {
  readonly type: 'status';
  readonly state: TalkState;
  readonly reason?: string;
  /** Why, for logs and support: busy, deviceOffline, noResponse, connectFailed, timeout, hungUp. */
  readonly detail?: string;
}

/** A terminal's media connection as the port lends it (media-port.ts `MediaTap`). */
export interface MediaLink {
  readonly simLength: SimLength;
  /** Writes bytes to the terminal; false when the socket's buffer is full (the bytes are still queued). */
  write(bytes: Uint8Array): boolean;
  /** Bytes queued on the socket, not yet sent. */
  readonly queued: number;
  close(): void;
}

/** What the port calls for a claimed connection. */
export interface MediaTapSink {
  onFrame(frame: MediaFrame, arrival: number): void;
  closed(): void;
}

export interface TalkHubOptions {
  now?: () => number;
  /** @default 10_000 (the terminal has this long to connect after accepting 0x9101) */
  startTimeoutMs?: number;
  /** Operator audio queued toward a terminal beyond this is dropped (≈ 2 s of G.711A). @default 16 KiB */
  maxQueuedBytes?: number;
  /**
   * An intercom whose terminal sends no audio for this long ends (the cab's microphone streams 25
   * frames a second; silence this long is a dead link, not a quiet cab). Broadcasts only listen. @default 30_000
   */
  silenceTimeoutMs?: number;
}

export interface TalkHubStats {
  sessions: number;
  /** Terminal audio frames forwarded to operators. */
  framesIn: number;
  /** Operator audio frames written to terminals. */
  framesOut: number;
  /** Operator audio dropped: before the terminal connected, or its socket backed up. */
  dropped: number;
}

/** One G.711 frame from the operator is at most this long (200 ms): bigger messages are refused. */
export const MAX_TALK_FRAME_BYTES = 1600;

const AUDIO_KINDS: Record<number, number> = { [PAYLOAD_TYPE.G711A]: MEDIA_KIND.G711A, [PAYLOAD_TYPE.G711U]: MEDIA_KIND.G711U };

export class TalkSession {
  state: TalkState = 'connecting';
  private link: MediaLink | null = null;
  private tx: Packetizer | null = null;
  /** Epoch ms of the first operator frame's timestamp, and the samples sent since. */
  private startedAt = 0;
  private samples = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly talking: Promise<void>;
  private settle!: { resolve: () => void; reject: (detail: string) => void };

  constructor(
    private readonly hub: TalkHub,
    readonly target: TalkTarget,
    readonly mode: TalkMode,
    private readonly peer: TalkPeer,
  ) {
    this.talking = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));
    this.talking.catch(() => undefined);
  }

  /** Resolves when the terminal connected; rejects with the detail when the session stopped before. */
  started(): Promise<void> {
    return this.talking;
  }

  /** Operator audio (G.711A bytes) toward the terminal; false when it was dropped. */
  sendAudio(alaw: Uint8Array): boolean {
    const link = this.link;
    if (this.state !== 'talking' || !link || !this.tx || alaw.length === 0 || alaw.length > MAX_TALK_FRAME_BYTES || link.queued > this.hub.maxQueued) {
      this.hub.stats.dropped++;
      return false;
    }
    link.write(this.tx.audio(alaw, this.startedAt + Math.floor(this.samples / 8)));
    // 8 kHz, one byte a sample: 8 bytes are 1 ms. Counted in samples: a frame of any length (1–1600
    // bytes) must not leave a fractional millisecond, which the 1078 packet writer refuses.
    this.samples += alaw.length;
    this.hub.stats.framesOut++;
    return true;
  }

  /** The operator hung up: tell the terminal (0x9102) and release. */
  close(): void {
    if (this.state === 'stopped') return;
    this.finish({ type: 'status', state: 'stopped' }, 'hungUp', true);
  }

  /** @internal refused before it began (the terminal is busy with another session). */
  refuse(detail: string): void {
    this.state = 'stopped';
    this.status({ type: 'status', state: 'stopped', reason: reasonOf(detail), detail });
    this.settle.reject(detail);
    this.peer.stopped?.();
  }

  /** @internal the hub's steps */
  begin(startTimeoutMs: number, signalling: TalkSignalling): void {
    this.status({ type: 'status', state: 'connecting' });
    this.timer = setTimeout(() => this.fail('timeout', true), startTimeoutMs);
    this.timer.unref();
    signalling.open(this.target, this.mode).catch((reason: unknown) => this.fail(typeof reason === 'string' ? reason : 'connectFailed', false));
  }

  /** @internal the terminal's connection arrived. */
  attach(link: MediaLink, sim: string, channel: number): MediaTapSink {
    this.link = link;
    // Answer in the terminal's own spelling of its SIM and its SIM length (2013: 6 bytes, 2019: 10).
    this.tx = new Packetizer({ sim, channel, simLength: link.simLength });
    this.startedAt = this.hub.now();
    this.samples = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.state = 'talking';
    this.status({ type: 'status', state: 'talking' });
    this.settle.resolve();
    if (this.mode === 'talk') {
      this.timer = setTimeout(() => this.fail('terminalSilent', true), this.hub.silenceTimeoutMs);
      this.timer.unref();
    }
    return {
      onFrame: (frame, arrival) => {
        if (this.state !== 'talking' || frame.kind !== 'audio' || frame.data.length === 0) return;
        this.timer?.refresh();
        const kind = AUDIO_KINDS[frame.payloadType];
        if (kind === undefined) return;
        this.hub.stats.framesIn++;
        this.peer.send(encodeMediaFrame({ kind: kind as 3 | 4, key: false, discontinuity: frame.discontinuity, channel: frame.channel, timestamp: frame.timestamp ?? arrival, arrival, payload: frame.data }));
      },
      closed: () => {
        if (this.link === link && this.state !== 'stopped') this.fail('connectionClosed', true);
      },
    };
  }

  private fail(detail: string, tellTerminal: boolean): void {
    if (this.state === 'stopped') return;
    this.finish({ type: 'status', state: 'stopped', reason: reasonOf(detail), detail }, detail, tellTerminal);
  }

  private finish(s: TalkStatus, detail: string, tellTerminal: boolean): void {
    this.state = 'stopped';
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.status(s);
    this.settle.reject(detail);
    this.hub.release(this, tellTerminal);
    // The terminal closes its end after 0x9102; ending ours too frees the socket if it does not.
    this.link?.close();
    this.link = null;
    this.peer.stopped?.();
  }

  private status(s: TalkStatus): void {
    this.peer.send(JSON.stringify(s));
  }
}

/** The terminal being offline is its own spec message; every other failure is the intercom one. */
function reasonOf(detail: string): string {
  return detail === 'deviceOffline' ? 'deviceOffline' : 'intercomFailed';
}

export class TalkHub {
  readonly stats: TalkHubStats = { sessions: 0, framesIn: 0, framesOut: 0, dropped: 0 };
  readonly now: () => number;
  readonly maxQueued: number;
  readonly silenceTimeoutMs: number;
  private readonly startTimeoutMs: number;
  private readonly sessions = new Map<string, TalkSession>();

  constructor(private readonly signalling: TalkSignalling, options: TalkHubOptions = {}) {
    this.now = options.now ?? Date.now;
    this.startTimeoutMs = options.startTimeoutMs ?? 10_000;
    this.maxQueued = options.maxQueuedBytes ?? 16 * 1024;
    this.silenceTimeoutMs = options.silenceTimeoutMs ?? 30_000;
  }

  /**
   * Opens an intercom (or broadcast) with the target's terminal. The session reports its states to
   * `peer`; a terminal that already has a session answers a stopped session (detail `busy`).
   */
  open(target: TalkTarget, mode: TalkMode, peer: TalkPeer): TalkSession {
    const session = new TalkSession(this, target, mode, peer);
    const key = normalizeSim(target.sim);
    if (this.sessions.has(key)) {
      session.refuse('busy');
      return session;
    }
    this.sessions.set(key, session);
    this.stats.sessions = this.sessions.size;
    session.begin(this.startTimeoutMs, this.signalling);
    return session;
  }

  /**
   * The vehicle whose session on this SIM and channel still waits for its terminal's connection, else
   * undefined. The media port binds a connection to it only from that terminal's address (media-port.ts),
   * and a session takes one connection: a second one naming it is refused.
   */
  awaiting(sim: string, channel: number): number | undefined {
    const session = this.sessions.get(normalizeSim(sim));
    return session && session.state === 'connecting' && session.target.channel === channel ? session.target.vehicleId : undefined;
  }

  /**
   * A new media connection's first packet: the session of that SIM that is still waiting for its
   * terminal, on the same channel, takes the connection. Anything else stays with the video hub.
   */
  claim(sim: string, channel: number, link: MediaLink): MediaTapSink | undefined {
    if (this.awaiting(sim, channel) === undefined) return undefined;
    return this.sessions.get(normalizeSim(sim))!.attach(link, sim, channel);
  }

  /** The terminal's session, if any (tests, the reminder calls). */
  sessionOf(sim: string): TalkSession | undefined {
    return this.sessions.get(normalizeSim(sim));
  }

  /** @internal */
  release(session: TalkSession, tellTerminal: boolean): void {
    const key = normalizeSim(session.target.sim);
    if (this.sessions.get(key) !== session) return;
    this.sessions.delete(key);
    this.stats.sessions = this.sessions.size;
    if (tellTerminal) void this.signalling.close(session.target, session.mode).catch(() => undefined);
  }

  /**
   * Plays `clip` (G.711A, 8 kHz) on the terminal's speaker by centre broadcast: resolves with the
   * clip's duration once the terminal connected (the clip then plays out in real time, 40 ms a
   * packet, and the broadcast closes after it); rejects with the failure's detail.
   */
  async broadcast(target: TalkTarget, clip: Uint8Array): Promise<{ durationMs: number }> {
    const session = this.open(target, 'broadcast', { send: () => undefined });
    await session.started();
    const FRAME = 320;
    let at = 0;
    const pump = setInterval(() => {
      if (session.state !== 'talking' || at >= clip.length) {
        clearInterval(pump);
        session.close();
        return;
      }
      session.sendAudio(clip.subarray(at, Math.min(clip.length, at + FRAME)));
      at += FRAME;
    }, 40);
    pump.unref();
    return { durationMs: Math.round(clip.length / 8) };
  }
}

