/**
 * Position retention on PostgreSQL (issue 20): `positions` is partitioned by China day on gps_time
 * (server/db/pg/partitions.ts) and the retention boundary is a China midnight (domain/retention/policy.ts:
 * whole days are kept or deleted), so every day past the retention is a whole partition. Such a partition is
 * detached (`DETACH PARTITION … CONCURRENTLY`: no lock on `positions` that would stop readers or the history
 * writers) and dropped: no row-by-row DELETE, no dead rows, no vacuum. No day straddles the boundary.
 *
 * The SQLite sweep's two exceptions hold here too (data-retention.ts): a row that ARRIVED after the
 * boundary stays (a terminal with a reset clock stamps "2000"; it is kept until it has really been stored
 * that long), and a vehicle silent for longer than the retention keeps its newest row (the monitor shows
 * where it was last seen). A partition holding such rows is still detached and dropped, but those rows are
 * first copied into a fresh partition of the same day (a few rows: one per silent vehicle, a reset clock's
 * reports). Found through a BRIN index on received_at (schema.ts): a day whose rows all arrived that day
 * reads only its index summary. If more than COPY_MAX rows must stay (a reset clock reporting for months
 * into one day), that partition is thinned by bounded DELETEs instead of copied every round.
 *
 * A report of such a day arriving between its detach and its drop (a buffered or late report, a reset clock; the
 * seconds of a DETACH … CONCURRENTLY and the copy): it arrived after the boundary, so by the rule above it is a
 * late arrival and stays. The history writer writes rows of days before yesterday straight into their day table
 * (db/pg/positions-batch.ts), detached or not, instead of through `positions` (where a detached day has no
 * partition: the INSERT failed, and with it the writer's whole batch, today's rows included). The last step here
 * locks the detached table first, then counts the rows that stay again, so such a row is copied into the day's
 * fresh partition with the others; a writer that comes after the drop makes the day's partition again. Nothing
 * of a batch is lost, and no row past the boundary is kept that did not arrive late.
 *
 * Its own asynchronous connection (`pg.Client`): a DETACH waits for the transactions that see the partition,
 * and no statement of this sweep blocks the event loop (the synchronous facade's would, sync-db.ts).
 * Idempotent across a crash at any point: a detach left pending is finalized, a detached day table left by a
 * crash is found by its name and handled like an attached one (kept rows copied, then dropped).
 */
import pg from 'pg';
import { chinaDayStartMs } from '../../domain/track/days.ts';
import { partitionDdl } from '../db/pg/partitions.ts';

/** Rows of a dropped day that must stay (arrived late, a silent vehicle's newest) copied into a fresh partition at most. */
export const COPY_MAX = 10_000;
/** Rows counted exactly per dropped partition; beyond, the planner's estimate (pg_class.reltuples) is reported. */
export const COUNT_EXACT_MAX = 100_000;
/** Rows per DELETE when a partition is thinned instead of dropped. */
export const THIN_BATCH = 1000;

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;
const DAY_TABLE = /^positions_p(\d{4})(\d{2})(\d{2})$/;

/** A row kept whatever its age: a silent vehicle's newest position. */
export interface KeptPosition {
  readonly vehicleId: number;
  readonly gpsTime: number;
}

export interface PartitionStep {
  /** The China day of the partition. */
  readonly day: number;
  /** Rows removed (exact up to COUNT_EXACT_MAX, then estimated). */
  readonly deleted: number;
  /** Rows that stayed (copied into a fresh partition, or left by thinning). */
  readonly kept: number;
  /** The partition was dropped (false: thinned by DELETEs). */
  readonly dropped: boolean;
}

/** The China day a day table's name stands for (positions_p20260101 → its day index). */
export function dayOfTable(name: string): number | undefined {
  const m = DAY_TABLE.exec(name);
  // partitionDdl names a day by the UTC date of day × 24 h.
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 86_400_000 : undefined;
}

export class PgPositionPartitions {
  private client: pg.Client | undefined;

  constructor(
    private readonly url: string,
    /** Tests: runs between a day's detach and the step that drops it (the window a history writer may hit). */
    private readonly afterDetach?: (table: string) => Promise<void>,
  ) {}

  private async db(): Promise<pg.Client> {
    if (this.client) return this.client;
    const c = new pg.Client({ connectionString: this.url, application_name: 'fleet-retention' });
    c.on('error', () => {
      // The connection broke (server restart): the next round connects again.
      if (this.client === c) this.client = undefined;
    });
    await c.connect();
    // A DETACH … CONCURRENTLY waits for every transaction that can see the partition: the facade's are short.
    await c.query("SET lock_timeout = '30s'");
    this.client = c;
    return c;
  }

  private async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    const c = await this.db();
    try {
      return await c.query<R>(sql, params);
    } catch (err) {
      // No SQLSTATE: the connection itself failed; the next call connects again.
      if ((err as { code?: string }).code === undefined) {
        await c.end().catch(() => undefined);
        if (this.client === c) this.client = undefined;
      }
      throw err;
    }
  }

  /**
   * Day tables of China days < `beforeDay`: attached partitions, those a crash left detach-pending, and
   * detached day tables a crash left behind. Oldest first.
   */
  async expired(beforeDay: number): Promise<{ table: string; day: number; state: 'attached' | 'pending' | 'detached' }[]> {
    const rows = (await this.query<{ relname: string; attached: boolean; pending: boolean | null }>(`
      SELECT c.relname, i.inhrelid IS NOT NULL AS attached, i.inhdetachpending AS pending
        FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
        LEFT JOIN pg_inherits i ON i.inhrelid = c.oid AND i.inhparent = 'positions'::regclass
       WHERE c.relkind = 'r' AND c.relname LIKE 'positions\\_p%'`)).rows;
    const out: { table: string; day: number; state: 'attached' | 'pending' | 'detached' }[] = [];
    for (const r of rows) {
      const day = dayOfTable(r.relname);
      if (day === undefined || day >= beforeDay) continue;
      out.push({ table: r.relname, day, state: !r.attached ? 'detached' : r.pending ? 'pending' : 'attached' });
    }
    return out.sort((a, b) => a.day - b.day);
  }

  /** Removes one expired day: its rows that arrived at or after `before` and the `keep` rows of that day stay. */
  async removeDay(p: { table: string; day: number; state: 'attached' | 'pending' | 'detached' }, before: number, keep: readonly KeptPosition[]): Promise<PartitionStep> {
    const t = q(p.table);
    const keepV = keep.map((k) => k.vehicleId);
    const keepT = keep.map((k) => k.gpsTime);
    // The rows that stay: late arrivals (through the BRIN index on received_at) and the silent vehicles' newest.
    const keptWhere = `(received_at >= $1 OR (vehicle_id, gps_time) IN (SELECT * FROM unnest($2::bigint[], $3::bigint[])))`;
    const staying = Number((await this.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM ${t} WHERE ${keptWhere} LIMIT ${COPY_MAX + 1}) k`, [before, keepV, keepT])).rows[0]!.n);
    if (staying > COPY_MAX && p.state === 'attached') return { ...await this.thin(p.table, before, keepV, keepT), day: p.day, kept: staying };

    if (staying > 0 && p.state === 'attached') {
      // Only staying rows left (a silent vehicle's newest, copied here by an earlier round): nothing to do.
      const rows = Number((await this.query<{ n: string }>(`SELECT count(*) AS n FROM (SELECT 1 FROM ${t} LIMIT ${staying + 1}) k`)).rows[0]!.n);
      if (rows === staying) return { day: p.day, deleted: 0, kept: staying, dropped: false };
    }
    if (p.state === 'attached') await this.query(`ALTER TABLE positions DETACH PARTITION ${t} CONCURRENTLY`);
    else if (p.state === 'pending') await this.query(`ALTER TABLE positions DETACH PARTITION ${t} FINALIZE`);
    await this.afterDetach?.(p.table);
    const c = await this.db();
    await c.query('BEGIN');
    try {
      // A history writer may have written into the detached table since (positions-batch.ts: a late row of the
      // day): taken from it first, then counted again, so such a row stays with the others.
      await c.query(`LOCK TABLE ${t} IN ACCESS EXCLUSIVE MODE`);
      const stay = Number((await c.query<{ n: string }>(
        `SELECT count(*) AS n FROM (SELECT 1 FROM ${t} WHERE ${keptWhere} LIMIT ${COPY_MAX + 1}) k`, [before, keepV, keepT])).rows[0]!.n);
      const deleted = await this.rowCount(p.table) - stay;
      let from = t;
      if (stay > 0) {
        // The detached table gives up the day's name; a fresh, empty partition of the day takes it and the
        // staying rows are copied there (a writer waiting on the lock then finds the fresh partition by the name).
        from = q(`${p.table}_expired`);
        await c.query(`ALTER TABLE ${t} RENAME TO ${from}`);
        await c.query(partitionDdl('positions', chinaDayStartMs(p.day)).sql);
        await c.query(`INSERT INTO positions SELECT * FROM ${from} WHERE ${keptWhere} ON CONFLICT DO NOTHING`, [before, keepV, keepT]);
      }
      await c.query(`DROP TABLE ${from}`);
      await c.query('COMMIT');
      return { day: p.day, deleted: Math.max(0, deleted), kept: stay, dropped: true };
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  /** Rows of a (detached) table: exact up to COUNT_EXACT_MAX, the planner's estimate above. */
  private async rowCount(table: string): Promise<number> {
    const exact = Number((await this.query<{ n: string }>(`SELECT count(*) AS n FROM (SELECT 1 FROM ${q(table)} LIMIT ${COUNT_EXACT_MAX + 1}) k`)).rows[0]!.n);
    if (exact <= COUNT_EXACT_MAX) return exact;
    const est = Number((await this.query<{ n: number }>('SELECT reltuples AS n FROM pg_class WHERE oid = $1::regclass', [q(table)])).rows[0]?.n ?? 0);
    return Math.max(exact, Math.round(est));
  }

  /** A partition whose rows mostly stay: its expired rows go in bounded DELETEs (THIN_BATCH rows each). */
  private async thin(table: string, before: number, keepV: number[], keepT: number[]): Promise<{ deleted: number; dropped: false }> {
    const t = q(table);
    let deleted = 0;
    for (;;) {
      const n = (await this.query(`DELETE FROM ${t} WHERE ctid = ANY(ARRAY(
          SELECT ctid FROM ${t} WHERE received_at < $1 AND (vehicle_id, gps_time) NOT IN (SELECT * FROM unnest($2::bigint[], $3::bigint[])) LIMIT ${THIN_BATCH}))`,
      [before, keepV, keepT])).rowCount ?? 0;
      deleted += n;
      if (n < THIN_BATCH) break;
    }
    return { deleted, dropped: false };
  }

  async close(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    await c?.end().catch(() => undefined);
  }
}
