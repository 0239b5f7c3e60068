/**
 * Storage contracts of issue 12 §5: what is kept across restarts (latest CAN readings, stored-media
 * search results, export files; migration 16) and the batched deletes of the retention sweep
 * (server/retention/). Every delete method does a bounded amount of work per call, so the sweep can
 * yield to the event loop between calls and never holds the single SQLite connection for long.
 */
import type { CanProtocol, ObdValues } from '../../domain/obd/can.ts';

export interface StoredObdReading extends ObdValues {
  readonly vehicleId: number;
  readonly protocol: CanProtocol;
  /** When the platform received it (epoch ms). */
  readonly time: number;
}

/** The latest decoded CAN values per vehicle and protocol (table `obd_reading`). */
export interface ObdRepository {
  /** Inserts or replaces each (vehicle, protocol) row, in one transaction. */
  save(readings: readonly StoredObdReading[]): Promise<void>;
  /** Every stored reading (loaded once at start: at most two rows per vehicle). */
  all(): Promise<StoredObdReading[]>;
}

export interface MediaSearchRow {
  readonly userId: number;
  readonly vehicleId: number;
  readonly searchTime: number;
  /** The answer's items as the service keeps them, JSON-encoded by the caller. */
  readonly items: string;
}

/** A user's last stored-media search per vehicle (table `media_search`). */
export interface MediaSearchRepository {
  save(row: MediaSearchRow): Promise<void>;
  /** The row if it was made at or after `notBefore` (older rows have expired). */
  get(userId: number, vehicleId: number, notBefore: number): Promise<MediaSearchRow | undefined>;
  /** Deletes up to `limit` rows made before `before`; answers how many. */
  deleteBefore(before: number, limit: number): Promise<number>;
}

export type ExportStatus = 'running' | 'done' | 'failed';

export interface ExportFileRow {
  readonly id: string;
  /** Which export family (`track`, `alarm`): a task id is only found by its own family's calls. */
  readonly kind: string;
  readonly userId: number;
  readonly status: ExportStatus;
  readonly total: number;
  readonly exported: number;
  /** Bytes of the finished file. */
  readonly size: number;
  readonly fileName: readonly [zh: string, en: string];
  readonly asciiName: string;
  readonly createdAt: number;
  readonly finishedAt: number | null;
}

/** Export jobs and their finished files' metadata (table `export_file`; files in DATA_DIR/exports). */
export interface ExportFileRepository {
  create(row: ExportFileRow): Promise<void>;
  /** Records the outcome; false when the job's row is gone (deleted over the cap while it ran). */
  finish(id: string, patch: { status: 'done' | 'failed'; total: number; exported: number; size: number; finishedAt: number }): Promise<boolean>;
  get(kind: string, id: string): Promise<ExportFileRow | undefined>;
  /**
   * Marks `running` jobs failed (at start: the process that ran them is gone), those created before `createdBefore` only
   * when given (a cluster: another node may still run the newer ones); answers how many.
   */
  failRunning(at: number, createdBefore?: number): Promise<number>;
  /** Ids of finished jobs with finished_at < before, oldest first, at most `limit`. */
  expired(before: number, limit: number): Promise<string[]>;
  /** Ids beyond the newest `keep` jobs (the count cap), oldest first, at most `limit`. */
  overCap(keep: number, limit: number): Promise<string[]>;
  delete(ids: readonly string[]): Promise<void>;
}

/** Progress of one batched delete: rows removed and where the next call continues (null: done). */
export interface BatchStep<C> {
  readonly deleted: number;
  readonly next: C | null;
}

/** Batched deletes of history past its retention (server/retention/data-retention.ts). */
export interface RetentionRepository {
  /** The smallest vehicle id > `after` that has rows in `table` (one index seek), or undefined. */
  nextVehicle(table: 'positions' | 'track_block' | 'report_vehicle_day', after: number): Promise<number | undefined>;
  /**
   * Deletes about `limit` of the vehicle's positions with `from` <= gps_time < `before` whose arrival
   * (received_at) is also before `before`, walking the (vehicle_id, gps_time) index; `next` is the
   * gps_time to continue from.
   */
  deletePositions(vehicleId: number, from: number, before: number, limit: number): Promise<BatchStep<number>>;
  /**
   * Deletes positions in storage order (rowid, i.e. arrival order), `limit` rows looked at per call after
   * rowid `after`, those with gps_time and received_at before `before`; `next` is null once a row that
   * arrived at or after `before` is reached. Rows stored together go together, so a batch empties whole
   * table pages instead of touching one row on each of thousands (a vehicle's rows are interleaved with
   * the fleet's). Rows stored out of arrival order are left to `deletePositions`. Rowids in `keep` stay
   * (each silent vehicle's last known position).
   */
  deleteOldestPositions(after: number, before: number, limit: number, keep: ReadonlySet<number>): Promise<BatchStep<number>>;
  /** The vehicle's newest position (by gps_time): its rowid and time. */
  newestPosition(vehicleId: number): Promise<{ rowid: number; gpsTime: number } | undefined>;
  /** Deletes the vehicle's track blocks of China days < `beforeDay` (at most a few hundred rows). */
  deleteTrackBlocks(vehicleId: number, beforeDay: number): Promise<number>;
  /** Deletes the vehicle's report rollup rows of dates < `beforeDate` (`YYYY-MM-DD`). */
  deleteReportDays(vehicleId: number, beforeDate: string): Promise<number>;
  /**
   * Deletes up to `limit` alarms with start_time < `before` and create_time < `before` (their deal log
   * and board links go by cascade), after the (start_time, id) cursor; `next` continues after the last
   * row looked at (rows kept by create_time are stepped over, not looked at again).
   */
  deleteAlarms(before: number, limit: number, after: { startTime: number; id: number } | null): Promise<BatchStep<{ startTime: number; id: number }>>;
  /** Deletes up to `limit` board items closed (resolved, unpushed and no longer muting) before `before`, their log and alarm links by cascade. */
  deleteClosedBoardItems(before: number, limit: number): Promise<number>;
  /** Deletes up to `limit` live-video log rows started before `before`. */
  deleteStreamLog(before: number, limit: number): Promise<number>;
  /** Deletes up to `limit` login sessions last used before `before` (long past any token's lifetime). */
  deleteSessions(before: number, limit: number): Promise<number>;
}
