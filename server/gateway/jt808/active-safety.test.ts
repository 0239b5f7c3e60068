/**
 * 0xF364 ADAS / 0xF365 DSM parameters (T/JSATL12-2017 tables 4-10 / 4-11): blocks laid out by hand in
 * the standard's order (not from the layout table under test), carried in a 0x8103 body and a 0x0104
 * answer; the decoder's tolerance for a short block and the encoder's refusal of an out-of-range field.
 */
import { describe, expect, it } from 'vitest';
import { ADAS_PARAMS, blockDefaults, blockLength, DSM_PARAMS } from '../../../domain/terminal-params/active-safety.ts';
import { fromHex, Reader, toHex, Writer } from './bytes.ts';
import { decodeBody } from './codec.ts';
import { Jt808Error } from './errors.ts';
import type { Jt808Header } from './header.ts';
import { encodeBody } from './messages.ts';
import { readParameterItems, writeParameterItems } from './parameters.ts';

const hex = (...fields: string[]): string => fields.join('').replace(/\s+/g, '').toLowerCase();

/** ADAS with the standard's defaults except speed threshold 40 km/h and forward collision level speed 60. */
const ADAS_HEX = hex(
  '28', // alarm speed threshold BYTE 40 km/h
  '06', // alarm volume 6
  '00', // active photo strategy: off
  '003c', // active photo interval WORD 60 s
  '00c8', // active photo distance WORD 200 m
  '03', // photos per shot
  '02', // gap 200 ms
  '01', // photo resolution 352x288
  '01', // video resolution CIF
  '00010fff', // alarm enable DWORD
  '00000003', // event enable DWORD
  '00', // reserved
  '1e 32 05 03 02', // obstacle: distance 3.0 s, level speed 50, video 5 s, 3 photos, gap 200 ms
  '3c 05 32 05 03 02', // frequent lane change: window 60 s, 5 times, level 50, video 5, photos 3, gap 2
  '32 05 03 02', // lane departure: level 50, video 5, photos 3, gap 2
  '1b 3c 05 03 02', // forward collision: time 2.7 s, level 60, video 5, photos 3, gap 2
  '1e 32 05 03 02', // pedestrian: time 3.0 s, level 50, video 5, photos 3, gap 2
  '0a 32 05 03 02', // headway: 1.0 s, level 50, video 5, photos 3, gap 2
  '03 02', // road sign recognition: photos 3, gap 2
  '00000000', // reserved BYTE[4]
);

/** DSM with the defaults except driver identification by card (3). */
const DSM_HEX = hex(
  '1e 06 00', // speed threshold 30, volume 6, photo strategy off
  '0e10', // active photo interval 3600 s
  '00c8', // distance 200 m
  '03 02 01 01', // photos 3, gap 2, photo 352x288, video CIF
  '000003ff 00000003', // alarm enable, event enable
  '00b4', // smoking check interval 180 s
  '0078', // phone check interval 120 s
  '000000', // reserved BYTE[3]
  '32 05 03 02', // fatigue
  '32 05 03 02', // phone
  '32 05 03 02', // smoking
  '32 05 03 02', // distraction
  '32 05 03 02', // abnormal driving
  '03', // driver identification trigger: card inserted
  '0000', // reserved BYTE[2]
);

const adas: Record<string, number> = { ...blockDefaults(ADAS_PARAMS), alarmSpeedThreshold: 40, forwardCollisionLevelSpeed: 60 };
const dsm: Record<string, number> = { ...blockDefaults(DSM_PARAMS), driverIdTrigger: 3 };

describe('active-safety parameter blocks (苏标 0xF364 / 0xF365)', () => {
  it('have the lengths of the standard', () => {
    expect(blockLength(ADAS_PARAMS)).toBe(56);
    expect(blockLength(DSM_PARAMS)).toBe(49);
    expect(ADAS_HEX.length / 2).toBe(56);
    expect(DSM_HEX.length / 2).toBe(49);
  });

  it('encode field by field into a 0x8103 body and decode back to the same fields', () => {
    const msg = { msgId: 0x8103 as const, params: [{ id: 0xf364, value: adas }, { id: 0xf365, value: dsm }] };
    const body = hex('02', '0000f364 38', ADAS_HEX, '0000f365 31', DSM_HEX);
    expect(toHex(encodeBody(msg, 2019))).toBe(body);
    const header = { msgId: 0x8103, bodyLength: body.length / 2, version: 2019 } as Jt808Header;
    expect(decodeBody(header, fromHex(body))).toMatchObject({ kind: 'message', message: msg });
  });

  it('are read out of a terminal\'s 0x0104 answer next to ordinary items', () => {
    const body = hex('0007', '02', '00000001 04 0000001e', '0000f364 38', ADAS_HEX);
    const header = { msgId: 0x0104, bodyLength: body.length / 2, version: 2013 } as Jt808Header;
    expect(decodeBody(header, fromHex(body))).toMatchObject({ kind: 'message', message: { msgId: 0x0104, replySerial: 7, params: [{ id: 1, value: 30 }, { id: 0xf364, value: adas }] } });
  });

  it('keep a block of another length as raw bytes (a terminal of another revision)', () => {
    const w = new Writer();
    w.u32(0xf364, 'id').u8(3, 'len').bytes(fromHex('1e0600'));
    const bytes = w.finish();
    const [item] = readParameterItems(new Reader(bytes), 1);
    expect(item!.value).toBeInstanceOf(Uint8Array);
    expect(toHex(item!.value as Uint8Array)).toBe('1e0600');
  });

  it('refuse to encode a field out of its range or missing, naming it', () => {
    const write = (value: Record<string, number>) => writeParameterItems(new Writer(), [{ id: 0xf364, value }]);
    expect(() => write({ ...adas, alarmVolume: 9 })).toThrow(/adas\.alarmVolume: must be a whole number from 0 to 8/);
    const { alarmVolume: _, ...missing } = adas;
    expect(() => write(missing)).toThrow(Jt808Error);
    expect(() => writeParameterItems(new Writer(), [{ id: 0x0001, value: adas }])).toThrow(/not an active-safety block/);
  });
});
