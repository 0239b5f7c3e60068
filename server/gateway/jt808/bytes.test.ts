import { describe, expect, it } from 'vitest';
import { decodeBcdPhone, decodeBcdTime, decodeGbk, encodeGbk, fromHex, toHex, Writer } from './bytes.ts';

describe('GBK strings', () => {
  it('round-trip every province abbreviation used on Chinese plates', () => {
    const provinces = '京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼使领警学挂';
    const bytes = encodeGbk(provinces);
    expect(bytes.length).toBe(provinces.length * 2);
    expect(decodeGbk(bytes, 0, bytes.length)).toBe(provinces);
  });

  it('encode 粤B12345 as the GBK bytes terminals send', () => {
    expect(toHex(encodeGbk('粤B12345'))).toBe('d4c1423132333435');
  });

  it('replace characters GBK cannot hold with one question mark each', () => {
    const bytes = encodeGbk('OK😀한');
    expect(decodeGbk(bytes, 0, bytes.length)).toBe('OK??');
  });
});

describe('BCD', () => {
  it('reads phone digits without leading zeros and rejects non-decimal nibbles', () => {
    expect(decodeBcdPhone(fromHex('013912345678'), 0, 6)).toBe('13912345678');
    expect(decodeBcdPhone(fromHex('00000000013912345678'), 0, 10)).toBe('13912345678');
    expect(decodeBcdPhone(fromHex('000000000000'), 0, 6)).toBe('0');
    expect(decodeBcdPhone(fromHex('01391234567f'), 0, 6)).toBeUndefined();
  });

  it('reads times as GMT+8, including leap days, and rejects impossible dates', () => {
    expect(decodeBcdTime(fromHex('280229235959'), 0)).toBe(Date.UTC(2028, 1, 29, 15, 59, 59));
    expect(decodeBcdTime(fromHex('000101000000'), 0)).toBe(Date.UTC(1999, 11, 31, 16, 0, 0));
    expect(decodeBcdTime(fromHex('270229000000'), 0)).toBe(-1);
    expect(decodeBcdTime(fromHex('261322000000'), 0)).toBe(-1);
    expect(decodeBcdTime(fromHex('261122240000'), 0)).toBe(-1);
    expect(decodeBcdTime(fromHex('000000000000'), 0)).toBeNaN();
  });

  it('writes times back as the same BCD digits', () => {
    const w = new Writer();
    w.bcdTime(Date.UTC(2028, 1, 29, 15, 59, 59)).bcdTime(Date.UTC(1999, 11, 31, 16, 0, 0));
    expect(toHex(w.finish())).toBe('280229235959000101000000');
  });
});
