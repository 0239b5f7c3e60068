/**
 * Remote playback of recordings on the terminal (JT/T 1078 0x9201/0x9202), one viewer per session.
 *
 * - Playback streams arrive on their own TCP port (the playback port, a second MediaPort feeding this
 *   hub), never on the live port: a terminal may stream a channel live and play back a recording of
 *   the same channel at once, and the 1078 packet only names SIM and channel, so the port is what
 *   tells them apart.
 * - One playback per terminal channel (0x9202 addresses a channel, not a session): a second viewer
 *   of a channel that is playing back is refused with "busy".
 * - Frames reach the viewer with the recording's timestamps (the terminal stamps them), so the
 *   console shows the position; after a seek, frames are dropped until a key frame near the new
 *   position arrives (the terminal's socket may still hold frames from before).
 * - Controls (pause, resume, speed, seek) go to the terminal as 0x9202; the viewer leaving sends
 *   0x9202 stop. No frame within `startTimeoutMs` of the request: "timeout". The terminal closing its
 *   media connection ends the session: "ended" at the end of the recordings, else "connectFailed".
 * - A session belongs to the terminal connection the playback port bound to it: the first one,
 *   accepted after its 0x9201 went out (the terminal connects anew for each request), whose first
 *   packet names the session's SIM and channel, from the terminal's address (media-port.ts). A
 *   connection left over from the channel's previous session (stopped, but its socket still
 *   draining) neither feeds the new session nor ends it when it closes.
 */
import { encodeMediaFrame } from '../../proto/media-frame.ts';
import type { PlaybackControlAnswer, PlaybackControlRequest, PlaybackFactor, PlaybackStatus } from '../../domain/video/playback.ts';
import type { ResourceItem } from '../gateway/jt808/media-signalling.ts';
import type { MediaFrame } from './jt1078/index.ts';
import { channelKey, frameKind, type LiveRefusal, type Viewer } from './media-hub.ts';
import type { FrameSink, Upstream } from './media-port.ts';

export interface PlaybackTarget {
  readonly vehicleId: number;
  readonly sim: string;
  readonly channel: number;
  /** Recording time to start from and where to end (epoch ms). */
  readonly startTime: number;
  readonly endTime: number;
}

export type PlaybackRefusal = LiveRefusal | 'noRecording';

export interface PlaybackSignalling {
  /** 0x9201; resolves with the terminal's 0x1205 (what it will play), rejects with a PlaybackRefusal. */
  open(target: PlaybackTarget): Promise<ResourceItem[]>;
  /** 0x9202; rejects with a refusal or 'controlFailed'. */
  control(target: PlaybackTarget, request: PlaybackControlRequest): Promise<void>;
  /** 0x9202 stop. */
  stop(target: PlaybackTarget): Promise<void>;
}

export interface PlaybackHubOptions {
  now?: () => number;
  /** @default 10_000 */
  startTimeoutMs?: number;
  /** @default 1 MiB */
  maxViewerBufferBytes?: number;
  /** A seek gives up waiting for a frame at the new position after this long. @default 5000 */
  seekWaitMs?: number;
}

export interface PlaybackHubStats {
  sessions: number;
  framesIn: number;
  framesOut: number;
  /** Frames dropped after a seek until the new position arrived. */
  staleAfterSeek: number;
  /** Frames dropped because they came over a connection of an earlier session of the channel. */
  staleUpstream: number;
}

interface Session {
  readonly key: string;
  readonly target: PlaybackTarget;
  readonly viewer: Viewer;
  state: 'requesting' | 'connecting' | 'playing' | 'paused';
  speed: PlaybackFactor;
  requestedAt: number;
  /** When the 0x9201 went out: connections accepted before it belong to an earlier session. */
  readonly openedAt: number;
  /** The connection streaming this session (the first one accepted after `openedAt`). */
  upstream: number | null;
  /** End of the last recording the terminal said it plays (0x1205). */
  lastEnd: number;
  /** Timestamp of the latest video frame. */
  position: number;
  seek: { time: number; since: number } | null;
  needsKey: boolean;
}

/** How close to the seek time the first frame after a seek must be (a key frame is at most a GOP before it). */
const SEEK_SLACK_MS = 2000;

export interface PlaybackHandle {
  /** Applies a viewer's control (0x9202); the answer goes to the viewer. */
  control(request: PlaybackControlRequest): Promise<void>;
  /** The viewer left: 0x9202 stop. */
  leave(): void;
}

export class PlaybackHub implements FrameSink {
  readonly stats: PlaybackHubStats = { sessions: 0, framesIn: 0, framesOut: 0, staleAfterSeek: 0, staleUpstream: 0 };
  private readonly sessions = new Map<string, Session>();
  private readonly now: () => number;
  private readonly startTimeoutMs: number;
  private readonly maxViewerBuffer: number;
  private readonly seekWaitMs: number;

  constructor(private readonly signalling: PlaybackSignalling, options: PlaybackHubOptions = {}) {
    this.now = options.now ?? Date.now;
    this.startTimeoutMs = options.startTimeoutMs ?? 10_000;
    this.maxViewerBuffer = options.maxViewerBufferBytes ?? 1 << 20;
    this.seekWaitMs = options.seekWaitMs ?? 5000;
  }

  isPlaying(sim: string, channel: number): boolean {
    return this.sessions.has(channelKey(sim, channel));
  }

  /** Whether a viewer still connected holds the channel (a session whose viewer left is about to go). */
  isHeld(sim: string, channel: number): boolean {
    const s = this.sessions.get(channelKey(sim, channel));
    return s !== undefined && !s.viewer.gone;
  }

  /** Starts a playback for one viewer; undefined (and "busy" sent) when the channel already plays back. */
  open(target: PlaybackTarget, viewer: Viewer): PlaybackHandle | undefined {
    const key = channelKey(target.sim, target.channel);
    const old = this.sessions.get(key);
    // A viewer that already left (a tile re-opened at once) must not hold the channel until its close is
    // handled. Its stop goes out now, before the new 0x9201 (both are written in call order), since its
    // own leave() will find the channel taken and send nothing.
    if (old?.viewer.gone) {
      this.sessions.delete(key);
      this.count();
      void this.signalling.stop(old.target).catch(() => undefined);
    }
    if (this.sessions.has(key)) {
      send(viewer, { type: 'status', state: 'stopped', reason: 'busy' });
      return undefined;
    }
    const at = this.now();
    const s: Session = {
      key, target, viewer, state: 'requesting', speed: 1, requestedAt: at, openedAt: at, upstream: null, lastEnd: target.endTime, position: target.startTime,
      seek: null, needsKey: true,
    };
    this.sessions.set(key, s);
    this.count();
    send(viewer, { type: 'status', state: 'connecting' });
    this.signalling.open(target).then(
      (items) => {
        if (this.sessions.get(key) !== s) return;
        if (items.length === 0) return this.end(s, 'noRecording', false);
        s.lastEnd = Math.min(target.endTime, Math.max(...items.map((i) => i.endTime)));
        // Frames may have come before the answer was read.
        if (s.state === 'requesting') {
          s.state = 'connecting';
          s.requestedAt = this.now();
        }
      },
      (reason: unknown) => {
        if (this.sessions.get(key) === s) this.end(s, typeof reason === 'string' ? reason : 'connectFailed', false);
      },
    );
    return {
      control: (request) => this.control(s, request),
      leave: () => {
        if (this.sessions.get(key) !== s) return;
        this.sessions.delete(key);
        this.count();
        void this.signalling.stop(target).catch(() => undefined);
      },
    };
  }

  /** The vehicle of a session on this channel that awaits its connection (accepted after its 0x9201 went out). */
  awaiting(sim: string, channel: number, upstream: Upstream): number | undefined {
    const s = this.sessions.get(channelKey(sim, channel));
    return s && s.upstream === null && upstream.openedAt >= s.openedAt ? s.target.vehicleId : undefined;
  }

  bind(sim: string, channel: number, upstream: Upstream): void {
    const s = this.sessions.get(channelKey(sim, channel));
    if (s && s.upstream === null && upstream.openedAt >= s.openedAt) s.upstream = upstream.id;
  }

  onFrame(frame: MediaFrame, arrival: number, upstream: Upstream): void {
    const s = this.sessions.get(channelKey(frame.sim, frame.channel));
    if (!s) return;
    this.stats.framesIn++;
    if (s.upstream !== upstream.id) {
      this.stats.staleUpstream++;
      return;
    }
    const known = frameKind(frame);
    if (known === undefined) return;
    const { kind, key } = known;
    const timestamp = frame.timestamp ?? s.position;
    if (s.seek) {
      const fresh = frame.kind === 'video' && key && Math.abs(timestamp - s.seek.time) <= SEEK_SLACK_MS;
      if (!fresh && arrival - s.seek.since < this.seekWaitMs) {
        this.stats.staleAfterSeek++;
        return;
      }
      s.seek = null;
      s.needsKey = !key;
    }
    if (s.state === 'requesting' || s.state === 'connecting') {
      s.state = 'playing';
      send(s.viewer, { type: 'status', state: 'playing', speed: s.speed });
    }
    if (frame.kind === 'video') {
      s.position = timestamp;
      if (!key && (s.needsKey || s.viewer.bufferedAmount > this.maxViewerBuffer)) {
        s.needsKey = true;
        return;
      }
      if (key) s.needsKey = false;
    }
    s.viewer.send(encodeMediaFrame({ kind, key, discontinuity: frame.discontinuity, channel: frame.channel, timestamp, arrival, payload: frame.data }));
    this.stats.framesOut++;
  }

  sweep(): void {
    const now = this.now();
    for (const s of [...this.sessions.values()]) {
      if ((s.state === 'requesting' || s.state === 'connecting') && now - s.requestedAt > this.startTimeoutMs) this.end(s, 'timeout', true);
    }
  }

  upstreamClosed(sim: string, channel: number, upstream: Upstream): void {
    const s = this.sessions.get(channelKey(sim, channel));
    if (!s || s.upstream !== upstream.id) return;
    // Closed near the end of what it plays: finished; earlier: the connection broke.
    this.end(s, s.position >= s.lastEnd - SEEK_SLACK_MS ? 'ended' : 'connectFailed', s.position < s.lastEnd - SEEK_SLACK_MS);
  }

  private async control(s: Session, request: PlaybackControlRequest): Promise<void> {
    const answer = (ok: boolean, reason?: string) => {
      const a: PlaybackControlAnswer = reason === undefined ? { type: 'control', action: request.action, ok } : { type: 'control', action: request.action, ok, reason };
      s.viewer.send(JSON.stringify(a));
    };
    if (this.sessions.get(s.key) !== s) return answer(false, 'controlFailed');
    if (request.action === 'seek') {
      // Before the asked start is the terminal's call (its files usually begin earlier); past the end there is nothing.
      if (request.time > s.lastEnd) return answer(false, 'badControl');
      // Set before the command: frames at the new position may arrive before the terminal's answer.
      s.seek = { time: request.time, since: this.now() };
    }
    try {
      await this.signalling.control(s.target, request);
    } catch (reason) {
      if (request.action === 'seek') s.seek = null;
      return answer(false, typeof reason === 'string' ? reason : 'controlFailed');
    }
    if (this.sessions.get(s.key) !== s) return;
    if (request.action === 'pause') s.state = 'paused';
    else {
      if (request.action === 'speed') s.speed = request.speed;
      // Resume, a new speed and a seek all continue playing (the terminal does so).
      if (s.state === 'paused') s.state = 'playing';
    }
    answer(true);
    if (s.state === 'paused' || s.state === 'playing') send(s.viewer, { type: 'status', state: s.state, speed: s.speed });
  }

  private end(s: Session, reason: string, tellTerminal: boolean): void {
    this.sessions.delete(s.key);
    this.count();
    send(s.viewer, { type: 'status', state: 'stopped', reason });
    if (tellTerminal) void this.signalling.stop(s.target).catch(() => undefined);
  }

  private count(): void {
    this.stats.sessions = this.sessions.size;
  }
}

function send(viewer: Viewer, status: PlaybackStatus): void {
  viewer.send(JSON.stringify(status));
}
