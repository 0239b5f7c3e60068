/**
 * The gateway's communication log (issue 17): every JT/T 808 frame of every terminal, both directions,
 * kept for a number of days (FRAME_LOG_DAYS, default 7) and searchable by device or vehicle and time.
 *
 * Cost on the gateway's hot path (100,000 terminals): `record` only appends the frame to an in-memory
 * batch (inbound frames are the splitter's fresh copies, outbound ones the fresh buffers handed to the
 * socket, so nothing is copied). A timer (~1 s) writes the batch in ONE transaction to an append-only
 * SQLite file of its own per China day (`DATA_DIR/frames/frames-YYYYMMDD.db`, WAL, synchronous=NORMAL),
 * never the main database, so the log never competes with the main connection's writers. Header
 * parsing, unescaping and the vehicle lookup happen at flush time, not per frame. When a flush falls
 * behind, at most `maxPending` frames wait; later ones are counted in `dropped` and not kept (the log is
 * a diagnostic aid; it must not grow memory without bound nor slow the terminals).
 *
 * Retention drops whole days: a day file older than the retention is deleted (no row deletes).
 *
 * What is stored: the frame between its 0x7e delimiters, UNESCAPED (header + body + checksum). The
 * wire bytes are exactly `escapeFrame(raw)` (escaping is deterministic), which the search answers as
 * `hex`; the escaped length is `length`.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { unescapeFrame } from './jt808/framing.ts';
import { readHeader } from './jt808/header.ts';

/** 0 terminal → platform, 1 platform → terminal. */
export type FrameDirection = 0 | 1;
export const UP: FrameDirection = 0;
export const DOWN: FrameDirection = 1;

/** What the gateway's sessions call (server.ts / session.ts). */
export interface FrameLogSink {
  /** `bytes`: inbound, the unescaped frame (no delimiters); outbound, the escaped wire frame with its 0x7e delimiters. */
  record(direction: FrameDirection, bytes: Uint8Array): void;
  /** Set by the gateway: the vehicle a phone key is installed on (the directory's cache), null when none. */
  resolveVehicle: (phone: string) => number | null;
}

export interface FrameLogOptions {
  /** Folder of the day files. */
  readonly dir: string;
  /** Days kept, today included; 0 keeps all. */
  readonly retentionDays: number;
  /** How often the batch is written. @default 1000 */
  readonly flushMs?: number;
  /** Frames waiting at most; later ones are dropped (counted). @default 500,000 */
  readonly maxPending?: number;
  readonly clock?: () => number;
  readonly onError?: (err: unknown) => void;
}

export interface FrameRow {
  /** `YYYYMMDD:rowid`, unique. */
  readonly id: string;
  readonly time: number;
  readonly direction: FrameDirection;
  readonly msgId: number;
  readonly serial: number | null;
  readonly phone: string | null;
  readonly vehicleId: number | null;
  /** Unescaped frame. */
  readonly raw: Uint8Array;
}

export interface FrameQuery {
  readonly from: number;
  readonly to: number;
  /** Frames of this vehicle, or of `phone` while installed on none (null vehicle). */
  readonly vehicleId?: number;
  readonly phone?: string;
  readonly direction?: FrameDirection;
  readonly msgIds?: readonly number[];
  /** Only frames of these vehicles (scope); applied when no vehicle is given. */
  readonly vehicleIds?: readonly number[];
  readonly offset: number;
  readonly limit: number;
}

/** A China day (GMT+8): the log's unit of storage and retention. */
const DAY_MS = 86_400_000;
const CHINA_OFFSET_MS = 8 * 3_600_000;
const FILE_RE = /^frames-(\d{8})\.db$/;

export function dayKey(time: number): string {
  return new Date(time + CHINA_OFFSET_MS).toISOString().slice(0, 10).replace(/-/g, '');
}

/** Start (epoch ms) of the China day `YYYYMMDD`. */
export function dayStart(key: string): number {
  return Date.UTC(Number(key.slice(0, 4)), Number(key.slice(4, 6)) - 1, Number(key.slice(6, 8))) - CHINA_OFFSET_MS;
}

const SCHEMA = `
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

interface DayFile {
  readonly db: Database.Database;
  readonly insert: Database.Statement;
}

export class FrameLog implements FrameLogSink {
  resolveVehicle: (phone: string) => number | null = () => null;
  /** Frames not kept because the batch was full. */
  dropped = 0;
  /** Frames written. */
  written = 0;
  private times: number[] = [];
  private dirs: FrameDirection[] = [];
  private frames: Uint8Array[] = [];
  private readonly days = new Map<string, DayFile>();
  private readonly timer: NodeJS.Timeout;
  private readonly clock: () => number;
  private readonly maxPending: number;
  private closed = false;

  constructor(private readonly options: FrameLogOptions) {
    fs.mkdirSync(options.dir, { recursive: true });
    this.clock = options.clock ?? Date.now;
    this.maxPending = options.maxPending ?? 500_000;
    this.timer = setInterval(() => {
      try {
        this.flush();
      } catch (err) {
        options.onError?.(err);
      }
    }, options.flushMs ?? 1000);
    this.timer.unref();
  }

  get pending(): number {
    return this.frames.length;
  }

  record(direction: FrameDirection, bytes: Uint8Array): void {
    if (this.closed) return;
    if (this.frames.length >= this.maxPending) {
      this.dropped++;
      return;
    }
    this.times.push(this.clock());
    this.dirs.push(direction);
    this.frames.push(bytes);
  }

  /** Writes the waiting frames, one transaction per day file; answers how many. */
  flush(): number {
    const n = this.frames.length;
    if (n === 0 || this.closed) return 0;
    const times = this.times, dirs = this.dirs, frames = this.frames;
    this.times = [];
    this.dirs = [];
    this.frames = [];
    let i = 0;
    while (i < n) {
      const key = dayKey(times[i]!);
      const file = this.file(key);
      const end = dayStart(key) + DAY_MS;
      file.db.transaction(() => {
        for (; i < n && times[i]! < end; i++) this.write(file, times[i]!, dirs[i]!, frames[i]!);
      })();
    }
    this.written += n;
    return n;
  }

  private write(file: DayFile, t: number, dir: FrameDirection, bytes: Uint8Array): void {
    let raw = bytes;
    if (dir === DOWN) {
      // Outbound: the wire frame; keep it unescaped like the inbound ones.
      const inner = bytes[0] === 0x7e && bytes[bytes.length - 1] === 0x7e ? bytes.subarray(1, bytes.length - 1) : bytes;
      const u = unescapeFrame(inner);
      raw = u instanceof Uint8Array ? u : inner;
    }
    const h = readHeader(raw);
    if (h instanceof Error) {
      file.insert.run(t, dir, raw.length >= 2 ? (raw[0]! << 8) | raw[1]! : 0, null, null, null, raw);
      return;
    }
    const { header } = h;
    file.insert.run(t, dir, header.msgId, header.serial, header.phone, this.resolveVehicle(header.phone), raw);
  }

  private file(key: string): DayFile {
    let f = this.days.get(key);
    if (f) return f;
    const db = new Database(path.join(this.options.dir, `frames-${key}.db`));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA);
    f = { db, insert: db.prepare('INSERT INTO frame (t, dir, msg_id, serial, phone, vehicle_id, raw) VALUES (?, ?, ?, ?, ?, ?, ?)') };
    this.days.set(key, f);
    return f;
  }

  /** Day files present, oldest first. */
  dayFiles(): string[] {
    return fs.readdirSync(this.options.dir).map((n) => FILE_RE.exec(n)?.[1]).filter((k): k is string => k !== undefined).sort();
  }

  /**
   * Frames matching `q`, newest first, paged across the day files the range touches; the waiting batch
   * is written first, so a frame sent a moment ago is found.
   */
  search(q: FrameQuery): { total: number; rows: FrameRow[] } {
    this.flush();
    const present = new Set(this.dayFiles());
    const keys: string[] = [];
    for (let d = dayStart(dayKey(q.to)); d >= dayStart(dayKey(q.from)); d -= DAY_MS) {
      const k = dayKey(d);
      if (present.has(k)) keys.push(k);
    }
    const where: string[] = ['t >= ?', 't <= ?'];
    const args: (number | string)[] = [q.from, q.to];
    if (q.vehicleId !== undefined) {
      if (q.phone !== undefined) {
        where.push('(vehicle_id = ? OR (vehicle_id IS NULL AND phone = ?))');
        args.push(q.vehicleId, q.phone);
      } else {
        where.push('vehicle_id = ?');
        args.push(q.vehicleId);
      }
    } else if (q.phone !== undefined) {
      where.push('phone = ?');
      args.push(q.phone);
    } else if (q.vehicleIds !== undefined) {
      where.push(`vehicle_id IN (SELECT value FROM json_each(?))`);
      args.push(JSON.stringify(q.vehicleIds));
    }
    if (q.direction !== undefined) {
      where.push('dir = ?');
      args.push(q.direction);
    }
    if (q.msgIds !== undefined && q.msgIds.length > 0) {
      where.push(`msg_id IN (${q.msgIds.map(() => '?').join(',')})`);
      args.push(...q.msgIds);
    }
    const cond = where.join(' AND ');
    let total = 0;
    let skip = q.offset;
    const rows: FrameRow[] = [];
    for (const k of keys) {
      const db = this.file(k).db;
      const count = (db.prepare(`SELECT count(*) AS n FROM frame WHERE ${cond}`).get(...args) as { n: number }).n;
      total += count;
      if (rows.length >= q.limit) continue;
      if (skip >= count) {
        skip -= count;
        continue;
      }
      const got = db.prepare(`SELECT rowid AS id, t, dir, msg_id, serial, phone, vehicle_id, raw FROM frame WHERE ${cond} ORDER BY t DESC, rowid DESC LIMIT ? OFFSET ?`)
        .all(...args, q.limit - rows.length, skip) as { id: number; t: number; dir: FrameDirection; msg_id: number; serial: number | null; phone: string | null; vehicle_id: number | null; raw: Buffer }[];
      skip = 0;
      for (const r of got) {
        rows.push({ id: `${k}:${r.id}`, time: r.t, direction: r.dir, msgId: r.msg_id, serial: r.serial, phone: r.phone, vehicleId: r.vehicle_id, raw: new Uint8Array(r.raw) });
      }
    }
    return { total, rows };
  }

  /** Deletes the day files past the retention (whole days); answers the days removed. */
  sweep(now = this.clock()): { days: string[] } {
    if (this.options.retentionDays <= 0) return { days: [] };
    const oldestKept = dayKey(now - (this.options.retentionDays - 1) * DAY_MS);
    const removed: string[] = [];
    for (const k of this.dayFiles()) {
      if (k >= oldestKept) continue;
      const open = this.days.get(k);
      if (open) {
        open.db.close();
        this.days.delete(k);
      }
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(this.options.dir, `frames-${k}.db${suffix}`), { force: true });
      removed.push(k);
    }
    return { days: removed };
  }

  /** Writes what waits and closes the files; later frames are ignored. */
  close(): void {
    if (this.closed) return;
    clearInterval(this.timer);
    try {
      this.flush();
    } finally {
      this.closed = true;
      for (const f of this.days.values()) f.db.close();
      this.days.clear();
    }
  }
}
