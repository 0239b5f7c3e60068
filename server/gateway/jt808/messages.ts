/**
 * Message bodies: one plain object per message, discriminated by `msgId`, decoded from and
 * encoded to body bytes. Layouts that differ between JT/T 808-2013 and -2019 take the header's
 * edition. Location messages live in location.ts (the hot path).
 */
import { Reader, Writer } from './bytes.ts';
import { Jt808Error } from './errors.ts';
import { hex4, type ProtocolEdition } from './header.ts';
import {
  decodeBatch,
  decodeLocation,
  writeBatch,
  writeLocation,
  type BatchLocation,
  type BatchLocationInput,
  type LocationInput,
  type LocationReport,
} from './location.ts';
import { isMediaSignalling, readMediaSignalling, writeMediaSignalling, type MediaSignalling } from './media-signalling.ts';
import { isMultimedia, readMultimedia, writeMultimedia, type Multimedia } from './multimedia.ts';
import { isFileUpload, readFileUpload, writeFileUpload, type FileUploadMessage } from './file-upload.ts';
import { isPhoneMessage, readPhoneMessage, writePhoneMessage, type PhoneCallback } from './phone.ts';
import { isCanMessage, readCanMessage, writeCanMessage, type CanDataUpload } from './can.ts';
import { isPassengerMessage, readPassengerMessage, writePassengerMessage, type PassengerMessage } from './passenger.ts';
import { isDriverMessage, readDriverMessage, writeDriverMessage, type DriverIdentity } from './driver.ts';
import { isFaceMessage, readFaceMessage, writeFaceMessage, type FaceMessage } from './face.ts';
import { isParameterMessage, readParameterFamily, writeParameterFamily, type ParameterMessage, type ParameterMessageInput } from './parameters.ts';
import { isTransparentMessage, readTransparentMessage, writeTransparentMessage, type TransparentMessage } from './transparent.ts';
import { isFenceMessage, readFenceMessage, writeFenceMessage, type FenceMessage } from './fences.ts';
import { isRouteMessage, readRouteMessage, writeRouteMessage, type RouteMessage } from './routes.ts';
import { isUpgradeMessage, readUpgradeMessage, writeUpgradeMessage, type UpgradePackage } from './upgrade.ts';

export const MSG = {
  TERMINAL_RESPONSE: 0x0001,
  HEARTBEAT: 0x0002,
  /**
   * 0x0003 terminal unregistration (终端注销). The name is historical: the standard's message ends
   * the registration (the auth code is void afterwards), not just the session.
   */
  LOGOUT: 0x0003,
  REGISTER: 0x0100,
  AUTHENTICATE: 0x0102,
  LOCATION: 0x0200,
  BATCH_LOCATION: 0x0704,
  PLATFORM_RESPONSE: 0x8001,
  /** 0x8003 platform request for sub-package resend (补传分包请求). */
  RESEND_REQUEST: 0x8003,
  /** 0x0005 terminal request for sub-package resend (终端补传分包请求, JT/T 808-2019 §8.6): same body as 0x8003. */
  TERMINAL_RESEND_REQUEST: 0x0005,
  REGISTER_RESPONSE: 0x8100,
  /** 0x8103 set terminal parameters (设置终端参数); items and the parameter table in parameters.ts. */
  SET_PARAMETERS: 0x8103,
  ALARM_CONFIRM: 0x8203,
  TEXT: 0x8300,
} as const;

/** Results of 0x0001 / 0x8001. */
export const RESULT = { OK: 0, FAIL: 1, BAD_MESSAGE: 2, UNSUPPORTED: 3, ALARM_CONFIRMED: 4 } as const;

/** Results of 0x8100. */
export const REGISTER_RESULT = { OK: 0, VEHICLE_TAKEN: 1, NO_VEHICLE: 2, TERMINAL_TAKEN: 3, NO_TERMINAL: 4 } as const;

/** 0x0001 terminal general response. */
export interface TerminalResponse {
  msgId: 0x0001;
  replySerial: number;
  replyId: number;
  /** 0 ok, 1 fail, 2 bad message, 3 unsupported. */
  result: number;
}

/** 0x8001 platform general response. */
export interface PlatformResponse {
  msgId: 0x8001;
  replySerial: number;
  replyId: number;
  /** 0 ok, 1 fail, 2 bad message, 3 unsupported, 4 alarm confirmed. */
  result: number;
}

export interface Heartbeat {
  msgId: 0x0002;
}

export interface Logout {
  msgId: 0x0003;
}

/**
 * 0x8003 platform request for sub-package resend: the serial of the message's first package and the
 * package indices (1-based) missing. The count is a BYTE in 2013 (at most 255 ids) and a WORD in 2019.
 * 0x0005 is the terminal's request of the same shape for a platform message it received in part (an
 * upgrade package); 2013 has no 0x0005, so a 2013 terminal that sends it is read with the 2013 count.
 */
export interface ResendRequest {
  msgId: 0x8003 | 0x0005;
  firstSerial: number;
  packageIds: number[];
}

/** 0x0100 terminal register. Widths: maker 5/11, model 20/30, terminal id 7/30 bytes (2013/2019). */
export interface Register {
  msgId: 0x0100;
  province: number;
  city: number;
  makerId: string;
  model: string;
  terminalId: string;
  /** JT/T 415 colour; 0 = no plate, then `plate` holds the VIN. */
  plateColor: number;
  plate: string;
}

/** 0x8100 register response; the auth code is sent only with result 0. */
export interface RegisterResponse {
  msgId: 0x8100;
  replySerial: number;
  /** 0 ok, 1 vehicle taken, 2 no such vehicle, 3 terminal taken, 4 no such terminal. */
  result: number;
  authCode: string;
}

/** 0x0102 authentication; `imei` and `softwareVersion` exist in 2019 only ('' in 2013). */
export interface Authenticate {
  msgId: 0x0102;
  authCode: string;
  imei: string;
  softwareVersion: string;
}

/** 0x8203 manual alarm confirmation. */
export interface AlarmConfirm {
  msgId: 0x8203;
  /** Serial of the alarm's location report; 0 confirms all of the given types. */
  alarmSerial: number;
  alarmType: number;
}

/** 0x8300 text message; `textType` (1 notice, 2 service) exists in 2019 only (0 in 2013). */
export interface TextMessage {
  msgId: 0x8300;
  /** Bit 0 emergency, 2 display, 3 TTS, (2013: 4 advertising screen), 5 CAN fault code. */
  flags: number;
  textType: number;
  text: string;
}

export type Jt808Message =
  | TerminalResponse
  | PlatformResponse
  | Heartbeat
  | Logout
  | ResendRequest
  | Register
  | RegisterResponse
  | Authenticate
  | LocationReport
  | BatchLocation
  | AlarmConfirm
  | TextMessage
  | MediaSignalling
  | Multimedia
  | FileUploadMessage
  | PhoneCallback
  | CanDataUpload
  | DriverIdentity
  | FaceMessage
  | ParameterMessage
  | TransparentMessage
  | FenceMessage
  | RouteMessage
  | UpgradePackage
  | PassengerMessage;

/** What encodeBody accepts: location messages may leave optional items out. */
export type Jt808MessageInput =
  | Exclude<Jt808Message, LocationReport | BatchLocation | ParameterMessage>
  | ParameterMessageInput
  | (LocationInput & { msgId: 0x0200 })
  | (BatchLocationInput & { msgId: 0x0704 });

const WIDTHS = {
  2013: { maker: 5, model: 20, terminal: 7 },
  2019: { maker: 11, model: 30, terminal: 30 },
} as const;

/** True for the ids decodeBody understands. */
export function isSupported(msgId: number): boolean {
  switch (msgId) {
    case MSG.TERMINAL_RESPONSE:
    case MSG.HEARTBEAT:
    case MSG.LOGOUT:
    case MSG.REGISTER:
    case MSG.AUTHENTICATE:
    case MSG.LOCATION:
    case MSG.BATCH_LOCATION:
    case MSG.PLATFORM_RESPONSE:
    case MSG.RESEND_REQUEST:
    case MSG.TERMINAL_RESEND_REQUEST:
    case MSG.REGISTER_RESPONSE:
    case MSG.ALARM_CONFIRM:
    case MSG.TEXT:
      return true;
    default:
      return isMediaSignalling(msgId) || isMultimedia(msgId) || isFileUpload(msgId) || isPhoneMessage(msgId) || isCanMessage(msgId) || isDriverMessage(msgId) || isFaceMessage(msgId) || isParameterMessage(msgId) || isTransparentMessage(msgId) || isFenceMessage(msgId) || isRouteMessage(msgId) || isUpgradeMessage(msgId) || isPassengerMessage(msgId);
  }
}

function done<T>(r: Reader, msg: T, what: string): T {
  if (r.remaining !== 0) throw new Jt808Error('length', `${what}: ${r.remaining} unexpected trailing bytes`);
  return msg;
}

/**
 * Decodes the body in bytes[start, end) of message `msgId`. Returns null for ids it does not
 * know (the gateway answers those with result 3). Throws Jt808Error on malformed bodies.
 */
export function decodeMessage(msgId: number, version: ProtocolEdition, b: Uint8Array, start: number, end: number): Jt808Message | null {
  switch (msgId) {
    case MSG.LOCATION:
      return decodeLocation(b, start, end);
    case MSG.BATCH_LOCATION:
      return decodeBatch(b, start, end);
    case MSG.HEARTBEAT:
    case MSG.LOGOUT:
      // Empty by the standard; a stray byte from a quirky terminal must not cost its keep-alive.
      return msgId === MSG.HEARTBEAT ? { msgId: MSG.HEARTBEAT } : { msgId: MSG.LOGOUT };
    case MSG.TERMINAL_RESPONSE:
    case MSG.PLATFORM_RESPONSE: {
      const r = new Reader(b, start, end);
      const replySerial = r.u16('reply serial');
      const replyId = r.u16('reply id');
      const result = r.u8('result');
      return done(r, { msgId, replySerial, replyId, result }, 'general response');
    }
    case MSG.REGISTER: {
      const r = new Reader(b, start, end);
      const w = WIDTHS[version];
      const province = r.u16('province');
      const city = r.u16('city');
      const makerId = r.fixedString(w.maker, 'maker id');
      const model = r.fixedString(w.model, 'terminal model');
      const terminalId = r.fixedString(w.terminal, 'terminal id');
      const plateColor = r.u8('plate colour');
      const plate = r.restString();
      return { msgId, province, city, makerId, model, terminalId, plateColor, plate };
    }
    case MSG.RESEND_REQUEST:
    case MSG.TERMINAL_RESEND_REQUEST: {
      const r = new Reader(b, start, end);
      const firstSerial = r.u16('first package serial');
      const count = version === 2019 ? r.u16('resend count') : r.u8('resend count');
      const packageIds: number[] = [];
      for (let i = 0; i < count; i++) packageIds.push(r.u16('package id'));
      return done(r, { msgId, firstSerial, packageIds }, 'resend request');
    }
    case MSG.REGISTER_RESPONSE: {
      const r = new Reader(b, start, end);
      const replySerial = r.u16('reply serial');
      const result = r.u8('result');
      return { msgId, replySerial, result, authCode: r.restString() };
    }
    case MSG.AUTHENTICATE: {
      const r = new Reader(b, start, end);
      if (version === 2013) return { msgId, authCode: r.restString(), imei: '', softwareVersion: '' };
      const len = r.u8('auth code length');
      const authCode = r.fixedString(len, 'auth code');
      const imei = r.fixedString(15, 'IMEI');
      const softwareVersion = r.fixedString(20, 'software version');
      return done(r, { msgId, authCode, imei, softwareVersion }, 'authentication');
    }
    case MSG.ALARM_CONFIRM: {
      const r = new Reader(b, start, end);
      const alarmSerial = r.u16('alarm serial');
      const alarmType = r.u32('alarm type');
      return done(r, { msgId, alarmSerial, alarmType }, 'alarm confirmation');
    }
    case MSG.TEXT: {
      const r = new Reader(b, start, end);
      const flags = r.u8('text flags');
      const textType = version === 2019 ? r.u8('text type') : 0;
      return { msgId, flags, textType, text: r.restString() };
    }
    default: {
      if (isPhoneMessage(msgId)) {
        const r = new Reader(b, start, end);
        return readPhoneMessage(msgId, r);
      }
      if (isPassengerMessage(msgId)) {
        const r = new Reader(b, start, end);
        return done(r, readPassengerMessage(msgId, r), 'passenger/temperature upload');
      }
      if (isCanMessage(msgId)) {
        const r = new Reader(b, start, end);
        return done(r, readCanMessage(msgId, r), 'CAN data');
      }
      if (isDriverMessage(msgId)) {
        const r = new Reader(b, start, end);
        return done(r, readDriverMessage(r, version), 'driver identity');
      }
      if (isFaceMessage(msgId)) {
        const r = new Reader(b, start, end);
        return done(r, readFaceMessage(msgId, r), 'face message');
      }
      if (isUpgradeMessage(msgId)) {
        const r = new Reader(b, start, end);
        return done(r, readUpgradeMessage(msgId, r), 'upgrade package');
      }
      if (isFenceMessage(msgId)) {
        const r = new Reader(b, start, end);
        return done(r, readFenceMessage(msgId, r, version), `message 0x${hex4(msgId)}`);
      }
      if (isRouteMessage(msgId)) {
        const r = new Reader(b, start, end);
        return done(r, readRouteMessage(msgId, r, version), `message 0x${hex4(msgId)}`);
      }
      if (isTransparentMessage(msgId)) {
        const r = new Reader(b, start, end);
        return done(r, readTransparentMessage(msgId, r), `message 0x${hex4(msgId)}`);
      }
      if (isParameterMessage(msgId)) {
        const r = new Reader(b, start, end);
        return done(r, readParameterFamily(msgId, r, version), `message 0x${hex4(msgId)}`);
      }
      if (isFileUpload(msgId)) {
        const r = new Reader(b, start, end);
        return done(r, readFileUpload(msgId, r), `message 0x${hex4(msgId)}`);
      }
      if (isMultimedia(msgId)) {
        const r = new Reader(b, start, end);
        return done(r, readMultimedia(msgId, r), `message 0x${hex4(msgId)}`);
      }
      if (!isMediaSignalling(msgId)) return null;
      const r = new Reader(b, start, end);
      return done(r, readMediaSignalling(msgId, r), `message 0x${hex4(msgId)}`);
    }
  }
}

/** Writes the body of `msg` for the given edition. Throws Jt808Error('encode') on bad fields. */
export function writeMessage(w: Writer, msg: Jt808MessageInput, version: ProtocolEdition): void {
  // The multimedia family keeps its id list in one place (multimedia.ts `isMultimedia`).
  if (isMultimedia(msg.msgId)) {
    writeMultimedia(w, msg as Multimedia);
    return;
  }
  // Issue 19 face recognition family (face.ts).
  if (isFaceMessage(msg.msgId)) {
    writeFaceMessage(w, msg as FaceMessage);
    return;
  }
  // 0x8108 upgrade package (upgrade.ts).
  if (isUpgradeMessage(msg.msgId)) {
    writeUpgradeMessage(w, msg as UpgradePackage);
    return;
  }
  // The area (fence) family keeps its ids in fences.ts (FENCE_MSG).
  if (isFenceMessage(msg.msgId)) {
    writeFenceMessage(w, msg as FenceMessage, version);
    return;
  }
  // 0x8606 / 0x8607 routes (routes.ts).
  if (isRouteMessage(msg.msgId)) {
    writeRouteMessage(w, msg as RouteMessage, version);
    return;
  }
  // The parameter / terminal-control family keeps its ids in parameters.ts (PARAM_MSG).
  if (isParameterMessage(msg.msgId)) {
    writeParameterFamily(w, msg as ParameterMessageInput, version);
    return;
  }
  // The transparent family (0x8900/0x0900/0x0701/0x0108) lives in transparent.ts.
  if (isTransparentMessage(msg.msgId)) {
    writeTransparentMessage(w, msg as TransparentMessage);
    return;
  }
  switch (msg.msgId) {
    case MSG.LOCATION:
      writeLocation(w, msg);
      return;
    case MSG.BATCH_LOCATION:
      writeBatch(w, msg);
      return;
    case MSG.HEARTBEAT:
    case MSG.LOGOUT:
      return;
    case MSG.TERMINAL_RESPONSE:
    case MSG.PLATFORM_RESPONSE:
      w.u16(msg.replySerial, 'reply serial').u16(msg.replyId, 'reply id').u8(msg.result, 'result');
      return;
    case MSG.REGISTER: {
      const widths = WIDTHS[version];
      w.u16(msg.province, 'province').u16(msg.city, 'city');
      w.fixedString(msg.makerId, widths.maker, 'maker id');
      w.fixedString(msg.model, widths.model, 'terminal model');
      w.fixedString(msg.terminalId, widths.terminal, 'terminal id');
      w.u8(msg.plateColor, 'plate colour').string(msg.plate);
      return;
    }
    case MSG.RESEND_REQUEST:
    case MSG.TERMINAL_RESEND_REQUEST: {
      const max = version === 2019 ? 0xffff : 0xff;
      if (msg.packageIds.length > max) throw new Jt808Error('encode', `${msg.packageIds.length} package ids exceed ${max} (${version})`);
      w.u16(msg.firstSerial, 'first package serial');
      if (version === 2019) w.u16(msg.packageIds.length, 'resend count');
      else w.u8(msg.packageIds.length, 'resend count');
      for (const id of msg.packageIds) w.u16(id, 'package id');
      return;
    }
    case MSG.REGISTER_RESPONSE:
      w.u16(msg.replySerial, 'reply serial').u8(msg.result, 'result');
      if (msg.result === REGISTER_RESULT.OK) w.string(msg.authCode);
      return;
    case MSG.AUTHENTICATE: {
      if (version === 2013) {
        w.string(msg.authCode);
        return;
      }
      const at = w.reserve(1);
      const before = w.length;
      w.string(msg.authCode);
      const len = w.length - before;
      if (len > 0xff) throw new Jt808Error('encode', `auth code of ${len} bytes exceeds 255`);
      w.patchU8(at, len);
      w.fixedString(msg.imei, 15, 'IMEI').fixedString(msg.softwareVersion, 20, 'software version');
      return;
    }
    case MSG.ALARM_CONFIRM:
      w.u16(msg.alarmSerial, 'alarm serial').u32(msg.alarmType, 'alarm type');
      return;
    case MSG.TEXT:
      w.u8(msg.flags, 'text flags');
      if (version === 2019) w.u8(msg.textType, 'text type');
      w.string(msg.text);
      return;
    case 0x9003:
    case 0x1003:
    case 0x9101:
    case 0x9102:
    case 0x9205:
    case 0x1205:
    case 0x9201:
    case 0x9202:
      writeMediaSignalling(w, msg);
      return;
    case 0x9206:
    case 0x1206:
    case 0x9207:
      writeFileUpload(w, msg);
      return;
    case 0x8400:
      writePhoneMessage(w, msg);
      return;
    case 0x0705:
      writeCanMessage(w, msg);
      return;
    case 0x1005:
    case 0x0e30:
      writePassengerMessage(w, msg);
      return;
    case 0x0702:
      writeDriverMessage(w, msg, version);
      return;
    default:
      throw new Jt808Error('encode', `no encoder for message 0x${hex4((msg as { msgId: number }).msgId)}`);
  }
}

/** Body bytes of `msg`. */
export function encodeBody(msg: Jt808MessageInput, version: ProtocolEdition = 2013): Uint8Array {
  const w = new Writer(64);
  writeMessage(w, msg, version);
  return w.finish();
}
