/**
 * Encoder side (the simulated terminals): splits a frame into ≤ 950-byte sub-packages with
 * consecutive serials, the marker bit on the last one, and the same timestamp and intervals on all.
 */
import { Jt1078Error } from './errors.ts';
import {
  DATA_TYPE,
  encodedLength,
  MAX_BODY_LENGTH,
  PAYLOAD_TYPE,
  SUBPACKAGE,
  writePacket,
  type DataType,
  type PacketInit,
  type PacketOptions,
  type SimLength,
} from './packet.ts';

export interface FrameInit {
  sim: string;
  channel: number;
  dataType: DataType;
  payloadType: number;
  timestamp?: number | undefined;
  lastIFrameInterval?: number | undefined;
  lastFrameInterval?: number | undefined;
  data: Uint8Array;
}

/**
 * The packets of one frame; bodies are views of `frame.data`. An empty frame is one atomic packet
 * with an empty body. Serials wrap at 65536.
 */
export function packetizeFrame(frame: FrameInit, firstSerial: number, maxBody: number = MAX_BODY_LENGTH): PacketInit[] {
  if (!(maxBody >= 1)) throw new Jt1078Error('encode', `maxBody ${maxBody} must be at least 1`);
  const { data } = frame;
  const count = Math.max(1, Math.ceil(data.length / maxBody));
  const out: PacketInit[] = [];
  for (let i = 0; i < count; i++) {
    const subpackage = count === 1 ? SUBPACKAGE.ATOMIC : i === 0 ? SUBPACKAGE.FIRST : i === count - 1 ? SUBPACKAGE.LAST : SUBPACKAGE.MIDDLE;
    out.push({
      payloadType: frame.payloadType,
      serial: (firstSerial + i) & 0xffff,
      sim: frame.sim,
      channel: frame.channel,
      dataType: frame.dataType,
      subpackage,
      timestamp: frame.timestamp,
      lastIFrameInterval: frame.lastIFrameInterval,
      lastFrameInterval: frame.lastFrameInterval,
      body: data.subarray(i * maxBody, Math.min(data.length, (i + 1) * maxBody)),
    });
  }
  return out;
}

/** A frame's packets back to back in one buffer, ready for one socket write. */
export function encodeFrame(frame: FrameInit, firstSerial: number, options: PacketOptions = {}): Uint8Array {
  const simLength = options.simLength ?? 6;
  const packets = packetizeFrame(frame, firstSerial, options.maxBody ?? MAX_BODY_LENGTH);
  let total = 0;
  for (const p of packets) total += encodedLength(p, simLength);
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of packets) o += writePacket(out, o, p, options);
  return out;
}

export interface PacketizerOptions extends PacketOptions {
  sim: string;
  channel: number;
  /** @default PAYLOAD_TYPE.H264 */
  videoPayloadType?: number;
  /** @default PAYLOAD_TYPE.G711A */
  audioPayloadType?: number;
  /** Serial of the first packet. @default 0 */
  serial?: number;
}

/**
 * One terminal channel's sender: one serial counter for all its packets (as most terminals do),
 * and the I-frame / frame intervals computed from the timestamps.
 */
export class Packetizer {
  serial: number;
  private readonly options: PacketizerOptions;
  private lastVideoTs: number | undefined;
  private lastKeyTs: number | undefined;

  constructor(options: PacketizerOptions) {
    this.options = options;
    this.serial = (options.serial ?? 0) & 0xffff;
  }

  get simLength(): SimLength {
    return this.options.simLength ?? 6;
  }

  /** One video access unit (Annex-B bytes) at `timestamp` ms. */
  video(data: Uint8Array, timestamp: number, keyFrame: boolean): Uint8Array {
    const lastFrameInterval = this.lastVideoTs === undefined ? 0 : clampU16(timestamp - this.lastVideoTs);
    const lastIFrameInterval = keyFrame || this.lastKeyTs === undefined ? 0 : clampU16(timestamp - this.lastKeyTs);
    this.lastVideoTs = timestamp;
    if (keyFrame) this.lastKeyTs = timestamp;
    const dataType: DataType = keyFrame ? DATA_TYPE.I_FRAME : DATA_TYPE.P_FRAME;
    return this.frame({ dataType, payloadType: this.options.videoPayloadType ?? PAYLOAD_TYPE.H264, timestamp, lastIFrameInterval, lastFrameInterval, data });
  }

  /** One audio frame (e.g. 320 bytes of G.711A = 40 ms) at `timestamp` ms. */
  audio(data: Uint8Array, timestamp: number): Uint8Array {
    return this.frame({ dataType: DATA_TYPE.AUDIO, payloadType: this.options.audioPayloadType ?? PAYLOAD_TYPE.G711A, timestamp, data });
  }

  /** Transparent data (no timestamp). */
  transparent(data: Uint8Array): Uint8Array {
    return this.frame({ dataType: DATA_TYPE.TRANSPARENT, payloadType: PAYLOAD_TYPE.TRANSPARENT, data });
  }

  private frame(f: Omit<FrameInit, 'sim' | 'channel'>): Uint8Array {
    const frame: FrameInit = { ...f, sim: this.options.sim, channel: this.options.channel };
    const out = encodeFrame(frame, this.serial, this.options);
    const maxBody = this.options.maxBody ?? MAX_BODY_LENGTH;
    this.serial = (this.serial + Math.max(1, Math.ceil(f.data.length / maxBody))) & 0xffff;
    return out;
  }
}

function clampU16(v: number): number {
  return v < 0 ? 0 : v > 0xffff ? 0xffff : Math.round(v);
}
