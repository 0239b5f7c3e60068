import { describe, expect, it } from 'vitest';
import { prng } from '../../../domain/random.ts';
import { avcCodecString, describeAvc, describeHevc, findNal, isHevcKeyFrame, isIdrAccessUnit, NAL, nalType, parseHevcSps, parseSps, splitAccessUnits, splitNalUnits, toRbsp } from '../../../proto/h264.ts';
import { fixture, fromHex, hex } from './test-support.ts';

describe('H.264 Annex-B helpers', () => {
  it('splits NAL units on 3- and 4-byte start codes and drops trailing zeros', () => {
    const nals = splitNalUnits(fromHex('ff 00 00 00 01 09 10 00 00 01 67 42 00 00 00 00 01 65 88 80 00'));
    expect(nals.map(hex)).toEqual(['09 10', '67 42', '65 88 80']);
    expect(nals.map(nalType)).toEqual([NAL.AUD, NAL.SPS, NAL.IDR]);
  });

  it('removes emulation-prevention bytes', () => {
    expect(hex(toRbsp(fromHex('00 00 03 01 00 00 03 00 03')))).toBe('00 00 01 00 00 00 03');
  });

  it('builds the avc1 codec string from profile, constraint flags and level', () => {
    expect(avcCodecString(0x42, 0xc0, 0x1e)).toBe('avc1.42C01E');
    expect(avcCodecString(100, 0, 40)).toBe('avc1.640028');
  });

  it('reads 640x360 constrained baseline level 3.0 from the main fixture SPS', () => {
    const sps = findNal(fixture('main-640x360-25fps-4s.h264'), NAL.SPS)!;
    const r = parseSps(sps);
    expect(r).toEqual({
      kind: 'sps',
      sps: { profileIdc: 66, constraintFlags: 0xc0, levelIdc: 30, chromaFormatIdc: 1, bitDepth: 8, frameMbsOnly: true, width: 640, height: 360, codec: 'avc1.42C01E' },
    });
  });

  it('reads 320x180 and level 2.0 from the sub-stream fixture', () => {
    expect(describeAvc(fixture('sub-320x180-25fps-4s.h264'))).toMatchObject({ width: 320, height: 180, codec: 'avc1.42C014' });
  });

  it('parses a High-profile SPS with cropping (1920x1080)', () => {
    // x264 High 4.0 1920x1080: 120x68 macroblocks, 8 lines cropped at the bottom.
    const r = parseSps(fromHex('67 64 00 28 ac d9 40 78 02 27 e5 c0 44 00 00 03 00 04 00 00 03 00 c8 3c 60 c6 58'));
    expect(r.kind === 'sps' && [r.sps.width, r.sps.height, r.sps.codec, r.sps.chromaFormatIdc]).toEqual([1920, 1080, 'avc1.640028', 1]);
  });

  it('reports a damaged SPS instead of throwing', () => {
    expect(parseSps(fromHex('67 42 c0'))).toMatchObject({ kind: 'error' });
    expect(parseSps(fromHex('68 42 c0 1e da'))).toMatchObject({ kind: 'error' });
    expect(parseSps(fromHex('67 42 c0 1e 00 00 00 00 00'))).toMatchObject({ kind: 'error' });
    const rnd = prng(11);
    for (let i = 0; i < 2000; i++) {
      const b = new Uint8Array(4 + Math.floor(rnd() * 40)).map(() => Math.floor(rnd() * 256));
      b[0] = 0x67;
      expect(() => parseSps(b)).not.toThrow();
    }
  });

  it('splits the main fixture into 100 access units with an IDR and parameter sets every 25', () => {
    const aus = splitAccessUnits(fixture('main-640x360-25fps-4s.h264'));
    expect(aus).toHaveLength(100);
    const idr = aus.flatMap((au, i) => (isIdrAccessUnit(au) ? [i] : []));
    expect(idr).toEqual([0, 25, 50, 75]);
    for (const i of idr) {
      expect(splitNalUnits(aus[i]!).map(nalType)).toEqual([NAL.AUD, NAL.SPS, NAL.PPS, NAL.IDR]);
    }
    expect(splitNalUnits(aus[1]!).map(nalType)).toEqual([NAL.AUD, NAL.SLICE]);
  });

  it('finds access-unit boundaries without delimiters from first_mb_in_slice', () => {
    const aus = splitAccessUnits(fromHex('00 00 00 01 67 42 00 00 00 01 68 ce 00 00 01 65 88 00 00 01 65 44 00 00 01 41 9a 00 00 01 41 88'));
    // The second IDR slice (0x44: first_mb_in_slice 1, bits 010) continues picture one; each 0x41 0x9a/0x88 starts a picture.
    expect(aus.map((au) => splitNalUnits(au).length)).toEqual([4, 1, 1]);
    expect(aus.map((au) => splitNalUnits(au).map(hex).join('|'))).toEqual(['67 42|68 ce|65 88|65 44', '41 9a', '41 88']);
  });

  it('tells H.265 key frames from the pass-through fixture', () => {
    const clip = fixture('hevc-320x180-25fps-2s.h265');
    expect(isHevcKeyFrame(clip.subarray(0, 2000))).toBe(true);
    expect(isIdrAccessUnit(clip.subarray(0, 2000))).toBe(false);
  });

  it('reads the H.265 fixture SPS: Main profile, level 2 (60), 320x180, codec hvc1.1.6.L60.90', () => {
    expect(describeHevc(fixture('hevc-320x180-25fps-2s.h265'))).toEqual({
      profileSpace: 0,
      tier: 0,
      profileIdc: 1,
      levelIdc: 60,
      chromaFormatIdc: 1,
      width: 320,
      height: 180,
      codec: 'hvc1.1.6.L60.90',
    });
    expect(parseHevcSps(fromHex('42 01 01 01'))).toMatchObject({ kind: 'error' });
  });
});
