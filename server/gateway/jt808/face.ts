/**
 * Face recognition on the terminal (issue 19): the driver-monitoring camera compares the driver's face
 * with the samples the platform pushed and reports the result; the platform only stores, shows and
 * audits. JT/T 808 itself has no such messages; the provincial active-safety extensions use the
 * 0x0E1x / 0x8E1x range for them with layouts that differ between provinces. The layouts below are
 * this platform's, kept to the extensions' shape (BYTE-length strings, BCD time, photo inline), and
 * pinned by the vectors in `face.test.ts`:
 *
 * - 0x0E10 face comparison result (terminal → platform, acknowledged 0x8001): result BYTE (0 pass,
 *   1 mismatch, 2 no face found), similarity BYTE 0–100, threshold BYTE 0–100, trigger BYTE (0 shift
 *   start / ignition, 1 platform request 0x8E10, 2 periodic, 3 driver change), time BCD[6], latitude and
 *   longitude DWORD (1e-6°), face id STRING(BYTE length), name STRING(BYTE length), photo type BYTE
 *   (0 JPEG, 1 PNG), photo length DWORD, photo bytes.
 * - 0x8E10 recognise now (platform → terminal, answered 0x0001, then a 0x0E10 with trigger 1): channel BYTE.
 * - 0x8E11 face samples (platform → terminal, answered 0x0E11): operation BYTE (0 replace all, 1 add or
 *   update, 2 delete the listed ids, 3 clear), pass threshold BYTE, count BYTE, then per face: id
 *   STRING(BYTE length), name STRING(BYTE length), photo type BYTE, photo length DWORD, photo bytes
 *   (length 0 for a delete). Long bodies go in sub-packages like any platform message.
 * - 0x0E11 samples answer: reply serial WORD, result BYTE (0 ok, 1 failed, 2 storage full), count BYTE,
 *   the face ids the terminal holds now (STRING(BYTE length) each).
 * - 0x8E12 sample query (empty body) → 0x0E12: reply serial WORD, count BYTE, face ids held.
 */
import { encodeGbk, type Reader, type Writer } from './bytes.ts';
import { Jt808Error } from './errors.ts';

export const FACE_MSG = {
  RESULT: 0x0e10,
  RECOGNISE: 0x8e10,
  SAMPLES: 0x8e11,
  SAMPLES_ANSWER: 0x0e11,
  QUERY: 0x8e12,
  QUERY_ANSWER: 0x0e12,
} as const;

export const FACE_RESULT = { PASS: 0, MISMATCH: 1, NO_FACE: 2 } as const;
export const FACE_TRIGGER = { SHIFT_START: 0, PLATFORM: 1, PERIODIC: 2, DRIVER_CHANGE: 3 } as const;
export const FACE_OP = { REPLACE: 0, ADD: 1, DELETE: 2, CLEAR: 3 } as const;
export const PHOTO_TYPE = { JPEG: 0, PNG: 1 } as const;
/** Faces in one 0x8E11 (a BYTE count). */
export const MAX_FACES_PER_PUSH = 255;

export interface FaceComparisonResult {
  msgId: 0x0e10;
  result: number;
  similarity: number;
  threshold: number;
  trigger: number;
  /** Epoch ms; NaN when the terminal sent zeros. */
  time: number;
  /** 1e-6 degrees. */
  lat: number;
  lng: number;
  faceId: string;
  name: string;
  photoType: number;
  photo: Uint8Array;
}
export interface FaceRecognise {
  msgId: 0x8e10;
  channel: number;
}
export interface FaceSampleItem {
  faceId: string;
  name: string;
  photoType: number;
  photo: Uint8Array;
}
export interface FaceSamples {
  msgId: 0x8e11;
  op: number;
  threshold: number;
  faces: FaceSampleItem[];
}
export interface FaceSamplesAnswer {
  msgId: 0x0e11;
  replySerial: number;
  result: number;
  faceIds: string[];
}
export interface FaceQuery {
  msgId: 0x8e12;
}
export interface FaceQueryAnswer {
  msgId: 0x0e12;
  replySerial: number;
  faceIds: string[];
}
export type FaceMessage = FaceComparisonResult | FaceRecognise | FaceSamples | FaceSamplesAnswer | FaceQuery | FaceQueryAnswer;

export function isFaceMessage(msgId: number): boolean {
  return msgId === 0x0e10 || msgId === 0x8e10 || msgId === 0x8e11 || msgId === 0x0e11 || msgId === 0x8e12 || msgId === 0x0e12;
}

const shortString = (r: Reader, what: string) => r.fixedString(r.u8(`${what} length`), what);
function writeShort(w: Writer, text: string, what: string): void {
  const b = encodeGbk(text);
  if (b.length > 255) throw new Jt808Error('encode', `${what} of ${b.length} bytes exceeds 255`);
  w.u8(b.length, `${what} length`).bytes(b);
}
function readPercent(r: Reader, what: string): number {
  const v = r.u8(what);
  if (v > 100) throw new Jt808Error('field', `${what}: ${v} exceeds 100`);
  return v;
}
function readIds(r: Reader): string[] {
  const n = r.u8('face count');
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(shortString(r, 'face id'));
  return ids;
}
function writeIds(w: Writer, ids: readonly string[]): void {
  if (ids.length > MAX_FACES_PER_PUSH) throw new Jt808Error('encode', `${ids.length} face ids exceed ${MAX_FACES_PER_PUSH}`);
  w.u8(ids.length, 'face count');
  for (const id of ids) writeShort(w, id, 'face id');
}

export function readFaceMessage(msgId: number, r: Reader): FaceMessage {
  switch (msgId) {
    case 0x0e10: {
      const result = r.u8('comparison result');
      if (result > 2) throw new Jt808Error('field', `comparison result: ${result} is not 0, 1 or 2`);
      const similarity = readPercent(r, 'similarity');
      const threshold = readPercent(r, 'threshold');
      const trigger = r.u8('trigger');
      const time = r.bcdTime('comparison time');
      const lat = r.u32('latitude');
      const lng = r.u32('longitude');
      const faceId = shortString(r, 'face id');
      const name = shortString(r, 'driver name');
      const photoType = r.u8('photo type');
      const photo = r.bytes(r.u32('photo length'), 'photo');
      return { msgId: 0x0e10, result, similarity, threshold, trigger, time, lat, lng, faceId, name, photoType, photo };
    }
    case 0x8e10:
      return { msgId: 0x8e10, channel: r.u8('channel') };
    case 0x8e11: {
      const op = r.u8('sample operation');
      if (op > 3) throw new Jt808Error('field', `sample operation: ${op} is not 0–3`);
      const threshold = readPercent(r, 'threshold');
      const n = r.u8('face count');
      const faces: FaceSampleItem[] = [];
      for (let i = 0; i < n; i++) {
        const faceId = shortString(r, 'face id');
        const name = shortString(r, 'driver name');
        const photoType = r.u8('photo type');
        faces.push({ faceId, name, photoType, photo: r.bytes(r.u32('photo length'), 'photo') });
      }
      return { msgId: 0x8e11, op, threshold, faces };
    }
    case 0x0e11: {
      const replySerial = r.u16('reply serial');
      const result = r.u8('result');
      return { msgId: 0x0e11, replySerial, result, faceIds: readIds(r) };
    }
    case 0x8e12:
      return { msgId: 0x8e12 };
    case 0x0e12: {
      const replySerial = r.u16('reply serial');
      return { msgId: 0x0e12, replySerial, faceIds: readIds(r) };
    }
    default:
      throw new Jt808Error('field', `0x${msgId.toString(16)} is not a face message`);
  }
}

export function writeFaceMessage(w: Writer, msg: FaceMessage): void {
  switch (msg.msgId) {
    case 0x0e10:
      w.u8(msg.result, 'comparison result').u8(msg.similarity, 'similarity').u8(msg.threshold, 'threshold').u8(msg.trigger, 'trigger');
      w.bcdTime(msg.time, 'comparison time').u32(msg.lat, 'latitude').u32(msg.lng, 'longitude');
      writeShort(w, msg.faceId, 'face id');
      writeShort(w, msg.name, 'driver name');
      w.u8(msg.photoType, 'photo type').u32(msg.photo.length, 'photo length').bytes(msg.photo);
      return;
    case 0x8e10:
      w.u8(msg.channel, 'channel');
      return;
    case 0x8e11:
      if (msg.faces.length > MAX_FACES_PER_PUSH) throw new Jt808Error('encode', `${msg.faces.length} faces exceed ${MAX_FACES_PER_PUSH}`);
      w.u8(msg.op, 'sample operation').u8(msg.threshold, 'threshold').u8(msg.faces.length, 'face count');
      for (const f of msg.faces) {
        writeShort(w, f.faceId, 'face id');
        writeShort(w, f.name, 'driver name');
        w.u8(f.photoType, 'photo type').u32(f.photo.length, 'photo length').bytes(f.photo);
      }
      return;
    case 0x0e11:
      w.u16(msg.replySerial, 'reply serial').u8(msg.result, 'result');
      writeIds(w, msg.faceIds);
      return;
    case 0x8e12:
      return;
    case 0x0e12:
      w.u16(msg.replySerial, 'reply serial');
      writeIds(w, msg.faceIds);
      return;
  }
}
