/**
 * The frame log's writer thread (frame-log.ts): unescapes the outbound frames, gathers the frames of each
 * terminal into an open block per minute (frame-log-block.ts) and writes sealed blocks, one row per
 * terminal-minute, in one transaction per day file; owns the write connections of the day files, so
 * SQLite's CPU and the disk's waits never stop the gateway's event loop. Also drops whole day files
 * (retention).
 *
 * Open blocks live here until their minute is over (the next request after it seals them) or a search
 * asks for them (`seal`): a crash loses at most about a minute of frames, the price of writing one row
 * per terminal-minute instead of one per frame (the log is a diagnostic aid).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { BlockBuilder } from './frame-log-block.ts';
import { BLOCK_MAX_BYTES, dayKey, FRAME_SCHEMA_V2, MINUTE_MS, RARE_MSG_IDS, type Seal, type WorkerReply, type WorkerRequest } from './frame-log-protocol.ts';
import { unescapeFrame } from './jt808/framing.ts';
import { readHeader } from './jt808/header.ts';

const { dir } = workerData as { dir: string };
const RARE = new Set(RARE_MSG_IDS);

interface DayFile {
  readonly db: Database.Database;
  readonly insertBlock: Database.Statement;
  readonly insertRare: Database.Statement;
}
const files = new Map<string, DayFile>();

function file(key: string): DayFile {
  let f = files.get(key);
  if (f) return f;
  const db = new Database(path.join(dir, `frames-${key}.db`));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // A day file of format 1 (written before the upgrade, today) gets the format 2 tables beside its rows.
  db.exec(FRAME_SCHEMA_V2);
  f = {
    db,
    insertBlock: db.prepare('INSERT INTO block (minute, phone, vehicle_id, t_min, t_max, n, frames) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    insertRare: db.prepare('INSERT INTO rare (t, dir, msg_id, serial, phone, vehicle_id, raw) VALUES (?, ?, ?, ?, ?, ?, ?)'),
  };
  files.set(key, f);
  return f;
}

/** The frames of one terminal on one vehicle within one minute, not yet written (packed as they arrive). */
interface OpenBlock {
  readonly key: string;
  readonly day: string;
  readonly minute: number;
  readonly phone: string | null;
  readonly vehicle: number | null;
  readonly block: BlockBuilder;
}

interface RareRow {
  readonly t: number;
  readonly dir: number;
  readonly msgId: number;
  readonly serial: number | null;
  readonly phone: string | null;
  readonly vehicle: number | null;
  readonly raw: Uint8Array;
}

/** Open blocks by phone ('' for frames whose header cannot be read). */
const open = new Map<string, OpenBlock>();

/** A new block's buffer: the size the terminal's last block reached (so a busy terminal's block rarely grows), within bounds. */
const lastSize = new Map<string, number>();

function write(sealed: OpenBlock[], rare: RareRow[]): void {
  const byDay = new Map<string, { blocks: OpenBlock[]; rare: RareRow[] }>();
  const of = (day: string) => {
    let g = byDay.get(day);
    if (!g) byDay.set(day, (g = { blocks: [], rare: [] }));
    return g;
  };
  for (const b of sealed) of(b.day).blocks.push(b);
  for (const r of rare) of(dayKey(r.t)).rare.push(r);
  for (const [day, g] of byDay) {
    const f = file(day);
    f.db.transaction(() => {
      for (const b of g.blocks) {
        const k = b.block;
        f.insertBlock.run(b.minute, b.phone, b.vehicle, k.tMin, k.tMax, k.n, k.finish());
      }
      for (const r of g.rare) f.insertRare.run(Math.round(r.t), r.dir, r.msgId, r.serial, r.phone, r.vehicle, r.raw);
    })();
  }
}

/** Takes `b` out of the open blocks, to be written. */
function close(b: OpenBlock, sealed: OpenBlock[]): void {
  open.delete(b.key);
  if (lastSize.size >= 1_000_000) lastSize.clear();
  lastSize.set(b.key, b.block.size);
  sealed.push(b);
}

/** Open blocks of minutes before this one are sealed already (the scan of every open block runs once a minute, not per request). */
let sealedBefore = -Infinity;

function sealWhere(seal: Seal | undefined, nowMinute: number, sealed: OpenBlock[]): void {
  if (seal === undefined && nowMinute <= sealedBefore) return;
  sealedBefore = Math.max(sealedBefore, nowMinute);
  const phones = seal === undefined || seal === 'all' ? undefined : new Set(seal.phones);
  const vehicles = seal === undefined || seal === 'all' ? undefined : new Set(seal.vehicles);
  for (const b of open.values()) {
    const hit = seal === 'all' || b.minute < nowMinute || (b.phone !== null && phones?.has(b.phone) === true) || (b.vehicle !== null && vehicles?.has(b.vehicle) === true);
    if (hit) close(b, sealed);
  }
}

/** The frames of a batch go into their terminals' open blocks, copied (no view of the batch is kept). */
function accept(m: Extract<WorkerRequest, { type: 'write' }>): number {
  const { times, dirs, ends, meta, phones, bytes } = m;
  const n = m.count;
  const sealed: OpenBlock[] = [];
  const rare: RareRow[] = [];
  // The open block of each of the batch's phones (index phones.length: no phone), looked up once per batch.
  const blocks: (OpenBlock | undefined)[] = new Array<OpenBlock | undefined>(phones.length + 1);
  // The next 0x7d at or after the current frame (bytes.length when none), reused across frames.
  let nextEscape = -1;
  for (let i = 0; i < n; i++) {
    const t = times[i]!;
    const direction = dirs[i]!;
    let from = i === 0 ? 0 : ends[i - 1]!, to = ends[i]!;
    let src = bytes;
    if (direction === 1) {
      // Outbound: the wire frame; kept unescaped like the inbound ones (most frames hold no escape: no copy then).
      if (to - from >= 2 && bytes[from] === 0x7e && bytes[to - 1] === 0x7e) {
        from++;
        to--;
      }
      if (nextEscape < from) {
        nextEscape = bytes.indexOf(0x7d, from);
        if (nextEscape < 0) nextEscape = bytes.length;
      }
      if (nextEscape < to) {
        const u = unescapeFrame(bytes.subarray(from, to));
        if (u instanceof Uint8Array) {
          src = u;
          from = 0;
          to = u.length;
        }
      }
    }
    const p = meta[i * 2 + 1]!;
    const phone = p < 0 ? null : phones[p]!;
    const v = meta[i * 2]!;
    const vehicle = phone === null || v < 0 ? null : v;
    const msgId = to - from >= 2 ? (src[from]! << 8) | src[from + 1]! : 0;
    if (RARE.has(msgId)) {
      const raw = src.slice(from, to);
      const h = readHeader(raw);
      rare.push({ t, dir: direction, msgId, serial: h instanceof Error ? null : h.header.serial, phone, vehicle, raw });
    }
    const minute = Math.floor(t / MINUTE_MS);
    const slot = p < 0 ? phones.length : p;
    let b = blocks[slot];
    if (b === undefined) b = open.get(phone ?? '');
    if (b && (b.minute !== minute || b.vehicle !== vehicle || b.block.size >= BLOCK_MAX_BYTES)) {
      close(b, sealed);
      b = undefined;
    }
    if (!b) {
      const key = phone ?? '';
      const size = Math.min(BLOCK_MAX_BYTES + 2048, Math.max(256, (lastSize.get(key) ?? 0) + 64));
      b = { key, day: dayKey(minute * MINUTE_MS), minute, phone, vehicle, block: new BlockBuilder(size) };
      open.set(key, b);
    }
    blocks[slot] = b;
    b.block.append(t, direction, src, from, to);
  }
  sealWhere(m.seal, Math.floor(m.now / MINUTE_MS), sealed);
  if (sealed.length > 0 || rare.length > 0) write(sealed, rare);
  return n;
}

function handle(m: WorkerRequest): WorkerReply {
  switch (m.type) {
    case 'write':
      return { id: m.id, written: accept(m) };
    case 'drop':
      for (const key of m.keys) {
        for (const [k, b] of open) if (b.day === key) open.delete(k);
        files.get(key)?.db.close();
        files.delete(key);
        for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(dir, `frames-${key}.db${suffix}`), { force: true });
      }
      return { id: m.id, written: 0 };
    case 'close': {
      const sealed: OpenBlock[] = [];
      sealWhere('all', Infinity, sealed);
      if (sealed.length > 0) write(sealed, []);
      for (const f of files.values()) f.db.close();
      files.clear();
      return { id: m.id, written: 0 };
    }
  }
}

parentPort!.on('message', (m: WorkerRequest) => {
  try {
    parentPort!.postMessage(handle(m));
  } catch (err) {
    parentPort!.postMessage({ id: m.id, written: 0, error: err instanceof Error ? err.message : String(err) } satisfies WorkerReply);
  }
});
