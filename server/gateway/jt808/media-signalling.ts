/**
 * JT/T 1078-2016 signalling carried over the JT/T 808 session: the terminal's audio/video attributes
 * (0x9003 query → 0x1003, table 11), live video requests and control (0x9101, 0x9102), recordings on the terminal (0x9205 query → 0x1205 list), remote playback and its
 * control (0x9201, 0x9202). Layouts are JT/T 1078-2016 tables 17–28; times are BCD[6] GMT+8 (epoch ms
 * here, NaN = "no condition"), 64-bit alarm flags are two DWORDs (high first) kept as a bigint.
 */
import type { RecordingSelection } from '../../../domain/video/playback.ts';
import type { Reader, Writer } from './bytes.ts';
import { Jt808Error } from './errors.ts';

export const MEDIA_MSG = {
  AV_QUERY: 0x9003,
  AV_ATTRIBUTES: 0x1003,
  LIVE_REQUEST: 0x9101,
  LIVE_CONTROL: 0x9102,
  RESOURCE_QUERY: 0x9205,
  RESOURCE_LIST: 0x1205,
  PLAYBACK_REQUEST: 0x9201,
  PLAYBACK_CONTROL: 0x9202,
} as const;

/** 0x9101 data type (table 17). */
export const LIVE_DATA = { AUDIO_VIDEO: 0, VIDEO: 1, INTERCOM: 2, LISTEN: 3, BROADCAST: 4, TRANSPARENT: 5 } as const;
/** 0x9102 control command (table 19). */
export const LIVE_COMMAND = { CLOSE: 0, SWITCH_STREAM: 1, PAUSE: 2, RESUME: 3, CLOSE_INTERCOM: 4 } as const;
/** 0x9202 playback control (table 26). */
export const PLAYBACK_COMMAND = { PLAY: 0, PAUSE: 1, STOP: 2, FAST_FORWARD: 3, KEY_REWIND: 4, SEEK: 5, KEY_PLAY: 6 } as const;
/** Fast factor codes of 0x9201 / 0x9202: 1×, 2×, 4×, 8×, 16× (0 = not applicable). */
export const PLAYBACK_SPEEDS = [0, 1, 2, 4, 8, 16] as const;

/** 0x9003: the platform asks the terminal for its audio/video attributes (empty body). */
export interface AvQuery {
  msgId: 0x9003;
}

/**
 * 0x1003 (JT/T 1078-2016 table 11): the terminal's audio/video attributes, sent in answer to 0x9003
 * (no reply serial: it is matched to the oldest waiting query). Codes as the standard's tables:
 * encodings table 12 (6 G.711A, 7 G.711U, 8 G.726, 19 AAC, 98 H.264, 99 H.265), sampling rate
 * 0 8 kHz / 1 22.05 kHz / 2 44.1 kHz / 3 48 kHz, sampling bits 0 8-bit / 1 16-bit / 2 32-bit.
 */
export interface AvAttributes {
  msgId: 0x1003;
  audioEncoding: number;
  audioChannels: number;
  samplingRate: number;
  samplingBits: number;
  /** Bytes of one audio frame. */
  audioFrameLength: number;
  /** The terminal can play audio (intercom, broadcast). */
  audioOutput: boolean;
  videoEncoding: number;
  /** Physical audio channels the terminal supports. */
  maxAudioChannels: number;
  /** Physical video channels (cameras) the terminal supports: 0 = no camera. */
  maxVideoChannels: number;
}

interface MediaServerAddress {
  /** Address the terminal connects its media stream to (IP or host name). */
  host: string;
  tcpPort: number;
  udpPort: number;
}

export interface LiveRequest extends MediaServerAddress {
  msgId: 0x9101;
  channel: number;
  dataType: number;
  /** 0 main, 1 sub. */
  streamType: number;
}

export interface LiveControl {
  msgId: 0x9102;
  channel: number;
  command: number;
  /** With CLOSE: 0 audio and video, 1 audio only, 2 video only. */
  closeType: number;
  /** With SWITCH_STREAM: 0 main, 1 sub. */
  streamType: number;
}

/** Search conditions shared by 0x9205 and the playback request. */
interface ResourceConditions {
  channel: number;
  startTime: number;
  endTime: number;
}

export interface ResourceQuery extends ResourceConditions {
  msgId: 0x9205;
  alarmFlags: bigint;
  /** 0 audio + video, 1 audio, 2 video, 3 video or audio. */
  mediaType: number;
  /** 0 all, 1 main, 2 sub. */
  streamType: number;
  /** 0 all, 1 main storage, 2 disaster-recovery storage. */
  storageType: number;
}

export interface ResourceItem extends RecordingSelection {
  /** Bytes. */
  fileSize: number;
}

export interface ResourceList {
  msgId: 0x1205;
  replySerial: number;
  items: ResourceItem[];
}

export interface PlaybackRequest extends MediaServerAddress, ResourceConditions {
  msgId: 0x9201;
  mediaType: number;
  /** 0 main or sub, 1 main, 2 sub. */
  streamType: number;
  storageType: number;
  /** 0 normal, 1 fast forward, 2 key-frame rewind, 3 key-frame play, 4 single frame. */
  mode: number;
  /** Index into PLAYBACK_SPEEDS. */
  speed: number;
}

export interface PlaybackControl {
  msgId: 0x9202;
  channel: number;
  command: number;
  speed: number;
  /** With SEEK: where to continue (epoch ms); NaN otherwise. */
  seekTime: number;
}

export type MediaSignalling = AvQuery | AvAttributes | LiveRequest | LiveControl | ResourceQuery | ResourceList | PlaybackRequest | PlaybackControl;

export function isMediaSignalling(msgId: number): boolean {
  return msgId === 0x9003 || msgId === 0x1003 || msgId === 0x9101 || msgId === 0x9102 || msgId === 0x9205 || msgId === 0x1205 || msgId === 0x9201 || msgId === 0x9202;
}

/** 64-bit flags as two DWORDs, high first (also 0x9206 file upload). */
export function readFlags(r: Reader): bigint {
  const hi = r.u32('alarm flags (high)');
  const lo = r.u32('alarm flags (low)');
  return (BigInt(hi) << 32n) | BigInt(lo);
}

export function writeFlags(w: Writer, flags: bigint): void {
  if (flags < 0n || flags > 0xffff_ffff_ffff_ffffn) throw new Jt808Error('encode', `alarm flags ${flags} do not fit 64 bits`);
  w.u32(Number(flags >> 32n), 'alarm flags (high)').u32(Number(flags & 0xffff_ffffn), 'alarm flags (low)');
}

function readAddress(r: Reader): MediaServerAddress {
  const len = r.u8('server address length');
  const host = r.fixedString(len, 'server address');
  return { host, tcpPort: r.u16('TCP port'), udpPort: r.u16('UDP port') };
}

function writeAddress(w: Writer, a: MediaServerAddress): void {
  const at = w.reserve(1);
  const before = w.length;
  w.string(a.host);
  const len = w.length - before;
  if (len === 0 || len > 0xff) throw new Jt808Error('encode', `server address of ${len} bytes must be 1..255`);
  w.patchU8(at, len);
  w.u16(a.tcpPort, 'TCP port').u16(a.udpPort, 'UDP port');
}

/** Decodes one of the messages above from `r` (positioned at the body); the caller checks trailing bytes. */
export function readMediaSignalling(msgId: number, r: Reader): MediaSignalling {
  switch (msgId) {
    case MEDIA_MSG.AV_QUERY:
      return { msgId };
    case MEDIA_MSG.AV_ATTRIBUTES:
      return {
        msgId,
        audioEncoding: r.u8('input audio encoding'),
        audioChannels: r.u8('input audio channels'),
        samplingRate: r.u8('input audio sampling rate'),
        samplingBits: r.u8('input audio sampling bits'),
        audioFrameLength: r.u16('audio frame length'),
        audioOutput: r.u8('audio output supported') === 1,
        videoEncoding: r.u8('video encoding'),
        maxAudioChannels: r.u8('max audio physical channels'),
        maxVideoChannels: r.u8('max video physical channels'),
      };
    case MEDIA_MSG.LIVE_REQUEST: {
      const a = readAddress(r);
      return { msgId, ...a, channel: r.u8('channel'), dataType: r.u8('data type'), streamType: r.u8('stream type') };
    }
    case MEDIA_MSG.LIVE_CONTROL:
      return { msgId, channel: r.u8('channel'), command: r.u8('command'), closeType: r.u8('close type'), streamType: r.u8('stream type') };
    case MEDIA_MSG.RESOURCE_QUERY: {
      const channel = r.u8('channel');
      const startTime = r.bcdTime('start time');
      const endTime = r.bcdTime('end time');
      return { msgId, channel, startTime, endTime, alarmFlags: readFlags(r), mediaType: r.u8('media type'), streamType: r.u8('stream type'), storageType: r.u8('storage type') };
    }
    case MEDIA_MSG.RESOURCE_LIST: {
      const replySerial = r.u16('reply serial');
      const total = r.u32('item count');
      // 28 bytes an item: refuse a count the body cannot hold before allocating for it.
      if (total * 28 > r.remaining) throw new Jt808Error('length', `resource list: ${total} items need ${total * 28} bytes, ${r.remaining} left`);
      const items: ResourceItem[] = [];
      for (let i = 0; i < total; i++) {
        const channel = r.u8('channel');
        const startTime = r.bcdTime('start time');
        const endTime = r.bcdTime('end time');
        items.push({ channel, startTime, endTime, alarmFlags: readFlags(r), mediaType: r.u8('media type'), streamType: r.u8('stream type'), storageType: r.u8('storage type'), fileSize: r.u32('file size') });
      }
      return { msgId, replySerial, items };
    }
    case MEDIA_MSG.PLAYBACK_REQUEST: {
      const a = readAddress(r);
      const channel = r.u8('channel');
      const mediaType = r.u8('media type');
      const streamType = r.u8('stream type');
      const storageType = r.u8('storage type');
      const mode = r.u8('playback mode');
      const speed = r.u8('speed');
      return { msgId, ...a, channel, mediaType, streamType, storageType, mode, speed, startTime: r.bcdTime('start time'), endTime: r.bcdTime('end time') };
    }
    case MEDIA_MSG.PLAYBACK_CONTROL:
      return { msgId, channel: r.u8('channel'), command: r.u8('command'), speed: r.u8('speed'), seekTime: r.bcdTime('seek time') };
    default:
      throw new Jt808Error('field', `0x${msgId.toString(16)} is not a JT/T 1078 signalling message`);
  }
}

export function writeMediaSignalling(w: Writer, msg: MediaSignalling): void {
  switch (msg.msgId) {
    case MEDIA_MSG.AV_QUERY:
      return;
    case MEDIA_MSG.AV_ATTRIBUTES:
      w.u8(msg.audioEncoding, 'input audio encoding').u8(msg.audioChannels, 'input audio channels');
      w.u8(msg.samplingRate, 'input audio sampling rate').u8(msg.samplingBits, 'input audio sampling bits');
      w.u16(msg.audioFrameLength, 'audio frame length').u8(msg.audioOutput ? 1 : 0, 'audio output supported');
      w.u8(msg.videoEncoding, 'video encoding').u8(msg.maxAudioChannels, 'max audio physical channels').u8(msg.maxVideoChannels, 'max video physical channels');
      return;
    case MEDIA_MSG.LIVE_REQUEST:
      writeAddress(w, msg);
      w.u8(msg.channel, 'channel').u8(msg.dataType, 'data type').u8(msg.streamType, 'stream type');
      return;
    case MEDIA_MSG.LIVE_CONTROL:
      w.u8(msg.channel, 'channel').u8(msg.command, 'command').u8(msg.closeType, 'close type').u8(msg.streamType, 'stream type');
      return;
    case MEDIA_MSG.RESOURCE_QUERY:
      w.u8(msg.channel, 'channel').bcdTime(msg.startTime, 'start time').bcdTime(msg.endTime, 'end time');
      writeFlags(w, msg.alarmFlags);
      w.u8(msg.mediaType, 'media type').u8(msg.streamType, 'stream type').u8(msg.storageType, 'storage type');
      return;
    case MEDIA_MSG.RESOURCE_LIST:
      w.u16(msg.replySerial, 'reply serial').u32(msg.items.length, 'item count');
      for (const it of msg.items) {
        w.u8(it.channel, 'channel').bcdTime(it.startTime, 'start time').bcdTime(it.endTime, 'end time');
        writeFlags(w, it.alarmFlags);
        w.u8(it.mediaType, 'media type').u8(it.streamType, 'stream type').u8(it.storageType, 'storage type').u32(it.fileSize, 'file size');
      }
      return;
    case MEDIA_MSG.PLAYBACK_REQUEST:
      writeAddress(w, msg);
      w.u8(msg.channel, 'channel').u8(msg.mediaType, 'media type').u8(msg.streamType, 'stream type').u8(msg.storageType, 'storage type');
      w.u8(msg.mode, 'playback mode').u8(msg.speed, 'speed').bcdTime(msg.startTime, 'start time').bcdTime(msg.endTime, 'end time');
      return;
    case MEDIA_MSG.PLAYBACK_CONTROL:
      w.u8(msg.channel, 'channel').u8(msg.command, 'command').u8(msg.speed, 'speed').bcdTime(msg.seekTime, 'seek time');
      return;
  }
}
