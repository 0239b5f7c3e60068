/**
 * `FenceEvaluator.update` (one fence created, changed, renamed or removed, at the cost of that fence)
 * must answer exactly what a full `replace` with the whole list answers, and leave the same state:
 * two evaluators fed the same positions and the same edits, one patched and one rebuilt, must raise
 * the same transitions at every step; and after the edits, a freshly built evaluator sees every vehicle
 * inside the same fences.
 */
import { describe, expect, it } from 'vitest';
import { M_PER_DEG } from './geometry.ts';
import { FenceEvaluator, type BoundFence, type FenceTransition } from './rules.ts';
import type { FenceGeometry, FenceRule, LngLat } from './types.ts';

const CENTER: LngLat = [116.4, 39.9];
const KX = M_PER_DEG * Math.cos((CENTER[1] * Math.PI) / 180);
const T0 = Date.parse('2026-11-28T10:00:00+08:00');
const VEHICLES = 40;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 4_294_967_296;
  };
}
const off = (eastM: number, northM: number): LngLat => [CENTER[0] + eastM / KX, CENTER[1] + northM / M_PER_DEG];

function geometry(rnd: () => number): FenceGeometry {
  const c = off((rnd() - 0.5) * 6000, (rnd() - 0.5) * 6000);
  const k = rnd();
  // Now and then a fence over ~30 km: it lives in the index's R-tree, not the grid.
  if (k < 0.08) return { shape: 'circle', center: c, radius: 20_000 + rnd() * 20_000 };
  if (k < 0.45) return { shape: 'circle', center: c, radius: 200 + rnd() * 1500 };
  if (k < 0.75) {
    const w = 400 + rnd() * 2500, h = 400 + rnd() * 2500;
    return { shape: 'rect', sw: [c[0] - w / 2 / KX, c[1] - h / 2 / M_PER_DEG], ne: [c[0] + w / 2 / KX, c[1] + h / 2 / M_PER_DEG] };
  }
  const n = 5 + Math.floor(rnd() * 8), r = 500 + rnd() * 1500;
  const points: LngLat[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n, ri = r * (0.5 + 0.5 * rnd());
    points.push([c[0] + (ri * Math.cos(a)) / KX, c[1] + (ri * Math.sin(a)) / M_PER_DEG]);
  }
  return { shape: 'polygon', points };
}

function rule(rnd: () => number): FenceRule {
  const x = rnd();
  return {
    alarmIn: x < 0.5, alarmOut: x < 0.6, forbidIn: x >= 0.5 && x < 0.7, forbidOut: x >= 0.6 && x < 0.8,
    maxSpeed: x >= 0.3 && x < 0.9 ? 40 : null, overspeedSeconds: 20, startTime: null, endTime: null,
  };
}

function bindings(rnd: () => number): number[] {
  const ids: number[] = [];
  for (let v = 1; v <= VEHICLES; v++) if (rnd() < 0.5) ids.push(v);
  // Unsorted, with a repeat, as a caller may hand them over.
  return rnd() < 0.3 ? [...ids.reverse(), ...(ids.length > 0 ? [ids[0]!] : [])] : ids;
}

const label = (t: FenceTransition): string => `${t.vehicleId} ${t.phase} ${t.code} ${t.fence.id} ${t.fence.name} ${t.time}`;
const labels = (ts: readonly FenceTransition[]): string[] => ts.map(label).sort();

describe.each(['index', 'scan'] as const)('FenceEvaluator.update (%s candidates)', (candidates) => {
  it('a run of creates, edits, rebinds, renames and removes answers what a full rebuild answers, step by step', () => {
    const rnd = rng(candidates === 'index' ? 17 : 23);
    let nextId = 1;
    const list = new Map<number, BoundFence>();
    const make = (): BoundFence => {
      const id = nextId++;
      return { fence: { id, companyId: 1, name: `f${id}`, geometry: geometry(rnd), rule: rule(rnd) }, vehicleIds: bindings(rnd) };
    };
    for (let i = 0; i < 30; i++) {
      const b = make();
      list.set(b.fence.id, b);
    }
    const patched = new FenceEvaluator([...list.values()], { candidates });
    const rebuilt = new FenceEvaluator([...list.values()], { candidates });
    const pos = Array.from({ length: VEHICLES }, () => off((rnd() - 0.5) * 8000, (rnd() - 0.5) * 8000));
    const heading = pos.map(() => rnd() * 2 * Math.PI);
    let time = T0, transitions = 0, ends = 0;
    for (let step = 0; step < 120; step++) {
      time += 10_000;
      for (let v = 1; v <= VEHICLES; v++) {
        heading[v - 1] = heading[v - 1]! + (rnd() - 0.5) * 1.2;
        const m = v % 3 === 0 ? 5 : 250; // a third wander about where they park
        const [lng, lat] = pos[v - 1]!;
        pos[v - 1] = [lng + (m * Math.sin(heading[v - 1]!)) / KX, lat + (m * Math.cos(heading[v - 1]!)) / M_PER_DEG];
        const p = { vehicleId: v, time, lng: pos[v - 1]![0], lat: pos[v - 1]![1], speed: 20 + rnd() * 40 };
        const a = labels(patched.evaluate(p));
        expect(a).toEqual(labels(rebuilt.evaluate(p)));
        transitions += a.length;
      }
      // One to three edits between two rounds of reports.
      for (let e = Math.floor(rnd() * 3) + 1; e > 0; e--) {
        const ids = [...list.keys()];
        const id = ids[Math.floor(rnd() * ids.length)]!;
        const was = list.get(id)!;
        const k = rnd();
        let next: BoundFence | null;
        if (k < 0.15) next = make();
        else if (k < 0.3) next = null;
        else if (k < 0.45) next = { ...was, fence: { ...was.fence, name: `${was.fence.name}'` } };
        else if (k < 0.6) next = { ...was, fence: { ...was.fence, rule: rule(rnd) } };
        else if (k < 0.8) next = { ...was, fence: { ...was.fence, geometry: geometry(rnd) } };
        else next = { ...was, vehicleIds: bindings(rnd) };
        const changedId = next === null ? id : next.fence.id;
        if (next === null) list.delete(id);
        else list.set(next.fence.id, next);
        const a = labels(patched.update(changedId, next, time));
        expect(a).toEqual(labels(rebuilt.replace([...list.values()], time)));
        ends += a.length;
        expect(patched.fenceCount).toBe(list.size);
      }
    }
    // The run did cross fences and let go of held ones on edits (else it proved nothing).
    expect(transitions).toBeGreaterThan(100);
    expect(ends).toBeGreaterThan(0);
    expect(patched.changedBindings).toBeGreaterThan(0);

    // A freshly built evaluator over the final fences sees each vehicle inside the same fences.
    const fresh = new FenceEvaluator([...list.values()], { candidates });
    const inside = (ev: FenceEvaluator, v: number) => ev.insideOf(v).map((f) => f.id).sort((x, y) => x - y);
    time += 10_000;
    let insideCount = 0;
    for (let v = 1; v <= VEHICLES; v++) {
      const p = { vehicleId: v, time, lng: pos[v - 1]![0], lat: pos[v - 1]![1], speed: 0 };
      patched.evaluate(p);
      fresh.evaluate(p);
      expect(inside(patched, v)).toEqual(inside(fresh, v));
      insideCount += inside(fresh, v).length;
    }
    expect(insideCount).toBeGreaterThan(0);
  }, 60_000); // ~3 s alone; a shared machine can take ten times that

  it('a rename keeps the state (no end, no new entry) and later alarms carry the new name', () => {
    const g: FenceGeometry = { shape: 'circle', center: CENTER, radius: 500 };
    const r: FenceRule = { alarmIn: true, alarmOut: true, forbidIn: true, forbidOut: false, maxSpeed: null, overspeedSeconds: 0, startTime: null, endTime: null };
    const ev = new FenceEvaluator([{ fence: { id: 1, companyId: 1, name: '旧名', geometry: g, rule: r }, vehicleIds: [7] }], { candidates });
    const far = off(3000, 0);
    ev.evaluate({ vehicleId: 7, time: T0, lng: far[0], lat: far[1], speed: 10 });
    expect(labels(ev.evaluate({ vehicleId: 7, time: T0 + 10_000, lng: CENTER[0], lat: CENTER[1], speed: 10 })).map((l) => l.split(' ').slice(1, 5).join(' ')))
      .toEqual(['occur 13005 1 旧名', 'start 13007 1 旧名']);
    expect(ev.update(1, { fence: { id: 1, companyId: 1, name: '新名', geometry: g, rule: r }, vehicleIds: [7] }, T0 + 15_000)).toEqual([]);
    expect(labels(ev.evaluate({ vehicleId: 7, time: T0 + 20_000, lng: far[0], lat: far[1], speed: 10 })).map((l) => l.split(' ').slice(1, 5).join(' ')))
      .toEqual(['end 13007 1 新名', 'occur 13006 1 新名']);
  });
});
