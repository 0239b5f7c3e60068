/**
 * Live video rules (spec §4, §5, §8, §9): how many channels may play, the daily connection count, the
 * grids, the per-window play-type keys, and the video messages. One rule for both sides: the video
 * wall (src/features/video/video-wall.ts) asks `checkAddChannels` before it opens tiles, and the
 * server's live-video socket (server/services/video/index.ts) asks `checkAddChannels` with the live
 * channels the user watches in every tab and `checkDailyConnections` before it admits one, and
 * answers a refusal with the `tooMany` / `dailyLimit` messages below. The browser's check is only
 * for a quick answer; the server's is the one that holds, for every user, administrators included.
 */
import type { Lang } from '../errors/catalogue.ts';

/** Spec §5: at most 25 channels play at once. */
export const VIDEO_MAX_CHANNELS = 25;
/** Spec §5: a prompt appears when 20 already play. */
export const VIDEO_PROMPT_AT = 20;
/** Spec §9: multi-view grids. */
export const GRID_SIZES = [4, 9, 16, 25] as const;
export type GridSize = (typeof GRID_SIZES)[number];
/** Logical channels a terminal may have (JT/T 1076 table 2 numbers them 1–37). */
export const MAX_LOGICAL_CHANNEL = 37;

/** Stream types of JT/T 1078 0x9101: 0 main (sharp), 1 sub (light; the default on a wall of tiles). */
export type StreamType = 0 | 1;

/**
 * What adding channels to the wall means (spec §5): refused beyond 25 playing, a prompt when it
 * reaches 20 or more, otherwise fine.
 */
export function checkAddChannels(playing: number, adding: number): 'ok' | 'prompt' | 'refuse' {
  const after = playing + adding;
  if (after > VIDEO_MAX_CHANNELS) return 'refuse';
  if (after >= VIDEO_PROMPT_AT && playing < VIDEO_PROMPT_AT) return 'prompt';
  return 'ok';
}

/**
 * The daily live-video connection count (spec §8 "daily live-video connection count reached, try
 * tomorrow"): `used` connections opened today (China day) against the user's `limit` (its own setting,
 * else the server default, plus extra times granted for today). A connection refused does not count.
 */
export function checkDailyConnections(used: number, limit: number): 'ok' | 'refuse' {
  return used >= limit ? 'refuse' : 'ok';
}

/** Spec §9: the play type of each window is stored under a key of its index, 0–24 (cleared at sign-out). */
export function playTypeKey(windowIndex: number): string {
  if (!Number.isInteger(windowIndex) || windowIndex < 0 || windowIndex >= VIDEO_MAX_CHANNELS) throw new RangeError(`window index ${windowIndex} is outside 0..24`);
  return `playType${windowIndex}`;
}

/** Why a live session stopped (server statuses and client checks share these keys). */
export type VideoProblem =
  | 'timeout'
  | 'noResponse'
  | 'connectFailed'
  | 'deviceOffline'
  | 'vehicleOffline'
  | 'dailyLimit'
  | 'switchFailed'
  | 'tooMany'
  | 'captureFailed'
  | 'intercomFailed'
  | 'noCamera';

const MESSAGES: Record<VideoProblem, readonly [zh: string, en: string]> = {
  timeout: ['视频实时请求超时，请重试', 'Real-time video request timed out, retry'],
  noResponse: ['设备无响应，请重新连接', 'No response from the device, reconnect'],
  connectFailed: ['视频连接失败', 'Video connection failed'],
  deviceOffline: ['设备不在线', 'The device is offline'],
  vehicleOffline: ['车辆不在线，无法播放', 'The vehicle is not online, video cannot play'],
  dailyLimit: ['今日实时视频连接次数已达上限，请明天再试', 'The daily live-video connection count is reached, try tomorrow'],
  switchFailed: ['切换清晰度失败', 'Switching sharpness failed'],
  tooMany: [`最多同时播放${VIDEO_MAX_CHANNELS}路视频`, `At most ${VIDEO_MAX_CHANNELS} video channels can play at once`],
  captureFailed: ['抓拍失败，请重试', 'Capture failed, retry'],
  intercomFailed: ['对讲未开启或连接失败', 'Intercom not opened or connection failed'],
  noCamera: ['该设备没有摄像头', 'The device has no camera'],
};

export function videoMessage(problem: VideoProblem, lang: Lang): string {
  return MESSAGES[problem][lang === 'zh' ? 0 : 1];
}

export function isVideoProblem(key: string): key is VideoProblem {
  return Object.hasOwn(MESSAGES, key);
}

/** The prompt at 20 playing channels (spec §5). */
export function promptAtMessage(lang: Lang): string {
  return lang === 'zh' ? `已有${VIDEO_PROMPT_AT}路视频在播放，继续打开会占用更多带宽和性能` : `${VIDEO_PROMPT_AT} videos are already playing; opening more uses more bandwidth and computing power`;
}
