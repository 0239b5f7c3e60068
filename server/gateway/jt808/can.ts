/**
 * 0x0705 CAN bus data upload (JT/T 808-2019 §8.50): item count WORD, receive time BCD[5]
 * (hh mm ss msms, of the first item), then per item a CAN id DWORD (bit 31 channel CAN1/CAN2, bit 30
 * extended frame, bit 29 averaged rather than raw, bits 28–0 the id) and 8 data bytes.
 */
import type { Reader, Writer } from './bytes.ts';
import { Jt808Error } from './errors.ts';

export const CAN_DATA = 0x0705;

export interface CanItem {
  channel: number;
  extended: boolean;
  averaged: boolean;
  id: number;
  data: Uint8Array;
}

export interface CanDataUpload {
  msgId: 0x0705;
  /** Milliseconds since midnight (GMT+8) when the first item was received. */
  receiveMsOfDay: number;
  items: CanItem[];
}

export function isCanMessage(msgId: number): boolean {
  return msgId === CAN_DATA;
}

function bcd(r: Reader, what: string): number {
  const b = r.u8(what);
  const hi = b >> 4;
  const lo = b & 0x0f;
  if (hi > 9 || lo > 9) throw new Jt808Error('field', `${what}: 0x${b.toString(16)} is not BCD`);
  return hi * 10 + lo;
}

export function readCanMessage(_msgId: number, r: Reader): CanDataUpload {
  const count = r.u16('CAN item count');
  const hh = bcd(r, 'receive hour');
  const mm = bcd(r, 'receive minute');
  const ss = bcd(r, 'receive second');
  const ms = bcd(r, 'receive ms (high)') * 100 + bcd(r, 'receive ms (low)');
  const items: CanItem[] = [];
  for (let i = 0; i < count; i++) {
    const raw = r.u32('CAN id');
    items.push({ channel: raw >>> 31, extended: ((raw >>> 30) & 1) === 1, averaged: ((raw >>> 29) & 1) === 1, id: raw & 0x1fffffff, data: r.bytes(8, 'CAN data').slice() });
  }
  return { msgId: CAN_DATA, receiveMsOfDay: ((hh * 60 + mm) * 60 + ss) * 1000 + ms, items };
}

export function writeCanMessage(w: Writer, msg: CanDataUpload): void {
  if (msg.items.length > 0xffff) throw new Jt808Error('encode', `${msg.items.length} CAN items exceed 65535`);
  w.u16(msg.items.length, 'CAN item count');
  const t = Math.max(0, Math.min(86_399_999, Math.floor(msg.receiveMsOfDay)));
  const digits = [Math.floor(t / 3_600_000), Math.floor(t / 60_000) % 60, Math.floor(t / 1000) % 60, Math.floor((t % 1000) / 100), t % 100];
  for (const d of digits) w.u8(((Math.floor(d / 10) << 4) | (d % 10)) & 0xff, 'receive time');
  for (const it of msg.items) {
    if (it.data.length !== 8) throw new Jt808Error('encode', `CAN data of ${it.data.length} bytes must be 8`);
    const raw = ((it.channel & 1) * 0x80000000) + ((it.extended ? 1 : 0) << 30) + ((it.averaged ? 1 : 0) << 29) + (it.id & 0x1fffffff);
    w.u32(raw, 'CAN id').bytes(it.data);
  }
}
