import { describe, expect, it } from 'vitest';
import { AlarmEngine, alarmQueryEarliest, DealStatus, defaultPolicy, type AlarmEvent, type AlarmReport } from './engine.ts';
import { ALARM_WINDOW_MS, defaultRiskLevel } from './sources.ts';

const T0 = Date.UTC(2026, 10, 22, 2, 0, 0);
const MIN = 60_000;
const bit = (b: number) => (1 << b) >>> 0;

function report(over: Partial<AlarmReport> & { time: number }): AlarmReport {
  return { vehicleId: 7, alarmWord: 0, status: 3, edition: 2013, speed: 40, lng: 121.47, lat: 31.23, ...over };
}

const kinds = (events: AlarmEvent[]) => events.map((e) => `${e.kind}:${e.code}`);

describe('AlarmEngine: 0x0200 alarm bits', () => {
  it('starts an alarm when a state bit rises and ends it when the bit falls', () => {
    const e = new AlarmEngine();
    const start = e.report(report({ time: T0, alarmWord: bit(1), speed: 88 }));
    expect(start).toEqual([expect.objectContaining({ kind: 'start', code: 12001, source: 'bit', time: T0, speed: 88, dealStatus: DealStatus.Unprocessed })]);
    expect(e.report(report({ time: T0 + 10_000, alarmWord: bit(1) }))).toEqual([]);
    const end = e.report(report({ time: T0 + 20_000, alarmWord: 0 }));
    expect(end).toEqual([{ kind: 'end', key: start[0]!.key, vehicleId: 7, code: 12001, time: T0 + 20_000 }]);
  });

  it('raises a pulse bit on each rise and never ends it on the fall', () => {
    const e = new AlarmEngine();
    expect(kinds(e.report(report({ time: T0, alarmWord: bit(0) })))).toEqual(['start:17001']);
    expect(e.report(report({ time: T0 + 5000, alarmWord: 0 }))).toEqual([]);
    expect(kinds(e.report(report({ time: T0 + 40 * MIN, alarmWord: bit(0) })))).toEqual(['start:17001']);
  });

  it('does not take bits primed from the last stored report for rises', () => {
    const e = new AlarmEngine();
    e.prime(7, bit(1));
    expect(e.report(report({ time: T0, alarmWord: bit(1) }))).toEqual([]);
  });

  it('ignores bits the edition reserves', () => {
    const e = new AlarmEngine();
    expect(e.report(report({ time: T0, alarmWord: bit(15), edition: 2013 }))).toEqual([]);
    expect(kinds(new AlarmEngine().report(report({ time: T0, alarmWord: bit(15), edition: 2019 })))).toEqual(['start:17003']);
  });
});

describe('AlarmEngine: ADAS and DMS items', () => {
  it('starts on an item with flag 1 and ends on flag 2 of the same type', () => {
    const e = new AlarmEngine();
    expect(kinds(e.report(report({ time: T0, adas: { type: 1, flag: 1 } })))).toEqual(['start:10006']);
    expect(e.isActive(7, 10006)).toBe(true);
    expect(kinds(e.report(report({ time: T0 + 3000, adas: { type: 1, flag: 2 } })))).toEqual(['end:10006']);
    expect(e.isActive(7, 10006)).toBe(false);
  });

  it('raises a DMS event with flag 0 as an instant alarm from the dms source', () => {
    const events = new AlarmEngine().report(report({ time: T0, dms: { type: 2, flag: 0 } }));
    expect(events).toEqual([expect.objectContaining({ kind: 'start', code: 10002, source: 'dms' })]);
  });

  it('ignores reserved item types', () => {
    expect(new AlarmEngine().report(report({ time: T0, adas: { type: 0x08, flag: 1 }, dms: { type: 0x0f, flag: 1 } }))).toEqual([]);
  });
});

describe('AlarmEngine: the 30-minute window', () => {
  it('merges two rises 10 minutes apart into one alarm with count 2', () => {
    const e = new AlarmEngine();
    const [first] = e.report(report({ time: T0, alarmWord: bit(1) }));
    e.report(report({ time: T0 + 2 * MIN, alarmWord: 0 }));
    const merged = e.report(report({ time: T0 + 10 * MIN, alarmWord: bit(1) }));
    expect(merged).toEqual([{ kind: 'merge', key: first!.key, vehicleId: 7, code: 12001, time: T0 + 10 * MIN, count: 2 }]);
    expect(e.isActive(7, 12001)).toBe(true);
  });

  it('raises two alarms for rises 31 minutes apart', () => {
    const e = new AlarmEngine();
    const [first] = e.report(report({ time: T0, alarmWord: bit(1) }));
    e.report(report({ time: T0 + 2 * MIN, alarmWord: 0 }));
    const [second] = e.report(report({ time: T0 + 31 * MIN, alarmWord: bit(1) }));
    expect(second).toMatchObject({ kind: 'start', code: 12001 });
    expect(second!.key).not.toBe(first!.key);
  });

  it('keeps alarms of other vehicles and other types apart', () => {
    const e = new AlarmEngine();
    e.report(report({ time: T0, dms: { type: 3, flag: 0 } }));
    expect(kinds(e.report(report({ vehicleId: 8, time: T0 + MIN, dms: { type: 3, flag: 0 } })))).toEqual(['start:10003']);
    expect(kinds(e.report(report({ time: T0 + MIN, dms: { type: 2, flag: 0 } })))).toEqual(['start:10002']);
    expect(kinds(e.report(report({ time: T0 + 2 * MIN, dms: { type: 3, flag: 0 } })))).toEqual(['merge:10003']);
  });

  it('forgets alarms past the window when pruned, answering their keys, and a later repeat starts afresh', () => {
    const e = new AlarmEngine();
    const [first] = e.report(report({ time: T0, dms: { type: 3, flag: 0 } }));
    expect(e.prune(T0 + ALARM_WINDOW_MS)).toEqual([]);
    expect(e.prune(T0 + ALARM_WINDOW_MS + 1)).toEqual([first!.key]);
    const [second] = e.report(report({ time: T0 + ALARM_WINDOW_MS + 2, dms: { type: 3, flag: 0 } }));
    expect(second).toMatchObject({ kind: 'start', code: 10003 });
    // An alarm replaced by a new one without a prune in between is reported by the next prune.
    e.report(report({ time: T0 + 3 * ALARM_WINDOW_MS, dms: { type: 3, flag: 0 } }));
    expect(e.prune(T0 + 3 * ALARM_WINDOW_MS)).toEqual([second!.key]);
  });
});

describe('AlarmEngine: restored alarms', () => {
  it('merges a repeat into a restored alarm and ends a restored held alarm when its bit falls', () => {
    const e = new AlarmEngine();
    e.prime(7, bit(1));
    const held = e.restore(7, 12001, { lastTime: T0, count: 3, active: true });
    const recent = e.restore(7, 10002, { lastTime: T0, count: 1, active: false });
    expect(e.report(report({ time: T0 + MIN, alarmWord: 0, dms: { type: 2, flag: 0 } }))).toEqual([
      { kind: 'end', key: held, vehicleId: 7, code: 12001, time: T0 + MIN },
      { kind: 'merge', key: recent, vehicleId: 7, code: 10002, time: T0 + MIN, count: 2 },
    ]);
  });
});

describe('AlarmEngine: company policy', () => {
  it('raises nothing for a disabled type and nothing merges into it', () => {
    const e = new AlarmEngine((_v, code) => ({ ...defaultPolicy(code), enabled: code !== 12001 }));
    expect(e.report(report({ time: T0, alarmWord: bit(1) }))).toEqual([]);
    expect(kinds(e.report(report({ time: T0 + 1000, alarmWord: bit(1) | bit(0) })))).toEqual(['start:17001']);
  });

  it('starts an auto-handle type as automatically processed with the policy risk level', () => {
    const e = new AlarmEngine(() => ({ enabled: true, autoHandle: true, riskLevel: 'low' }));
    expect(e.report(report({ time: T0, alarmWord: bit(0) }))).toEqual([expect.objectContaining({ dealStatus: DealStatus.Auto, riskLevel: 'low' })]);
  });

  it('uses the catalogue default level without company settings', () => {
    const [start] = new AlarmEngine().report(report({ time: T0, adas: { type: 1, flag: 0 } }));
    expect(start).toMatchObject({ riskLevel: defaultRiskLevel(10006) });
  });
});

describe('AlarmEngine: platform rules', () => {
  it('holds a platform alarm until its end and does not raise it twice while held', () => {
    const e = new AlarmEngine();
    const place = { time: T0, lng: 1, lat: 2, speed: 0 };
    expect(kinds(e.platformStart(7, 11004, place))).toEqual(['start:11004']);
    expect(e.isActive(7, 11004)).toBe(true);
    expect(kinds(e.platformEnd(7, 11004, T0 + 5 * MIN))).toEqual(['end:11004']);
    expect(e.platformEnd(7, 11004, T0 + 6 * MIN)).toEqual([]);
  });
});

describe('alarmQueryEarliest', () => {
  it('reaches back three calendar months', () => {
    expect(alarmQueryEarliest(Date.UTC(2026, 10, 22))).toBe(Date.UTC(2026, 7, 22));
  });
});

describe('AlarmEngine: platform overspeed', () => {
  const SEC = 1000;
  const fast = (time: number, speed: number, vehicleId = 7) => report({ vehicleId, time, speed });

  it('raises 12003 once the speed has stayed above the limit for the duration, dated from the first report above it', () => {
    const e = new AlarmEngine();
    expect(e.report(fast(T0, 101))).toEqual([]);
    expect(e.report(fast(T0 + 5 * SEC, 120))).toEqual([]);
    const start = e.report(fast(T0 + 10 * SEC, 115));
    expect(start).toEqual([expect.objectContaining({ kind: 'start', code: 12003, source: 'platform', time: T0, speed: 101 })]);
    expect(e.isActive(7, 12003)).toBe(true);
    // Still above the limit: held, not raised again.
    expect(e.report(fast(T0 + 60 * SEC, 130))).toEqual([]);
    expect(e.report(fast(T0 + 70 * SEC, 100))).toEqual([{ kind: 'end', key: start[0]!.key, vehicleId: 7, code: 12003, time: T0 + 70 * SEC }]);
    expect(e.isActive(7, 12003)).toBe(false);
  });

  it('raises nothing for a run shorter than the duration, and a dip restarts the run', () => {
    const e = new AlarmEngine();
    expect(e.report(fast(T0, 110))).toEqual([]);
    expect(e.report(fast(T0 + 8 * SEC, 95))).toEqual([]);
    expect(e.report(fast(T0 + 9 * SEC, 110))).toEqual([]);
    expect(e.report(fast(T0 + 18 * SEC, 110))).toEqual([]);
    expect(kinds([...e.report(fast(T0 + 19 * SEC, 110))])).toEqual(['start:12003']);
  });

  it('uses the per-vehicle limit and duration, and no rule means no alarm', () => {
    const rule = (v: number) => (v === 7 ? { limitKmh: 60, minDurationMs: 0 } : undefined);
    const e = new AlarmEngine(undefined, undefined, rule);
    expect(kinds([...e.report(fast(T0, 61))])).toEqual(['start:12003']);
    expect(e.report(fast(T0, 200, 8))).toEqual([]);
    expect(e.report(fast(T0 + 60 * SEC, 200, 8))).toEqual([]);
  });

  it('merges a second run inside the 30-minute window into the same alarm', () => {
    const e = new AlarmEngine();
    expect(e.report(fast(T0, 120))).toEqual([]);
    const [start] = e.report(fast(T0 + 10 * SEC, 120));
    e.report(fast(T0 + 20 * SEC, 80));
    e.report(fast(T0 + 5 * MIN, 120));
    expect(e.report(fast(T0 + 5 * MIN + 10 * SEC, 120))).toEqual([{ kind: 'merge', key: start!.key, vehicleId: 7, code: 12003, time: T0 + 5 * MIN, count: 2 }]);
  });

  it('ends a held overspeed restored after a restart at the first report under the limit', () => {
    const e = new AlarmEngine();
    const key = e.restore(7, 12003, { lastTime: T0, count: 1, active: true });
    expect(e.report(fast(T0 + MIN, 120))).toEqual([]);
    expect(e.report(fast(T0 + 2 * MIN, 50))).toEqual([{ kind: 'end', key, vehicleId: 7, code: 12003, time: T0 + 2 * MIN }]);
  });

  it('raises nothing while the company disabled the type', () => {
    const e = new AlarmEngine((_v, code) => ({ ...defaultPolicy(code), enabled: code !== 12003 }));
    e.report(fast(T0, 120));
    expect(e.report(fast(T0 + 10 * SEC, 120))).toEqual([]);
    expect(e.report(fast(T0 + 20 * SEC, 50))).toEqual([]);
  });
});
