/** Messages between the frame log (frame-log.ts) and its writer thread (frame-log-worker.ts), and the day file's schemas. */

/**
 * Day file format 1 (until 2026-11-28): one indexed row per frame. No longer written; still read, so
 * days written before the upgrade stay searchable until the retention drops them (a day file may hold
 * both formats: the day of the upgrade).
 */
export const FRAME_SCHEMA_V1 = `
  CREATE TABLE IF NOT EXISTS frame (
    t INTEGER NOT NULL,
    dir INTEGER NOT NULL,
    msg_id INTEGER NOT NULL,
    serial INTEGER,
    phone TEXT,
    vehicle_id INTEGER,
    raw BLOB NOT NULL
  );
  CREATE INDEX IF NOT EXISTS frame_phone_t ON frame(phone, t);
  CREATE INDEX IF NOT EXISTS frame_vehicle_t ON frame(vehicle_id, t);
  CREATE INDEX IF NOT EXISTS frame_message_t ON frame(msg_id, t) WHERE msg_id IN (2304, 1793, 1794, 264);
`;

/**
 * The device-message ids (0x0900 transparent data, 0x0701 e-waybill, 0x0702 driver identity, 0x0108
 * upgrade result): /monitor/messageLog lists them across all the vehicles of a scope, which blocks
 * keyed by terminal cannot answer cheaply, so these rare frames are also kept one row each (`rare`).
 */
export const RARE_MSG_IDS: readonly number[] = [0x0900, 0x0701, 0x0702, 0x0108];

/**
 * Day file format 2: `block` holds the frames of one terminal (phone; null: frames whose header could
 * not be read) installed on one vehicle within one minute (`minute` = floor(t / 60,000)), packed
 * (frame-log-block.ts); a terminal-minute may take several rows (a search seals the open block early; a
 * block is sealed at BLOCK_MAX_BYTES). `t_min`/`t_max` bound its frames' times. `rare`: the
 * device-message frames (RARE_MSG_IDS) one row each, with the columns of format 1.
 */
export const FRAME_SCHEMA_V2 = `
  CREATE TABLE IF NOT EXISTS block (
    minute INTEGER NOT NULL,
    phone TEXT,
    vehicle_id INTEGER,
    t_min INTEGER NOT NULL,
    t_max INTEGER NOT NULL,
    n INTEGER NOT NULL,
    frames BLOB NOT NULL
  );
  CREATE INDEX IF NOT EXISTS block_phone ON block(phone, minute);
  CREATE INDEX IF NOT EXISTS block_vehicle ON block(vehicle_id, minute);
  CREATE TABLE IF NOT EXISTS rare (
    t INTEGER NOT NULL,
    dir INTEGER NOT NULL,
    msg_id INTEGER NOT NULL,
    serial INTEGER,
    phone TEXT,
    vehicle_id INTEGER,
    raw BLOB NOT NULL
  );
  CREATE INDEX IF NOT EXISTS rare_message_t ON rare(msg_id, t);
  PRAGMA user_version = 2;
`;

/** A block is sealed (written) once it holds this many bytes, even inside its minute (a terminal flat out). */
export const BLOCK_MAX_BYTES = 64 * 1024;

/** Which open blocks a write request seals besides those of past minutes: all, or a terminal's/vehicle's. */
export type Seal = 'all' | { readonly phones: readonly string[]; readonly vehicles: readonly number[] };

export type WorkerRequest =
  /**
   * One batch of `count` frames, in record order (possibly none: it then only seals). Frame i: time
   * `times[i]`, direction `dirs[i]`, vehicle `meta[2i]` (-1: none), phone `phones[meta[2i+1]]` (-1: the
   * header cannot be read; the batch's distinct phones, read on the gateway's thread), bytes
   * `bytes[i ? ends[i-1] : 0, ends[i])` as recorded (inbound unescaped; outbound the escaped wire
   * frame). The arrays are the gateway's staging buffers, transferred whole: they may be longer than
   * `count` frames. `now`: the log's clock; open blocks of minutes before now's are sealed.
   */
  | { type: 'write'; id: number; now: number; seal?: Seal; count: number; times: Float64Array; dirs: Uint8Array; ends: Int32Array; meta: Int32Array; phones: string[]; bytes: Uint8Array }
  | { type: 'drop'; id: number; keys: string[] }
  | { type: 'close'; id: number };

export interface WorkerReply {
  readonly id: number;
  /** Frames handed over by this request (held in open blocks or written). */
  readonly written: number;
  readonly error?: string;
}

/** A China day (GMT+8): the log's unit of storage and retention. */
export const DAY_MS = 86_400_000;
export const MINUTE_MS = 60_000;
const CHINA_OFFSET_MS = 8 * 3_600_000;

/** `YYYYMMDD` of the China day holding `time`. */
export function dayKey(time: number): string {
  return new Date(time + CHINA_OFFSET_MS).toISOString().slice(0, 10).replace(/-/g, '');
}

/** Start (epoch ms) of the China day `YYYYMMDD`. */
export function dayStart(key: string): number {
  return Date.UTC(Number(key.slice(0, 4)), Number(key.slice(4, 6)) - 1, Number(key.slice(6, 8))) - CHINA_OFFSET_MS;
}
