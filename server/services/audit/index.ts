/**
 * The audit trail and usage (issue 19; contract ./api.md): one writer (`app.audit`), one hook pair that
 * records every state-changing call (hook.ts), the screens' calls (routes.ts) and the retention sweep.
 * Install right after the auth hook and before every other route.
 */
import type { FastifyInstance } from 'fastify';
import { DAY_MS } from '../../../domain/track/days.ts';
import type { Config } from '../../config.ts';
import type { Storage } from '../../db/repositories.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import type { App } from '../../http/route.ts';
import { installAuditHook } from './hook.ts';
import { auditRoutes } from './routes.ts';
import { AuditWriter } from './writer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The audit trail's batched writer (tests call `flush` before reading `audit_log`). */
    audit: AuditWriter;
  }
}

/** Rows removed per step of the retention sweep (the single connection is free again between steps). */
const PRUNE_STEP = 5_000;

export function installAudit(app: FastifyInstance, deps: { config: Config; storage: Storage; clock?: () => number }): void {
  const db = (deps.storage as Partial<SqliteStorage>).db;
  if (!db) throw new Error('the audit trail needs the SQLite storage');
  const clock = deps.clock ?? Date.now;
  const writer = new AuditWriter(db, {
    onError: (err) => app.log.error({ err }, 'audit batch not written; retried'),
    onDrop: (dropped, droppedTotal) => app.log.error({ dropped, droppedTotal }, 'audit rows dropped: the store keeps failing and the queue is full'),
  });
  app.decorate('audit', writer);
  // preClose runs before storage closes (onClose): the last batch is written.
  app.addHook('preClose', async () => writer.close());
  installAuditHook(app, writer, clock);

  // Retention: LOG_RETENTION_DAYS (0 keeps all), swept with the other logs by app.retention (at start, then hourly).
  const days = deps.config.logRetentionDays;
  if (days > 0) {
    const pickAudit = db.prepare('SELECT id FROM audit_log WHERE time < ? ORDER BY time LIMIT ?').pluck();
    const dropTargets = db.prepare('DELETE FROM audit_target WHERE audit_id = ?');
    const dropAudit = db.prepare('DELETE FROM audit_log WHERE id = ?');
    const auditStep = db.transaction((cutoff: number) => {
      const ids = pickAudit.all(cutoff, PRUNE_STEP) as number[];
      for (const id of ids) { dropTargets.run(id); dropAudit.run(id); }
      return ids.length;
    });
    const viewStep = db.prepare('DELETE FROM page_view WHERE id IN (SELECT id FROM page_view WHERE time < ? ORDER BY time LIMIT ?)');
    const steps = [(cutoff: number) => auditStep(cutoff), (cutoff: number) => viewStep.run(cutoff, PRUNE_STEP).changes];
    app.retention.add({
      name: 'audit',
      async sweep() {
        const cutoff = clock() - days * DAY_MS;
        let removed = 0;
        for (const step of steps) {
          for (;;) {
            while (db.inTransaction) await new Promise((r) => setImmediate(r));
            const n = step(cutoff);
            removed += n;
            if (n < PRUNE_STEP) break;
            await new Promise((r) => setImmediate(r));
          }
        }
        return { removed };
      },
    });
  }
  auditRoutes(app as unknown as App, { storage: deps.storage, db, writer, clock });
}
