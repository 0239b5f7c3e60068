/**
 * The gateway's communication log (issue 17): every JT/T 808 frame of every terminal, both directions,
 * kept for a number of days (FRAME_LOG_DAYS, default 7) and searchable by device or vehicle and time.
 *
 * Cost on the gateway's thread (100,000 terminals): `record` copies the frame into a staging buffer
 * (with its time, direction and end in typed arrays), so the log holds no reference to the frame (it
 * dies young, as with the log off). Every ~1 s each frame's phone is read from the staging buffer (a
 * run of one terminal's frames compares the phone's bytes with the previous frame's) and each distinct
 * phone's vehicle resolved once here (the directory lives on this thread); the staging buffers are
 * transferred, not copied, to a writer thread (frame-log-worker.ts). That thread appends each frame to
 * its terminal's open block for the minute (frame-log-block.ts `BlockBuilder`; format 2) and writes one
 * row per terminal-minute into an append-only SQLite file of its own per China day
 * (`DATA_DIR/frames/frames-YYYYMMDD.db`, WAL, synchronous=NORMAL), never the main database.
 * Format 1 wrote one row per frame with three indexes: that writer's inserts were most of the log's
 * cost (bench/gateway-framelog.bench.ts: 0.3x the reports per CPU-second with the log on). The
 * device-message ids (RARE_MSG_IDS) are also kept one row each, for the cross-vehicle message search.
 * When the writer falls behind, at most `maxPending` frames wait; later ones are counted in `dropped`
 * and not kept (the log is a diagnostic aid; it must not grow memory without bound nor slow the
 * terminals). Searches seal the blocks they need, then read the day files through read-only
 * connections on the caller's thread (WAL: readers never wait for the writer) and unpack the blocks
 * covering the range. Day files of format 1 (before the upgrade) are still read.
 *
 * Retention drops whole days: a day file older than the retention is deleted (no row deletes).
 *
 * What is stored: the frame between its 0x7e delimiters, UNESCAPED (header + body + checksum). The
 * wire bytes are exactly `escapeFrame(raw)` (escaping is deterministic), which the search answers as
 * `hex`; the escaped length is `length`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { unpackBlock } from './frame-log-block.ts';
import { DAY_MS, dayKey, dayStart, MINUTE_MS, RARE_MSG_IDS, type Seal, type WorkerReply, type WorkerRequest } from './frame-log-protocol.ts';
import { decodeBcdPhone } from './jt808/bytes.ts';
import { unescapeFrame } from './jt808/framing.ts';
import { readHeader } from './jt808/header.ts';

export { dayKey, dayStart } from './frame-log-protocol.ts';

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
  /** Unique: `YYYYMMDD:<block rowid>.<index in block>` (format 2), `YYYYMMDD:r<rowid>` (a device-message row, format 2), `YYYYMMDD:<rowid>` (format 1). */
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

const FILE_RE = /^frames-(\d{8})\.db$/;
/** The staging buffers' least sizes (a batch larger than the last one grows them by doubling). */
const STAGE_MIN_FRAMES = 1024;
const STAGE_MIN_BYTES = 64 * 1024;

interface Waiting {
  resolve(written: number): void;
  reject(err: Error): void;
}

export class FrameLog implements FrameLogSink {
  resolveVehicle: (phone: string) => number | null = () => null;
  /** Frames not kept because the batch was full. */
  dropped = 0;
  /** Frames handed to the writer thread (acknowledged; held in its open blocks or written). */
  written = 0;
  // The batch being recorded (staging buffers, handed over whole every ~1 s): frame i is
  // stage[i ? ends[i-1] : 0, ends[i]), recorded at times[i] in direction dirs[i]. A frame is copied in
  // when recorded, so the log keeps no reference to it: it dies young, as it would without the log.
  private count = 0;
  private used = 0;
  private stage = new Uint8Array(STAGE_MIN_BYTES);
  private times = new Float64Array(STAGE_MIN_FRAMES);
  private ends = new Int32Array(STAGE_MIN_FRAMES);
  private dirs = new Uint8Array(STAGE_MIN_FRAMES);
  /** Read-only connections of the day files (searches run on the caller's thread; WAL lets them read while the writer writes). */
  private readonly readers = new Map<string, Database.Database>();
  private readonly timer: NodeJS.Timeout;
  private readonly clock: () => number;
  private readonly maxPending: number;
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  /** The last request posted: awaiting it means everything posted before is done (the writer works in order). */
  private last: Promise<number> = Promise.resolve(0);
  private closed = false;
  /** The minute of the last request posted: the timer posts once a minute even with nothing waiting, so quiet terminals' blocks are sealed. */
  private postedMinute = -1;

  constructor(private readonly options: FrameLogOptions) {
    fs.mkdirSync(options.dir, { recursive: true });
    this.clock = options.clock ?? Date.now;
    this.maxPending = options.maxPending ?? 500_000;
    // The server runs TypeScript through tsx; a worker does not inherit a loader registered in code (tests),
    // so the worker registers tsx itself before importing its TypeScript entry (as retention/rollups.ts).
    const entry = new URL('./frame-log-worker.ts', import.meta.url).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
    this.worker = new Worker(boot, { eval: true, workerData: { dir: options.dir } });
    this.worker.unref();
    this.worker.on('message', (reply: WorkerReply) => {
      const w = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.error !== undefined) {
        const err = new Error(`frame log writer: ${reply.error}`);
        options.onError?.(err);
        w?.reject(err);
      } else {
        this.written += reply.written;
        w?.resolve(reply.written);
      }
    });
    this.worker.on('error', (err) => {
      options.onError?.(err);
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    });
    this.timer = setInterval(() => {
      try {
        this.handOver();
      } catch (err) {
        options.onError?.(err);
      }
    }, options.flushMs ?? 1000);
    this.timer.unref();
  }

  get pending(): number {
    return this.count;
  }

  record(direction: FrameDirection, bytes: Uint8Array): void {
    if (this.closed) return;
    const i = this.count;
    if (i >= this.maxPending) {
      this.dropped++;
      return;
    }
    if (i === this.times.length) this.growFrames();
    const length = bytes.length;
    let o = this.used;
    const end = o + length;
    if (end > this.stage.length) this.growStage(end);
    const stage = this.stage;
    // Short frames (reports, acks) byte by byte: cheaper than the native copy's call.
    if (length <= 64) for (let k = 0; k < length; k++) stage[o++] = bytes[k]!;
    else stage.set(bytes, o);
    this.used = end;
    this.times[i] = this.clock();
    this.ends[i] = end;
    this.dirs[i] = direction;
    this.count = i + 1;
  }

  private growFrames(): void {
    const n = this.times.length * 2;
    const times = new Float64Array(n), ends = new Int32Array(n), dirs = new Uint8Array(n);
    times.set(this.times);
    ends.set(this.ends);
    dirs.set(this.dirs);
    this.times = times;
    this.ends = ends;
    this.dirs = dirs;
  }

  private growStage(need: number): void {
    const next = new Uint8Array(Math.max(need, this.stage.length * 2));
    next.set(this.stage.subarray(0, this.used));
    this.stage = next;
  }

  private post(req: WorkerRequest, transfer: ArrayBuffer[] = []): Promise<number> {
    const p = new Promise<number>((resolve, reject) => this.waiting.set(req.id, { resolve, reject }));
    this.worker.postMessage(req, transfer);
    this.last = p.catch(() => 0);
    return p;
  }

  /** Milliseconds the writer thread has been busy since it started (its event loop's active time). */
  writerBusyMs(): number {
    return this.worker.performance.eventLoopUtilization().active;
  }

  /**
   * Hands the waiting frames to the writer thread (each frame's vehicle resolved here: the directory
   * lives on this thread) and asks it to seal `seal`'s open blocks besides those of past minutes.
   */
  private handOver(seal?: Seal): void {
    const n = this.count;
    if (this.closed) return;
    const now = this.clock();
    const minute = Math.floor(now / MINUTE_MS);
    if (n === 0 && seal === undefined && minute === this.postedMinute) return;
    this.postedMinute = minute;
    const { times, ends, dirs, stage } = this;
    if (n > 0) {
      // The next batch's buffers, sized for a batch like this one (the full ones are transferred, not copied).
      const frames = Math.max(STAGE_MIN_FRAMES, 2 ** Math.ceil(Math.log2(n * 1.25)));
      this.times = new Float64Array(frames);
      this.ends = new Int32Array(frames);
      this.dirs = new Uint8Array(frames);
      this.stage = new Uint8Array(Math.max(STAGE_MIN_BYTES, Math.ceil(this.used * 1.25)));
      this.count = 0;
      this.used = 0;
    }
    const { meta, phones } = n > 0 ? this.phonesOf(n, stage, ends, dirs) : { meta: new Int32Array(0), phones: [] };
    const req: WorkerRequest = n > 0
      ? { type: 'write', id: this.nextId++, now, seal, count: n, times, dirs, ends, meta, phones, bytes: stage }
      : { type: 'write', id: this.nextId++, now, seal, count: 0, times: new Float64Array(0), dirs: new Uint8Array(0), ends: new Int32Array(0), meta, phones, bytes: new Uint8Array(0) };
    void this.post(req, n > 0 ? [times.buffer, dirs.buffer, ends.buffer, meta.buffer, stage.buffer] : []).catch(() => undefined);
  }

  /**
   * Each staged frame's phone (an index into the batch's distinct phones) and vehicle. A run of frames
   * of one terminal (a connection's chunk and its acks) compares the phone's bytes with the previous
   * frame's and reuses its answer; a new phone is read (peekPhone's checks) and its vehicle resolved
   * once per batch.
   */
  private phonesOf(n: number, stage: Uint8Array, ends: Int32Array, dirs: Uint8Array): { meta: Int32Array<ArrayBuffer>; phones: string[] } {
    const meta = new Int32Array(n * 2);
    const phones: string[] = [];
    const vehicles: number[] = [];
    const phoneIndex = new Map<string, number>();
    let prevAt = -1, prevLen = 0, prevPhone = -1, prevVehicle = -1;
    for (let i = 0; i < n; i++) {
      const a = i === 0 ? 0 : ends[i - 1]!, b = ends[i]!;
      let h = a, end = b;
      let field = -1;
      let escaped = false;
      if (dirs[i] === DOWN) {
        if (b - a >= 2 && stage[a] === 0x7e && stage[b - 1] === 0x7e) {
          h = a + 1;
          end = b - 1;
        }
        // As peekPhone: an escape within the first 42 wire bytes takes the slow path (rare: a length byte of 0x7d/0x7e).
        const lim = Math.min(end, h + 42);
        for (let k = h; k < lim; k++) {
          if (stage[k] === 0x7d) {
            escaped = true;
            break;
          }
        }
      }
      if (!escaped) {
        field = phoneField(stage, h, end);
        if (field < 0) {
          meta[i * 2] = -1;
          meta[i * 2 + 1] = -1;
          continue;
        }
        const at = field >> 1, len = field & 1 ? 10 : 6;
        if (len === prevLen) {
          let same = true;
          for (let k = 0; k < len; k++) {
            if (stage[at + k] !== stage[prevAt + k]) {
              same = false;
              break;
            }
          }
          if (same) {
            meta[i * 2] = prevVehicle;
            meta[i * 2 + 1] = prevPhone;
            continue;
          }
        }
      }
      const phone = escaped ? peekPhone(stage.subarray(a, b), true) : phoneAt(stage, field);
      let p = -1, vehicle = -1;
      if (phone !== undefined) {
        const known = phoneIndex.get(phone);
        if (known === undefined) {
          p = phones.length;
          phones.push(phone);
          vehicles.push((vehicle = this.resolveVehicle(phone) ?? -1));
          phoneIndex.set(phone, p);
        } else {
          p = known;
          vehicle = vehicles[known]!;
        }
      }
      meta[i * 2] = p < 0 ? -1 : vehicle;
      meta[i * 2 + 1] = p;
      if (escaped) {
        prevLen = 0;
      } else {
        prevAt = field >> 1;
        prevLen = field & 1 ? 10 : 6;
        prevPhone = p;
        prevVehicle = meta[i * 2]!;
      }
    }
    return { meta, phones };
  }

  /** Hands everything recorded so far to the writer thread and resolves once all of it is written (every open block sealed). */
  async flush(): Promise<void> {
    this.handOver('all');
    await this.last;
  }

  private reader(key: string): Database.Database {
    let db = this.readers.get(key);
    if (!db) {
      db = new Database(path.join(this.options.dir, `frames-${key}.db`), { readonly: true, fileMustExist: true });
      this.readers.set(key, db);
    }
    return db;
  }

  /** Day files present, oldest first. */
  dayFiles(): string[] {
    return fs.readdirSync(this.options.dir).map((n) => FILE_RE.exec(n)?.[1]).filter((k): k is string => k !== undefined).sort();
  }

  /**
   * Frames matching `q`, newest first, paged across the day files the range touches; the frames in
   * hand and the open blocks the query needs are written first, so a frame sent a moment ago is found.
   */
  async search(q: FrameQuery): Promise<{ total: number; rows: FrameRow[] }> {
    const rareOnly = q.msgIds !== undefined && q.msgIds.length > 0 && q.msgIds.every((id) => RARE_MSG_IDS.includes(id));
    // Device messages are written as they arrive (no block to seal); a device's or vehicle's search seals only its blocks.
    const targeted = q.vehicleId !== undefined || q.phone !== undefined;
    this.handOver(rareOnly ? undefined : targeted ? { phones: q.phone === undefined ? [] : [q.phone], vehicles: q.vehicleId === undefined ? [] : [q.vehicleId] } : 'all');
    await this.last;
    const present = new Set(this.dayFiles());
    const keys: string[] = [];
    for (let d = dayStart(dayKey(q.to)); d >= dayStart(dayKey(q.from)); d -= DAY_MS) {
      const k = dayKey(d);
      if (present.has(k)) keys.push(k);
    }
    const target = targetCondition(q);
    let total = 0;
    let skip = q.offset;
    const rows: FrameRow[] = [];
    for (const k of keys) {
      const db = this.reader(k);
      const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
      // Newest first within the day: format 2 rows were all written after the format 1 ones.
      const sources: Source[] = [];
      if (tables.has('block')) sources.push(rareOnly ? rowSource(db, k, 'rare', q, target) : blockSource(db, k, q, target));
      if (tables.has('frame')) sources.push(rowSource(db, k, 'frame', q, target));
      for (const src of sources) {
        const count = src.count();
        total += count;
        if (rows.length >= q.limit) continue;
        if (skip >= count) {
          skip -= count;
          continue;
        }
        rows.push(...src.rows(skip, q.limit - rows.length));
        skip = 0;
      }
    }
    return { total, rows };
  }

  /** Deletes the day files past the retention (whole days, by the writer thread); answers the days removed. */
  async sweep(now = this.clock()): Promise<{ days: string[] }> {
    if (this.options.retentionDays <= 0 || this.closed) return { days: [] };
    const oldestKept = dayKey(now - (this.options.retentionDays - 1) * DAY_MS);
    const removed = this.dayFiles().filter((k) => k < oldestKept);
    if (removed.length === 0) return { days: [] };
    for (const k of removed) {
      this.readers.get(k)?.close();
      this.readers.delete(k);
    }
    await this.post({ type: 'drop', id: this.nextId++, keys: removed });
    return { days: removed };
  }

  /** Writes what waits and closes the files and the writer thread; later frames are ignored. */
  async close(): Promise<void> {
    if (this.closed) return;
    clearInterval(this.timer);
    try {
      await this.flush();
      this.closed = true;
      await this.post({ type: 'close', id: this.nextId++ });
    } finally {
      this.closed = true;
      for (const db of this.readers.values()) db.close();
      this.readers.clear();
      await this.worker.terminate();
    }
  }
}

/** 2013 phones by their 6 BCD bytes read as one number: a terminal's phone text is built once, not per frame. */
const phones2013 = new Map<number, string>();

/**
 * Where the phone lies in the unescaped header at f[h, end): `offset * 2 + (1 when 2019: 10 BCD bytes,
 * else 6)`, -1 when readHeader (jt808/header.ts) would refuse the header (same checks).
 */
function phoneField(f: Uint8Array, h: number, end: number): number {
  const n = end - h;
  if (n < 4) return -1;
  const props = (f[h + 2]! << 8) | f[h + 3]!;
  if (props & 0x8000) return -1; // reserved bit
  const v2019 = (props & 0x4000) !== 0, sub = (props & 0x2000) !== 0;
  const length = (v2019 ? 17 : 12) + (sub ? 4 : 0);
  if (n < length) return -1;
  if (sub) {
    const e = h + length;
    const total = (f[e - 4]! << 8) | f[e - 3]!, index = (f[e - 2]! << 8) | f[e - 1]!;
    if (total === 0 || index === 0 || index > total) return -1;
  }
  if (v2019) return f[h + 4] === 0 ? -1 : (h + 5) * 2 + 1;
  return (h + 4) * 2;
}

/** The phone text of the field `phoneField` found; undefined when its bytes are not BCD. */
function phoneAt(f: Uint8Array, field: number): string | undefined {
  const at = field >> 1;
  if (field & 1) return decodeBcdPhone(f, at, 10);
  const key = ((f[at]! * 256 + f[at + 1]!) * 65536 + ((f[at + 2]! << 8) | f[at + 3]!)) * 65536 + ((f[at + 4]! << 8) | f[at + 5]!);
  let phone = phones2013.get(key);
  if (phone === undefined) {
    phone = decodeBcdPhone(f, at, 6);
    if (phone === undefined) return undefined;
    if (phones2013.size >= 1_000_000) phones2013.clear();
    phones2013.set(key, phone);
  }
  return phone;
}

/**
 * The terminal phone in a frame's header, undefined when readHeader (jt808/header.ts) would refuse the
 * header (same checks), read without unescaping the whole frame nor building a header object.
 */
export function peekPhone(bytes: Uint8Array, wire: boolean): string | undefined {
  let f = bytes;
  if (wire) {
    const inner = f.length >= 2 && f[0] === 0x7e && f[f.length - 1] === 0x7e ? f.subarray(1, f.length - 1) : f;
    // A header is at most 21 bytes, 42 escaped; an escape inside it is rare (a length byte of 0x7d/0x7e).
    const head = inner.subarray(0, 42);
    if (head.includes(0x7d)) {
      const u = unescapeFrame(head[head.length - 1] === 0x7d ? head.subarray(0, head.length - 1) : head);
      if (u instanceof Error) return undefined;
      f = u;
    } else {
      f = head;
    }
  }
  const field = phoneField(f, 0, f.length);
  return field < 0 ? undefined : phoneAt(f, field);
}

/** Which terminal's or vehicles' frames: a WHERE fragment over the columns `phone` and `vehicle_id` (both formats' tables have them). */
function targetCondition(q: FrameQuery): { sql: string; args: (number | string)[] } {
  if (q.vehicleId !== undefined) {
    if (q.phone !== undefined) return { sql: '(vehicle_id = ? OR (vehicle_id IS NULL AND phone = ?))', args: [q.vehicleId, q.phone] };
    return { sql: 'vehicle_id = ?', args: [q.vehicleId] };
  }
  if (q.phone !== undefined) return { sql: 'phone = ?', args: [q.phone] };
  if (q.vehicleIds !== undefined) return { sql: 'vehicle_id IN (SELECT value FROM json_each(?))', args: [JSON.stringify(q.vehicleIds)] };
  return { sql: '1', args: [] };
}

/** One day file's matching frames of one table, newest first: counted, then a page read. */
interface Source {
  count(): number;
  rows(offset: number, limit: number): FrameRow[];
}

/** A table of one row per frame: format 1's `frame` or format 2's `rare`. */
function rowSource(db: Database.Database, key: string, table: 'frame' | 'rare', q: FrameQuery, target: { sql: string; args: (number | string)[] }): Source {
  const where: string[] = ['t >= ?', 't <= ?', target.sql];
  const args: (number | string)[] = [q.from, q.to, ...target.args];
  if (q.direction !== undefined) {
    where.push('dir = ?');
    args.push(q.direction);
  }
  if (q.msgIds !== undefined && q.msgIds.length > 0) {
    where.push(`msg_id IN (${q.msgIds.map(() => '?').join(',')})`);
    args.push(...q.msgIds);
  }
  const cond = where.join(' AND ');
  const prefix = table === 'rare' ? 'r' : '';
  return {
    count: () => (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${cond}`).get(...args) as { n: number }).n,
    rows: (offset, limit) => {
      const got = db.prepare(`SELECT rowid AS id, t, dir, msg_id, serial, phone, vehicle_id, raw FROM ${table} WHERE ${cond} ORDER BY t DESC, rowid DESC LIMIT ? OFFSET ?`)
        .all(...args, limit, offset) as { id: number; t: number; dir: FrameDirection; msg_id: number; serial: number | null; phone: string | null; vehicle_id: number | null; raw: Buffer }[];
      return got.map((r) => ({ id: `${key}:${prefix}${r.id}`, time: r.t, direction: r.dir, msgId: r.msg_id, serial: r.serial, phone: r.phone, vehicleId: r.vehicle_id, raw: new Uint8Array(r.raw) }));
    },
  };
}

/**
 * Format 2's blocks covering the range: every block of the target whose minutes and times meet the
 * range is unpacked and its frames filtered (a range cuts the first and last blocks), then ordered
 * newest first (same time: the later block, the later frame in it first). A frame search covers at most a
 * day of one terminal (~3,000 frames at one report per 30 s), so this is a few hundred small blobs.
 */
function blockSource(db: Database.Database, key: string, q: FrameQuery, target: { sql: string; args: (number | string)[] }): Source {
  let all: { t: number; block: number; index: number; direction: FrameDirection; phone: string | null; vehicleId: number | null; raw: Uint8Array }[] | undefined;
  const load = () => {
    if (all) return all;
    const blocks = db.prepare(`SELECT rowid AS id, phone, vehicle_id, frames FROM block WHERE minute >= ? AND minute <= ? AND t_max >= ? AND t_min <= ? AND ${target.sql}`)
      .all(Math.floor(q.from / MINUTE_MS), Math.floor(q.to / MINUTE_MS), q.from, q.to, ...target.args) as { id: number; phone: string | null; vehicle_id: number | null; frames: Buffer }[];
    const msgIds = q.msgIds !== undefined && q.msgIds.length > 0 ? new Set(q.msgIds) : undefined;
    all = [];
    for (const b of blocks) {
      const frames = unpackBlock(b.frames);
      for (let i = 0; i < frames.length; i++) {
        const f = frames[i]!;
        if (f.time < q.from || f.time > q.to) continue;
        if (q.direction !== undefined && f.direction !== q.direction) continue;
        if (msgIds && !msgIds.has(msgIdOf(f.raw))) continue;
        all.push({ t: f.time, block: b.id, index: i, direction: f.direction, phone: b.phone, vehicleId: b.vehicle_id, raw: f.raw });
      }
    }
    all.sort((a, b) => b.t - a.t || b.block - a.block || b.index - a.index);
    return all;
  };
  return {
    count: () => load().length,
    rows: (offset, limit) => load().slice(offset, offset + limit).map((f) => {
      const h = readHeader(f.raw);
      return {
        id: `${key}:${f.block}.${f.index}`, time: f.t, direction: f.direction, msgId: msgIdOf(f.raw), serial: h instanceof Error ? null : h.header.serial,
        phone: f.phone, vehicleId: f.vehicleId, raw: new Uint8Array(f.raw),
      };
    }),
  };
}

/** The message id as format 1 stored it: the first two bytes (also when the header cannot be read). */
function msgIdOf(raw: Uint8Array): number {
  return raw.length >= 2 ? (raw[0]! << 8) | raw[1]! : 0;
}
