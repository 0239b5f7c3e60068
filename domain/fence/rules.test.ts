import { describe, expect, it } from 'vitest';
import { M_PER_DEG } from './geometry.ts';
import { FENCE_CODES, FenceEvaluator, type BoundFence, type FencePosition, type FenceTransition } from './rules.ts';
import type { Fence, FenceRule, LngLat } from './types.ts';

const CENTER: LngLat = [116.397, 39.909];
const KX = M_PER_DEG * Math.cos((CENTER[1] * Math.PI) / 180);
/** A position `x` metres east of the centre. */
const at = (x: number): LngLat => [CENTER[0] + x / KX, CENTER[1]];
const T0 = Date.parse('2026-11-28T10:00:00+08:00');

const RULE: FenceRule = { alarmIn: true, alarmOut: true, forbidIn: false, forbidOut: false, maxSpeed: null, overspeedSeconds: 0, startTime: null, endTime: null };
function fence(id: number, rule: Partial<FenceRule> = {}, radius = 500, center = CENTER): Fence {
  return { id, companyId: 1, name: `仓库${id}`, geometry: { shape: 'circle', center, radius }, rule: { ...RULE, ...rule } };
}

/** Drives one vehicle through metres-east offsets, one report every 10 s; answers every transition as "phase code fence". */
function drive(ev: FenceEvaluator, vehicleId: number, xs: readonly number[], speed = 40, t0 = T0): string[] {
  const seen: string[] = [];
  xs.forEach((x, i) => {
    const [lng, lat] = at(x);
    const p: FencePosition = { vehicleId, time: t0 + i * 10_000, lng, lat, speed };
    for (const t of ev.evaluate(p)) seen.push(label(t));
  });
  return seen;
}
const label = (t: FenceTransition): string => `${t.phase} ${t.code} ${t.fence.name}`;

describe.each(['index', 'scan'] as const)('fence rules (%s candidates)', (candidates) => {
  const make = (list: BoundFence[]): FenceEvaluator => new FenceEvaluator(list, { candidates });

  it('a vehicle driving in then out raises one enter and one leave; the first position only sets the state', () => {
    const ev = make([{ fence: fence(1), vehicleIds: [7] }]);
    // Starts inside (no alarm), leaves, comes back, leaves again.
    expect(drive(ev, 7, [0, 300, 2000, 3000, 400, 2000])).toEqual([
      `occur ${FENCE_CODES.leave} 仓库1`, `occur ${FENCE_CODES.enter} 仓库1`, `occur ${FENCE_CODES.leave} 仓库1`,
    ]);
  });

  it('GPS jitter around the edge (±15 m) after entering raises nothing more; 25 m out is a leave', () => {
    const ev = make([{ fence: fence(1), vehicleIds: [7] }]);
    expect(drive(ev, 7, [3000, 490, 510, 495, 515, 505, 490, 525])).toEqual([`occur ${FENCE_CODES.enter} 仓库1`, `occur ${FENCE_CODES.leave} 仓库1`]);
  });

  it('a vehicle not bound to the fence crossing it raises nothing', () => {
    const ev = make([{ fence: fence(1), vehicleIds: [7] }]);
    expect(drive(ev, 8, [3000, 0, 3000, 0])).toEqual([]);
  });

  it('forbidden entry is held while inside and ends on leaving; forbidden exit is held until back inside', () => {
    const ev = make([
      { fence: fence(1, { alarmIn: false, alarmOut: false, forbidIn: true }), vehicleIds: [7] },
      { fence: fence(2, { alarmIn: false, alarmOut: false, forbidOut: true }, 500, at(10_000)), vehicleIds: [7] },
    ]);
    expect(drive(ev, 7, [3000, 100, 200, 3000])).toEqual([`start ${FENCE_CODES.forbiddenEntry} 仓库1`, `end ${FENCE_CODES.forbiddenEntry} 仓库1`]);
    expect(drive(ev, 7, [10_000, 13_000, 20_000, 10_100], 40, T0 + 3_600_000)).toEqual([
      `start ${FENCE_CODES.forbiddenExit} 仓库2`, `end ${FENCE_CODES.forbiddenExit} 仓库2`,
    ]);
  });

  it('two forbidden fences holding the same code: the alarm ends only when the vehicle has left both', () => {
    const rule = { alarmIn: false, alarmOut: false, forbidIn: true };
    const ev = make([
      { fence: fence(1, rule, 1000), vehicleIds: [7] },
      { fence: fence(2, rule, 500, at(800)), vehicleIds: [7] },
    ]);
    // Into 1 (at -900), into both (at 600), out of 1 only (1200: still inside 2), out of both (5000).
    expect(drive(ev, 7, [-5000, -900, 600, 1200, 5000])).toEqual([
      `start ${FENCE_CODES.forbiddenEntry} 仓库1`, `start ${FENCE_CODES.forbiddenEntry} 仓库2`, `end ${FENCE_CODES.forbiddenEntry} 仓库2`,
    ]);
    expect(ev.holds(7, FENCE_CODES.forbiddenEntry)).toBe(false);
  });

  it('area overspeed: over the limit for the fence duration inside starts, dated from the first report over it; slowing ends', () => {
    const ev = make([{ fence: fence(1, { alarmIn: false, alarmOut: false, maxSpeed: 60, overspeedSeconds: 15 }), vehicleIds: [7] }]);
    const out: FenceTransition[] = [];
    const speeds = [30, 70, 75, 80, 50, 80];
    speeds.forEach((speed, i) => out.push(...ev.evaluate({ vehicleId: 7, time: T0 + i * 10_000, lng: CENTER[0], lat: CENTER[1], speed })));
    expect(out.map(label)).toEqual([`start ${FENCE_CODES.areaOverspeed} 仓库1`, `end ${FENCE_CODES.areaOverspeed} 仓库1`]);
    expect(out[0]!.time).toBe(T0 + 10_000);
    expect(out[0]!.speed).toBe(70);
  });

  it('a single spike over the limit, or speeding outside the fence, raises nothing', () => {
    const ev = make([{ fence: fence(1, { alarmIn: false, alarmOut: false, maxSpeed: 60, overspeedSeconds: 15 }), vehicleIds: [7] }]);
    expect(drive(ev, 7, [0, 0, 0], 30).concat(drive(ev, 7, [0], 90, T0 + 40_000), drive(ev, 7, [0], 30, T0 + 50_000))).toEqual([]);
    expect(drive(ev, 7, [5000, 5100, 5200, 5300], 120, T0 + 100_000)).toEqual([]);
  });

  it('a night window (22:00–06:00): entering at 23:00 raises, entering at noon does not', () => {
    const ev = make([{ fence: fence(1, { startTime: '22:00', endTime: '06:00', alarmOut: false }), vehicleIds: [7, 8] }]);
    expect(drive(ev, 7, [3000, 0], 40, Date.parse('2026-11-28T23:00:00+08:00'))).toEqual([`occur ${FENCE_CODES.enter} 仓库1`]);
    expect(drive(ev, 8, [3000, 0], 40, Date.parse('2026-11-28T12:00:00+08:00'))).toEqual([]);
  });

  it('a fence removed while it holds a forbidden entry ends it; a fence added later sees vehicles inside without an alarm', () => {
    const ev = make([{ fence: fence(1, { forbidIn: true, alarmIn: false }), vehicleIds: [7] }]);
    expect(drive(ev, 7, [3000, 0])).toEqual([`start ${FENCE_CODES.forbiddenEntry} 仓库1`]);
    expect(ev.replace([{ fence: fence(2, {}, 500, at(5000)), vehicleIds: [7] }], T0 + 60_000).map(label)).toEqual([`end ${FENCE_CODES.forbiddenEntry} 仓库1`]);
    // Vehicle 7 was last seen far from the new fence 2; its first position inside 2 only sets the state.
    expect(drive(ev, 7, [5000, 5100, 9000], 40, T0 + 120_000)).toEqual([`occur ${FENCE_CODES.leave} 仓库2`]);
  });

  it('an unchanged fence keeps the state across a reload (no second enter)', () => {
    const list = [{ fence: fence(1), vehicleIds: [7] }];
    const ev = make(list);
    expect(drive(ev, 7, [3000, 0])).toEqual([`occur ${FENCE_CODES.enter} 仓库1`]);
    expect(ev.replace([{ fence: fence(1), vehicleIds: [7] }, { fence: fence(3, {}, 500, at(20_000)), vehicleIds: [9] }], T0)).toEqual([]);
    expect(drive(ev, 7, [10, 3000], 40, T0 + 60_000)).toEqual([`occur ${FENCE_CODES.leave} 仓库1`]);
  });
});

describe('index against scan', () => {
  it('answers the same transitions as a scan of every bound fence on a random drive through overlapping fences', () => {
    let s = 11;
    const rnd = (): number => ((s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0) / 4_294_967_296);
    const list: BoundFence[] = [];
    for (let i = 0; i < 300; i++) {
      const c = at((rnd() - 0.5) * 20_000);
      const center: LngLat = [c[0], c[1] + ((rnd() - 0.5) * 20_000) / M_PER_DEG];
      const x = rnd();
      const rule: Partial<FenceRule> = { forbidIn: x < 0.3, forbidOut: x > 0.8, maxSpeed: x > 0.5 ? 40 : null, overspeedSeconds: 20 };
      list.push({ fence: fence(i + 1, rule, 200 + rnd() * 1500, center), vehicleIds: Array.from({ length: 40 }, (_, k) => 1 + ((i * 7 + k) % 200)) });
    }
    const a = new FenceEvaluator(list, { candidates: 'index' });
    const b = new FenceEvaluator(list, { candidates: 'scan' });
    const pos = Array.from({ length: 200 }, () => [(rnd() - 0.5) * 20_000, (rnd() - 0.5) * 20_000]);
    let transitions = 0;
    for (let step = 0; step < 40; step++) {
      pos.forEach((xy, v) => {
        xy[0]! += (rnd() - 0.5) * 1200;
        xy[1]! += (rnd() - 0.5) * 1200;
        const p: FencePosition = { vehicleId: v + 1, time: T0 + step * 10_000, lng: at(xy[0]!)[0], lat: CENTER[1] + xy[1]! / M_PER_DEG, speed: rnd() * 80 };
        const x = a.evaluate(p).map(label).sort();
        expect(b.evaluate(p).map(label).sort()).toEqual(x);
        transitions += x.length;
      });
    }
    expect(transitions).toBeGreaterThan(100); // the drive did cross fences
  });
});
