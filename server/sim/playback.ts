/**
 * The recordings side of a simulated terminal (JT/T 1078-2016 §5.5): 0x9205 lists its recordings
 * (0x1205), 0x9201 answers 0x1205 with the resources it will play and then streams them to the given
 * media address, 0x9202 pauses, resumes, stops, fast-forwards (1/2/4/8/16×) or seeks it.
 *
 * Stream: the committed main clip, looped over each recording, every frame stamped with its
 * recording time (epoch ms), so the platform's position display follows the recording. Playback
 * starts (and restarts after a seek) at the key frame at or before the asked time (GOP 1 s, key
 * frames on whole seconds from the recording's start); gaps between recordings are skipped; the
 * media connection closes at the end of the asked range.
 * Speeds: 1× and 2× send every frame (1 or 2 per 40 ms tick); 4×–16× send key frames only (as DVRs
 * do for fast forward), each stamped with its recording time. Audio (G.711A) only at 1×.
 * A media server that does not read makes the stream wait (recorded content is never skipped).
 * Key-frame rewind (4) and key-frame play (6) are refused with result 3 (not supported); a seek resumes a paused playback.
 *
 * Recordings are relative to the wall clock (Date.now), not the simulation clock: the platform asks
 * for real times.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Jt808MessageInput } from '../gateway/jt808/index.ts';
import { MEDIA_MSG, PLAYBACK_COMMAND, PLAYBACK_SPEEDS, type PlaybackControl, type PlaybackRequest, type ResourceItem, type ResourceQuery } from '../gateway/jt808/media-signalling.ts';
import { isIdrAccessUnit, splitAccessUnits } from '../../proto/h264.ts';
import { Packetizer, type SimLength } from '../media/jt1078/index.ts';
import { simRecordings, type SimRecording } from './recordings.ts';

const FRAME_MS = 40;
const KEY_MS = 1000;
const AUDIO_FRAME_BYTES = 320;
/** Bytes a stream may queue on its socket before it waits (≈ 2 s of the main stream). */
const MAX_QUEUED = 160 * 1024;
/** JT/T 808 general response results. */
const RESULT_OK = 0;
const RESULT_UNSUPPORTED = 3;

interface Clip {
  frames: Uint8Array[];
  keys: boolean[];
  audio: Uint8Array;
}

let clip: Clip | undefined;

function loadClip(): Clip {
  if (!clip) {
    const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/video');
    const frames = splitAccessUnits(new Uint8Array(readFileSync(path.join(dir, 'main-640x360-25fps-4s.h264'))));
    clip = { frames, keys: frames.map(isIdrAccessUnit), audio: new Uint8Array(readFileSync(path.join(dir, 'audio-g711a-8k-mono-4s.alaw'))) };
  }
  return clip;
}

export interface PlaybackStart {
  host: string;
  port: number;
  sim: string;
  simLength: SimLength;
  channel: number;
  /** The recordings to play (one channel), sorted; ends cut at the asked range's end. */
  segments: readonly { start: number; end: number }[];
  /** Where to start (epoch ms). */
  from: number;
  /** Speed factor (1, 2, 4, 8, 16). */
  speed: number;
  withAudio: boolean;
}

interface ActivePlayback {
  readonly request: PlaybackStart;
  readonly socket: net.Socket;
  readonly tx: Packetizer;
  /** Index of the segment being played. */
  segment: number;
  /** Recording time of the next frame (epoch ms, on the 40 ms grid of its segment). */
  pos: number;
  paused: boolean;
  speed: number;
}

export interface PlaybackStats {
  streams: number;
  framesSent: number;
}

/** The key-frame position at or before `t` in the recordings (the next recording's start in a gap); undefined past the end. */
export function seekPosition(segments: readonly { start: number; end: number }[], t: number): { segment: number; pos: number } | undefined {
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (t < s.start) return { segment: i, pos: s.start };
    if (t < s.end) return { segment: i, pos: s.start + Math.floor((t - s.start) / KEY_MS) * KEY_MS };
  }
  return undefined;
}

export class PlaybackStreamer {
  readonly stats: PlaybackStats = { streams: 0, framesSent: 0 };
  private readonly streams = new Map<string, ActivePlayback>();
  private timer: NodeJS.Timeout | null = null;

  /** Starts (or restarts) playing a channel; resolves once connected, rejects if the media address is unreachable. */
  start(request: PlaybackStart): Promise<void> {
    const key = `${request.sim}:${request.channel}`;
    this.stop(request.sim, request.channel);
    const at = seekPosition(request.segments, request.from);
    if (!at) return Promise.resolve();
    loadClip();
    return new Promise((resolve, reject) => {
      const socket = net.connect(request.port, request.host);
      socket.setNoDelay(true);
      socket.once('error', (err) => {
        if (this.streams.get(key)?.socket === socket) this.remove(key);
        else reject(err);
      });
      socket.once('close', () => {
        if (this.streams.get(key)?.socket === socket) this.remove(key);
      });
      socket.once('connect', () => {
        this.streams.set(key, {
          request,
          socket,
          tx: new Packetizer({ sim: request.sim, channel: request.channel, simLength: request.simLength }),
          segment: at.segment,
          pos: at.pos,
          paused: false,
          speed: request.speed,
        });
        this.stats.streams = this.streams.size;
        this.timer ??= setInterval(() => this.tick(), FRAME_MS);
        resolve();
      });
    });
  }

  /** 0x9202: answers the 0x0001 result. */
  control(sim: string, m: PlaybackControl): number {
    const key = `${sim}:${m.channel}`;
    const s = this.streams.get(key);
    switch (m.command) {
      case PLAYBACK_COMMAND.STOP:
        this.stop(sim, m.channel);
        return RESULT_OK;
      case PLAYBACK_COMMAND.KEY_REWIND:
      case PLAYBACK_COMMAND.KEY_PLAY:
        return RESULT_UNSUPPORTED;
      default:
        break;
    }
    if (!s) return 1;
    switch (m.command) {
      case PLAYBACK_COMMAND.PLAY:
        s.paused = false;
        return RESULT_OK;
      case PLAYBACK_COMMAND.PAUSE:
        s.paused = true;
        return RESULT_OK;
      case PLAYBACK_COMMAND.FAST_FORWARD: {
        const factor = PLAYBACK_SPEEDS[m.speed];
        if (!factor) return 1;
        s.speed = factor;
        s.paused = false;
        return RESULT_OK;
      }
      case PLAYBACK_COMMAND.SEEK: {
        if (!Number.isFinite(m.seekTime)) return 1;
        const at = seekPosition(s.request.segments, m.seekTime);
        if (!at) return 1;
        s.segment = at.segment;
        s.pos = at.pos;
        // Dragging the position continues playing from there.
        s.paused = false;
        return RESULT_OK;
      }
      default:
        return 1;
    }
  }

  stop(sim: string, channel?: number): void {
    for (const [key, s] of this.streams) {
      if (s.request.sim === sim && (channel === undefined || s.request.channel === channel)) {
        s.socket.end();
        this.remove(key);
      }
    }
  }

  isPlaying(sim: string, channel: number): boolean {
    return this.streams.has(`${sim}:${channel}`);
  }

  /** The recording time of the next frame (tests). */
  positionOf(sim: string, channel: number): number | undefined {
    return this.streams.get(`${sim}:${channel}`)?.pos;
  }

  close(): void {
    for (const s of this.streams.values()) s.socket.destroy();
    this.streams.clear();
    this.stats.streams = 0;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private remove(key: string): void {
    this.streams.delete(key);
    this.stats.streams = this.streams.size;
    if (this.streams.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private tick(): void {
    for (const [key, s] of [...this.streams]) {
      if (s.paused || s.socket.writableLength > MAX_QUEUED) continue;
      if (s.speed <= 2) {
        for (let i = 0; i < s.speed; i++) {
          if (!this.normalize(key, s)) break;
          this.emit(s, s.pos, s.speed === 1);
          s.pos += FRAME_MS;
        }
      } else {
        if (!this.normalize(key, s)) continue;
        const until = s.pos + FRAME_MS * s.speed;
        const seg = s.request.segments[s.segment]!;
        // The key frames (whole seconds from the recording's start) within this tick's span.
        const firstKey = seg.start + Math.ceil((s.pos - seg.start) / KEY_MS) * KEY_MS;
        for (let k = firstKey; k < until && k < seg.end; k += KEY_MS) this.emit(s, k, false);
        s.pos = Math.min(until, seg.end);
        this.normalize(key, s);
      }
    }
  }

  /** Moves past the end of a recording into the next one; ends the stream (false) after the last. */
  private normalize(key: string, s: ActivePlayback): boolean {
    const segs = s.request.segments;
    while (s.segment < segs.length && s.pos >= segs[s.segment]!.end) {
      s.segment++;
      if (s.segment < segs.length) s.pos = segs[s.segment]!.start;
    }
    if (s.segment >= segs.length) {
      s.socket.end();
      this.remove(key);
      return false;
    }
    return true;
  }

  private emit(s: ActivePlayback, t: number, withAudio: boolean): void {
    const c = loadClip();
    const seg = s.request.segments[s.segment]!;
    const i = Math.round((t - seg.start) / FRAME_MS) % c.frames.length;
    s.socket.write(s.tx.video(c.frames[i]!, t, c.keys[i]!));
    if (withAudio && s.request.withAudio) {
      const at = (i * AUDIO_FRAME_BYTES) % c.audio.length;
      s.socket.write(s.tx.audio(c.audio.subarray(at, at + AUDIO_FRAME_BYTES), t));
    }
    this.stats.framesSent++;
  }
}

/** One playback streamer per process (one 40 ms timer for every terminal's playback). */
export const playbackStreamer = new PlaybackStreamer();

function toItem(r: SimRecording): ResourceItem {
  return { channel: r.channel, startTime: r.startTime, endTime: r.endTime, alarmFlags: r.alarmFlags, mediaType: r.mediaType, streamType: r.streamType, storageType: r.storageType, fileSize: r.fileSize };
}

/** What the terminal switch hands over: the message, its header serial and how to answer. */
export interface PlaybackTerminal {
  readonly deviceNo: string;
  readonly simLength: SimLength;
  /** Sends a message to the platform (0x1205). */
  send(message: Jt808MessageInput): void;
  /** 0x0001 general response to the message being handled. */
  reply(result: number): void;
}

/** 0x9205 / 0x9201 / 0x9202 at a simulated terminal. */
export function handlePlaybackSignalling(t: PlaybackTerminal, m: ResourceQuery | PlaybackRequest | PlaybackControl, serial: number, now = Date.now()): void {
  switch (m.msgId) {
    case MEDIA_MSG.RESOURCE_QUERY: {
      // NaN times are "no condition": the whole retention window.
      const from = Number.isFinite(m.startTime) ? m.startTime : 0;
      const to = Number.isFinite(m.endTime) ? m.endTime : now;
      const items = simRecordings(t.deviceNo, m.channel, from, to, now)
        .filter((r) => m.alarmFlags === 0n || (r.alarmFlags & m.alarmFlags) !== 0n)
        .map(toItem);
      t.send({ msgId: MEDIA_MSG.RESOURCE_LIST, replySerial: serial, items });
      return;
    }
    case MEDIA_MSG.PLAYBACK_REQUEST: {
      const from = Number.isFinite(m.startTime) ? m.startTime : 0;
      // End 0 (NaN here) plays to the end of the recordings.
      const to = Number.isFinite(m.endTime) && m.endTime > 0 ? m.endTime : now;
      const recordings = m.channel >= 1 ? simRecordings(t.deviceNo, m.channel, from, to, now) : [];
      t.send({ msgId: MEDIA_MSG.RESOURCE_LIST, replySerial: serial, items: recordings.map(toItem) });
      if (recordings.length === 0) return;
      // Segments keep their own start: the frame grid (and key frames) count from the recording's start.
      const segments = recordings.map((r) => ({ start: r.startTime, end: Math.min(r.endTime, to) })).filter((s) => s.end > s.start);
      const speed = m.mode === 1 ? PLAYBACK_SPEEDS[m.speed] || 1 : 1;
      void playbackStreamer
        .start({ host: m.host, port: m.tcpPort, sim: t.deviceNo, simLength: t.simLength, channel: m.channel, segments, from, speed, withAudio: m.mediaType === 0 || m.mediaType === 1 })
        .catch(() => undefined);
      return;
    }
    case MEDIA_MSG.PLAYBACK_CONTROL:
      t.reply(playbackStreamer.control(t.deviceNo, m));
      return;
  }
}
