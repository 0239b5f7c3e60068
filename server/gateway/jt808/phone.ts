/**
 * 0x8400 telephone callback (JT/T 808-2019 §8.34): the terminal dials a number, as a normal call
 * (flag 0: the driver and the caller talk) or a listen call (flag 1: the caller hears the cab, the
 * terminal's microphone only). Body: flag BYTE, phone number STRING (≤ 20 bytes).
 */
import type { Reader, Writer } from './bytes.ts';
import { Jt808Error } from './errors.ts';

export const PHONE_CALLBACK = 0x8400;
export const CALLBACK_FLAG = { TALK: 0, LISTEN: 1 } as const;

export interface PhoneCallback {
  msgId: 0x8400;
  /** 0 normal call, 1 listen. */
  flag: number;
  phone: string;
}

export function isPhoneMessage(msgId: number): boolean {
  return msgId === PHONE_CALLBACK;
}

export function readPhoneMessage(_msgId: number, r: Reader): PhoneCallback {
  const flag = r.u8('callback flag');
  return { msgId: PHONE_CALLBACK, flag, phone: r.restString() };
}

export function writePhoneMessage(w: Writer, msg: PhoneCallback): void {
  if (msg.flag !== CALLBACK_FLAG.TALK && msg.flag !== CALLBACK_FLAG.LISTEN) throw new Jt808Error('encode', `callback flag ${msg.flag} must be 0 or 1`);
  w.u8(msg.flag, 'callback flag');
  const before = w.length;
  w.string(msg.phone);
  if (w.length - before > 20) throw new Jt808Error('encode', `phone number of ${w.length - before} bytes exceeds 20`);
}
