import { describe, expect, it } from 'vitest';
import { aggregate, median, merge, renderMarkdown, type BenchResult } from './results.ts';

const ctx = { date: '2026-11-27T23:00:00.000Z', commit: 'abc1234567', machine: 'Test CPU, 2 cores', node: 'v20.20.0', quick: false, rounds: 3 };

describe('benchmark rounds', () => {
  it('take the median, not the best round', () => {
    expect(median([9, 1, 5])).toBe(5);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([NaN, 7])).toBe(7);
  });

  it('become one figure per name and metric with its spread, baseline and ratio over the rounds', () => {
    const figures = aggregate([
      [{ name: 'fan-out', metric: 'p50', value: 10, unit: 'ms', baseline: 20, ratio: 0.5 }, { name: 'fan-out', metric: 'p95', value: 30, unit: 'ms' }],
      [{ name: 'fan-out', metric: 'p50', value: 14, unit: 'ms', baseline: 21, ratio: 0.67 }],
      [{ name: 'fan-out', metric: 'p50', value: 12, unit: 'ms', baseline: 30, ratio: 0.4 }, { name: 'fan-out', metric: 'p95', value: 50, unit: 'ms' }],
    ]);
    expect(figures.map((f) => f.metric)).toEqual(['p50', 'p95']);
    expect(figures[0]).toMatchObject({ median: 12, min: 10, max: 14, baseline: { median: 21, min: 20, max: 30 }, ratio: { median: 0.5, min: 0.4, max: 0.67 } });
    // A figure a round did not report keeps only the values measured: two, not three.
    expect(figures[1]!.values).toEqual([30, 50]);
    expect(figures[1]!.baseline).toBeUndefined();
  });

  it('of a partial run replace only that bench file\'s entry', () => {
    const old: BenchResult[] = [
      { ...ctx, file: 'a.bench.ts', figures: [], failures: [] },
      { ...ctx, file: 'b.bench.ts', figures: [], failures: [] },
    ];
    const merged = merge({ benches: old }, [{ ...ctx, commit: 'new', file: 'b.bench.ts', figures: [], failures: [] }]);
    expect(merged.benches.map((b) => `${b.file}@${b.commit}`)).toEqual(['a.bench.ts@abc1234567', 'b.bench.ts@new']);
  });

  it('are published as a table with the median, the spread, the run\'s commit and a quick run marked', () => {
    const figures = aggregate([[{ name: 'decode', metric: 'frames/s', value: 1000, unit: '1/s', baseline: 500, ratio: 2 }], [{ name: 'decode', metric: 'frames/s', value: 1200, unit: '1/s', baseline: 500, ratio: 2.4 }]]);
    const md = renderMarkdown({ benches: [{ ...ctx, quick: true, rounds: 2, file: 'decode.bench.ts', figures, failures: ['round 2: Error: boom\n  at x'] }] });
    expect(md).toContain('## decode.bench.ts');
    expect(md).toContain('commit `abc1234567`');
    expect(md).toContain('**quick**');
    expect(md).toContain('| decode | frames/s | 1,100 | 1,000–1,200 | 1/s | 500 | 2.20× (2.00–2.40) | 2 |');
    expect(md).toContain('> A round failed: round 2: Error: boom');
  });
});
