/**
 * `PgSyncDb`: a better-sqlite3-shaped, synchronous facade over one PostgreSQL connection.
 *
 * ~420 statements outside the repositories run synchronously on the better-sqlite3 handle, inside
 * synchronous `db.transaction(() => …)()` blocks (server/db/CONTEXT.md). To run them unchanged on PG, a
 * worker thread owns the connection and the calling thread blocks on a SharedArrayBuffer flag
 * (`Atomics.wait`) until the answer is on the port. One connection gives SQLite's semantics: every
 * statement of this process sees the open transaction, and `inTransaction` is exact (from PG's own
 * ReadyForQuery status). The cost: each statement blocks the event loop for a round trip.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { chinaDayIndex } from '../../../domain/track/days.ts';
import { DAY_PARTITIONED, partitionDdl } from './partitions.ts';
import { EMPTY_CATALOG, splitStatements, translate, type PgCatalog, type Translated } from './translate.ts';

type PgRequestBody =
  /** `atomic`: inside a transaction, a failing statement is undone alone (SQLite's statement atomicity). */
  | { op: 'query'; sql: string; params: unknown[]; raw: boolean; atomic?: boolean }
  | { op: 'exec'; sql: string }
  | { op: 'close' };
/** `seq` numbers the calls; the reply carries it back (see `call`). */
export type PgRequest = PgRequestBody & { seq: number };

export type PgAnswer =
  | { ok: true; rows: unknown[]; rowCount: number; status: string }
  | { ok: false; message: string; code: string | undefined; detail: string | undefined; status: string };
export type PgReply = PgAnswer & { seq: number };

/** SQLSTATE → the better-sqlite3 code the SQLite-written callers test (e.g. resources/import-jobs.ts). */
const SQLITE_CODE: Record<string, string> = {
  '23505': 'SQLITE_CONSTRAINT_UNIQUE',
  '23503': 'SQLITE_CONSTRAINT_FOREIGNKEY',
  '23502': 'SQLITE_CONSTRAINT_NOTNULL',
  '23514': 'SQLITE_CONSTRAINT_CHECK',
  '55P03': 'SQLITE_BUSY', // lock_timeout: the analogue of busy_timeout expiring
};

/** An error from PostgreSQL: `code` as better-sqlite3 would name it, `sqlState` as PG did. */
export class PgSyncError extends Error {
  readonly code: string;
  constructor(message: string, readonly sqlState: string | undefined, readonly sql: string) {
    super(message);
    this.name = 'PgSyncError';
    this.code = (sqlState && SQLITE_CODE[sqlState]) ?? `PG_${sqlState ?? 'ERROR'}`;
  }
}

export interface RunResult { changes: number; lastInsertRowid: number }

/** The advisory-lock key a write transaction takes (`BEGIN IMMEDIATE`): one writer across nodes. */
export const WRITE_LOCK_KEY = 0x666c6565; // 'flee'

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !ArrayBuffer.isView(v) && !Array.isArray(v) && !(v instanceof Date)
  && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/** Structured clone answers Uint8Array for bytea; the callers expect Buffers, as better-sqlite3 gives. */
function fixRow(row: unknown): unknown {
  if (Array.isArray(row)) return row.map((v: unknown) => (v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v));
  const r = row as Record<string, unknown>;
  for (const k in r) {
    const v = r[k];
    if (v instanceof Uint8Array && !Buffer.isBuffer(v)) r[k] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  }
  return r;
}

export class PgStatement {
  private plucking = false;
  private rawRows = false;
  readonly reader: boolean;

  constructor(private readonly db: PgSyncDb, readonly source: string, private readonly t: Translated, private readonly broken?: Error) {
    this.reader = t.reader;
  }

  /** Answer only the first column (better-sqlite3 `pluck`). */
  pluck(on = true): this {
    this.plucking = on;
    if (on) this.rawRows = false;
    return this;
  }

  /** Answer rows as arrays (better-sqlite3 `raw`). */
  raw(on = true): this {
    this.rawRows = on;
    if (on) this.plucking = false;
    return this;
  }

  private values(args: unknown[]): unknown[] {
    if (this.broken) throw this.broken;
    const positional: unknown[] = [];
    let named: Record<string, unknown> | undefined;
    for (const a of args) {
      if (Array.isArray(a)) positional.push(...(a as unknown[]));
      else if (isPlainObject(a)) named = a;
      else positional.push(a);
    }
    return this.t.params.map((p) => {
      if (typeof p === 'number') {
        if (p >= positional.length) throw new RangeError(`Too few parameter values were provided: ${this.source}`);
        return positional[p] ?? null;
      }
      if (!named || !(p in named)) throw new RangeError(`Missing named parameter "${p}": ${this.source}`);
      return named[p] ?? null;
    });
  }

  private rows(args: unknown[]): unknown[] {
    this.before(args);
    const { rows } = this.db.query(this.t.text, this.values(args), this.rawRows || this.plucking);
    const out = rows.map(fixRow);
    if (this.plucking) return out.map((r) => (r as unknown[])[0]);
    if (this.t.returningId && !this.rawRows) for (const r of out) delete (r as Record<string, unknown>).id;
    return out;
  }

  get(...args: unknown[]): unknown {
    return this.rows(args)[0];
  }

  all(...args: unknown[]): unknown[] {
    return this.rows(args);
  }

  /** Rows are fetched whole (a vehicle-day is ≤ 86,400 rows); a cursor can come with pg-cursor later. */
  *iterate(...args: unknown[]): IterableIterator<unknown> {
    yield* this.rows(args);
  }

  /** What has to happen on the server before this INSERT: a missing day partition, a lagging id sequence. */
  private before(args: unknown[]): void {
    const t = this.t;
    if (t.insertTable === undefined) return;
    if (t.partitionKeySource !== undefined) {
      const key = typeof t.partitionKeySource === 'number' ? this.positional(args)[t.partitionKeySource] : this.named(args)?.[t.partitionKeySource];
      if (typeof key === 'number') this.db.ensurePartition(t.insertTable, key);
    }
    if (t.explicitId) this.db.idsGivenIn(t.insertTable);
    else if (t.returningId) this.db.syncIdSequence(t.insertTable);
  }

  private positional(args: unknown[]): unknown[] {
    return args.flatMap((a) => (Array.isArray(a) ? (a as unknown[]) : isPlainObject(a) ? [] : [a]));
  }

  private named(args: unknown[]): Record<string, unknown> | undefined {
    return args.find(isPlainObject);
  }

  run(...args: unknown[]): RunResult {
    this.before(args);
    // SQLite undoes only the failing statement and keeps the transaction (code catches a unique violation
    // and goes on, e.g. import-jobs.ts checkOnConflict); PG aborts the whole transaction on any error.
    const { rows, rowCount } = this.db.query(this.t.text, this.values(args), false, this.db.inTransaction);
    const last = this.t.returningId ? (rows[rows.length - 1] as { id?: number } | undefined)?.id : undefined;
    if (last !== undefined) this.db.lastInsertRowid = last;
    return { changes: rowCount, lastInsertRowid: this.db.lastInsertRowid };
  }
}

type TxFn<A extends unknown[], R> = ((...args: A) => R) & {
  deferred: (...args: A) => R; immediate: (...args: A) => R; exclusive: (...args: A) => R; default: (...args: A) => R;
};

export interface PgSyncDbOptions {
  /** Schema facts for the translator (`RETURNING id`, `INSERT OR REPLACE`); read with `readCatalog`. */
  catalog?: PgCatalog;
  /** Longest a statement may block the thread before the facade gives up (ms). */
  timeoutMs?: number;
}

export class PgSyncDb {
  readonly name: string;
  readonly url: string;
  open = true;
  readonly memory = false;
  readonly readonly = false;
  /** Last id an INSERT … RETURNING id answered (better-sqlite3 keeps it per connection likewise). */
  lastInsertRowid = 0;
  private catalog: PgCatalog;
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private status = 'I';
  private readonly timeoutMs: number;
  /** Number of the last call sent (its answer carries it). */
  private seq = 0;
  private readonly cache = new Map<string, Translated>();
  private savepoints = 0;

  constructor(url: string, options: PgSyncDbOptions = {}) {
    // No file name, as a temporary better-sqlite3 database: the SQLite-file side paths (track read pool,
    // db/read-pool.ts) stay off. `url` says where the data is, without a password.
    this.name = '';
    this.url = url.replace(/\/\/([^@/:]*):[^@/]*@/, '//$1@');
    this.catalog = options.catalog ?? EMPTY_CATALOG;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    // The server runs TypeScript through tsx; a worker does not inherit a loader registered in code, so it
    // registers tsx itself before importing its TypeScript entry (as db/read-pool.ts).
    const entry = new URL('./sync-worker.ts', import.meta.url).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
    this.worker = new Worker(boot, { eval: true, workerData: { url, port: port2, flag: this.signal.buffer }, transferList: [port2] });
    // The worker's life is this handle's: `close()` ends it; it never keeps the process alive by itself.
    this.worker.unref();
    // Proves the connection now, as `new Database(file)` fails at once on a bad file.
    try {
      this.query('SELECT 1', [], false);
    } catch (err) {
      this.open = false;
      void this.worker.terminate();
      this.port.close();
      throw err;
    }
  }

  /**
   * Sends one request and blocks until its answer. The answer is found by its `seq`, and the flag is cleared
   * before every look at the port, not once before sending: the worker raises the flag after posting and
   * notifies after that, so a call that found its answer before the notify came has a late wake-up coming
   * for the NEXT call ("PostgreSQL worker gave no answer", seen at a node's start-up under load), and an
   * answer to a call that gave up at its timeout arrives during a later one (it would have been taken as
   * that call's answer, and every answer after it shifted by one).
   */
  private call(body: PgRequestBody): Extract<PgReply, { ok: true }> {
    if (!this.open) throw new TypeError('The database connection is not open');
    const seq = ++this.seq;
    this.port.postMessage({ ...body, seq } satisfies PgRequest);
    const deadline = Date.now() + this.timeoutMs;
    let msg: PgReply | undefined;
    for (;;) {
      // Cleared first: an answer posted before this store is on the port now; one posted after raises it again.
      Atomics.store(this.signal, 0, 0);
      msg = this.take(seq);
      if (msg) break;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`PostgreSQL did not answer within ${this.timeoutMs} ms`);
      Atomics.wait(this.signal, 0, 0, left);
    }
    this.status = msg.status;
    if (!msg.ok) {
      const sql = body.op === 'close' ? '' : body.sql;
      throw new PgSyncError(`${msg.message}${msg.detail ? ` (${msg.detail})` : ''}`, msg.code, sql);
    }
    return msg;
  }

  /** The answer to call `seq` if it is on the port; answers to earlier calls (given up at their timeout) are dropped. */
  private take(seq: number): PgReply | undefined {
    for (;;) {
      const msg = receiveMessageOnPort(this.port)?.message as PgReply | undefined;
      if (!msg || msg.seq === seq) return msg;
    }
  }

  /** One statement in PG's own dialect, with `$n` parameters. */
  query(sql: string, params: unknown[] = [], raw = false, atomic = false): { rows: unknown[]; rowCount: number } {
    return this.call({ op: 'query', sql, params, raw, atomic });
  }

  /** Day partitions known to exist, per table (`${table}:${from}`). */
  private readonly partitions = new Set<string>();
  /** Tables an INSERT gave explicit ids to since their sequence was last moved. */
  private readonly lagging = new Set<string>();

  /**
   * Creates the day partition a row needs before it is inserted (no DEFAULT partition, on purpose: see
   * CONTEXT.md); `IF NOT EXISTS` covers another node having made it. Today's and yesterday's are made once per
   * day and table per process: the retention never takes a day that recent (POSITION_RETENTION_DAYS ≥ 1). An
   * older day is asked each time, never remembered: the retention leader may have detached or dropped it since
   * (server/retention/pg-partitions.ts), and a remembered partition that is gone fails every INSERT of its day.
   * The history batch writes such days into their day tables directly (positions-batch.ts).
   */
  ensurePartition(table: string, ms: number): void {
    const { name, sql } = partitionDdl(table, ms);
    if (this.partitions.has(name)) return;
    this.call({ op: 'exec', sql });
    if (chinaDayIndex(ms) >= chinaDayIndex(Date.now()) - 1) this.partitions.add(name);
  }

  idsGivenIn(table: string): void {
    this.lagging.add(table);
  }

  /** After explicit ids (seeds, permission sync), moves the identity past them before a generated one. */
  syncIdSequence(table: string): void {
    if (!this.lagging.delete(table)) return;
    this.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), greatest((SELECT max(id) FROM "${table.replaceAll('"', '""')}"), 0) + 1, false)`, [`"${table}"`]);
  }

  /** A script in PostgreSQL's own dialect (simple query protocol: `$$` bodies, several statements). */
  execPg(sql: string): void {
    this.call({ op: 'exec', sql });
  }

  /** New schema facts (after migrations): statements are translated again with them. */
  setCatalog(catalog: PgCatalog): void {
    this.catalog = catalog;
    this.cache.clear();
  }

  /** Translates once per distinct text (the statement cache better-sqlite3 users rely on implicitly). */
  translated(sql: string): Translated {
    let t = this.cache.get(sql);
    if (!t) {
      t = translate(sql, this.catalog);
      this.cache.set(sql, t);
    }
    return t;
  }

  /**
   * Never touches the server (as better-sqlite3 compiles without running). A statement the translator
   * cannot carry over fails when it runs, not here: services prepare everything at start-up, and one
   * SQLite-only statement must not keep the rest of a service from working.
   */
  prepare(sql: string): PgStatement {
    let t: Translated;
    try {
      t = this.translated(sql);
    } catch (err) {
      return new PgStatement(this, sql, { text: '', params: [], returningId: false, reader: true, beginWrite: false }, err as Error);
    }
    return new PgStatement(this, sql, t);
  }

  /** Runs a script of statements without parameters (SQLite dialect, translated one by one). */
  exec(script: string): this {
    const parts: string[] = [];
    for (const stmt of splitStatements(script)) {
      const t = this.translated(stmt);
      parts.push(t.text);
      if (t.beginWrite) parts.push(`SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY})`);
    }
    if (parts.length > 0) this.call({ op: 'exec', sql: parts.join(';\n') });
    if (parts.some((p) => /^ROLLBACK\b/i.test(p))) this.partitions.clear(); // partitions made inside were undone
    return this;
  }

  get inTransaction(): boolean {
    return this.status !== 'I';
  }

  pragma(source: string): never {
    throw new Error(`PRAGMA ${source} is SQLite-only; this database is PostgreSQL`);
  }

  /**
   * better-sqlite3's `transaction`: BEGIN … COMMIT around a synchronous function, a SAVEPOINT when nested,
   * ROLLBACK when it throws. `.immediate`/`.exclusive` also take the write advisory lock (one writer
   * transaction across nodes, as SQLite's BEGIN IMMEDIATE within one file).
   */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): TxFn<A, R> {
    const make = (lock: boolean) => (...args: A): R => {
      if (this.inTransaction) {
        const sp = `sp${++this.savepoints}`;
        this.call({ op: 'exec', sql: `SAVEPOINT ${sp}` });
        try {
          const r = fn(...args);
          this.call({ op: 'exec', sql: `RELEASE ${sp}` });
          return r;
        } catch (err) {
          if (this.inTransaction) this.call({ op: 'exec', sql: `ROLLBACK TO ${sp}; RELEASE ${sp}` });
          this.partitions.clear(); // a partition made inside was undone with it
          throw err;
        } finally {
          this.savepoints--;
        }
      }
      try {
        this.call({ op: 'exec', sql: lock ? `BEGIN; SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY})` : 'BEGIN' });
      } catch (err) {
        // BEGIN ran and the lock timed out (lock_timeout): the transaction is open and failed; end it.
        if (this.inTransaction) this.call({ op: 'exec', sql: 'ROLLBACK' });
        throw err;
      }
      try {
        const r = fn(...args);
        if (r instanceof Promise) throw new TypeError('Transaction function cannot return a promise');
        this.call({ op: 'exec', sql: 'COMMIT' });
        return r;
      } catch (err) {
        if (this.inTransaction) this.call({ op: 'exec', sql: 'ROLLBACK' });
        this.partitions.clear(); // a partition made inside was undone with it
        throw err;
      }
    };
    const deferred = make(false);
    const immediate = make(true);
    return Object.assign(deferred, { deferred, immediate, exclusive: immediate, default: deferred });
  }

  close(): this {
    if (!this.open) return this;
    try {
      this.call({ op: 'close' });
    } catch {
      // Closing a connection that already broke: the worker is ended below either way.
    }
    this.open = false;
    void this.worker.terminate();
    this.port.close();
    return this;
  }
}

/** Reads the schema facts the translator needs (tables with `id`, primary keys) from the connection. */
export function readCatalog(db: PgSyncDb): PgCatalog {
  const idTables = new Set(
    (db.query("SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'id'").rows as { table_name: string }[])
      .map((r) => r.table_name),
  );
  const primaryKeys = new Map<string, string[]>();
  const pkRows = db.query(`
    SELECT tc.table_name, kcu.column_name
      FROM information_schema.table_constraints tc
      JOIN information_schema.key_column_usage kcu
        ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
     WHERE tc.table_schema = 'public' AND tc.constraint_type = 'PRIMARY KEY'
     ORDER BY tc.table_name, kcu.ordinal_position`).rows as { table_name: string; column_name: string }[];
  for (const r of pkRows) {
    const cols = primaryKeys.get(r.table_name) ?? [];
    cols.push(r.column_name);
    primaryKeys.set(r.table_name, cols);
  }
  const partitioned = new Map<string, string>();
  for (const [table, key] of DAY_PARTITIONED) {
    const exists = (db.query('SELECT to_regclass($1) IS NOT NULL AS ok', [`public."${table}"`]).rows[0] as { ok: boolean }).ok;
    if (exists) partitioned.set(table, key);
  }
  const rowidTables = new Set(
    (db.query("SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'rowid'").rows as { table_name: string }[])
      .map((r) => r.table_name),
  );
  return { idTables, primaryKeys, partitioned, rowidTables };
}
