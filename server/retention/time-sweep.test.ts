import { describe, expect, it } from 'vitest';
import { openSqlite } from '../db/sqlite.ts';
import { TIME_SWEEP_BATCH, timeSweep } from './time-sweep.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 28, 4);

describe('time sweep', () => {
  it('removes every row older than the kept days in batches, yielding between them, and keeps the recent ones', async () => {
    const db = openSqlite(':memory:');
    db.exec('CREATE TABLE reading (vehicle_id INTEGER NOT NULL, time INTEGER NOT NULL)');
    const put = db.prepare('INSERT INTO reading (vehicle_id, time) VALUES (?, ?)');
    const old = TIME_SWEEP_BATCH * 2 + 500;
    db.transaction(() => {
      for (let i = 0; i < old; i++) put.run(i % 7, NOW - 31 * DAY - i);
      for (let i = 0; i < 3; i++) put.run(i, NOW - 29 * DAY + i);
    })();

    let turns = 0;
    const tick = () => { turns++; if (turns < 100) setImmediate(tick); };
    setImmediate(tick);
    const task = timeSweep(db, { name: 'reading', table: 'reading', timeColumn: 'time', counter: 'readings', keepDays: () => 30, clock: () => NOW });
    const answer = await task.sweep();

    expect(task.name).toBe('reading');
    expect(answer).toEqual({ readings: old });
    expect(db.prepare('SELECT COUNT(*) AS n FROM reading').get()).toEqual({ n: 3 });
    // Three batches: the event loop had turns between them (other requests are served meanwhile).
    expect(turns).toBeGreaterThanOrEqual(2);
    expect(await task.sweep()).toEqual({ readings: 0 });
    db.close();
  });
});
