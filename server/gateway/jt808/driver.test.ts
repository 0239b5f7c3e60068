import { describe, expect, it } from 'vitest';
import { toHex } from './bytes.ts';
import { decodeFrame, encodePacket } from './codec.ts';
import type { DriverIdentity } from './driver.ts';
import { FrameSplitter } from './framing.ts';
import type { ProtocolEdition } from './header.ts';

const TIME = Date.UTC(2026, 10, 22, 1, 2, 3); // 09:02:03 China time

function roundTrip(message: DriverIdentity, version: ProtocolEdition) {
  const wire = encodePacket({ phone: '13800001111', serial: 7, version }, message);
  const [body] = new FrameSplitter().split(wire);
  const r = decodeFrame(body!);
  if (r.kind !== 'message') throw new Error(`${r.kind} ${r.kind === 'error' ? r.error.message : ''}`);
  expect(toHex(encodePacket(r.header, r.message))).toBe(toHex(wire));
  return r.message;
}

const signIn: DriverIdentity = {
  msgId: 0x0702, status: 1, time: TIME, readResult: 0, name: '王建国', certificate: '330100198001011234', authority: '杭州市道路运输管理局',
  validUntil: '2029-12-31', idCard: '',
};

describe('0x0702 driver identity', () => {
  it('decodes a 2013 card insertion with the driver’s name, certificate, authority and validity', () => {
    expect(roundTrip(signIn, 2013)).toEqual(signIn);
  });

  it('carries the ID card number in 2019', () => {
    const m = { ...signIn, idCard: '330102198001011234' };
    expect(roundTrip(m, 2019)).toEqual(m);
  });

  it('decodes a removal and an unreadable card without driver fields', () => {
    const out: DriverIdentity = { msgId: 0x0702, status: 2, time: TIME, readResult: null, name: '', certificate: '', authority: '', validUntil: '', idCard: '' };
    expect(roundTrip(out, 2013)).toEqual(out);
    const locked: DriverIdentity = { ...out, status: 1, readResult: 2 };
    expect(roundTrip(locked, 2019)).toEqual(locked);
  });

  it('refuses an unknown status and a truncated body', () => {
    const wire = encodePacket({ phone: '13800001111', serial: 1, version: 2013 }, signIn);
    const [body] = new FrameSplitter().split(wire);
    // body: header (12 bytes) then status; 3 is neither inserted nor removed.
    const bad = body!.slice();
    bad[12] = 3;
    bad[bad.length - 1] = bad.slice(0, -1).reduce((x, b) => x ^ b, 0);
    const r = decodeFrame(bad);
    expect(r.kind === 'error' && r.error.message).toContain('driver status');
    const cut = body!.slice(0, 20);
    cut[3] = 20 - 12 - 1; // body length in the header's properties (low byte)
    cut[cut.length - 1] = cut.slice(0, -1).reduce((x, b) => x ^ b, 0);
    const short = decodeFrame(cut);
    expect(short.kind === 'error' && short.error.message).toMatch(/IC card read result|driver name|length/);
  });
});
