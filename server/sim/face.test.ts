import { describe, expect, it } from 'vitest';
import type { Jt808MessageInput } from '../gateway/jt808/index.ts';
import type { FaceComparisonResult } from '../gateway/jt808/face.ts';
import { simDriverCard } from './driver.ts';
import { SimFaceUnit, simHasFaceCamera } from './face.ts';

const devices = Array.from({ length: 200 }, (_, i) => `0139${String(10_000_000 + i * 7919).padStart(8, '0')}`);

function link() {
  const sent: Jt808MessageInput[] = [];
  const replies: number[] = [];
  return { sent, replies, send: (m: Jt808MessageInput) => sent.push(m), reply: (r: number) => replies.push(r), position: () => ({ lat: 30.27, lng: 120.15 }) };
}

describe('simulated face camera (issue 19)', () => {
  it('about one terminal in four has one, always the same ones', () => {
    const withCamera = devices.filter(simHasFaceCamera);
    expect(withCamera.length).toBeGreaterThan(30);
    expect(withCamera.length).toBeLessThan(90);
    expect(devices.filter(simHasFaceCamera)).toEqual(withCamera);
    for (const d of withCamera) expect(simDriverCard(d, 0)).not.toBeNull();
  });

  it('compares its card driver at each shift start: passes mostly, one shift in seven a mismatch; same sequence every run', () => {
    const device = devices.find(simHasFaceCamera)!;
    const run = () => {
      const unit = SimFaceUnit.of(device)!;
      const l = link();
      for (let i = 0; i < 14; i++) unit.shiftStart(1_795_000_000_000 + i * 3_600_000, l);
      return l.sent as FaceComparisonResult[];
    };
    const a = run();
    expect(a).toHaveLength(14);
    expect(a.filter((m) => m.result === 1)).toHaveLength(2);
    const card = simDriverCard(device, 0)!;
    for (const m of a) {
      expect(m.faceId).toBe(card.certificate);
      if (m.result === 0) expect(m.similarity).toBeGreaterThanOrEqual(m.threshold);
      else expect(m.similarity).toBeLessThan(m.threshold);
    }
    expect(run().map((m) => [m.result, m.similarity])).toEqual(a.map((m) => [m.result, m.similarity]));
  });

  it('keeps pushed samples, lists them, and fails to match a driver whose face it no longer holds', () => {
    const device = devices.find(simHasFaceCamera)!;
    const unit = SimFaceUnit.of(device)!;
    const l = link();
    unit.command({ msgId: 0x8e11, op: 0, threshold: 75, faces: [{ faceId: 'X1', name: '甲', photoType: 0, photo: new Uint8Array(3) }] }, 41, 0, l);
    expect(l.sent[0]).toEqual({ msgId: 0x0e11, replySerial: 41, result: 0, faceIds: ['X1'] });
    unit.command({ msgId: 0x8e12 }, 42, 0, l);
    expect(l.sent[1]).toEqual({ msgId: 0x0e12, replySerial: 42, faceIds: ['X1'] });
    unit.command({ msgId: 0x8e10, channel: 0 }, 43, 1_795_000_000_000, l);
    expect(l.replies).toEqual([0]);
    expect(l.sent[2]).toMatchObject({ msgId: 0x0e10, result: 1, trigger: 1, threshold: 75, faceId: '' });
  });
});
