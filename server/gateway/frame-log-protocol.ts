/** Messages between the frame log (frame-log.ts) and its writer thread (frame-log-worker.ts), and the day file's schema. */

export const FRAME_SCHEMA = `
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
  -- The device-message screen lists these few ids across vehicles: a partial index costs nothing for the rest.
  CREATE INDEX IF NOT EXISTS frame_message_t ON frame(msg_id, t) WHERE msg_id IN (2304, 1793, 1794, 264);
`;

export type WorkerRequest =
  /**
   * One batch, in time order. Row i: day `keys[i]`, time `times[i]`, `meta[4i..4i+3]` = direction, msg id,
   * serial (-1: none), vehicle (-1: none), phone `phones[i]` ('' none), unescaped frame `bytes[offsets[i], offsets[i+1])`.
   */
  | { type: 'write'; id: number; keys: string[]; times: Float64Array; meta: Int32Array; offsets: Int32Array; phones: string[]; bytes: Uint8Array }
  | { type: 'drop'; id: number; keys: string[] }
  | { type: 'close'; id: number };

export interface WorkerReply {
  readonly id: number;
  readonly written: number;
  readonly error?: string;
}
