/**
 * One media frame on a viewer's live-video websocket (binary message), media server → video worker.
 *
 * A fixed 24-byte header then the payload, not protobuf: a frame is one access unit (2–10 KB at 360p)
 * sent 25 times a second per channel, the header never changes shape, and the worker must reach the
 * payload without copying it (`payload` is a view into the message's buffer).
 *
 *   0  u8   version (1)
 *   1  u8   kind (MEDIA_KIND)
 *   2  u8   flags: bit 0 key frame, bit 1 discontinuity (loss before this frame: wait for a key frame)
 *   3  u8   logical channel (JT/T 1076 table 2: 1–37)
 *   4  f64  terminal timestamp, ms (JT/T 1078 packet timestamp; advances 40 ms per frame at 25 fps)
 *   12 f64  server arrival, epoch ms (when the media server had the whole frame: latency is measured from here)
 *   20 u32  payload length
 *   24 ..   payload: H.264/H.265 Annex-B access unit, or G.711 bytes
 *
 * Text messages on the same socket carry JSON session status (`MediaStatus`).
 */

export const MEDIA_FRAME_VERSION = 1;
export const MEDIA_HEADER_BYTES = 24;

export const MEDIA_KIND = { H264: 1, H265: 2, G711A: 3, G711U: 4 } as const;
export type MediaKind = (typeof MEDIA_KIND)[keyof typeof MEDIA_KIND];

export const MEDIA_FLAG = { KEY: 1, DISCONTINUITY: 2 } as const;

export interface MediaFrame {
  readonly kind: MediaKind;
  readonly key: boolean;
  readonly discontinuity: boolean;
  readonly channel: number;
  readonly timestamp: number;
  readonly arrival: number;
  readonly payload: Uint8Array;
}

/** Session status as JSON text messages (spec §4 live video: connecting, playing, stopped). */
export interface MediaStatus {
  readonly type: 'status';
  readonly state: 'connecting' | 'playing' | 'stopped';
  /** Why it stopped: a key of the video messages (timeout, noResponse, connectFailed, deviceOffline, vehicleOffline, dailyLimit). */
  readonly reason?: string;
}

export class MediaFrameError extends Error {
  override readonly name = 'MediaFrameError';
}

export function encodeMediaFrame(f: Omit<MediaFrame, 'payload'> & { payload: Uint8Array }): Uint8Array {
  const out = new Uint8Array(MEDIA_HEADER_BYTES + f.payload.length);
  const view = new DataView(out.buffer);
  out[0] = MEDIA_FRAME_VERSION;
  out[1] = f.kind;
  out[2] = (f.key ? MEDIA_FLAG.KEY : 0) | (f.discontinuity ? MEDIA_FLAG.DISCONTINUITY : 0);
  out[3] = f.channel;
  view.setFloat64(4, f.timestamp, true);
  view.setFloat64(12, f.arrival, true);
  view.setUint32(20, f.payload.length, true);
  out.set(f.payload, MEDIA_HEADER_BYTES);
  return out;
}

const KINDS = new Set<number>(Object.values(MEDIA_KIND));

/** Reads a frame without copying its payload; throws MediaFrameError on anything malformed. */
export function decodeMediaFrame(bytes: Uint8Array): MediaFrame {
  if (bytes.length < MEDIA_HEADER_BYTES) throw new MediaFrameError(`media frame of ${bytes.length} bytes is shorter than its ${MEDIA_HEADER_BYTES}-byte header`);
  if (bytes[0] !== MEDIA_FRAME_VERSION) throw new MediaFrameError(`media frame version ${bytes[0]} is not ${MEDIA_FRAME_VERSION}`);
  const kind = bytes[1]!;
  if (!KINDS.has(kind)) throw new MediaFrameError(`media frame kind ${kind} is unknown`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(20, true);
  if (length !== bytes.length - MEDIA_HEADER_BYTES) {
    throw new MediaFrameError(`media frame declares ${length} payload bytes but carries ${bytes.length - MEDIA_HEADER_BYTES}`);
  }
  const flags = bytes[2]!;
  return {
    kind: kind as MediaKind,
    key: (flags & MEDIA_FLAG.KEY) !== 0,
    discontinuity: (flags & MEDIA_FLAG.DISCONTINUITY) !== 0,
    channel: bytes[3]!,
    timestamp: view.getFloat64(4, true),
    arrival: view.getFloat64(12, true),
    payload: bytes.subarray(MEDIA_HEADER_BYTES),
  };
}
