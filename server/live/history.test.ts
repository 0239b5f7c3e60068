import { describe, expect, it } from 'vitest';
import type { PositionRepository, PositionRow } from '../db/repositories.ts';
import { BatchedHistoryWriter } from './history.ts';

class RecordingRepo implements PositionRepository {
  readonly batches: PositionRow[][] = [];
  failNext = 0;
  /** Rows to answer as already stored (the SQLite repository's INSERT OR IGNORE). */
  skip: ((r: PositionRow) => boolean) | undefined;
  async append(rows: readonly PositionRow[]): Promise<readonly PositionRow[] | void> {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('disk full');
    }
    const stored = this.skip ? rows.filter((r) => !this.skip!(r)) : rows;
    this.batches.push([...stored]);
    if (stored.length < rows.length) return stored;
  }
  async latestPerVehicle(): Promise<PositionRow[]> { return []; }
  async latestOf(): Promise<PositionRow[]> { return []; }
  async range(): Promise<PositionRow[]> { return []; }
  lateWrites(): number { return 0; }
  get rows(): number { return this.batches.reduce((n, b) => n + b.length, 0); }
}

const row = (i: number): PositionRow => ({
  vehicleId: 1 + (i % 50), gpsTime: 1_700_000_000_000 + i * 1000, lng: 120, lat: 30, speed: 10, heading: 0, altitude: 0, status: 3, alarm: 0,
  mileage: null, receivedAt: 1_700_000_000_000 + i * 1000,
});

describe('the batched history writer', () => {
  it('writes 10,000 queued rows in batches of at most maxRows, not one transaction per row', async () => {
    const repo = new RecordingRepo();
    const writer = new BatchedHistoryWriter(repo, { flushMs: 10_000, maxRows: 2000 });
    for (let i = 0; i < 10_000; i++) writer.enqueue(row(i));
    await writer.close();
    expect(repo.rows).toBe(10_000);
    expect(repo.batches.length).toBeLessThanOrEqual(5);
    expect(repo.batches.flat().map((r) => r.gpsTime)).toEqual(Array.from({ length: 10_000 }, (_, i) => row(i).gpsTime));
  });

  it('flushes on its own after flushMs', async () => {
    const repo = new RecordingRepo();
    const writer = new BatchedHistoryWriter(repo, { flushMs: 20, maxRows: 1000 });
    writer.enqueue(row(1));
    writer.enqueue(row(2));
    await new Promise((r) => setTimeout(r, 80));
    expect(repo.batches).toEqual([[row(1), row(2)]]);
    await writer.close();
  });

  it('keeps rows whose flush failed and writes them, in order, on the next flush', async () => {
    const repo = new RecordingRepo();
    const writer = new BatchedHistoryWriter(repo, { flushMs: 10_000, maxRows: 1000 });
    writer.enqueue(row(1));
    repo.failNext = 1;
    await expect(writer.flush()).rejects.toThrow('disk full');
    expect(writer.pending).toBe(1);
    writer.enqueue(row(2));
    await writer.flush();
    expect(repo.batches).toEqual([[row(1), row(2)]]);
    await writer.close();
  });

  it('group commit: afterCommit runs only once the rows queued before it are committed, in order, and a failed flush holds it', async () => {
    const repo = new RecordingRepo();
    const writer = new BatchedHistoryWriter(repo, { flushMs: 10_000, maxRows: 1000 });
    const acked: string[] = [];
    writer.afterCommit(() => acked.push('nothing queued'));
    expect(acked).toEqual(['nothing queued']);
    writer.enqueue(row(1));
    writer.afterCommit(() => acked.push(`ack 1 (${repo.rows} rows written)`));
    writer.afterCommit(() => acked.push('heartbeat after 1'));
    repo.failNext = 1;
    await expect(writer.flush()).rejects.toThrow('disk full');
    expect(acked).toEqual(['nothing queued']); // not written, not acknowledged: the terminal sends it again
    writer.enqueue(row(2));
    writer.afterCommit(() => acked.push(`ack 2 (${repo.rows} rows written)`));
    await writer.flush();
    expect(acked).toEqual(['nothing queued', 'ack 1 (2 rows written)', 'heartbeat after 1', 'ack 2 (2 rows written)']);
    await writer.close();
  });

  it('an acknowledgement also waits for the alarm rows queued before it (a barrier), and later ones never overtake it', async () => {
    const repo = new RecordingRepo();
    const writer = new BatchedHistoryWriter(repo, { flushMs: 10_000, maxRows: 1000 });
    const alarms = { queued: 0, settled: 0, onSettled: undefined as (() => void) | undefined };
    writer.addBarrier(alarms);
    const acked: string[] = [];
    writer.enqueue(row(1));
    alarms.queued += 1; // the report raised an alarm, still being stored
    writer.afterCommit(() => acked.push('sos report'));
    writer.enqueue(row(2));
    writer.afterCommit(() => acked.push('plain report'));
    const flushed = writer.flush();
    await new Promise((r) => setTimeout(r, 30));
    // The batch waits for the alarm row it raised (a kill now loses neither: nothing acknowledged).
    expect(repo.rows).toBe(0);
    expect(acked).toEqual([]);
    alarms.settled += 1;
    alarms.onSettled!();
    await flushed;
    expect(repo.rows).toBe(2);
    expect(acked).toEqual(['sos report', 'plain report']);
    // Nothing in flight anywhere: at once.
    writer.afterCommit(() => acked.push('heartbeat'));
    expect(acked).toEqual(['sos report', 'plain report', 'heartbeat']);
    // An alarm in flight with every position committed: waits for it alone.
    alarms.queued += 2;
    writer.afterCommit(() => acked.push('after two alarms'));
    alarms.settled += 1;
    alarms.onSettled!();
    expect(acked).toHaveLength(3);
    alarms.settled += 1;
    alarms.onSettled!();
    expect(acked.at(-1)).toBe('after two alarms');
    await writer.close();
  });

  it('counts rows the repository skipped as already stored and hands only the stored ones to onCommitted', async () => {
    const repo = new RecordingRepo();
    repo.skip = (r) => r.gpsTime === row(2).gpsTime;
    const writer = new BatchedHistoryWriter(repo, { flushMs: 10_000, maxRows: 1000 });
    const committed: PositionRow[][] = [];
    writer.onCommitted = (rows) => committed.push([...rows]);
    for (const i of [1, 2, 3]) writer.enqueue(row(i));
    await writer.flush();
    expect(committed).toEqual([[row(1), row(3)]]);
    expect(writer.stats).toMatchObject({ rowsWritten: 2, duplicates: 1 });
    await writer.close();
  });

  it('waits while the connection is inside another transaction, and refuses rows after close', async () => {
    const repo = new RecordingRepo();
    let busy = true;
    const writer = new BatchedHistoryWriter(repo, { flushMs: 10_000, maxRows: 1000, canWrite: () => !busy });
    writer.enqueue(row(1));
    const flushing = writer.flush();
    await new Promise((r) => setTimeout(r, 20));
    expect(repo.rows).toBe(0);
    busy = false;
    await flushing;
    expect(repo.rows).toBe(1);
    await writer.close();
    expect(() => writer.enqueue(row(3))).toThrow('closed');
  });
});
