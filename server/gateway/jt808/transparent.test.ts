/**
 * The transparent family (issue 17, communication logs): 0x8900 / 0x0900 / 0x0701 / 0x0108 laid out
 * field by field from JT/T 808-2013 §8.62, §8.63, §8.46, §8.17, and the device log exchange designed
 * on transparent type 0xF1 (transparent.ts).
 */
import { describe, expect, it } from 'vitest';
import { encodeGbk, fromHex, toHex } from './bytes.ts';
import { decodeMessage, encodeBody, isSupported } from './messages.ts';
import { DEVLOG_TYPE, devlogLinesWanted, devlogRequest, devlogText, TRANSPARENT_MSG, type TransparentDown, type TransparentUp } from './transparent.ts';

const decode = (msgId: number, body: string) => {
  const b = fromHex(body);
  return decodeMessage(msgId, 2013, b, 0, b.length);
};

describe('transparent family', () => {
  it('is supported by the codec', () => {
    for (const id of Object.values(TRANSPARENT_MSG)) expect(isSupported(id)).toBe(true);
  });

  it('0x0900 type + data round-trips; a non-log type has no reply serial', () => {
    const msg = { msgId: 0x0900, type: 0x41, data: Uint8Array.of(1, 2, 0x7e) } as const;
    expect(toHex(encodeBody(msg))).toBe('4101027e');
    expect(decode(0x0900, '4101027e')).toEqual({ msgId: 0x0900, type: 0x41, data: Uint8Array.of(1, 2, 0x7e) });
  });

  it('0x0701 waybill: DWORD length + content; a short body is refused', () => {
    expect(toHex(encodeBody({ msgId: 0x0701, content: Uint8Array.of(0xab, 0xcd) }))).toBe('00000002abcd');
    expect(decode(0x0701, '00000002abcd')).toEqual({ msgId: 0x0701, content: Uint8Array.of(0xab, 0xcd) });
    expect(() => decode(0x0701, '00000005abcd')).toThrow(/waybill content/);
  });

  it('0x0108 upgrade result: type + result', () => {
    expect(toHex(encodeBody({ msgId: 0x0108, upgradeType: 52, result: 1 }))).toBe('3401');
    expect(decode(0x0108, '3401')).toEqual({ msgId: 0x0108, upgradeType: 52, result: 1 });
    expect(() => decode(0x0108, '34')).toThrow(/upgrade result/);
  });

  it('device log: 0x8900 type 0xF1 asks for N lines, 0x0900 type 0xF1 answers with the request serial and GBK text', () => {
    const ask = devlogRequest(200);
    expect(toHex(encodeBody(ask))).toBe('f100c8');
    expect(devlogLinesWanted(decode(0x8900, 'f100c8') as TransparentDown)).toBe(200);
    expect(() => devlogRequest(0)).toThrow(/1\.\.1000/);
    const text = encodeGbk('上线\n0x0200');
    const body = `f1002a${toHex(text)}`;
    const answer = decode(0x0900, body) as TransparentUp;
    expect(answer.type).toBe(DEVLOG_TYPE);
    expect(answer.replySerial).toBe(0x2a);
    expect(devlogText(answer)).toBe('上线\n0x0200');
    expect(() => decode(0x0900, 'f100')).toThrow(/request serial/);
  });
});
