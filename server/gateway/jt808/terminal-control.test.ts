/**
 * Terminal parameter queries and terminal control (issue 17): bodies laid out field by field from
 * JT/T 808-2019 §8.11–§8.14, §8.18, §8.19 (2013 §8.9–§8.12, §8.14, §8.15), encoded and decoded both
 * ways, and truncated bodies refused with a clear error.
 */
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from './bytes.ts';
import { Jt808Error } from './errors.ts';
import { decodeMessage, encodeBody, isSupported, type Jt808Message, type Jt808MessageInput } from './messages.ts';
import { PARAM, PARAM_MSG, parameter } from './parameters.ts';
import type { ProtocolEdition } from './header.ts';

const hex = (...fields: string[]): string => fields.join('').replace(/\s+/g, '').toLowerCase();
const zeros = (n: number): string => '00'.repeat(n);
/** 2026-11-22 15:30:45 GMT+8 */
const T = Date.UTC(2026, 10, 22, 7, 30, 45);

function decode(msgId: number, body: string, version: ProtocolEdition = 2013): Jt808Message | null {
  const b = fromHex(body);
  return decodeMessage(msgId, version, b, 0, b.length);
}

function both(msg: Jt808MessageInput, body: string, version: ProtocolEdition = 2013) {
  expect(toHex(encodeBody(msg, version))).toBe(body);
  expect(decode(msg.msgId, body, version)).toEqual(msg);
}

describe('terminal parameter queries', () => {
  it('0x8104 query all and 0x8107 query attributes and 0x8201 position query have empty bodies', () => {
    for (const msgId of [PARAM_MSG.QUERY_ALL, PARAM_MSG.QUERY_ATTRIBUTES, PARAM_MSG.POSITION_QUERY] as const) {
      expect(isSupported(msgId)).toBe(true);
      both({ msgId } as Jt808MessageInput, '');
    }
  });

  it('0x8106 query chosen ids: count BYTE then DWORD ids', () => {
    both({ msgId: 0x8106, ids: [0x0001, 0x0055, 0x0083] }, hex('03', '00000001', '00000055', '00000083'));
    expect(() => encodeBody({ msgId: 0x8106, ids: [] })).toThrow(/1 to 255/);
    expect(() => decode(0x8106, '00')).toThrow(Jt808Error);
    // Declares two ids but carries one: truncated, with the field named.
    expect(() => decode(0x8106, hex('02', '00000001'))).toThrow(/parameter id/);
  });

  it('0x0104 answer: reply serial WORD, count BYTE, typed items (unknown ids kept as bytes)', () => {
    const body = hex(
      '0007', // reply serial
      '03', // count
      '00000001 04 0000003c', // heartbeat 60 s
      '00000083 08 bea9 413132333435', // plate 京A12345 (GBK)
      '0000f000 02 abcd', // an id the table does not know: raw bytes
    );
    const msg = { msgId: 0x0104 as const, replySerial: 7, params: [parameter(PARAM.heartbeatInterval, 60), parameter(PARAM.plate, '京A12345'), { id: 0xf000, value: fromHex('abcd') }] };
    both(msg, body);
    both(msg, body, 2019);
    expect(() => decode(0x0104, hex('0007', '02', '00000001 04 0000003c'))).toThrow(/truncated|needs/);
  });

  it('0x0107 terminal attributes: 2013 widths (model 20, id 7) and 2019 widths (model 30, id 30)', () => {
    const attrs = {
      msgId: 0x0107 as const, terminalType: 0x0004, makerId: 'SIM01', model: 'FT-808', terminalId: 'T000001',
      iccid: '89860012345678901234', hardwareVersion: 'HW1.0', firmwareVersion: 'FW2.3.4', gnss: 0x03, comm: 0x21,
    };
    const ascii = (s: string) => Buffer.from(s, 'ascii').toString('hex');
    const common = (model: number, id: number) => hex(
      '0004', ascii('SIM01'), ascii('FT-808') + zeros(model - 6), ascii('T000001') + zeros(id - 7),
      '89860012345678901234', '05', ascii('HW1.0'), '07', ascii('FW2.3.4'), '03', '21',
    );
    both(attrs, common(20, 7), 2013);
    both(attrs, common(30, 30), 2019);
    expect(() => encodeBody({ ...attrs, iccid: '8986X' })).toThrow(/ICCID/);
    expect(() => decode(0x0107, common(20, 7).slice(0, -4))).toThrow(Jt808Error);
  });

  it('0x8105 terminal control: command BYTE then the parameter string', () => {
    both({ msgId: 0x8105, command: 4, args: '' }, '04');
    both({ msgId: 0x8105, command: 2, args: '0;ABCD;apn;;;10.0.0.1;7611;0;60' }, hex('02', Buffer.from('0;ABCD;apn;;;10.0.0.1;7611;0;60', 'ascii').toString('hex')));
    expect(() => decode(0x8105, '')).toThrow(/control command/);
  });

  it('0x8202 temporary tracking: interval WORD, validity DWORD', () => {
    both({ msgId: 0x8202, interval: 5, validity: 3600 }, hex('0005', '00000e10'));
    both({ msgId: 0x8202, interval: 0, validity: 0 }, hex('0000', '00000000'));
    expect(() => decode(0x8202, '0005')).toThrow(/tracking validity/);
    // A trailing byte is not swallowed.
    expect(() => decode(0x8202, hex('0005', '00000e10', '00'))).toThrow(/trailing/);
  });

  it('0x0201 position answer: reply serial WORD then a 0x0200 body', () => {
    const location = {
      alarm: 0, status: 0x0003, lat: 31.234567, lng: 121.987654, altitude: 12, speed: 72, direction: 90, time: T,
    };
    const body = hex(
      '0009', // reply serial; lat 31234567 = 0x01dc9a07, lng 121987654 = 0x07456246
      '00000000', '00000003', '01dc9a07', '07456246', '000c', '02d0', '005a', '261122153045',
    );
    expect(toHex(encodeBody({ msgId: 0x0201, replySerial: 9, location }))).toBe(body);
    const m = decode(0x0201, body);
    expect(m).toMatchObject({ msgId: 0x0201, replySerial: 9, location: { lat: 31.234567, lng: 121.987654, speed: 72, direction: 90, time: T } });
    expect(() => decode(0x0201, '0009')).toThrow(Jt808Error);
  });
});
