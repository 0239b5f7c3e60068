/**
 * Byte-exact vectors. Each frame is laid out field by field from the standard's tables
 * (JT/T 808-2013 / -2019, T/JSATL 12 for 0x64/0x65); checksums and escapes were computed with an
 * independent Python script, and the register frame is re-derived step by step below.
 */
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from './bytes.ts';
import { decodeFrame, encodePacket, type FrameResult } from './codec.ts';
import { FrameSplitter } from './framing.ts';
import type { HeaderInit } from './header.ts';
import type { AdasAlarm, DmsAlarm } from './location.ts';
import type { Jt808Message } from './messages.ts';

/** Hex from space-separated field groups. */
const hex = (...fields: string[]): string => fields.join('').replace(/\s+/g, '').toLowerCase();
/** n zero bytes of field padding. */
const zeros = (n: number): string => '00'.repeat(n);

/** 2026-11-22 15:30:45 GMT+8 */
const T = Date.UTC(2026, 10, 22, 7, 30, 45);
const PHONE = '13912345678';

function decodeWire(wire: string): FrameResult {
  const bodies = new FrameSplitter().split(fromHex(wire));
  expect(bodies).toHaveLength(1);
  return decodeFrame(bodies[0]!);
}

const identification = { terminalId: 'T000001', time: T, seq: 1, attachments: 2, reserved: 0 };
const adas: AdasAlarm = {
  alarmId: 7,
  flag: 1,
  type: 1,
  level: 2,
  frontSpeed: 60,
  frontDistance: 25,
  deviationType: 0,
  roadSignType: 0,
  roadSignValue: 0,
  speed: 72,
  altitude: 12,
  lat: 31.234567,
  lng: 121.987654,
  time: T,
  vehicleStatus: 3,
  identification,
};
const dms: DmsAlarm = {
  alarmId: 8,
  flag: 1,
  type: 1,
  level: 2,
  fatigue: 5,
  reserved: 0,
  speed: 72,
  altitude: 12,
  lat: 31.234567,
  lng: 121.987654,
  time: T,
  vehicleStatus: 3,
  identification,
};

interface Vector {
  name: string;
  init: Omit<HeaderInit, 'msgId'>;
  message: Jt808Message;
  wire: string;
}

const IDENT_HEX = '54303030303031 261122153045 01 02 00';

const vectors: Vector[] = [
  {
    name: '0x0100 register, 2013 layout (maker 5, model 20, terminal id 7 bytes, GBK plate)',
    init: { phone: PHONE, serial: 1 },
    message: { msgId: 0x0100, province: 44, city: 0x0300, makerId: '70111', model: 'JT808-M1', terminalId: 'T000001', plateColor: 1, plate: '粤B12345' },
    wire: hex(
      '7e',
      '0100 002d 013912345678 0001',
      '002c 0300 3730313131',
      `4a543830382d4d31 ${zeros(20 - 8)}`,
      '54303030303031 01 d4c1 423132333435',
      '49 7e',
    ),
  },
  {
    name: '0x0100 register, 2019 layout (version byte, BCD[10] phone, maker 11, model 30, terminal id 30)',
    init: { phone: PHONE, serial: 1, version: 2019 },
    message: { msgId: 0x0100, province: 44, city: 0x0300, makerId: '70111', model: 'JT808-M1', terminalId: 'T000001', plateColor: 1, plate: '粤B12345' },
    wire: hex(
      '7e',
      '0100 4054 01 00000000013912345678 0001',
      `002c 0300 3730313131 ${zeros(11 - 5)}`,
      `4a543830382d4d31 ${zeros(30 - 8)}`,
      `54303030303031 ${zeros(30 - 7)}`,
      '01 d4c1 423132333435',
      '71 7e',
    ),
  },
  {
    name: '0x8100 register response with an auth code holding 0x7e and 0x7d, serial 0x7e7d escaped',
    init: { phone: PHONE, serial: 0x7e7d },
    message: { msgId: 0x8100, replySerial: 1, result: 0, authCode: 'A~B}C' },
    wire: hex('7e', '8100 0008 013912345678 7d02 7d01', '0001 00 41 7d02 42 7d01 43', 'f8 7e'),
  },
  {
    name: '0x8100 register response refusing an unknown terminal carries no auth code',
    init: { phone: PHONE, serial: 2 },
    message: { msgId: 0x8100, replySerial: 1, result: 4, authCode: '' },
    wire: hex('7e', '8100 0003 013912345678 0002', '0001 04', 'b5 7e'),
  },
  {
    name: '0x0102 authentication, 2013: the body is the auth code',
    init: { phone: PHONE, serial: 2 },
    message: { msgId: 0x0102, authCode: 'A~B}C', imei: '', softwareVersion: '' },
    wire: hex('7e', '0102 0005 013912345678 0002', '41 7d02 42 7d01 43', '77 7e'),
  },
  {
    name: '0x0102 authentication, 2019: code length, code, IMEI[15], software version[20]',
    init: { phone: PHONE, serial: 2, version: 2019 },
    message: { msgId: 0x0102, authCode: 'A~B}C', imei: '860000000000001', softwareVersion: 'V1.2.3' },
    wire: hex(
      '7e',
      '0102 4029 01 00000000013912345678 0002',
      '05 41 7d02 42 7d01 43',
      '383630303030303030303030303031',
      `56312e322e33 ${zeros(20 - 6)}`,
      '46 7e',
    ),
  },
  {
    name: '0x0001 terminal general response',
    init: { phone: PHONE, serial: 3 },
    message: { msgId: 0x0001, replySerial: 0x1234, replyId: 0x8300, result: 0 },
    wire: hex('7e', '0001 0005 013912345678 0003', '1234 8300 00', '92 7e'),
  },
  {
    name: '0x8001 platform general response with result 3 (unsupported)',
    init: { phone: PHONE, serial: 9 },
    message: { msgId: 0x8001, replySerial: 5, replyId: 0x0200, result: 3 },
    wire: hex('7e', '8001 0005 013912345678 0009', '0005 0200 03', 'b9 7e'),
  },
  {
    name: '0x0002 heartbeat, 2013',
    init: { phone: PHONE, serial: 4 },
    message: { msgId: 0x0002 },
    wire: hex('7e', '0002 0000 013912345678 0004', '36 7e'),
  },
  {
    name: '0x0002 heartbeat, 2019',
    init: { phone: PHONE, serial: 4, version: 2019 },
    message: { msgId: 0x0002 },
    wire: hex('7e', '0002 4000 01 00000000013912345678 0004', '77 7e'),
  },
  {
    name: '0x0003 logout',
    init: { phone: PHONE, serial: 5 },
    message: { msgId: 0x0003 },
    wire: hex('7e', '0003 0000 013912345678 0005', '36 7e'),
  },
  {
    name: '0x0200 location in the south-west with every known item, ADAS, DMS and an unknown item; checksum 0x7d escaped',
    init: { phone: PHONE, serial: 0x7e },
    message: {
      msgId: 0x0200,
      alarm: 1,
      status: 0x0f,
      lat: -31.234567,
      lng: -121.987654,
      altitude: 12,
      speed: 72.5,
      direction: 90,
      time: T,
      mileage: 12345.6,
      fuel: 40.5,
      recorderSpeed: 72,
      alarmEventId: undefined,
      extSignal: 1,
      ioStatus: 3,
      analog: 0x00640032,
      signal: 25,
      satellites: 14,
      adas,
      dms,
      extras: [{ id: 0xe1, data: new Uint8Array([0x7e, 0x7d, 0x00]) }],
    },
    wire: hex(
      '7e',
      '0200 00a7 013912345678 00 7d02',
      '00000001 0000000f 01dc9a07 07456246 000c 02d5 005a 261122153045',
      '01 04 0001e240',
      '02 02 0195',
      '03 02 02d0',
      '25 04 00000001',
      '2a 02 0003',
      '2b 04 00640032',
      '30 01 19',
      '31 01 0e',
      `64 2f 00000007 01 01 02 3c 19 00 00 00 48 000c 01dc9a07 07456246 261122153045 0003 ${IDENT_HEX}`,
      `65 2f 00000008 01 01 02 05 00000000 48 000c 01dc9a07 07456246 261122153045 0003 ${IDENT_HEX}`,
      'e1 03 7d02 7d01 00',
      '7d01 7e',
    ),
  },
  {
    name: '0x0704 blind-area batch of two reports, 2019',
    init: { phone: PHONE, serial: 6, version: 2019 },
    message: {
      msgId: 0x0704,
      type: 1,
      invalid: 0,
      items: [
        {
          msgId: 0x0200, alarm: 0, status: 3, lat: 39.9042, lng: 116.4074, altitude: 44, speed: 0, direction: 0, time: Date.UTC(2026, 10, 22, 0, 0, 0),
          mileage: undefined, fuel: undefined, recorderSpeed: undefined, alarmEventId: undefined, extSignal: undefined, ioStatus: undefined,
          analog: undefined, signal: undefined, satellites: undefined, adas: undefined, dms: undefined, extras: undefined,
        },
        {
          msgId: 0x0200, alarm: 2, status: 3, lat: 39.9043, lng: 116.4075, altitude: 45, speed: 30, direction: 180, time: Date.UTC(2026, 10, 22, 0, 0, 30),
          mileage: undefined, fuel: undefined, recorderSpeed: undefined, alarmEventId: undefined, extSignal: undefined, ioStatus: undefined,
          analog: undefined, signal: 20, satellites: undefined, adas: undefined, dms: undefined, extras: undefined,
        },
      ],
    },
    wire: hex(
      '7e',
      '0704 4042 01 00000000013912345678 0006',
      '0002 01',
      '001c 00000000 00000003 0260e3c8 06f03c68 002c 0000 0000 261122080000',
      '001f 00000002 00000003 0260e42c 06f03ccc 002d 012c 00b4 261122080030 30 01 14',
      'fe 7e',
    ),
  },
  {
    name: '0x8300 text message, 2013: flags then GBK text',
    init: { phone: PHONE, serial: 10 },
    message: { msgId: 0x8300, flags: 0x0c, textType: 0, text: '请注意安全 slow down' },
    wire: hex('7e', '8300 0015 013912345678 000a', '0c c7ebd7a2d2e2b0b2c8ab 20736c6f7720646f776e', 'bd 7e'),
  },
  {
    name: '0x8300 text message, 2019: flags, text type, GBK text',
    init: { phone: PHONE, serial: 10, version: 2019 },
    message: { msgId: 0x8300, flags: 0x0c, textType: 1, text: '请注意安全' },
    wire: hex('7e', '8300 400c 01 00000000013912345678 000a', '0c 01 c7ebd7a2d2e2b0b2c8ab', 'f1 7e'),
  },
  {
    name: '0x8203 manual alarm confirmation',
    init: { phone: PHONE, serial: 11 },
    message: { msgId: 0x8203, alarmSerial: 0x7e, alarmType: 1 },
    wire: hex('7e', '8203 0006 013912345678 000b', '00 7d02 00000001', 'c3 7e'),
  },
];

describe('JT/T 808 byte-exact vectors', () => {
  for (const v of vectors) {
    it(`encodes ${v.name}`, () => {
      expect(toHex(encodePacket(v.init, v.message))).toBe(v.wire);
    });

    it(`decodes ${v.name}`, () => {
      const r = decodeWire(v.wire);
      expect(r.kind).toBe('message');
      if (r.kind !== 'message') return;
      expect(r.message).toEqual(v.message);
      expect(r.header.phone).toBe(PHONE);
      expect(r.header.serial).toBe(v.init.serial);
      expect(r.header.version).toBe(v.init.version ?? 2013);
      expect(r.header.msgId).toBe(v.message.msgId);
    });
  }

  it('matches a step-by-step computation of the 2013 register frame', () => {
    // Independent of the codec: build the body field by field, the header from its rules,
    // XOR everything for the checksum, then escape.
    const ascii = (s: string, width: number): number[] => [...s].map((c) => c.charCodeAt(0)).concat(new Array<number>(width - s.length).fill(0));
    const body = [
      0x00, 0x2c, // province 44 (Guangdong)
      0x03, 0x00, // city
      ...ascii('70111', 5),
      ...ascii('JT808-M1', 20),
      ...ascii('T000001', 7),
      0x01, // blue plate
      0xd4, 0xc1, // 粤 in GBK
      ...ascii('B12345', 6),
    ];
    expect(body.length).toBe(45);
    const props = body.length; // no encryption, no sub-package, 2013 (bit 14 clear)
    const header = [0x01, 0x00, props >> 8, props & 0xff, 0x01, 0x39, 0x12, 0x34, 0x56, 0x78, 0x00, 0x01];
    const unescaped = [...header, ...body];
    let checksum = 0;
    for (const b of unescaped) checksum ^= b;
    unescaped.push(checksum);
    const wire = [0x7e];
    for (const b of unescaped) {
      if (b === 0x7e) wire.push(0x7d, 0x02);
      else if (b === 0x7d) wire.push(0x7d, 0x01);
      else wire.push(b);
    }
    wire.push(0x7e);

    expect(checksum).toBe(0x49);
    const encoded = encodePacket({ phone: PHONE, serial: 1 }, vectors[0]!.message);
    expect(toHex(encoded)).toBe(toHex(new Uint8Array(wire)));
  });
});
