/**
 * 0x8108 / 0x0108 (JT/T 808-2019 §8.56 / §8.57) laid out byte by byte, the sub-packaging of a package
 * over the 1023-byte body limit, and bad bodies taking the protocol error path.
 */
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from './bytes.ts';
import { decodeFrame, encodeFrames } from './codec.ts';
import { FrameSplitter } from './framing.ts';
import { Jt808Error } from './errors.ts';
import { decodeMessage, encodeBody, isSupported } from './messages.ts';
import { Reassembler } from './reassembly.ts';
import { UPGRADE_MSG, type UpgradePackage } from './upgrade.ts';

const decode = (msgId: number, body: string) => {
  const b = fromHex(body);
  return decodeMessage(msgId, 2019, b, 0, b.length);
};

describe('0x8108 upgrade package', () => {
  it('is supported by the codec', () => {
    expect(isSupported(UPGRADE_MSG.ISSUE)).toBe(true);
    expect(isSupported(UPGRADE_MSG.RESULT)).toBe(true);
  });

  it('type, manufacturer BYTE[5], version length + version, DWORD length, bytes', () => {
    const msg: UpgradePackage = { msgId: 0x8108, upgradeType: 52, makerId: 'SIM01', version: 'V2.0', data: Uint8Array.of(0xde, 0xad, 0x7e) };
    // 34 | 53 49 4d 30 31 | 04 | 56 32 2e 30 | 00000003 | de ad 7e
    const hex = '34' + '53494d3031' + '04' + '56322e30' + '00000003' + 'dead7e';
    expect(toHex(encodeBody(msg, 2019))).toBe(hex);
    expect(decode(0x8108, hex)).toEqual(msg);
  });

  it('a short manufacturer id is padded with 0x00; a long one is an encode error', () => {
    const hex = toHex(encodeBody({ msgId: 0x8108, upgradeType: 0, makerId: 'AB', version: '1', data: new Uint8Array(0) }, 2019));
    expect(hex).toBe('00' + '4142000000' + '01' + '31' + '00000000');
    expect(() => encodeBody({ msgId: 0x8108, upgradeType: 0, makerId: 'TOOLONG', version: '1', data: new Uint8Array(0) }, 2019)).toThrow(Jt808Error);
  });

  it('a package length past the body, or trailing bytes, is a protocol error', () => {
    expect(() => decode(0x8108, '00' + '4142000000' + '01' + '31' + '00000005' + 'aabb')).toThrow(/upgrade package/);
    expect(() => decode(0x8108, '00' + '4142000000' + '01' + '31' + '00000001' + 'aabb')).toThrow(Jt808Error);
    expect(() => decode(0x8108, '00' + '41')).toThrow(/manufacturer id/);
  });

  it('a package over 1023 bytes goes as sub-packages that reassemble to the same message', () => {
    const data = new Uint8Array(5000).map((_, i) => (i * 7) & 0xff);
    const msg: UpgradePackage = { msgId: 0x8108, upgradeType: 0, makerId: 'SIM01', version: 'V9', data };
    const frames = encodeFrames({ msgId: 0x8108, phone: '13800000001', serial: 0xfffe, version: 2019, protocolVersion: 1 }, encodeBody(msg, 2019));
    expect(frames.length).toBe(Math.ceil((1 + 5 + 1 + 2 + 4 + 5000) / 1023));
    const re = new Reassembler();
    let whole: ReturnType<Reassembler['push']> = 'held';
    for (const f of frames.flatMap((x) => new FrameSplitter().split(x))) {
      const r = decodeFrame(f);
      expect(r.kind).toBe('fragment');
      if (r.kind === 'fragment') whole = re.push(r.header, r.body);
    }
    expect(typeof whole).toBe('object');
    if (typeof whole === 'object') expect(decodeMessage(0x8108, 2019, whole.body, 0, whole.body.length)).toEqual(msg);
  });
});

describe('0x0108 upgrade result', () => {
  it('type + result (0 ok, 1 failed, 2 cancelled)', () => {
    expect(toHex(encodeBody({ msgId: 0x0108, upgradeType: 0, result: 2 }, 2019))).toBe('0002');
    expect(decode(0x0108, '0c00')).toEqual({ msgId: 0x0108, upgradeType: 12, result: 0 });
  });
});
