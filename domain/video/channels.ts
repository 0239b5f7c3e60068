/**
 * A device's channels as the server answers them (`GET /service-priv/channel/device`, issue 12 §4) and
 * what the console says when there is none to open. The server never invents channels: they come from
 * the device's record, or from the terminal's own JT/T 1078 0x1003 answer (counts only, so unnamed),
 * or they are unknown.
 */
import type { Lang } from '../errors/catalogue.ts';
import { videoMessage } from './limits.ts';

export type ChannelKind = 'video' | 'audio';

/** Where a channel list came from; 'unknown': the terminal never answered 0x9003 and the record lists none. */
export type ChannelSource = 'record' | 'terminal' | 'unknown';

export interface DeviceChannel {
  /** JT/T 1076 logical channel number, 1–37. */
  channel: number;
  kind: ChannelKind;
  /** The record's name; '' when the source names none. */
  name: string;
}

export interface DeviceChannels {
  source: ChannelSource;
  /** When the terminal's 0x1003 arrived (source 'terminal'), else null. */
  reportedTime: number | null;
  channels: DeviceChannel[];
}

/** The channels a live-video wall can open. */
export function videoChannels(d: DeviceChannels): DeviceChannel[] {
  return d.channels.filter((c) => c.kind === 'video');
}

/**
 * Why there is no camera to open, in the user's language, or null when there is one. A source that
 * knows the device says the spec's "no camera on device"; an unknown one says that it is unknown.
 */
export function noCameraMessage(d: DeviceChannels, lang: Lang): string | null {
  if (videoChannels(d).length > 0) return null;
  if (d.source !== 'unknown') return videoMessage('noCamera', lang);
  return lang === 'zh'
    ? '通道未知：终端未上报音视频属性，设备档案也未登记通道'
    : 'Channels unknown: the terminal has not reported its audio/video attributes and the device record lists none';
}
