/**
 * Test helpers shared by the codec's tests (and usable by simulator tests): a seeded PRNG and
 * generators of random valid messages. Not imported by the codec itself.
 */
import type { ProtocolEdition } from './header.ts';
import type { AdasAlarm, AlarmIdentification, DmsAlarm, LocationReport } from './location.ts';
import type { Jt808Message } from './messages.ts';

import { prng } from '../../../domain/random.ts';
export { prng };

export class Gen {
  readonly next: () => number;

  constructor(seed: number) {
    this.next = prng(seed);
  }

  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  bool(p = 0.5): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  bytes(n: number): Uint8Array {
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i++) b[i] = this.int(0, 255);
    return b;
  }

  /** Bytes rich in 0x7e / 0x7d so escaping is exercised. */
  nastyBytes(n: number): Uint8Array {
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i++) b[i] = this.bool(0.3) ? this.pick([0x7e, 0x7d, 0x01, 0x02]) : this.int(0, 255);
    return b;
  }

  /** ASCII letters/digits (no trailing padding characters, so decode gives it back). */
  ascii(min: number, max: number, alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789-~}'): string {
    let s = '';
    const n = this.int(min, max);
    for (let i = 0; i < n; i++) s += alphabet.charAt(this.int(0, alphabet.length - 1));
    return s;
  }

  /** Mixed Chinese and ASCII text that GBK can represent. */
  chinese(min: number, max: number): string {
    return this.ascii(min, max, '京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼请注意安全ABC123 ');
  }

  phone(version: ProtocolEdition): string {
    // No leading zero: the decoder strips them so 2013 and 2019 keys agree.
    return String(this.int(1, 9)) + this.ascii(version === 2019 ? 5 : 3, version === 2019 ? 19 : 11, '0123456789');
  }

  /** Whole seconds within 2000..2099, as the BCD time carries. */
  time(): number {
    return Date.UTC(2000, 0, 1) + this.int(0, 36_000) * 86_400_000 + this.int(0, 86_399) * 1000;
  }

  identification(): AlarmIdentification {
    return { terminalId: this.ascii(1, 7, 'ABC0123456789'), time: this.time(), seq: this.int(0, 255), attachments: this.int(0, 255), reserved: this.int(0, 255) };
  }

  adas(): AdasAlarm {
    return {
      alarmId: this.int(0, 0xffffffff),
      flag: this.int(0, 2),
      type: this.pick([1, 2, 3, 4, 5, 6, 7, 16, 17]),
      level: this.int(1, 2),
      frontSpeed: this.int(0, 250),
      frontDistance: this.int(0, 100),
      deviationType: this.int(0, 2),
      roadSignType: this.int(0, 3),
      roadSignValue: this.int(0, 255),
      speed: this.int(0, 250),
      altitude: this.int(0, 6000),
      lat: this.int(0, 90_000_000) / 1e6,
      lng: this.int(0, 180_000_000) / 1e6,
      time: this.time(),
      vehicleStatus: this.int(0, 0xffff),
      identification: this.identification(),
    };
  }

  dms(): DmsAlarm {
    return {
      alarmId: this.int(0, 0xffffffff),
      flag: this.int(0, 2),
      type: this.pick([1, 2, 3, 4, 5, 16, 17]),
      level: this.int(1, 2),
      fatigue: this.int(0, 10),
      reserved: this.int(0, 0xffffffff),
      speed: this.int(0, 250),
      altitude: this.int(0, 6000),
      lat: this.int(0, 90_000_000) / 1e6,
      lng: this.int(0, 180_000_000) / 1e6,
      time: this.time(),
      vehicleStatus: this.int(0, 0xffff),
      identification: this.identification(),
    };
  }

  location(): LocationReport {
    const south = this.bool(0.2);
    const west = this.bool(0.2);
    const rawLat = this.int(0, 90_000_000);
    const rawLng = this.int(0, 180_000_000);
    let status = this.int(0, 0xffffffff);
    // The wire carries the hemisphere in status bits 2/3; keep them consistent with the sign.
    status = ((status & ~0xc) | (south && rawLat > 0 ? 4 : 0) | (west && rawLng > 0 ? 8 : 0)) >>> 0;
    const opt = <T>(p: number, make: () => T): T | undefined => (this.bool(p) ? make() : undefined);
    return {
      msgId: 0x0200,
      alarm: this.int(0, 0xffffffff),
      status,
      lat: (south && rawLat > 0 ? -rawLat : rawLat) / 1e6,
      lng: (west && rawLng > 0 ? -rawLng : rawLng) / 1e6,
      altitude: this.int(0, 0xffff),
      speed: this.int(0, 0xffff) / 10,
      direction: this.int(0, 359),
      time: this.bool(0.05) ? NaN : this.time(),
      mileage: opt(0.7, () => this.int(0, 0xffffffff) / 10),
      fuel: opt(0.5, () => this.int(0, 0xffff) / 10),
      recorderSpeed: opt(0.3, () => this.int(0, 0xffff) / 10),
      alarmEventId: opt(0.2, () => this.int(0, 0xffff)),
      extSignal: opt(0.5, () => this.int(0, 0xffffffff)),
      ioStatus: opt(0.3, () => this.int(0, 0xffff)),
      analog: opt(0.3, () => this.int(0, 0xffffffff)),
      signal: opt(0.7, () => this.int(0, 31)),
      satellites: opt(0.7, () => this.int(0, 40)),
      adas: opt(0.2, () => this.adas()),
      dms: opt(0.2, () => this.dms()),
      extras: opt(0.2, () => {
        const n = this.int(1, 3);
        const items = [];
        for (let i = 0; i < n; i++) items.push({ id: this.pick([0x11, 0x12, 0x13, 0xe0, 0xe1, 0xfe]), data: this.nastyBytes(this.int(0, 24)) });
        return items;
      }),
    };
  }

  /** A random valid message of any supported id, for the given edition. */
  message(version: ProtocolEdition): Jt808Message {
    switch (this.int(0, 10)) {
      case 0:
        return { msgId: 0x0001, replySerial: this.int(0, 0xffff), replyId: this.int(0, 0xffff), result: this.int(0, 3) };
      case 1:
        return { msgId: 0x8001, replySerial: this.int(0, 0xffff), replyId: this.int(0, 0xffff), result: this.int(0, 4) };
      case 2:
        return this.bool() ? { msgId: 0x0002 } : { msgId: 0x0003 };
      case 3:
        return {
          msgId: 0x0100,
          province: this.int(0, 0xffff),
          city: this.int(0, 0xffff),
          makerId: this.ascii(0, version === 2019 ? 11 : 5),
          model: this.ascii(0, version === 2019 ? 30 : 20),
          terminalId: this.ascii(0, version === 2019 ? 30 : 7),
          plateColor: this.int(0, 5),
          plate: this.chinese(0, 12).trimEnd(),
        };
      case 4: {
        const ok = this.bool(0.7);
        return { msgId: 0x8100, replySerial: this.int(0, 0xffff), result: ok ? 0 : this.int(1, 4), authCode: ok ? this.ascii(0, 40) : '' };
      }
      case 5:
        return version === 2019
          ? { msgId: 0x0102, authCode: this.ascii(0, 60), imei: this.ascii(15, 15, '0123456789'), softwareVersion: this.ascii(0, 20) }
          : { msgId: 0x0102, authCode: this.ascii(0, 60), imei: '', softwareVersion: '' };
      case 6:
        return this.location();
      case 7: {
        const items: LocationReport[] = [];
        const n = this.int(1, 4); // stays under the 1023-byte body limit
        for (let i = 0; i < n; i++) items.push(this.location());
        return { msgId: 0x0704, type: this.int(0, 1), items, invalid: 0 };
      }
      case 8:
        return { msgId: 0x8203, alarmSerial: this.int(0, 0xffff), alarmType: this.int(0, 0xffffffff) };
      case 9:
        return { msgId: 0x8300, flags: this.int(0, 255), textType: version === 2019 ? this.int(1, 2) : 0, text: this.chinese(0, 100) };
      default:
        return { msgId: 0x0002 };
    }
  }
}

/** Concatenates byte arrays. */
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
