/**
 * JT/T 808 multimedia (2013 §8.53–8.60, same layouts in 2019): the camera shoot command 0x8801 and its
 * answer 0x0805, the multimedia event 0x0800, the multimedia data upload 0x0801 (large: sub-packaged
 * by the terminal, reassembled by the gateway) and its answer 0x8800, the stored-media search
 * 0x8802 → 0x0802, and the stored-media uploads 0x8803 (by time) and 0x8805 (one id).
 * Locations inside these messages are the 28-byte fixed part of a 0x0200 (no additional items).
 */
import type { Reader, Writer } from './bytes.ts';
import { Jt808Error } from './errors.ts';
import { decodeLocation, LOCATION_FIXED_LENGTH, writeLocation, type LocationBasics } from './location.ts';

export const MULTIMEDIA_MSG = {
  EVENT: 0x0800,
  DATA: 0x0801,
  UPLOAD_ANSWER: 0x8800,
  CAMERA_SHOOT: 0x8801,
  CAMERA_ANSWER: 0x0805,
  STORED_QUERY: 0x8802,
  STORED_LIST: 0x0802,
  STORED_UPLOAD: 0x8803,
  SINGLE_UPLOAD: 0x8805,
} as const;

/** Media type (table 80). */
export const MEDIA_TYPE = { IMAGE: 0, AUDIO: 1, VIDEO: 2 } as const;
/** Media format (table 80). */
export const MEDIA_FORMAT = { JPEG: 0, TIF: 1, MP3: 2, WAV: 3, WMV: 4 } as const;
/**
 * Event item codes (table 80; 2019 adds 8 and later). 0 = a platform command (0x8801), 2 = the
 * emergency alarm, 3 = collision / rollover alarm: the codes that tie a photo to an alarm.
 */
export const MEDIA_EVENT = { PLATFORM: 0, TIMED: 1, ROBBERY_ALARM: 2, COLLISION_ALARM: 3, DOOR_OPEN: 4, DOOR_CLOSE: 5, DOOR_SPEED: 6, DISTANCE: 7 } as const;
/** 0x0805 result. */
export const CAMERA_RESULT = { OK: 0, FAIL: 1, CHANNEL_UNSUPPORTED: 2 } as const;
/** 0x8801 shoot command: 0 stops, 0xffff records video, 1..0xfffe is a photo count. */
export const SHOOT_STOP = 0;
export const SHOOT_VIDEO = 0xffff;

/** The fixed fields of a location report, as carried inside multimedia messages. */
export type MediaLocation = LocationBasics;

interface MediaHead {
  mediaId: number;
  mediaType: number;
  format: number;
  eventCode: number;
  channel: number;
}

/** 0x0800 multimedia event information. */
export interface MediaEvent extends MediaHead {
  msgId: 0x0800;
}

/** 0x0801 multimedia data upload. */
export interface MediaData extends MediaHead {
  msgId: 0x0801;
  location: MediaLocation;
  /** The file's bytes (a JPEG for images). */
  data: Uint8Array;
}

/** 0x8800 multimedia upload answer: an empty list means everything arrived. */
export interface MediaUploadAnswer {
  msgId: 0x8800;
  mediaId: number;
  /** Package ids to send again. */
  retransmit: number[];
}

/** 0x8801 camera shoot command. */
export interface CameraShoot {
  msgId: 0x8801;
  channel: number;
  /** Photo count, or SHOOT_STOP / SHOOT_VIDEO. */
  command: number;
  /** Seconds between photos (or video length); 0 = as fast as possible. */
  interval: number;
  /** 1 keep on the terminal, 0 upload at once. */
  saveFlag: number;
  /** 1 320×240, 2 640×480, 3 800×600, 4 1024×768, 5 176×144, 6 352×288, 7 704×288, 8 704×576. */
  resolution: number;
  /** 1 (best) .. 10. */
  quality: number;
  brightness: number;
  contrast: number;
  saturation: number;
  chroma: number;
}

/** 0x0805 camera shoot answer; `mediaIds` only with result OK. */
export interface CameraAnswer {
  msgId: 0x0805;
  replySerial: number;
  result: number;
  mediaIds: number[];
}

/** 0x8802 stored multimedia search; times NaN = no condition. */
export interface StoredMediaQuery {
  msgId: 0x8802;
  mediaType: number;
  /** 0 = every channel. */
  channel: number;
  eventCode: number;
  startTime: number;
  endTime: number;
}

export interface StoredMediaItem {
  mediaId: number;
  mediaType: number;
  channel: number;
  eventCode: number;
  location: MediaLocation;
}

/** 0x0802 stored multimedia search answer. */
export interface StoredMediaList {
  msgId: 0x0802;
  replySerial: number;
  items: StoredMediaItem[];
}

/** 0x8803 stored multimedia upload (by conditions). */
export interface StoredMediaUpload {
  msgId: 0x8803;
  mediaType: number;
  channel: number;
  eventCode: number;
  startTime: number;
  endTime: number;
  /** 1 delete after upload. */
  deleteFlag: number;
}

/** 0x8805 single stored multimedia upload. */
export interface SingleMediaUpload {
  msgId: 0x8805;
  mediaId: number;
  deleteFlag: number;
}

export type Multimedia =
  | MediaEvent
  | MediaData
  | MediaUploadAnswer
  | CameraShoot
  | CameraAnswer
  | StoredMediaQuery
  | StoredMediaList
  | StoredMediaUpload
  | SingleMediaUpload;

export function isMultimedia(msgId: number): boolean {
  switch (msgId) {
    case 0x0800:
    case 0x0801:
    case 0x8800:
    case 0x8801:
    case 0x0805:
    case 0x8802:
    case 0x0802:
    case 0x8803:
    case 0x8805:
      return true;
    default:
      return false;
  }
}

const STORED_ITEM_LENGTH = 4 + 3 + LOCATION_FIXED_LENGTH;

function readMediaLocation(r: Reader): MediaLocation {
  r.need(LOCATION_FIXED_LENGTH, 'location');
  const l = decodeLocation(r.b, r.o, r.o + LOCATION_FIXED_LENGTH);
  r.o += LOCATION_FIXED_LENGTH;
  return { alarm: l.alarm, status: l.status, lat: l.lat, lng: l.lng, altitude: l.altitude, speed: l.speed, direction: l.direction, time: l.time };
}

function writeMediaLocation(w: Writer, l: MediaLocation): void {
  // Only the fixed fields: writeLocation writes no items when none are given.
  writeLocation(w, { alarm: l.alarm, status: l.status, lat: l.lat, lng: l.lng, altitude: l.altitude, speed: l.speed, direction: l.direction, time: l.time });
}

/** Decodes one of the messages above from `r` (positioned at the body); the caller checks trailing bytes. */
export function readMultimedia(msgId: number, r: Reader): Multimedia {
  switch (msgId) {
    case MULTIMEDIA_MSG.EVENT:
      return { msgId, mediaId: r.u32('media id'), mediaType: r.u8('media type'), format: r.u8('media format'), eventCode: r.u8('event code'), channel: r.u8('channel') };
    case MULTIMEDIA_MSG.DATA: {
      const mediaId = r.u32('media id');
      const mediaType = r.u8('media type');
      const format = r.u8('media format');
      const eventCode = r.u8('event code');
      const channel = r.u8('channel');
      const location = readMediaLocation(r);
      // A copy: the frame buffer behind the view may be reused, the file outlives it.
      const data = r.bytes(r.remaining, 'media data').slice();
      return { msgId, mediaId, mediaType, format, eventCode, channel, location, data };
    }
    case MULTIMEDIA_MSG.UPLOAD_ANSWER: {
      const mediaId = r.u32('media id');
      // The count is optional on the wire when nothing is missing (2013 note to table 81).
      if (r.remaining === 0) return { msgId, mediaId, retransmit: [] };
      const n = r.u8('retransmit count');
      if (n * 2 > r.remaining) throw new Jt808Error('length', `upload answer: ${n} package ids need ${n * 2} bytes, ${r.remaining} left`);
      const retransmit: number[] = [];
      for (let i = 0; i < n; i++) retransmit.push(r.u16('package id'));
      return { msgId, mediaId, retransmit };
    }
    case MULTIMEDIA_MSG.CAMERA_SHOOT:
      return {
        msgId, channel: r.u8('channel'), command: r.u16('shoot command'), interval: r.u16('interval'), saveFlag: r.u8('save flag'),
        resolution: r.u8('resolution'), quality: r.u8('quality'), brightness: r.u8('brightness'), contrast: r.u8('contrast'),
        saturation: r.u8('saturation'), chroma: r.u8('chroma'),
      };
    case MULTIMEDIA_MSG.CAMERA_ANSWER: {
      const replySerial = r.u16('reply serial');
      const result = r.u8('result');
      // Count and ids follow only a successful shot (2013 table 82 note).
      if (result !== CAMERA_RESULT.OK || r.remaining === 0) return { msgId, replySerial, result, mediaIds: [] };
      const n = r.u16('media id count');
      if (n * 4 > r.remaining) throw new Jt808Error('length', `camera answer: ${n} media ids need ${n * 4} bytes, ${r.remaining} left`);
      const mediaIds: number[] = [];
      for (let i = 0; i < n; i++) mediaIds.push(r.u32('media id'));
      return { msgId, replySerial, result, mediaIds };
    }
    case MULTIMEDIA_MSG.STORED_QUERY:
      return { msgId, mediaType: r.u8('media type'), channel: r.u8('channel'), eventCode: r.u8('event code'), startTime: r.bcdTime('start time'), endTime: r.bcdTime('end time') };
    case MULTIMEDIA_MSG.STORED_LIST: {
      const replySerial = r.u16('reply serial');
      const n = r.u16('item count');
      // Refuse a count the body cannot hold before allocating for it.
      if (n * STORED_ITEM_LENGTH > r.remaining) throw new Jt808Error('length', `stored media list: ${n} items need ${n * STORED_ITEM_LENGTH} bytes, ${r.remaining} left`);
      const items: StoredMediaItem[] = [];
      for (let i = 0; i < n; i++) {
        items.push({ mediaId: r.u32('media id'), mediaType: r.u8('media type'), channel: r.u8('channel'), eventCode: r.u8('event code'), location: readMediaLocation(r) });
      }
      return { msgId, replySerial, items };
    }
    case MULTIMEDIA_MSG.STORED_UPLOAD:
      return {
        msgId, mediaType: r.u8('media type'), channel: r.u8('channel'), eventCode: r.u8('event code'), startTime: r.bcdTime('start time'),
        endTime: r.bcdTime('end time'), deleteFlag: r.u8('delete flag'),
      };
    case MULTIMEDIA_MSG.SINGLE_UPLOAD:
      return { msgId, mediaId: r.u32('media id'), deleteFlag: r.u8('delete flag') };
    default:
      throw new Jt808Error('field', `0x${msgId.toString(16)} is not a multimedia message`);
  }
}

export function writeMultimedia(w: Writer, msg: Multimedia): void {
  switch (msg.msgId) {
    case MULTIMEDIA_MSG.EVENT:
      w.u32(msg.mediaId, 'media id').u8(msg.mediaType, 'media type').u8(msg.format, 'media format').u8(msg.eventCode, 'event code').u8(msg.channel, 'channel');
      return;
    case MULTIMEDIA_MSG.DATA:
      w.u32(msg.mediaId, 'media id').u8(msg.mediaType, 'media type').u8(msg.format, 'media format').u8(msg.eventCode, 'event code').u8(msg.channel, 'channel');
      writeMediaLocation(w, msg.location);
      w.bytes(msg.data);
      return;
    case MULTIMEDIA_MSG.UPLOAD_ANSWER:
      w.u32(msg.mediaId, 'media id');
      if (msg.retransmit.length > 0xff) throw new Jt808Error('encode', `upload answer: ${msg.retransmit.length} package ids exceed 255`);
      w.u8(msg.retransmit.length, 'retransmit count');
      for (const id of msg.retransmit) w.u16(id, 'package id');
      return;
    case MULTIMEDIA_MSG.CAMERA_SHOOT:
      w.u8(msg.channel, 'channel').u16(msg.command, 'shoot command').u16(msg.interval, 'interval').u8(msg.saveFlag, 'save flag');
      w.u8(msg.resolution, 'resolution').u8(msg.quality, 'quality').u8(msg.brightness, 'brightness').u8(msg.contrast, 'contrast');
      w.u8(msg.saturation, 'saturation').u8(msg.chroma, 'chroma');
      return;
    case MULTIMEDIA_MSG.CAMERA_ANSWER:
      w.u16(msg.replySerial, 'reply serial').u8(msg.result, 'result');
      if (msg.result !== CAMERA_RESULT.OK) {
        if (msg.mediaIds.length > 0) throw new Jt808Error('encode', 'camera answer: media ids go with result 0 only');
        return;
      }
      w.u16(msg.mediaIds.length, 'media id count');
      for (const id of msg.mediaIds) w.u32(id, 'media id');
      return;
    case MULTIMEDIA_MSG.STORED_QUERY:
      w.u8(msg.mediaType, 'media type').u8(msg.channel, 'channel').u8(msg.eventCode, 'event code').bcdTime(msg.startTime, 'start time').bcdTime(msg.endTime, 'end time');
      return;
    case MULTIMEDIA_MSG.STORED_LIST:
      w.u16(msg.replySerial, 'reply serial').u16(msg.items.length, 'item count');
      for (const it of msg.items) {
        w.u32(it.mediaId, 'media id').u8(it.mediaType, 'media type').u8(it.channel, 'channel').u8(it.eventCode, 'event code');
        writeMediaLocation(w, it.location);
      }
      return;
    case MULTIMEDIA_MSG.STORED_UPLOAD:
      w.u8(msg.mediaType, 'media type').u8(msg.channel, 'channel').u8(msg.eventCode, 'event code').bcdTime(msg.startTime, 'start time');
      w.bcdTime(msg.endTime, 'end time').u8(msg.deleteFlag, 'delete flag');
      return;
    case MULTIMEDIA_MSG.SINGLE_UPLOAD:
      w.u32(msg.mediaId, 'media id').u8(msg.deleteFlag, 'delete flag');
      return;
  }
}
