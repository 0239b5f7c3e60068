/**
 * Decode-throughput measurement for the gateway benchmark ("JT/T 808 location reports decoded
 * per second on one core", target ≥ 50,000). Pure: a bench module only has to call
 * `measureDecodeRate` and turn the result into records.
 */
import { decodeFrame, encodePacket } from './codec.ts';
import { FrameSplitter } from './framing.ts';

export interface DecodeRate {
  /** Location reports decoded per second. */
  perSecond: number;
  reports: number;
  seconds: number;
  /** Average escaped frame size on the wire. */
  bytesPerFrame: number;
}

export interface DecodeRateOptions {
  /** Distinct frames in the synthetic stream. @default 5000 */
  frames?: number;
  /** Measure for at least this long, after a warm-up. @default 1000 */
  minMs?: number;
  /** Also run the stream through FrameSplitter in TCP-sized chunks. @default true */
  withSplitter?: boolean;
  /** Chunk size fed to the splitter (a typical TCP segment). @default 1460 */
  chunkBytes?: number;
}

/**
 * A stream of typical location reports: half 2013, half 2019 headers; mileage, fuel, extended
 * signals, signal strength and satellites on each; an ADAS alarm on one in twenty.
 */
export function locationStream(frames: number): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  const t0 = Date.UTC(2026, 0, 1);
  for (let i = 0; i < frames; i++) {
    const lat = 22 + ((i * 7919) % 20_000) / 1000;
    const lng = 100 + ((i * 104_729) % 25_000) / 1000;
    const time = t0 + i * 1000;
    const frame = encodePacket(
      { phone: String(13_800_000_000 + i), serial: i & 0xffff, version: i % 2 === 0 ? 2013 : 2019 },
      {
        msgId: 0x0200,
        alarm: i % 50 === 0 ? 2 : 0,
        status: 0x3,
        lat,
        lng,
        altitude: 30 + (i % 500),
        speed: (i % 1200) / 10,
        direction: i % 360,
        time,
        mileage: 10_000 + i / 10,
        fuel: 40 + (i % 100) / 10,
        extSignal: 1,
        signal: 20 + (i % 10),
        satellites: 8 + (i % 12),
        adas:
          i % 20 === 0
            ? {
                alarmId: i, flag: 1, type: 1, level: 1, frontSpeed: 50, frontDistance: 20, deviationType: 0, roadSignType: 0,
                roadSignValue: 0, speed: 60, altitude: 30, lat, lng, time, vehicleStatus: 1,
                identification: { terminalId: 'T000001', time, seq: 0, attachments: 1, reserved: 0 },
              }
            : undefined,
      },
    );
    parts.push(frame);
    total += frame.length;
  }
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Measures location reports decoded per second on the calling thread. */
export function measureDecodeRate(options: DecodeRateOptions = {}): DecodeRate {
  const frames = options.frames ?? 5000;
  const minMs = options.minMs ?? 1000;
  const chunkBytes = options.chunkBytes ?? 1460;
  const stream = locationStream(frames);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < stream.length; i += chunkBytes) chunks.push(stream.subarray(i, i + chunkBytes));
  const bodies = new FrameSplitter().split(stream);
  let checksum = 0;

  const pass = options.withSplitter === false
    ? (): number => {
        let n = 0;
        for (const body of bodies) {
          const r = decodeFrame(body);
          if (r.kind === 'message' && r.message.msgId === 0x0200) {
            checksum += r.message.lat;
            n++;
          }
        }
        return n;
      }
    : (): number => {
        let n = 0;
        const splitter = new FrameSplitter();
        for (const chunk of chunks) {
          splitter.push(chunk, (body) => {
            const r = decodeFrame(body);
            if (r.kind === 'message' && r.message.msgId === 0x0200) {
              checksum += r.message.lat;
              n++;
            }
          });
        }
        return n;
      };

  const warmUntil = performance.now() + Math.min(300, minMs / 3);
  while (performance.now() < warmUntil) pass();
  let reports = 0;
  const start = performance.now();
  let elapsed: number;
  do {
    reports += pass();
    elapsed = performance.now() - start;
  } while (elapsed < minMs);
  // A decoded value flows into the result so the work cannot be optimised away.
  if (!Number.isFinite(checksum) || reports === 0) throw new Error('decode produced no location reports');
  return { perSecond: reports / (elapsed / 1000), reports, seconds: elapsed / 1000, bytesPerFrame: stream.length / frames };
}
