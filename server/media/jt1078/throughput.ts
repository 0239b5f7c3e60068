/**
 * Measures the media port's receive path (splitter + reassembler) on a synthetic stream of
 * 640x360-sized frames, for the CONTEXT.md figure and the benchmark.
 */
import { prng } from '../../../domain/random.ts';
import { Packetizer } from './packetizer.ts';
import { FrameAssembler } from './reassembly.ts';
import { PacketSplitter } from './splitter.ts';

export interface PacketRateOptions {
  /** Video frames in the stream (one key frame every 25). @default 500 */
  frames?: number;
  /** Keep re-running until this much time has passed. @default 500 */
  minMs?: number;
  /** TCP chunk size fed to the splitter. @default 16384 */
  chunk?: number;
}

export interface PacketRate {
  packets: number;
  frames: number;
  bytes: number;
  ms: number;
  packetsPerSecond: number;
  megabytesPerSecond: number;
}

/** A stream of `frames` H.264-sized frames (key frames 24 KiB, others 3 KiB) and 40 ms G.711A audio. */
export function mediaStream(frames: number, seed = 1): Uint8Array {
  const rnd = prng(seed);
  const sender = new Packetizer({ sim: '13800138000', channel: 1 });
  const parts: Uint8Array[] = [];
  for (let i = 0; i < frames; i++) {
    const key = i % 25 === 0;
    const data = new Uint8Array(key ? 24_576 : 3_072);
    for (let j = 0; j < data.length; j += 64) data[j] = (rnd() * 256) | 0;
    parts.push(sender.video(data, i * 40, key));
    parts.push(sender.audio(new Uint8Array(320).fill(0xd5), i * 40));
  }
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export function measurePacketRate(options: PacketRateOptions = {}): PacketRate {
  const stream = mediaStream(options.frames ?? 500);
  const minMs = options.minMs ?? 500;
  const chunk = options.chunk ?? 16_384;
  let packets = 0;
  let frames = 0;
  let bytes = 0;
  const t0 = performance.now();
  let ms: number;
  do {
    const splitter = new PacketSplitter();
    const assembler = new FrameAssembler();
    for (let o = 0; o < stream.length; o += chunk) {
      splitter.push(stream.subarray(o, o + chunk), (p) => {
        packets++;
        if (assembler.push(p)) frames++;
      });
    }
    bytes += stream.length;
    ms = performance.now() - t0;
  } while (ms < minMs);
  return { packets, frames, bytes, ms, packetsPerSecond: (packets * 1000) / ms, megabytesPerSecond: bytes / 1048.576 / ms };
}
