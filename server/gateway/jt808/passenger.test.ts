import { describe, expect, it } from 'vitest';
import { decodeFrame, encodePacket } from './codec.ts';
import { decodeMessage } from './messages.ts';
import { FrameSplitter } from './framing.ts';
import type { PassengerMessage } from './passenger.ts';

const body = (wire: Uint8Array) => new FrameSplitter().split(wire)[0]!;
const roundTrip = (message: PassengerMessage, version: 2013 | 2019 = 2019) => {
  const r = decodeFrame(body(encodePacket({ phone: '13912345678', serial: 7, version }, message)));
  if (r.kind !== 'message') throw new Error(`decoded as ${r.kind}`);
  return r.message;
};
// 2026-03-02 07:58:30 China time.
const T = Date.UTC(2026, 2, 1, 23, 58, 30);

describe('0x1005 passenger flow upload', () => {
  it('a plain JT/T 1078 body (16 bytes) carries span and counts, no line extension', () => {
    const m: PassengerMessage = { msgId: 0x1005, start: T - 30_000, end: T, boarding: 12, alighting: 3, line: null };
    expect(roundTrip(m, 2013)).toEqual(m);
  });

  it('the bus-line extension keeps door, direction, station and on board (0xFFFF: none kept)', () => {
    const m: PassengerMessage = { msgId: 0x1005, start: T - 30_000, end: T, boarding: 40, alighting: 0, line: { door: 2, direction: 1, stationSeq: 11, onboard: 77 } };
    expect(roundTrip(m)).toEqual(m);
    const none: PassengerMessage = { ...m, line: { door: 1, direction: 0, stationSeq: 1, onboard: null } };
    expect(roundTrip(none)).toEqual(none);
  });

  it('refuses an end before the start, an all-zero time, a direction other than 0/1 and a cut extension', () => {
    const b = (bytes: number[]) => Uint8Array.from(bytes);
    const t1 = [0x26, 0x03, 0x02, 0x07, 0x58, 0x30];
    const t0 = [0x26, 0x03, 0x02, 0x07, 0x58, 0x00];
    expect(() => decodeMessage(0x1005, 2019, b([...t1, ...t0, 0, 1, 0, 1]), 0, 16)).toThrow(/end time before start/);
    expect(() => decodeMessage(0x1005, 2019, b([0, 0, 0, 0, 0, 0, ...t1, 0, 1, 0, 1]), 0, 16)).toThrow(/no time/);
    const ext = b([...t0, ...t1, 0, 1, 0, 1, 1, 2, 0, 3, 0, 9]);
    expect(() => decodeMessage(0x1005, 2019, ext, 0, ext.length)).toThrow(/direction 2/);
    expect(() => decodeMessage(0x1005, 2019, ext, 0, 19)).toThrow();
  });
});

describe('0x0E30 body temperature', () => {
  it('keeps time, type, mask (worn / not worn / not detected), °C to 0.01 and the photo id', () => {
    for (const mask of [true, false, null]) {
      const m: PassengerMessage = { msgId: 0x0e30, time: T, kind: 1, mask, celsius: 37.35, mediaId: mask ? 9001 : null };
      expect(roundTrip(m)).toEqual(m);
    }
  });
});
