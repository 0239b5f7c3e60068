/**
 * The worker behind `PgSyncDb`: owns one PostgreSQL connection and answers one request at a time.
 * The main thread posts a request and blocks in `Atomics.wait`; the answer (carrying the request's `seq`) goes
 * on the port first, then the flag is raised and notified, so the main thread finds it with `receiveMessageOnPort`.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import pg from 'pg';
import type { PgAnswer, PgReply, PgRequest } from './sync-db.ts';

const { url, port, flag } = workerData as { url: string; port: MessagePort; flag: SharedArrayBuffer };
const signal = new Int32Array(flag);

// Counts (int8) and sums (numeric) would arrive as strings; the code written for SQLite reads numbers.
// Every id and epoch-ms value is far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));
// SQLite has no boolean: `x IS NULL AS gone`, EXISTS(…) answer 0/1 there, and the code compares with 1.
pg.types.setTypeParser(16, (v) => (v === 't' ? 1 : 0));

const client = new pg.Client({ connectionString: url });
/** Transaction status of the last ReadyForQuery: 'I' idle, 'T' in a transaction, 'E' failed one. */
let status = 'I';
(client as unknown as { connection: { on(e: string, f: (m: { status: string }) => void): void } }).connection
  .on('readyForQuery', (m) => { status = m.status; });
// A connection the server ends while idle (a restart, pg_terminate_backend, a dropped database) is an
// 'error' event on the client: without a listener it is an uncaught exception that ends the whole server
// process. It is kept instead, and the next request is answered with it.
let lost: (Error & { code?: string }) | undefined;
client.on('error', (err) => { lost = err; });
const ready = client.connect();
// A failed connect is answered to the first request; this keeps it from being an unhandled rejection.
ready.catch(() => undefined);

/**
 * pg rejects a query at its ErrorResponse; the ReadyForQuery after it (the transaction status the error left: 'E' in
 * a failed transaction, 'I' after a failed COMMIT or a failed statement outside one) may come in a later TCP chunk,
 * after the rejection ran. Answering then would report the status from BEFORE the error, and the main thread would
 * believe a transaction open that is not, or none that is (seen under load: "SAVEPOINT can only be used in
 * transaction blocks" on every later write). So an error is answered once the connection is ready again (bounded).
 */
async function afterReadyForQuery(): Promise<void> {
  const state = client as unknown as { readyForQuery: boolean };
  const until = Date.now() + 5000;
  while (!state.readyForQuery && !lost && Date.now() < until) await new Promise((r) => setImmediate(r));
}

function answer(seq: number, reply: PgAnswer): void {
  port.postMessage({ ...reply, seq } satisfies PgReply);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

/** Structured clone turns a Buffer into a plain Uint8Array; pg binds only Buffers as bytea. */
function param(v: unknown): unknown {
  if (v instanceof Uint8Array && !Buffer.isBuffer(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
}

port.on('message', (req: PgRequest) => {
  void (async () => {
    try {
      await ready;
      if (req.op === 'close') {
        if (!lost) await client.end();
        answer(req.seq, { ok: true, rows: [], rowCount: 0, status: 'I' });
        return;
      }
      if (lost) {
        answer(req.seq, { ok: false, message: `the PostgreSQL connection was lost: ${lost.message}`, code: lost.code ?? '08006', detail: undefined, status: 'I' });
        return;
      }
      if (req.op === 'exec') {
        // Simple query protocol: several statements in one round trip, no parameters.
        await client.query(req.sql);
        answer(req.seq, { ok: true, rows: [], rowCount: 0, status });
        return;
      }
      const query = { text: req.sql, values: req.params.map(param) };
      const run = () => (req.raw ? client.query({ ...query, rowMode: 'array' }) : client.query(query));
      let res: Awaited<ReturnType<typeof run>>;
      if (req.atomic) {
        // A savepoint around the statement: its failure rolls back to it, and the transaction goes on.
        await client.query('SAVEPOINT pg_stmt');
        try {
          res = await run();
        } catch (err) {
          await client.query('ROLLBACK TO SAVEPOINT pg_stmt; RELEASE SAVEPOINT pg_stmt');
          throw err;
        }
        await client.query('RELEASE SAVEPOINT pg_stmt');
      } else {
        res = await run();
      }
      answer(req.seq, { ok: true, rows: res.rows as unknown[], rowCount: res.rowCount ?? 0, status });
    } catch (err) {
      const e = err as { message?: string; code?: string; detail?: string };
      await afterReadyForQuery();
      answer(req.seq, { ok: false, message: e.message ?? String(err), code: e.code, detail: e.detail, status });
    }
  })();
});
