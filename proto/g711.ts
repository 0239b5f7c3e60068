/**
 * G.711 A-law encoding (ITU-T G.711, the segment search of the reference `linear2alaw`), shared by the
 * console (the operator's microphone for the intercom) and the server (the reminder sounds it sends
 * to terminals). JT/T 1078 terminals take 8 kHz mono A-law (payload type 6); decoding lives with the
 * console's player (src/live/video/g711.ts).
 */

/** Segment upper bounds of the 13-bit magnitude (A-law works on the 16-bit sample >> 3). */
const SEG_END = [0x1f, 0x3f, 0x7f, 0xff, 0x1ff, 0x3ff, 0x7ff, 0xfff] as const;

/** One 16-bit linear sample (−32768..32767) → its A-law byte (even bits inverted, as on the wire). */
export function linearToAlaw(sample: number): number {
  let pcm = Math.max(-32768, Math.min(32767, Math.round(sample))) >> 3;
  let mask: number;
  if (pcm >= 0) mask = 0xd5;
  else {
    mask = 0x55;
    pcm = -pcm - 1;
  }
  let seg = 0;
  while (seg < 8 && pcm > SEG_END[seg]!) seg++;
  if (seg >= 8) return 0x7f ^ mask;
  const aval = (seg << 4) | (seg < 2 ? (pcm >> 1) & 0x0f : (pcm >> seg) & 0x0f);
  return aval ^ mask;
}

/** 65536-entry table over the 16-bit range, built once on first use (one lookup per sample after). */
let table: Uint8Array | undefined;
function alawTable(): Uint8Array {
  if (!table) {
    table = new Uint8Array(65536);
    for (let i = 0; i < 65536; i++) table[i] = linearToAlaw(i - 32768);
  }
  return table;
}

/** PCM samples in −1..1 → A-law bytes (`out` reused when large enough). Values outside −1..1 clip. */
export function encodeAlaw(pcm: Float32Array, out?: Uint8Array): Uint8Array {
  const t = alawTable();
  const bytes = out && out.length >= pcm.length ? out.subarray(0, pcm.length) : new Uint8Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) {
    const s = pcm[i]! * 32768;
    const v = s >= 32767 ? 32767 : s <= -32768 ? -32768 : Math.round(s);
    bytes[i] = t[v + 32768]!;
  }
  return bytes;
}
