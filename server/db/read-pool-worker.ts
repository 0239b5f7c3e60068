/**
 * Worker thread of the track read pool (read-pool.ts): answers track reads on a read-only connection of
 * its own to the same SQLite file. WAL lets it read while the gateway's connection writes, so a week's
 * read (≈ 1–2 s of better-sqlite3's synchronous row loop when no day block exists yet) runs here instead
 * of on the event loop that acknowledges terminals. Blocks it builds go back to the main thread, which
 * owns the writes.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { encodeTrack, type TrackData } from '../../proto/track-codec.ts';
import { SqliteTrackRepository, type TrackReadRequest, type TrackReadResult } from './sqlite/tracks.ts';

export type PoolRequest = TrackReadRequest & { readonly id: number };
export type PoolReply = ({ readonly id: number } & TrackReadResult) | { readonly id: number; readonly error: string };

const { file } = workerData as { file: string };
const db = new Database(file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
// As the main connection (sqlite.ts): pages through a memory map instead of read() calls.
db.pragma('mmap_size = 1073741824');

let now = Date.now();
let built: { day: number; points: number; data: Uint8Array }[] = [];
const tracks = new SqliteTrackRepository(db, () => now, (_vehicleId, day, points, data) => built.push({ day, points, data }));

/** Every distinct ArrayBuffer behind the columns, moved rather than copied to the main thread. */
function buffersOf(t: TrackData, blocks: readonly { data: Uint8Array }[]): ArrayBuffer[] {
  const set = new Set<ArrayBuffer>();
  for (const a of [t.time, t.lng, t.lat, t.speed, t.heading, t.altitude, t.status, t.alarm, t.mileage, ...blocks.map((b) => b.data)]) {
    if (a.buffer instanceof ArrayBuffer) set.add(a.buffer);
  }
  return [...set];
}

parentPort!.on('message', (req: PoolRequest) => {
  let reply: PoolReply;
  try {
    now = req.now;
    built = [];
    const track = tracks.readTrackSync(req.vehicleId, req.from, req.to, req.limit, req.box);
    // Blocks hold bytes of better-sqlite3's or the encoder's buffers: copy each into its own buffer so
    // moving it moves nothing else.
    const blocks = built.map((b) => ({ day: b.day, points: b.points, data: b.data.slice() }));
    if (req.encode) {
      const bytes = encodeTrack(Object.assign(track, req.encode)).slice();
      reply = { id: req.id, bytes, blocks };
      parentPort!.postMessage(reply, [bytes.buffer as ArrayBuffer, ...blocks.map((b) => b.data.buffer as ArrayBuffer)]);
    } else {
      reply = { id: req.id, track, blocks };
      parentPort!.postMessage(reply, buffersOf(track, blocks));
    }
  } catch (err) {
    reply = { id: req.id, error: err instanceof Error ? err.message : String(err) };
    parentPort!.postMessage(reply);
  }
});
