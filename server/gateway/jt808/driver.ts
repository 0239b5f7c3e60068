/**
 * 0x0702 driver identity report (JT/T 808-2013 §8.47, -2019 §8.48): the driver's qualification
 * certificate IC card inserted (sign-in) or removed (sign-out). Status BYTE (0x01 inserted, 0x02
 * removed), time BCD[6]; on insertion the card read result BYTE (0 ok) and, when read, name length
 * BYTE + name STRING, certificate code STRING[20], issuing authority length BYTE + STRING, validity
 * BCD[4] YYYYMMDD; 2019 adds the ID card number STRING[20].
 */
import type { ProtocolEdition } from './header.ts';
import { encodeGbk, type Reader, type Writer } from './bytes.ts';
import { Jt808Error } from './errors.ts';

export const DRIVER_IDENTITY = 0x0702;

export interface DriverIdentity {
  msgId: 0x0702;
  /** 1 card inserted (sign-in), 2 card removed (sign-out). */
  status: 1 | 2;
  /** Epoch ms (GMT+8 on the wire). */
  time: number;
  /** Card read result on insertion: 0 ok, 1 key failure, 2 card locked, 3 card removed, 4 checksum error; null on removal. */
  readResult: number | null;
  name: string;
  certificate: string;
  authority: string;
  /** `YYYY-MM-DD`, '' when not read. */
  validUntil: string;
  /** 2019 only, '' otherwise. */
  idCard: string;
}

export function isDriverMessage(msgId: number): boolean {
  return msgId === DRIVER_IDENTITY;
}

const digits = (b: number, what: string): string => {
  const hi = b >> 4;
  const lo = b & 0x0f;
  if (hi > 9 || lo > 9) throw new Jt808Error('field', `${what}: 0x${b.toString(16)} is not BCD`);
  return `${hi}${lo}`;
};

export function readDriverMessage(r: Reader, version: ProtocolEdition): DriverIdentity {
  const status = r.u8('driver status');
  if (status !== 1 && status !== 2) throw new Jt808Error('field', `driver status: ${status} is neither 1 (inserted) nor 2 (removed)`);
  const time = r.bcdTime('driver time');
  const empty = { name: '', certificate: '', authority: '', validUntil: '', idCard: '' };
  if (status === 2) return { msgId: DRIVER_IDENTITY, status, time, readResult: null, ...empty };
  const readResult = r.u8('IC card read result');
  if (readResult !== 0) return { msgId: DRIVER_IDENTITY, status, time, readResult, ...empty };
  const name = r.fixedString(r.u8('driver name length'), 'driver name');
  const certificate = r.fixedString(20, 'qualification certificate');
  const authority = r.fixedString(r.u8('authority length'), 'issuing authority');
  const v = r.bytes(4, 'validity');
  const validUntil = `${digits(v[0]!, 'validity')}${digits(v[1]!, 'validity')}-${digits(v[2]!, 'validity')}-${digits(v[3]!, 'validity')}`;
  const idCard = version === 2019 ? r.fixedString(20, 'ID card number') : '';
  return { msgId: DRIVER_IDENTITY, status, time, readResult, name, certificate, authority, validUntil, idCard };
}

export function writeDriverMessage(w: Writer, msg: DriverIdentity, version: ProtocolEdition): void {
  w.u8(msg.status, 'driver status');
  w.bcdTime(msg.time, 'driver time');
  if (msg.status === 2) return;
  w.u8(msg.readResult ?? 0, 'IC card read result');
  if ((msg.readResult ?? 0) !== 0) return;
  const name = encodeGbk(msg.name);
  const authority = encodeGbk(msg.authority);
  if (name.length > 255 || authority.length > 255) throw new Jt808Error('encode', 'driver name and issuing authority hold at most 255 bytes');
  w.u8(name.length, 'driver name length').bytes(name);
  w.fixedString(msg.certificate, 20, 'qualification certificate');
  w.u8(authority.length, 'authority length').bytes(authority);
  const m = /^(\d{2})(\d{2})-(\d{2})-(\d{2})$/.exec(msg.validUntil);
  if (!m) throw new Jt808Error('encode', `validity "${msg.validUntil}" is not YYYY-MM-DD`);
  for (const d of m.slice(1)) w.u8(Number.parseInt(d, 16), 'validity');
  if (version === 2019) w.fixedString(msg.idCard, 20, 'ID card number');
}
