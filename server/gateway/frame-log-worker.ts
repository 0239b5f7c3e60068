/**
 * The frame log's writer thread (frame-log.ts): owns the write connections of the day files and
 * writes each batch the gateway's thread posts in one transaction per day, so SQLite's CPU and disk
 * waits never stop the gateway's event loop. Also drops whole day files (retention).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { FRAME_SCHEMA, type WorkerReply, type WorkerRequest } from './frame-log-protocol.ts';

const { dir } = workerData as { dir: string };
const files = new Map<string, { db: Database.Database; insert: Database.Statement }>();

function file(key: string) {
  let f = files.get(key);
  if (f) return f;
  const db = new Database(path.join(dir, `frames-${key}.db`));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(FRAME_SCHEMA);
  f = { db, insert: db.prepare('INSERT INTO frame (t, dir, msg_id, serial, phone, vehicle_id, raw) VALUES (?, ?, ?, ?, ?, ?, ?)') };
  files.set(key, f);
  return f;
}

function handle(m: WorkerRequest): WorkerReply {
  switch (m.type) {
    case 'write': {
      const { keys, times, meta, offsets, phones } = m;
      const bytes = Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength);
      let i = 0;
      const n = times.length;
      while (i < n) {
        const key = keys[i]!;
        const f = file(key);
        f.db.transaction(() => {
          for (; i < n && keys[i] === key; i++) {
            const serial = meta[i * 4 + 2]!, vehicle = meta[i * 4 + 3]!;
            f.insert.run(times[i]!, meta[i * 4]!, meta[i * 4 + 1]!, serial < 0 ? null : serial, phones[i] || null, vehicle < 0 ? null : vehicle, bytes.subarray(offsets[i]!, offsets[i + 1]!));
          }
        })();
      }
      return { id: m.id, written: n };
    }
    case 'drop':
      for (const key of m.keys) {
        files.get(key)?.db.close();
        files.delete(key);
        for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(dir, `frames-${key}.db${suffix}`), { force: true });
      }
      return { id: m.id, written: 0 };
    case 'close':
      for (const f of files.values()) f.db.close();
      files.clear();
      return { id: m.id, written: 0 };
  }
}

parentPort!.on('message', (m: WorkerRequest) => {
  try {
    parentPort!.postMessage(handle(m));
  } catch (err) {
    parentPort!.postMessage({ id: m.id, written: 0, error: err instanceof Error ? err.message : String(err) } satisfies WorkerReply);
  }
});
