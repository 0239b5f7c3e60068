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
import type { Jt808MessageInput } from '../gateway/jt808/index.ts';
import { MEDIA_MSG, PLAYBACK_COMMAND, PLAYBACK_SPEEDS, type PlaybackControl, type PlaybackRequest, type ResourceItem, type ResourceQuery } from '../gateway/jt808/media-signalling.ts';
import type { SimLength } from '../media/jt1078/index.ts';
import { audioFrame, ClipStreamSet, FRAME_MS, loadClips, MAX_QUEUED, type ClipStream, type ClipStreamTarget } from './clip-streams.ts';
import { simRecordings, type SimRecording } from './recordings.ts';

const KEY_MS = 1000;
/** JT/T 808 general response results. */
const RESULT_OK = 0;
const RESULT_UNSUPPORTED = 3;

export interface PlaybackStart extends ClipStreamTarget {
  /** The recordings to play (one channel), sorted; ends cut at the asked range's end. */
  segments: readonly { start: number; end: number }[];
  /** Where to start (epoch ms). */
  from: number;
  /** Speed factor (1, 2, 4, 8, 16). */
  speed: number;
  withAudio: boolean;
}

interface ActivePlayback extends ClipStream<PlaybackStart> {
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

export class PlaybackStreamer extends ClipStreamSet<PlaybackStart, ActivePlayback> {
  readonly stats: PlaybackStats = { streams: 0, framesSent: 0 };

  /** Starts (or restarts) playing a channel; resolves once connected, rejects if the media address is unreachable. */
  start(request: PlaybackStart): Promise<void> {
    const at = seekPosition(request.segments, request.from);
    if (!at) {
      this.stop(request.sim, request.channel);
      return Promise.resolve();
    }
    loadClips();
    return this.connect(request, (stream) => ({ ...stream, segment: at.segment, pos: at.pos, paused: false, speed: request.speed }));
  }

  /** 0x9202: answers the 0x0001 result. */
  control(sim: string, m: PlaybackControl): number {
    const s = this.find(sim, m.channel);
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

  isPlaying(sim: string, channel: number): boolean {
    return this.has(sim, channel);
  }

  /** The recording time of the next frame (tests). */
  positionOf(sim: string, channel: number): number | undefined {
    return this.find(sim, channel)?.pos;
  }

  protected tick(): void {
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
    const { main, audio } = loadClips();
    const seg = s.request.segments[s.segment]!;
    const i = Math.round((t - seg.start) / FRAME_MS) % main.frames.length;
    s.socket.write(s.tx.video(main.frames[i]!, t, main.keys[i]!));
    if (withAudio && s.request.withAudio) s.socket.write(s.tx.audio(audioFrame(audio, i), t));
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
