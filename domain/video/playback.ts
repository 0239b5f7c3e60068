/**
 * Recording playback on the terminal (issue 6, /monitor/mediaRemoteExtraction): the search limits,
 * the speeds, the messages between a playback viewer and the server, and the playback messages.
 * Shared by the server (server/media/playback-hub.ts, server/services/video/playback.ts) and the
 * console (src/features/recordings/).
 */
import type { Lang } from '../errors/catalogue.ts';
import { isVideoProblem, videoMessage, type VideoProblem } from './limits.ts';

/** Fast-forward factors of JT/T 1078 0x9201/0x9202 (codes 1–5). */
export const PLAYBACK_FACTORS = [1, 2, 4, 8, 16] as const;
export type PlaybackFactor = (typeof PLAYBACK_FACTORS)[number];

/** A recordings search covers at most this long (a terminal keeps about a week of loop recording). */
export const RECORDING_SEARCH_MAX_MS = 7 * 86_400_000;

/** JT/T 1078 speed code (0x9201/0x9202 "fast forward or rewind multiple") of a factor. */
export function speedCode(factor: PlaybackFactor): number {
  return PLAYBACK_FACTORS.indexOf(factor) + 1;
}

export function isPlaybackFactor(n: unknown): n is PlaybackFactor {
  return typeof n === 'number' && (PLAYBACK_FACTORS as readonly number[]).includes(n);
}

/** What a viewer asks of its playback (JSON text messages on the playback websocket). */
export type PlaybackControlRequest =
  | { readonly type: 'control'; readonly action: 'pause' | 'resume' }
  | { readonly type: 'control'; readonly action: 'speed'; readonly speed: PlaybackFactor }
  /** `time`: recording time to continue from (epoch ms). */
  | { readonly type: 'control'; readonly action: 'seek'; readonly time: number };

export type PlaybackAction = PlaybackControlRequest['action'];

/** Reads a viewer's control message; undefined when it is not a valid one. */
export function parsePlaybackControl(text: string): PlaybackControlRequest | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  if (o.type !== 'control') return undefined;
  switch (o.action) {
    case 'pause':
    case 'resume':
      return { type: 'control', action: o.action };
    case 'speed':
      return isPlaybackFactor(o.speed) ? { type: 'control', action: 'speed', speed: o.speed } : undefined;
    case 'seek':
      return typeof o.time === 'number' && Number.isFinite(o.time) && o.time >= 0 ? { type: 'control', action: 'seek', time: Math.floor(o.time) } : undefined;
    default:
      return undefined;
  }
}

/** Why a playback stopped or a control failed, beyond the live-video messages. */
export type PlaybackProblem = 'noRecording' | 'busy' | 'ended' | 'controlFailed' | 'badControl';

const MESSAGES: Record<PlaybackProblem, readonly [zh: string, en: string]> = {
  noRecording: ['该时段没有录像', 'No recording in that period'],
  busy: ['该通道正在被其他用户回放，请稍后再试', 'Another user is playing back this channel, try later'],
  ended: ['回放结束', 'Playback finished'],
  controlFailed: ['回放控制失败，请重试', 'Playback control failed, retry'],
  badControl: ['无效的回放控制', 'Invalid playback control'],
};

/** Server → viewer status of a playback session (JSON text message). */
export interface PlaybackStatus {
  readonly type: 'status';
  readonly state: 'connecting' | 'playing' | 'paused' | 'stopped';
  /** With stopped: a VideoProblem or PlaybackProblem key. */
  readonly reason?: string;
  /** Current speed factor while playing. */
  readonly speed?: PlaybackFactor;
}

/** Server → viewer answer to a control message. */
export interface PlaybackControlAnswer {
  readonly type: 'control';
  readonly action: PlaybackAction;
  readonly ok: boolean;
  readonly reason?: string;
}

/** The message of a stop / failure reason (video messages of spec §8 first). */
export function playbackMessage(reason: string, lang: Lang): string {
  if (isVideoProblem(reason)) return videoMessage(reason as VideoProblem, lang);
  const m = Object.hasOwn(MESSAGES, reason) ? MESSAGES[reason as PlaybackProblem] : MESSAGES.controlFailed;
  return m[lang === 'zh' ? 0 : 1];
}

/**
 * Which recordings: the JT/T 1078 fields a recording is listed with (0x1205) and asked for by playback
 * (0x9201) and file upload (0x9206). Times are epoch ms (BCD seconds on the wire).
 */
export interface RecordingSelection {
  channel: number;
  startTime: number;
  endTime: number;
  /** 64 bits: low DWORD the JT/T 808 alarm bits, high DWORD the JT/T 1078 video alarm bits (table 13). */
  alarmFlags: bigint;
  /** 0 audio + video, 1 audio, 2 video, 3 video or audio. */
  mediaType: number;
  /** 1 main, 2 sub; in a request 0 either. */
  streamType: number;
  /** 1 main, 2 disaster-recovery storage; in a request 0 either. */
  storageType: number;
}

/** JT/T 1078 alarm bits set in a recording's 64-bit flags (low 32: JT/T 808 alarm bits, high 32: video alarms as 32 + bit). */
export function alarmBits(flags: bigint): number[] {
  const out: number[] = [];
  for (let i = 0; i < 64; i++) if ((flags >> BigInt(i)) & 1n) out.push(i);
  return out;
}
