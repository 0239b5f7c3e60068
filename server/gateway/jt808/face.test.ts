import { describe, expect, it } from 'vitest';
import { encodeGbk, toHex } from './bytes.ts';
import { decodeFrame, encodePacket } from './codec.ts';
import { decodeMessage, encodeBody, type Jt808Message } from './messages.ts';
import type { FaceComparisonResult, FaceSamples } from './face.ts';
import { FrameSplitter } from './framing.ts';

const TIME = Date.UTC(2026, 10, 22, 1, 2, 3); // 09:02:03 China time

function roundTrip(message: Jt808Message) {
  const wire = encodePacket({ phone: '13800001111', serial: 7, version: 2013 }, message as never);
  const [body] = new FrameSplitter().split(wire);
  const r = decodeFrame(body!);
  if (r.kind !== 'message') throw new Error(`${r.kind} ${r.kind === 'error' ? r.error.message : ''}`);
  expect(toHex(encodePacket(r.header, r.message))).toBe(toHex(wire));
  return r.message;
}

const result: FaceComparisonResult = {
  msgId: 0x0e10, result: 0, similarity: 92, threshold: 80, trigger: 0, time: TIME, lat: 30_274_000, lng: 120_155_000,
  faceId: '330100198001011234', name: '王建国', photoType: 1, photo: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x7e, 0x7d]),
};

describe('face recognition messages (issue 19)', () => {
  it('0x0E10: the body is laid out field by field as documented (vector)', () => {
    const name = toHex(encodeGbk('王建国'));
    expect(toHex(encodeBody(result))).toBe(
      `00 5c 50 00 261122090203 01cdf1d0 07296b78 12 ${toHex(encodeGbk('330100198001011234'))} 06 ${name} 01 00000006 89504e477e7d`.replace(/ /g, ''),
    );
    expect(roundTrip(result)).toEqual(result);
  });

  it('0x8E11 carries several faces with their photos; 0x0E11 / 0x0E12 the ids held', () => {
    const push: FaceSamples = { msgId: 0x8e11, op: 0, threshold: 75, faces: [
      { faceId: 'A1', name: '李伟', photoType: 0, photo: new Uint8Array(600).fill(7) },
      { faceId: 'B2', name: '', photoType: 0, photo: new Uint8Array(0) },
    ] };
    expect(roundTrip(push)).toEqual(push);
    expect(roundTrip({ msgId: 0x0e11, replySerial: 9, result: 0, faceIds: ['A1', 'B2'] })).toEqual({ msgId: 0x0e11, replySerial: 9, result: 0, faceIds: ['A1', 'B2'] });
    expect(roundTrip({ msgId: 0x0e12, replySerial: 3, faceIds: [] })).toEqual({ msgId: 0x0e12, replySerial: 3, faceIds: [] });
    expect(roundTrip({ msgId: 0x8e10, channel: 1 })).toEqual({ msgId: 0x8e10, channel: 1 });
  });

  it('refuses a similarity over 100 and a truncated photo', () => {
    const bad = encodeBody({ ...result, similarity: 101 });
    const body = encodeBody(result);
    const short = body.subarray(0, body.length - 2);
    // A body cut inside the photo or with similarity 101 decodes as an error, not as a result.
    expect(() => decodeMessage(0x0e10, 2013, short, 0, short.length)).toThrow(/photo/);
    expect(() => decodeMessage(0x0e10, 2013, bad, 0, bad.length)).toThrow(/similarity/);
  });
});
