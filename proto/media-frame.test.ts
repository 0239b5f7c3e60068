import { describe, expect, it } from 'vitest';
import { decodeMediaFrame, encodeMediaFrame, MEDIA_HEADER_BYTES, MEDIA_KIND, MediaFrameError } from './media-frame.ts';

describe('media frames', () => {
  const payload = new Uint8Array([0, 0, 0, 1, 0x65, 1, 2, 3]);
  const bytes = encodeMediaFrame({ kind: MEDIA_KIND.H264, key: true, discontinuity: false, channel: 3, timestamp: 123_456_789, arrival: 1_795_000_000_123.5, payload });

  it('round-trips every field and hands out the payload without copying', () => {
    const f = decodeMediaFrame(bytes);
    expect(f).toMatchObject({ kind: MEDIA_KIND.H264, key: true, discontinuity: false, channel: 3, timestamp: 123_456_789, arrival: 1_795_000_000_123.5 });
    expect([...f.payload]).toEqual([...payload]);
    expect(f.payload.buffer).toBe(bytes.buffer);
  });

  it('refuses short, truncated, unknown-kind and wrong-version frames with a MediaFrameError', () => {
    expect(() => decodeMediaFrame(bytes.subarray(0, MEDIA_HEADER_BYTES - 1))).toThrow(MediaFrameError);
    expect(() => decodeMediaFrame(bytes.subarray(0, bytes.length - 1))).toThrow(/declares 8 payload bytes but carries 7/);
    const kind = bytes.slice();
    kind[1] = 99;
    expect(() => decodeMediaFrame(kind)).toThrow(/kind 99/);
    const version = bytes.slice();
    version[0] = 2;
    expect(() => decodeMediaFrame(version)).toThrow(/version 2/);
  });
});
