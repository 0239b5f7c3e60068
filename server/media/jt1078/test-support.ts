/** Test helpers (tests and the simulator's tests only): hex, concatenation, seeded chunking, fixtures. */
import { readFileSync } from 'node:fs';
import { prng } from '../../../domain/random.ts';

export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}

export function fromHex(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, '');
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Cuts a stream into chunks of 1..maxChunk bytes with a seeded PRNG (random TCP segmentation). */
export function chunks(stream: Uint8Array, seed: number, maxChunk = 3000): Uint8Array[] {
  const rnd = prng(seed);
  const out: Uint8Array[] = [];
  for (let o = 0; o < stream.length; ) {
    const n = 1 + Math.floor(rnd() * maxChunk);
    out.push(stream.slice(o, o + n));
    o += n;
  }
  return out;
}

/** A committed clip from fixtures/video/ (see its README). */
export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../../../fixtures/video/${name}`, import.meta.url)));
}

/** Indexes where two lists of byte arrays differ (fast; deep-equal on big arrays is slow). */
export function differingIndexes(a: readonly Uint8Array[], b: readonly Uint8Array[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y || Buffer.compare(x, y) !== 0) out.push(i);
  }
  return out;
}
