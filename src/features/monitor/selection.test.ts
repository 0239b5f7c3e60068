import { describe, expect, it } from 'vitest';
import { MonitorSelection, MONITOR_MAX } from './selection.ts';
import { rectangleFromDrag } from './rectangle.ts';

describe('monitor selection', () => {
  it('accepts 100 vehicles and refuses the 101st, keeping the first 100', () => {
    const s = new MonitorSelection();
    for (let i = 1; i <= MONITOR_MAX; i++) expect(s.toggle(i)).toBe('ok');
    expect(s.toggle(101)).toBe('limit');
    expect(s.get().size).toBe(100);
    expect(s.has(101)).toBe(false);
  });

  it('refuses a batch that would pass the limit as a whole', () => {
    const s = new MonitorSelection();
    s.addAll([1, 2, 3]);
    expect(s.addAll(Array.from({ length: 98 }, (_, i) => 10 + i))).toBe('limit');
    expect([...s.get()]).toEqual([1, 2, 3]);
  });

  it('unchecks a vehicle even at the limit and notifies subscribers', () => {
    const s = new MonitorSelection(2);
    let calls = 0;
    s.subscribe(() => calls++);
    s.set([1, 2]);
    expect(s.toggle(2)).toBe('ok');
    expect([...s.get()]).toEqual([1]);
    expect(calls).toBe(2);
  });
});

describe('frame query rectangle', () => {
  it('normalises a drag in any direction into bounds', () => {
    const r = rectangleFromDrag([300, 100], [100, 200], [117, 40], [116, 39]);
    expect(r).toEqual({ ok: true, bounds: { minLng: 116, minLat: 39, maxLng: 117, maxLat: 40 } });
  });

  it('calls a click, a line or a drag that left the map incomplete', () => {
    expect(rectangleFromDrag([100, 100], [101, 300], [116, 39], [116.001, 38])).toEqual({ ok: false, reason: 'incomplete' });
    expect(rectangleFromDrag([100, 100], undefined, [116, 39], undefined)).toEqual({ ok: false, reason: 'incomplete' });
    expect(rectangleFromDrag([1, 1], [50, 50], [Number.NaN, 1], [2, 2]).ok).toBe(false);
  });
});
