/**
 * 0xF3A0 slag-truck controller parameters (domain/terminal-params/hjws.ts): the block laid out by hand in
 * field order (not from the layout table under test), carried in a 0x8103 body; an out-of-range field is
 * refused by the encoder.
 */
import { describe, expect, it } from 'vitest';
import { blockDefaults } from '../../../domain/terminal-params/active-safety.ts';
import { HJWS_PARAMS } from '../../../domain/terminal-params/hjws.ts';
import { fromHex, Reader, toHex, Writer } from './bytes.ts';
import { Jt808Error } from './errors.ts';
import { readParameterItems, writeParameterItems } from './parameters.ts';

const HJWS_HEX = [
  '0a', // lift angle 10°
  '01', // no lifting while driving: on
  '05', // lift speed limit 5 km/h
  '01', // cover check on
  '05', // open-cover driving speed 5 km/h
  '14', // loaded from 20 t
  '1e', // rated load 30 t
  '28', // loaded speed limit 40 km/h
  '0a', // overspeed duration 10 s
  '01 01 01', // photo on lift, channel 1, 1 photo
  '0000', // reserved BYTE[2]
  '001e', // box state report interval WORD 30 s
  '00000007', // alarm enable DWORD
  '00000000', // reserved BYTE[4]
].join('').replace(/\s+/g, '');

const block = { ...blockDefaults(HJWS_PARAMS), liftLock: 1, loadedThreshold: 20, loadedSpeedLimit: 40 };

describe('slag-truck controller block (0xF3A0)', () => {
  it('encodes as id, length 24 and the fields in order, and reads back to the same fields', () => {
    const w = new Writer();
    writeParameterItems(w, [{ id: 0xf3a0, value: block }]);
    const bytes = w.finish();
    expect(toHex(bytes)).toBe(`0000f3a018${HJWS_HEX}`);
    expect(readParameterItems(new Reader(fromHex(`0000f3a018${HJWS_HEX}`)), 1)).toEqual([{ id: 0xf3a0, value: block }]);
  });

  it('refuses a field out of its range', () => {
    expect(() => writeParameterItems(new Writer(), [{ id: 0xf3a0, value: { ...block, loadedSpeedLimit: 200 } }])).toThrow(/hjws\.loadedSpeedLimit: must be a whole number from 10 to 120/);
    expect(() => writeParameterItems(new Writer(), [{ id: 0xf3a0, value: { ...block, loadedSpeedLimit: 200 } }])).toThrow(Jt808Error);
  });
});
