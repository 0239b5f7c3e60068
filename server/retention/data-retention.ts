/**
 * Retention of history in the database (issue 12 §5; on PostgreSQL positions go by day partition, pg-partitions.ts): positions with their track blocks, report
 * rollups, alarms with their deal log and closed board items, raw logs (live-video connection log,
 * login sessions) and expired stored-media search results. Boundaries: domain/retention/policy.ts.
 *
 * Never stall the gateway: better-sqlite3 is synchronous, so every step is one bounded statement
 * (≈ POSITION_BATCH rows through an index range) and the sweep yields to the event loop (setImmediate)
 * between steps; the longest single step is measured and answered (`longestStepMs`). A delete frees
 * pages inside the file for new rows; the file itself does not shrink (VACUUM would hold the database
 * for minutes), so its size levels off at about the retention period's worth of data.
 *
 * Report rollups outlive positions (REPORT_RETENTION_DAYS 1095 > POSITION_RETENTION_DAYS 180): before a
 * vehicle's old days are deleted, the rollups of those days that were never asked for are computed and
 * stored (server/services/reports/rollup.ts) — in a worker thread (rollups.ts): a 1 Hz vehicle-day is
 * ≈ 160 ms of CPU — and the reports trust stored days older than the positions they came from. A
 * rollup is one row per vehicle-day against 2,880–86,400 positions.
 */
import { chinaDateOfDay, chinaDayIndex, chinaDayStartMs } from '../../domain/track/days.ts';
import { retentionCutoffs, rollupsOutlivePositions, type RetentionPolicy } from '../../domain/retention/policy.ts';
import type { Storage } from '../db/repositories.ts';
import type { BatchStep } from '../db/retention-types.ts';
import { MEDIA_SEARCH_TTL_MS } from '../services/multimedia/capture.ts';
import type { PgPositionPartitions } from './pg-partitions.ts';
import type { RetentionTask } from './scheduler.ts';

/**
 * Positions looked at per step: a median ≈ 1 ms step on the loaded 2-core test machine (2,000 took ≈ 8 ms,
 * 500 no faster in total); see README "Disk sizing and retention".
 */
export const POSITION_BATCH = 1000;
/** Alarms, log rows and sessions per step (an alarm delete also deletes its deal log rows by cascade). */
export const ROW_BATCH = 1000;

export interface DataSweepResult {
  positions: number;
  /** Day partitions dropped (PostgreSQL: pg-partitions.ts). */
  positionPartitions: number;
  trackBlocks: number;
  reportDays: number;
  /** Rollup days computed before their positions went. */
  rollupsComputed: number;
  alarms: number;
  boardItems: number;
  streamLog: number;
  sessions: number;
  mediaSearches: number;
  /** Statements run. */
  steps: number;
  /** The longest single delete or lookup step (ms): how long the deletes held the event loop at most. */
  longestStepMs: number;
  /** The longest single rollup computation (ms): one vehicle-day read and analysed. */
  longestRollupMs: number;
  /**
   * The same two as CPU time of this process (ms): on a shared machine a step's wall time includes
   * time the process was descheduled, which is not work the sweep did.
   */
  longestStepCpuMs: number;
  longestRollupCpuMs: number;
}

/** Computes and stores the rollup of one vehicle's China day unless stored (server/services/reports); true when it computed. */
export type RollupDay = (vehicleId: number, day: number) => Promise<boolean>;

export interface DataRetentionOptions {
  readonly storage: Storage;
  readonly policy: RetentionPolicy;
  readonly clock: () => number;
  /** Present when the reports keep rollups: called per day before its positions go. */
  readonly rollupDay?: RollupDay;
  /** PostgreSQL: positions go by whole day partitions (pg-partitions.ts) instead of batched DELETEs. */
  readonly partitions?: PgPositionPartitions;
  readonly log?: { info(obj: object, msg: string): void };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

export class DataRetention implements RetentionTask {
  readonly name = 'history';
  private halted = false;

  constructor(private readonly options: DataRetentionOptions) {}

  halt(): void {
    this.halted = true;
  }

  async sweep(): Promise<DataSweepResult> {
    this.halted = false;
    const { storage, policy, clock, log } = this.options;
    const r: DataSweepResult = {
      positions: 0, positionPartitions: 0, trackBlocks: 0, reportDays: 0, rollupsComputed: 0, alarms: 0, boardItems: 0, streamLog: 0, sessions: 0, mediaSearches: 0, steps: 0, longestStepMs: 0, longestRollupMs: 0, longestStepCpuMs: 0, longestRollupCpuMs: 0,
    };
    const now = clock();
    const c = retentionCutoffs(now, policy);
    const retention = storage.retention;
    /** One bounded statement, timed, then a turn of the event loop for everything else. */
    const step = async <T>(fn: () => Promise<T>, rollup = false): Promise<T> => {
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const out = await fn();
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      if (rollup) {
        r.longestRollupMs = Math.max(r.longestRollupMs, ms);
        r.longestRollupCpuMs = Math.max(r.longestRollupCpuMs, cpuMs);
      } else {
        r.longestStepMs = Math.max(r.longestStepMs, ms);
        r.longestStepCpuMs = Math.max(r.longestStepCpuMs, cpuMs);
      }
      r.steps++;
      await tick();
      return out;
    };
    /** Repeats a batch delete until it removes less than a batch. */
    const drain = async (fn: () => Promise<number>, batch: number): Promise<number> => {
      let total = 0;
      for (;;) {
        if (this.halted) return total;
        const n = await step(fn);
        total += n;
        if (n < batch) return total;
      }
    };

    if (c.positionDay !== null && c.positionBefore !== null) {
      const before = c.positionBefore;
      const vehicles = async (table: 'positions' | 'track_block', each: (vehicleId: number) => Promise<void>) => {
        for (let v = await step(() => retention.nextVehicle(table, 0)); v !== undefined && !this.halted; v = await step(() => retention.nextVehicle(table, v!))) {
          await each(v);
        }
      };
      // A vehicle silent for longer than the retention keeps its newest row: the monitor shows where it
      // was last seen (the live store loads it at start), not "never located".
      const lastSeen = new Map<number, { rowid: number; gpsTime: number }>();
      const rollupDay = rollupsOutlivePositions(policy) ? this.options.rollupDay : undefined;
      await vehicles('positions', async (vehicleId) => {
        const newest = await step(() => retention.newestPosition(vehicleId));
        if (newest && newest.gpsTime < before) lastSeen.set(vehicleId, newest);
        if (!rollupDay) return;
        // Rollups first, of each day about to go that has rows (jumping from row to row through the
        // index: a vehicle idle for weeks, or a reset clock's "2000", costs no day-by-day walk).
        let from = c.reportDay === null ? 0 : chinaDayStartMs(c.reportDay);
        while (!this.halted) {
          const at = from;
          const next = await step(async () => (await storage.positions.range(vehicleId, at, before, 1))[0]?.gpsTime);
          if (next === undefined) break;
          const day = chinaDayIndex(next);
          if (await step(() => rollupDay(vehicleId, day), true)) r.rollupsComputed++;
          from = chinaDayStartMs(day + 1);
        }
      });
      const partitions = this.options.partitions;
      if (partitions) {
        // PostgreSQL: every China day before the boundary is a whole partition, dropped (its staying rows copied out).
        const kept = [...lastSeen.entries()].map(([vehicleId, n]) => ({ vehicleId, gpsTime: n.gpsTime }));
        for (const p of await step(() => partitions.expired(c.positionDay!))) {
          if (this.halted) break;
          const s = await step(() => partitions.removeDay(p, before, kept.filter((k) => chinaDayIndex(k.gpsTime) === p.day)));
          r.positions += s.deleted;
          if (s.dropped) r.positionPartitions++;
        }
      } else {
        const keep = new Set([...lastSeen.values()].map((n) => n.rowid));
        // Then in storage order: the bulk of old rows, whole pages at a time.
        let after: number | null = 0;
        while (after !== null && !this.halted) {
          const at: number = after;
          const s: BatchStep<number> = await step(() => retention.deleteOldestPositions(at, before, POSITION_BATCH, keep));
          r.positions += s.deleted;
          after = s.next;
        }
        // Then per vehicle through its index: rows stored out of arrival order (a reset clock's old
        // stamps that have now been stored long enough, imports); usually one seek finding none.
        await vehicles('positions', async (vehicleId) => {
          // Up to (not including) a silent vehicle's last known position.
          const upTo = Math.min(before, lastSeen.get(vehicleId)?.gpsTime ?? before);
          let from: number | null = -Number.MAX_SAFE_INTEGER;
          while (from !== null && !this.halted) {
            const at: number = from;
            const s = await step(() => retention.deletePositions(vehicleId, at, upTo, POSITION_BATCH));
            r.positions += s.deleted;
            from = s.next;
          }
        });
      }
      // Blocks of the deleted days (every vehicle with blocks, including those with no rows left).
      await vehicles('track_block', async (vehicleId) => {
        r.trackBlocks += await step(() => retention.deleteTrackBlocks(vehicleId, c.positionDay!));
      });
    }

    if (c.reportDate !== null) {
      for (let v = await step(() => retention.nextVehicle('report_vehicle_day', 0)); v !== undefined && !this.halted; v = await step(() => retention.nextVehicle('report_vehicle_day', v!))) {
        const vehicleId = v;
        r.reportDays += await step(() => retention.deleteReportDays(vehicleId, c.reportDate!));
      }
    }

    if (c.alarmBefore !== null) {
      let after: { startTime: number; id: number } | null = null;
      do {
        const cursor: { startTime: number; id: number } | null = after;
        const s: BatchStep<{ startTime: number; id: number }> = await step(() => retention.deleteAlarms(c.alarmBefore!, ROW_BATCH, cursor));
        r.alarms += s.deleted;
        after = s.next;
      } while (after !== null && !this.halted);
      r.boardItems += await drain(() => retention.deleteClosedBoardItems(c.alarmBefore!, ROW_BATCH), ROW_BATCH);
    }

    if (c.logBefore !== null) r.streamLog += await drain(() => retention.deleteStreamLog(c.logBefore!, ROW_BATCH), ROW_BATCH);
    if (c.sessionBefore !== null) r.sessions += await drain(() => retention.deleteSessions(c.sessionBefore!, ROW_BATCH), ROW_BATCH);
    r.mediaSearches += await drain(() => storage.mediaSearches.deleteBefore(now - MEDIA_SEARCH_TTL_MS, ROW_BATCH), ROW_BATCH);

    const removed = r.positions + r.trackBlocks + r.reportDays + r.alarms + r.boardItems + r.streamLog + r.sessions + r.mediaSearches;
    if (removed + r.rollupsComputed > 0) {
      log?.info({ ...r, longestStepMs: Math.round(r.longestStepMs * 10) / 10, longestRollupMs: Math.round(r.longestRollupMs * 10) / 10, before: { positions: c.positionDay === null ? null : chinaDateOfDay(c.positionDay) } }, 'retention sweep');
    }
    return r;
  }
}
