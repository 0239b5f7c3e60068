import { describe, expect, it } from 'vitest';
import { RetentionScheduler, type RetentionTask } from './scheduler.ts';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

function task(name: string, opts: { fail?: boolean; ms?: number } = {}): RetentionTask & { runs: number; halted: number } {
  const t = {
    name, runs: 0, halted: 0,
    async sweep() {
      t.runs++;
      if (opts.ms) await wait(opts.ms);
      if (opts.fail) throw new Error(`${name} broke`);
      return { runs: t.runs };
    },
    halt() {
      t.halted++;
    },
  };
  return t;
}

describe('retention scheduler', () => {
  it('sweeps every task at start and again each interval, one after another', async () => {
    const s = new RetentionScheduler({ intervalMs: 50 });
    const a = task('a');
    const b = task('b');
    s.add(a);
    s.add(b);
    s.start();
    await wait(10);
    expect([a.runs, b.runs]).toEqual([1, 1]);
    await wait(120);
    expect(a.runs).toBeGreaterThanOrEqual(2);
    expect(b.runs).toBe(a.runs);
    await s.stop();
    const after = a.runs;
    await wait(120);
    // Stopped: no more sweeps (a timer left running would keep deleting during shutdown).
    expect(a.runs).toBe(after);
  });

  it('on a follower of a cluster runs only the per-node tasks; on the leader every task (issue 20)', async () => {
    let leader = false;
    const s = new RetentionScheduler({ isLeader: () => leader });
    const shared = task('shared');
    const own = Object.assign(task('own'), { perNode: true });
    s.add(shared);
    s.add(own);
    expect(Object.keys(await s.runAll())).toEqual(['own']);
    expect([shared.runs, own.runs]).toEqual([0, 1]);
    leader = true;
    expect(Object.keys(await s.runAll())).toEqual(['shared', 'own']);
    expect([shared.runs, own.runs]).toEqual([1, 2]);
  });

  it('keeps sweeping the other kinds when one fails, and logs the failure', async () => {
    const warned: string[] = [];
    const s = new RetentionScheduler({ log: { warn: (o, msg) => warned.push(`${(o as { task: string }).task}: ${msg}`) } });
    const broken = task('broken', { fail: true });
    const fine = task('fine');
    s.add(broken);
    s.add(fine);
    const results = await s.runAll();
    expect(results).toEqual({ fine: { runs: 1 } });
    expect(warned).toEqual(['broken: retention sweep failed']);
  });

  it('joins a sweep in progress instead of running a second one beside it, and halts it at stop', async () => {
    const s = new RetentionScheduler();
    const slow = task('slow', { ms: 50 });
    s.add(slow);
    const [x, y] = await Promise.all([s.runAll(), s.runAll()]);
    expect(slow.runs).toBe(1);
    expect(x).toBe(y);
    const running = s.runAll();
    await s.stop();
    expect(slow.halted).toBe(1);
    await running;
  });
});
