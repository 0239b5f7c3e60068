import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeG711, g711Linear } from './g711.ts';

describe('G.711 decoding', () => {
  it('matches the ITU-T reference values at silence and full scale', () => {
    // A-law 0xD5 / 0x55 are the smallest positive / negative steps; 0xAA / 0x2A the largest.
    expect(g711Linear.alaw(0xd5)).toBe(8);
    expect(g711Linear.alaw(0x55)).toBe(-8);
    expect(g711Linear.alaw(0xaa)).toBe(32256);
    expect(g711Linear.alaw(0x2a)).toBe(-32256);
    // µ-law 0xFF is +0, 0x80 the largest positive, 0x00 the largest negative.
    expect(g711Linear.ulaw(0xff)).toBe(0);
    expect(g711Linear.ulaw(0x80)).toBe(32124);
    expect(g711Linear.ulaw(0x00)).toBe(-32124);
  });

  it('turns the committed 440 Hz A-law fixture into a tone of about 440 Hz', () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../../fixtures/video/audio-g711a-8k-mono-4s.alaw', import.meta.url)));
    // 0.2–0.5 s: between the beeps at each whole second.
    const pcm = decodeG711(bytes.subarray(1600, 4000), 'alaw');
    let crossings = 0;
    for (let i = 1; i < pcm.length; i++) if ((pcm[i - 1]! < 0) !== (pcm[i]! < 0)) crossings++;
    const hz = crossings / 2 / (pcm.length / 8000);
    expect(hz).toBeGreaterThan(430);
    expect(hz).toBeLessThan(450);
    expect(Math.max(...pcm)).toBeLessThanOrEqual(1);
  });
});
