import { describe, expect, it } from 'vitest';
import { daySegments } from './timeline.ts';

const c = (time: number, s: { lifted?: boolean; sealed?: boolean; loaded?: boolean }) =>
  ({ time, lifted: false, sealed: true, loaded: false, loadT: null, speed: 0, lng: 0, lat: 0, ...s });

describe('box state day bar', () => {
  it('starts from the state in force, cuts at every change, merges equal neighbours and stops at now', () => {
    const segs = daySegments(0, 100, c(-5, {}), [c(10, { loaded: true }), c(20, { loaded: true }), c(30, { loaded: true, sealed: false }), c(40, { lifted: true, loaded: true })], 50);
    expect(segs).toEqual([
      { kind: 'empty', from: 0, to: 10 },
      { kind: 'loaded', from: 10, to: 30 },
      { kind: 'unsealed', from: 30, to: 40 },
      { kind: 'lifted', from: 40, to: 50 },
    ]);
  });

  it('shows no data before the first change when nothing was recorded before the day', () => {
    expect(daySegments(0, 100, null, [c(60, {})], 200)).toEqual([{ kind: 'unknown', from: 0, to: 60 }, { kind: 'empty', from: 60, to: 100 }]);
  });
});
