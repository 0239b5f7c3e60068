/**
 * The gateway's communication log (issue 17): every JT/T 808 frame of every terminal, both directions,
 * kept for a number of days (FRAME_LOG_DAYS, default 7) and searchable by device or vehicle and time.
 *
 * Cost on the gateway's hot path (100,000 terminals): `record` only appends the frame to an in-memory
 * batch (inbound frames are the splitter's fresh copies, outbound ones the fresh buffers handed to the
 * socket, so nothing is copied). Every ~1 s the batch's headers are read and its vehicles resolved here
 * (cheap), packed into a few transferable buffers and posted to a writer thread (frame-log-worker.ts)
 * that writes it in ONE transaction per day to an append-only SQLite file of its own per China day
 * (`DATA_DIR/frames/frames-YYYYMMDD.db`, WAL, synchronous=NORMAL), never the main database: SQLite's CPU
 * and the disk's waits stay off the gateway's event loop (bench/gateway-framelog.bench.ts measured the
 * log written on the gateway's thread at a quarter of the throughput). When the writer falls behind,
 * at most `maxPending` frames wait; later ones are counted in `dropped` and not kept (the log is a
 * diagnostic aid; it must not grow memory without bound nor slow the terminals). Searches read the day
 * files through read-only connections on the caller's thread (WAL: readers never wait for the writer).
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
import type { WorkerReply, WorkerRequest } from './frame-log-protocol.ts';
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

interface Waiting {
  resolve(written: number): void;
  reject(err: Error): void;
}

export class FrameLog implements FrameLogSink {
  resolveVehicle: (phone: string) => number | null = () => null;
  /** Frames not kept because the batch was full. */
  dropped = 0;
  /** Frames written (acknowledged by the writer thread). */
  written = 0;
  private times: number[] = [];
  private dirs: FrameDirection[] = [];
  private frames: Uint8Array[] = [];
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
      this.flush().catch(() => undefined); // reported through onError
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

  private post(req: WorkerRequest, transfer: ArrayBuffer[] = []): Promise<number> {
    const p = new Promise<number>((resolve, reject) => this.waiting.set(req.id, { resolve, reject }));
    this.worker.postMessage(req, transfer);
    this.last = p.catch(() => 0);
    return p;
  }

  /**
   * Hands the waiting frames to the writer thread (header, vehicle and day found here: cheap) and
   * resolves once everything handed over so far is written.
   */
  async flush(): Promise<void> {
    const n = this.frames.length;
    if (n > 0 && !this.closed) {
      const times = this.times, dirs = this.dirs, frames = this.frames;
      this.times = [];
      this.dirs = [];
      this.frames = [];
      const raws: Uint8Array[] = new Array(n);
      let total = 0;
      const meta = new Int32Array(n * 4);
      const phones: string[] = new Array(n);
      const keys: string[] = new Array(n);
      let dayEnd = -Infinity, key = '';
      for (let i = 0; i < n; i++) {
        const t = times[i]!;
        if (t >= dayEnd || t < dayEnd - DAY_MS) {
          key = dayKey(t);
          dayEnd = dayStart(key) + DAY_MS;
        }
        keys[i] = key;
        const dir = dirs[i]!;
        let raw = frames[i]!;
        if (dir === DOWN) {
          // Outbound: the wire frame; kept unescaped like the inbound ones.
          const inner = raw[0] === 0x7e && raw[raw.length - 1] === 0x7e ? raw.subarray(1, raw.length - 1) : raw;
          const u = unescapeFrame(inner);
          raw = u instanceof Uint8Array ? u : inner;
        }
        raws[i] = raw;
        total += raw.length;
        const h = readHeader(raw);
        meta[i * 4] = dir;
        if (h instanceof Error) {
          meta[i * 4 + 1] = raw.length >= 2 ? (raw[0]! << 8) | raw[1]! : 0;
          meta[i * 4 + 2] = -1;
          meta[i * 4 + 3] = -1;
          phones[i] = '';
        } else {
          meta[i * 4 + 1] = h.header.msgId;
          meta[i * 4 + 2] = h.header.serial;
          meta[i * 4 + 3] = this.resolveVehicle(h.header.phone) ?? -1;
          phones[i] = h.header.phone;
        }
      }
      const bytes = new Uint8Array(total);
      const offsets = new Int32Array(n + 1);
      let o = 0;
      for (let i = 0; i < n; i++) {
        offsets[i] = o;
        bytes.set(raws[i]!, o);
        o += raws[i]!.length;
      }
      offsets[n] = o;
      const timesArr = Float64Array.from(times);
      void this.post({ type: 'write', id: this.nextId++, keys, times: timesArr, meta, offsets, phones, bytes }, [timesArr.buffer, meta.buffer, offsets.buffer, bytes.buffer]).catch(() => undefined);
    }
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
   * Frames matching `q`, newest first, paged across the day files the range touches; the waiting batch
   * is written first, so a frame sent a moment ago is found.
   */
  async search(q: FrameQuery): Promise<{ total: number; rows: FrameRow[] }> {
    await this.flush();
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
      const db = this.reader(k);
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
