/**
 * JT/T 1078-2016 file upload carried over the JT/T 808 session: the platform asks a terminal to
 * upload recordings to an FTP server (0x9206, table 27), the terminal reports completion (0x1206,
 * table 28), the platform pauses, resumes or cancels the transfer (0x9207, table 29). Times are
 * BCD[6] GMT+8 (epoch ms here), the 64-bit alarm flags two DWORDs (high first) kept as a bigint.
 */
import type { RecordingSelection } from '../../../domain/video/playback.ts';
import type { Reader, Writer } from './bytes.ts';
import { Jt808Error } from './errors.ts';
import { readFlags, writeFlags } from './media-signalling.ts';

export const FILE_UPLOAD_MSG = {
  UPLOAD_REQUEST: 0x9206,
  UPLOAD_DONE: 0x1206,
  UPLOAD_CONTROL: 0x9207,
} as const;

/** 0x9207 upload control (table 29). */
export const UPLOAD_COMMAND = { PAUSE: 0, RESUME: 1, CANCEL: 2 } as const;
/** 0x1206 result (table 28). */
export const UPLOAD_RESULT = { OK: 0, FAIL: 1 } as const;
/** 0x9206 task execution conditions: the networks the terminal may upload over (bits). */
export const UPLOAD_NETWORK = { WIFI: 1, LAN: 2, CELLULAR: 4 } as const;

/** The selection fields mean what they mean in 0x9201: 0 is "either" for stream and storage type. */
export interface FileUploadRequest extends RecordingSelection {
  msgId: 0x9206;
  /** FTP server address (IP or host name). */
  host: string;
  port: number;
  username: string;
  password: string;
  /** Directory on the FTP server the files go to. */
  path: string;
  /** UPLOAD_NETWORK bits. */
  conditions: number;
}

export interface FileUploadDone {
  msgId: 0x1206;
  /** Serial of the 0x9206 this completes. */
  replySerial: number;
  /** 0 success, 1 failure. */
  result: number;
}

export interface FileUploadControl {
  msgId: 0x9207;
  /** Serial of the 0x9206 whose transfer this controls. */
  replySerial: number;
  command: number;
}

export type FileUploadMessage = FileUploadRequest | FileUploadDone | FileUploadControl;

export function isFileUpload(msgId: number): boolean {
  return msgId === 0x9206 || msgId === 0x1206 || msgId === 0x9207;
}

/** BYTE length + STRING (GBK); `min` 0 lets an empty user name or path through. */
function readShortString(r: Reader, what: string): string {
  const len = r.u8(`${what} length`);
  return r.fixedString(len, what);
}

function writeShortString(w: Writer, text: string, what: string, min: number): void {
  const at = w.reserve(1);
  const before = w.length;
  w.string(text);
  const len = w.length - before;
  if (len < min || len > 0xff) throw new Jt808Error('encode', `${what} of ${len} bytes must be ${min}..255`);
  w.patchU8(at, len);
}

/** Decodes one of the messages above from `r` (positioned at the body); the caller checks trailing bytes. */
export function readFileUpload(msgId: number, r: Reader): FileUploadMessage {
  switch (msgId) {
    case FILE_UPLOAD_MSG.UPLOAD_REQUEST: {
      const host = readShortString(r, 'server address');
      if (host === '') throw new Jt808Error('field', 'file upload: empty server address');
      const port = r.u16('port');
      const username = readShortString(r, 'user name');
      const password = readShortString(r, 'password');
      const path = readShortString(r, 'upload path');
      const channel = r.u8('channel');
      const startTime = r.bcdTime('start time');
      const endTime = r.bcdTime('end time');
      const alarmFlags = readFlags(r);
      return {
        msgId, host, port, username, password, path, channel, startTime, endTime, alarmFlags,
        mediaType: r.u8('media type'), streamType: r.u8('stream type'), storageType: r.u8('storage type'), conditions: r.u8('task conditions'),
      };
    }
    case FILE_UPLOAD_MSG.UPLOAD_DONE:
      return { msgId, replySerial: r.u16('reply serial'), result: r.u8('result') };
    case FILE_UPLOAD_MSG.UPLOAD_CONTROL:
      return { msgId, replySerial: r.u16('reply serial'), command: r.u8('upload control') };
    default:
      throw new Jt808Error('field', `0x${msgId.toString(16)} is not a JT/T 1078 file upload message`);
  }
}

export function writeFileUpload(w: Writer, msg: FileUploadMessage): void {
  switch (msg.msgId) {
    case FILE_UPLOAD_MSG.UPLOAD_REQUEST:
      writeShortString(w, msg.host, 'server address', 1);
      w.u16(msg.port, 'port');
      writeShortString(w, msg.username, 'user name', 0);
      writeShortString(w, msg.password, 'password', 0);
      writeShortString(w, msg.path, 'upload path', 0);
      w.u8(msg.channel, 'channel').bcdTime(msg.startTime, 'start time').bcdTime(msg.endTime, 'end time');
      writeFlags(w, msg.alarmFlags);
      w.u8(msg.mediaType, 'media type').u8(msg.streamType, 'stream type').u8(msg.storageType, 'storage type').u8(msg.conditions, 'task conditions');
      return;
    case FILE_UPLOAD_MSG.UPLOAD_DONE:
      w.u16(msg.replySerial, 'reply serial').u8(msg.result, 'result');
      return;
    case FILE_UPLOAD_MSG.UPLOAD_CONTROL:
      w.u16(msg.replySerial, 'reply serial').u8(msg.command, 'upload control');
      return;
  }
}
