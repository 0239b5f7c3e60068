/**
 * 0x0005 terminal request for sub-package resend (终端补传分包请求, JT/T 808-2019 §8.6): original
 * message serial WORD, count WORD (BYTE for a 2013 terminal, as 0x8003), package ids WORD each; and
 * 0x8108's body read by offset from a file (the gateway's sub-packages) equal to the body encoded whole.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from './bytes.ts';
import { decodeMessage, encodeBody, isSupported, MSG } from './messages.ts';
import { upgradeBodySource, type UpgradePackage } from './upgrade.ts';

describe('0x0005 terminal resend request', () => {
  it('2019: serial 0x1234, two ids 2 and 7', () => {
    const msg = { msgId: MSG.TERMINAL_RESEND_REQUEST, firstSerial: 0x1234, packageIds: [2, 7] };
    expect(isSupported(0x0005)).toBe(true);
    expect(toHex(encodeBody(msg, 2019))).toBe('1234' + '0002' + '0002' + '0007');
    const b = fromHex('123400020002 0007'.replace(/\s/g, ''));
    expect(decodeMessage(0x0005, 2019, b, 0, b.length)).toEqual({ msgId: 0x0005, firstSerial: 0x1234, packageIds: [2, 7] });
  });

  it('2013: the count is a BYTE; a truncated list is refused naming the field', () => {
    expect(toHex(encodeBody({ msgId: 0x0005, firstSerial: 1, packageIds: [3] }, 2013))).toBe('0001' + '01' + '0003');
    const b = fromHex('0001020003');
    expect(() => decodeMessage(0x0005, 2013, b, 0, b.length)).toThrow(/package id/);
  });
});

describe('0x8108 body read by offset from its file', () => {
  it('every slice equals the body encoded whole from memory (read asynchronously)', async () => {
    const data = new Uint8Array(3000).map((_, i) => (i * 13 + 5) & 0xff);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'up-')), 'pkg');
    fs.writeFileSync(file, data);
    const msg: UpgradePackage = { msgId: 0x8108, upgradeType: 0, makerId: 'SIM01', version: 'V2', data };
    const whole = encodeBody(msg, 2019);
    const src = upgradeBodySource({ ...msg, data: new Uint8Array(0), file: { path: file, size: data.length } });
    expect(src.length).toBe(whole.length);
    // Header fields: type 00, maker 'SIM01', version length 02 'V2', package length 0x00000bb8.
    expect(toHex(await src.read(0, 13))).toBe('00' + '53494d3031' + '02' + '5632' + '00000bb8');
    for (const [offset, n] of [[0, 1023], [1023, 1023], [2046, 1023], [5, 20]] as const) {
      expect(toHex(await src.read(offset, n))).toBe(toHex(whole.subarray(offset, Math.min(whole.length, offset + n))));
    }
    fs.rmSync(path.dirname(file), { recursive: true });
  });
});
