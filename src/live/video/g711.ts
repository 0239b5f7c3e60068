/**
 * G.711 (ITU-T) A-law and µ-law to linear PCM, for the one tile whose sound the operator turned on.
 * Table lookup: 256 entries per law, built once; a 40 ms JT/T 1078 audio frame is 320 bytes.
 */

function alawToLinear(a: number): number {
  a ^= 0x55;
  const sign = a & 0x80;
  const exponent = (a & 0x70) >> 4;
  let mantissa = a & 0x0f;
  mantissa = exponent === 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (exponent - 1);
  return sign ? mantissa : -mantissa;
}

function ulawToLinear(u: number): number {
  u = ~u & 0xff;
  const sign = u & 0x80;
  const exponent = (u >> 4) & 0x07;
  const mantissa = u & 0x0f;
  const magnitude = (((mantissa << 3) + 0x84) << exponent) - 0x84;
  return sign ? -magnitude : magnitude;
}

function table(decode: (b: number) => number): Float32Array {
  const t = new Float32Array(256);
  for (let b = 0; b < 256; b++) t[b] = decode(b) / 32768;
  return t;
}

const ALAW = table(alawToLinear);
const ULAW = table(ulawToLinear);

/** Decodes G.711 bytes into PCM samples in −1..1 (`out` reused when large enough). */
export function decodeG711(bytes: Uint8Array, law: 'alaw' | 'ulaw', out?: Float32Array): Float32Array {
  const t = law === 'alaw' ? ALAW : ULAW;
  const pcm = out && out.length >= bytes.length ? out.subarray(0, bytes.length) : new Float32Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) pcm[i] = t[bytes[i]!]!;
  return pcm;
}

/** 16-bit linear value of one byte (tests compare with ITU-T G.711 reference values). */
export const g711Linear = { alaw: alawToLinear, ulaw: ulawToLinear };

/** The encoder is shared with the server (its reminder sounds): proto/g711.ts. */
export { encodeAlaw as encodeG711A, linearToAlaw } from '../../../proto/g711.ts';
