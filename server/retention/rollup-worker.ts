/**
 * Worker thread of the retention sweep: computes and stores the positioning reports' daily rollup of a
 * vehicle-day about to be deleted (server/services/reports/rollup.ts) on a connection of its own to the
 * same database (PostgreSQL: a facade connection of its own) — on SQLite the same file (WAL: its reads never block the gateway's connection; its small writes wait at most
 * for one history batch). A 1 Hz vehicle-day is 86,400 points: ≈ 160 ms of CPU that would otherwise
 * stall the main thread's event loop, the gateway's included.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { chinaDateOfDay } from '../../domain/track/days.ts';
import { SqliteStorage } from '../db/sqlite/storage.ts';
import { openSqlite, type SqliteDb } from '../db/sqlite.ts';
import { PgSyncDb, readCatalog } from '../db/pg/sync-db.ts';
import { ReportEngine } from '../services/reports/rollup.ts';
import { SqliteReportStore } from '../services/reports/store.ts';

export interface RollupRequest {
  readonly id: number;
  readonly vehicleId: number;
  readonly day: number;
  /** The sweep's clock (tests drive it). */
  readonly now: number;
  /** First China day whose positions are kept (stored days before it are final). */
  readonly keptFromDay: number;
}

export type RollupReply = { readonly id: number; readonly computed: boolean } | { readonly id: number; readonly error: string };

const { file, url } = workerData as { file?: string; url?: string };
/** PostgreSQL (issue 20): a facade connection of its own, as the SQLite file gets one (its blocking waits block this thread only). */
function openPg(u: string): SqliteDb {
  const pg = new PgSyncDb(u);
  pg.setCatalog(readCatalog(pg));
  return pg as unknown as SqliteDb;
}
const db = url ? openPg(url) : openSqlite(file!);
const storage = new SqliteStorage(db);
const store = new SqliteReportStore(db);
let now = Date.now();
let keptFrom = -Infinity;
const engine = new ReportEngine(storage, store, () => now, () => keptFrom);

parentPort!.on('message', (req: RollupRequest) => {
  void (async (): Promise<RollupReply> => {
    try {
      now = req.now;
      keptFrom = req.keptFromDay;
      const date = chinaDateOfDay(req.day);
      if (store.cachedDays(req.vehicleId, date, date).has(date)) return { id: req.id, computed: false };
      await engine.days([req.vehicleId], req.day, req.day);
      return { id: req.id, computed: true };
    } catch (err) {
      return { id: req.id, error: err instanceof Error ? err.message : String(err) };
    }
  })().then((reply) => parentPort!.postMessage(reply));
});
