/**
 * The cameras of a simulated terminal (issue 6): answers 0x8801 with 0x0805 and uploads each photo as
 * a sub-packaged 0x0801 (the committed 320x180 JPEGs, fixtures/video/photo-ch*.jpg, channel burned in);
 * keeps a deterministic "stored" photo per channel every 30 minutes for the stored-media search
 * (0x8802 → 0x0802) and uploads (0x8805 one id, 0x8803 by conditions); and when the vehicle raises an
 * alarm (SOS bit, ADAS or DMS item), uploads a photo on its own with event code 2 "alarm triggered",
 * so alarm media exists on `npm start`. Uses only the codec, like the rest of the simulator.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESULT, type Jt808Header, type Jt808MessageInput, type LocationInput, type ProtocolEdition } from '../gateway/jt808/index.ts';
import {
  CAMERA_RESULT,
  MEDIA_EVENT,
  MEDIA_FORMAT,
  MEDIA_TYPE,
  MULTIMEDIA_MSG,
  type MediaLocation,
  type Multimedia,
  type StoredMediaItem,
} from '../gateway/jt808/multimedia.ts';

/** Simulated terminals have four cameras (the same number terminal.ts streams). */
const CHANNELS = 4;
/** A stored photo per channel this often (the terminal's timed capture). */
const STORED_EVERY_MS = 30 * 60_000;
/** The terminal keeps this much (older photos were overwritten). */
const STORED_KEEP_MS = 24 * 3_600_000;
/** At most this many items per 0x0802 answer and per 0x8803 upload. */
const STORED_MAX = 200;
const UPLOAD_BY_TIME_MAX = 20;
/** Stored photos' ids live above this, snapshot ids below. */
const STORED_ID_BASE = 0x4000_0000;

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/video');
let photos: Uint8Array[][] | null = null;

/** The two JPEGs of each channel, read once per process. */
function photosOf(channel: number): Uint8Array[] {
  photos ??= Array.from({ length: CHANNELS }, (_, i) =>
    [10, 60].map((n) => new Uint8Array(readFileSync(path.join(FIXTURES, `photo-ch${i + 1}-f${n}-320x180.jpg`)))));
  return photos[(channel - 1) % CHANNELS]!;
}

/** What the camera needs of its terminal. */
export interface CameraLink {
  readonly deviceNo: string;
  readonly edition: ProtocolEdition;
  /** Sends one message through the terminal's normal path (its serials; bodies over 1023 bytes go in sub-packages). */
  send(message: Jt808MessageInput): void;
}

interface CameraState {
  nextId: number;
  shots: number;
  last: LocationInput | null;
  lastAlarm: number;
}

const states = new Map<string, CameraState>();

function stateOf(deviceNo: string): CameraState {
  let s = states.get(deviceNo);
  if (!s) {
    s = { nextId: 1, shots: 0, last: null, lastAlarm: 0 };
    states.set(deviceNo, s);
  }
  return s;
}

function where(s: CameraState, time: number): MediaLocation {
  const l = s.last;
  // No report yet: no position, but the photo still has its time (status 0 = no fix).
  if (!l) return { alarm: 0, status: 0, lat: 0, lng: 0, altitude: 0, speed: 0, direction: 0, time: Math.floor(time / 1000) * 1000 };
  return { alarm: l.alarm, status: l.status, lat: l.lat, lng: l.lng, altitude: l.altitude, speed: l.speed, direction: l.direction, time: Math.floor(time / 1000) * 1000 };
}

function upload(link: CameraLink, m: Extract<Multimedia, { msgId: 0x0801 }>): void {
  // A 9 KB photo is ~10 packages of 1023 bytes (the terminal's send splits it).
  link.send(m);
}

/** The stored photos overlapping [from, to] on `channel` (0 = all), newest last, as of `now`. */
export function storedPhotos(channel: number, from: number, to: number, now: number): { id: number; channel: number; time: number }[] {
  const out: { id: number; channel: number; time: number }[] = [];
  const first = Math.ceil(Math.max(now - STORED_KEEP_MS, Number.isFinite(from) ? from : -Infinity) / STORED_EVERY_MS);
  const last = Math.floor(Math.min(now, Number.isFinite(to) ? to : Infinity) / STORED_EVERY_MS);
  for (let k = first; k <= last && out.length < STORED_MAX; k++) {
    for (let ch = 1; ch <= CHANNELS; ch++) {
      if (channel !== 0 && ch !== channel) continue;
      out.push({ id: STORED_ID_BASE + ((k * CHANNELS + ch - 1) % 0x3fff_ffff), channel: ch, time: k * STORED_EVERY_MS });
    }
  }
  return out.slice(0, STORED_MAX);
}

function storedById(id: number, now: number): { id: number; channel: number; time: number } | undefined {
  return storedPhotos(0, now - STORED_KEEP_MS, now, now).find((p) => p.id === id);
}

function uploadStored(link: CameraLink, s: CameraState, p: { id: number; channel: number; time: number }): void {
  const pics = photosOf(p.channel);
  upload(link, {
    msgId: MULTIMEDIA_MSG.DATA, mediaId: p.id, mediaType: MEDIA_TYPE.IMAGE, format: MEDIA_FORMAT.JPEG, eventCode: MEDIA_EVENT.TIMED, channel: p.channel,
    location: where(s, p.time), data: pics[(p.id & 1) % pics.length]!,
  });
}

/** Handles a platform multimedia command (0x8801, 0x8802, 0x8803, 0x8805; 0x8800 needs nothing). */
export function cameraCommand(link: CameraLink, header: Jt808Header, m: Multimedia, now: number): void {
  const s = stateOf(link.deviceNo);
  const ack = (result: number) => link.send({ msgId: 0x0001, replySerial: header.serial, replyId: header.msgId, result });
  switch (m.msgId) {
    case MULTIMEDIA_MSG.CAMERA_SHOOT: {
      if (m.channel < 1 || m.channel > CHANNELS) {
        link.send({ msgId: MULTIMEDIA_MSG.CAMERA_ANSWER, replySerial: header.serial, result: CAMERA_RESULT.CHANNEL_UNSUPPORTED, mediaIds: [] });
        return;
      }
      // Stop and video recording are accepted but produce no photo (recordings are the 1078 side's).
      const count = m.command === 0 || m.command === 0xffff ? 0 : Math.min(m.command, 10);
      const ids = Array.from({ length: count }, () => {
        const id = s.nextId;
        s.nextId = s.nextId >= STORED_ID_BASE - 1 ? 1 : s.nextId + 1;
        return id;
      });
      link.send({ msgId: MULTIMEDIA_MSG.CAMERA_ANSWER, replySerial: header.serial, result: CAMERA_RESULT.OK, mediaIds: ids });
      if (m.saveFlag === 1) return;
      const pics = photosOf(m.channel);
      for (const id of ids) {
        upload(link, {
          msgId: MULTIMEDIA_MSG.DATA, mediaId: id, mediaType: MEDIA_TYPE.IMAGE, format: MEDIA_FORMAT.JPEG, eventCode: MEDIA_EVENT.PLATFORM,
          channel: m.channel, location: where(s, now), data: pics[s.shots++ % pics.length]!,
        });
      }
      return;
    }
    case MULTIMEDIA_MSG.STORED_QUERY: {
      const items: StoredMediaItem[] = m.mediaType !== MEDIA_TYPE.IMAGE || (m.eventCode !== 0 && m.eventCode !== MEDIA_EVENT.TIMED)
        ? []
        : storedPhotos(m.channel, m.startTime, m.endTime, now).map((p) => ({ mediaId: p.id, mediaType: MEDIA_TYPE.IMAGE, channel: p.channel, eventCode: MEDIA_EVENT.TIMED, location: where(s, p.time) }));
      link.send({ msgId: MULTIMEDIA_MSG.STORED_LIST, replySerial: header.serial, items });
      return;
    }
    case MULTIMEDIA_MSG.SINGLE_UPLOAD: {
      const p = storedById(m.mediaId, now);
      ack(p ? RESULT.OK : RESULT.FAIL);
      if (p) uploadStored(link, s, p);
      return;
    }
    case MULTIMEDIA_MSG.STORED_UPLOAD: {
      ack(RESULT.OK);
      if (m.mediaType !== MEDIA_TYPE.IMAGE) return;
      for (const p of storedPhotos(m.channel, m.startTime, m.endTime, now).slice(-UPLOAD_BY_TIME_MAX)) uploadStored(link, s, p);
      return;
    }
    default:
      return;
  }
}

/**
 * Sees each live report: remembers the position for photos, and on an alarm's rise (SOS bit 0, an ADAS or
 * DMS item starting) uploads a photo on its own with event code 2 (driver camera for SOS/DMS, road for ADAS).
 */
export function cameraSawReport(link: CameraLink, loc: LocationInput): void {
  const s = stateOf(link.deviceNo);
  s.last = loc;
  const sosRise = (loc.alarm & 1) !== 0 && (s.lastAlarm & 1) === 0;
  s.lastAlarm = loc.alarm;
  const adas = loc.adas !== undefined && loc.adas.flag !== 2;
  const dms = loc.dms !== undefined && loc.dms.flag !== 2;
  if (!sosRise && !adas && !dms) return;
  const channel = adas && !sosRise && !dms ? 2 : 1;
  const id = s.nextId;
  s.nextId = s.nextId >= STORED_ID_BASE - 1 ? 1 : s.nextId + 1;
  const pics = photosOf(channel);
  upload(link, {
    msgId: MULTIMEDIA_MSG.DATA, mediaId: id, mediaType: MEDIA_TYPE.IMAGE, format: MEDIA_FORMAT.JPEG, eventCode: MEDIA_EVENT.ROBBERY_ALARM,
    channel, location: where(s, loc.time), data: pics[s.shots++ % pics.length]!,
  });
}

/** Forgets a terminal's camera state (tests). */
export function resetCamera(deviceNo: string): void {
  states.delete(deviceNo);
}
