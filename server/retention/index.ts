/**
 * Wires retention into the app (issue 12 §5): one scheduler (`app.retention`) runs every sweep at start
 * and hourly — export files past their lifetime (services/export-jobs.ts), history past its retention
 * (data-retention.ts), and the media files that services/multimedia registers (media/retention.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { RetentionPolicy } from '../../domain/retention/policy.ts';
import { retentionCutoffs } from '../../domain/retention/policy.ts';
import { chinaDateOfDay } from '../../domain/track/days.ts';
import { sharedFilesDirOf, type Config } from '../config.ts';
import type { Storage } from '../db/repositories.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { ExportFiles } from '../services/export-jobs.ts';
import { ReportEngine } from '../services/reports/rollup.ts';
import { SqliteReportStore } from '../services/reports/store.ts';
import { DataRetention, type RollupDay } from './data-retention.ts';
import { PgPositionPartitions } from './pg-partitions.ts';
import { RollupWorker } from './rollups.ts';
import { RetentionScheduler } from './scheduler.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs every retention sweep at start and hourly (tests call `runAll`). */
    retention: RetentionScheduler;
    /** Positions, alarms, raw logs past their retention (tests call its sweep). */
    dataRetention: DataRetention;
    /** Export jobs and their files under DATA_DIR/exports. */
    exportFiles: ExportFiles;
  }
}

export function retentionPolicy(config: Config): RetentionPolicy {
  return {
    positionDays: config.positionRetentionDays, alarmDays: config.alarmRetentionDays, logDays: config.logRetentionDays,
    reportDays: config.reportRetentionDays, tokenTtlSeconds: config.tokenTtlSeconds,
  };
}

/**
 * The reports' rollup engine on the calling thread over the same connection (undefined for another
 * backend): what the worker (rollups.ts) does, kept for the bench's comparison.
 */
export function reportRollupDay(storage: Storage, clock: () => number, policy: RetentionPolicy): RollupDay | undefined {
  const db = (storage as Partial<SqliteStorage>).db;
  if (!db) return undefined;
  const store = new SqliteReportStore(db);
  const keptFrom = () => retentionCutoffs(clock(), policy).positionDay ?? -Infinity;
  const engine = new ReportEngine(storage, store, clock, keptFrom);
  return async (vehicleId, day) => {
    const date = chinaDateOfDay(day);
    if (store.cachedDays(vehicleId, date, date).has(date)) return false;
    await engine.days([vehicleId], day, day);
    return true;
  };
}

export function installRetention(app: FastifyInstance, deps: { config: Config; storage: Storage; clock: () => number }): void {
  const { config, storage, clock } = deps;
  // Issue 20: shared rows are swept by the leader only; a node that becomes leader sweeps at once (its predecessor may have died mid-round).
  const scheduler = new RetentionScheduler({ log: app.log, isLeader: () => app.leadership.isLeader });
  let started = false;
  app.leadership.onChange((leader) => {
    if (leader && started) void scheduler.runAll();
  });
  app.decorate('retention', scheduler);

  // Under MEDIA_DIR when set (the shared mount): a download reaches any API node, whichever node wrote the file.
  const exportFiles = new ExportFiles({ storage, dir: sharedFilesDirOf(config, 'exports'), keepMs: config.exportRetentionMinutes * 60_000, clock, log: app.log, shared: app.leadership.shared });
  app.decorate('exportFiles', exportFiles);
  scheduler.add({ name: 'exports', sweep: () => exportFiles.sweep() });

  const policy = retentionPolicy(config);
  // Rollups of days about to go are computed in a worker thread on its own connection. On PostgreSQL (the
  // facade's `url`) the worker opens its own facade connection, and positions go by day partition (pg-partitions.ts).
  const db = (storage as Partial<SqliteStorage>).db;
  const url = (db as { url?: unknown } | undefined)?.url;
  const pgUrl = typeof url === 'string' && /^postgres(?:ql)?:\/\//i.test(url) ? url : undefined;
  const keptFrom = (now: number) => retentionCutoffs(now, policy).positionDay ?? -Infinity;
  const rollups = pgUrl ? new RollupWorker({ url: pgUrl }, keptFrom) : db ? new RollupWorker({ file: db.name }, keptFrom) : undefined;
  const partitions = pgUrl ? new PgPositionPartitions(pgUrl) : undefined;
  const data = new DataRetention({ storage, policy, clock, rollupDay: rollups?.rollupDay(clock), partitions, log: app.log });
  app.decorate('dataRetention', data);
  scheduler.add(data);

  // Failing the jobs the last process left running comes before any export call is answered.
  app.addHook('onReady', async () => {
    await exportFiles.start();
    scheduler.start();
    started = true;
  });
  app.addHook('preClose', async () => {
    started = false;
    await scheduler.stop();
    await rollups?.close();
    await partitions?.close();
    await exportFiles.stop();
  });
}
