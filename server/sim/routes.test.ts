/**
 * The simulated terminal obeys the routes it is sent: 0x8606 stored, 0x8607 deleted; off the corridor
 * after being on it sets bit 23 (held while off); a section left too early sets bit 22 with item 0x13.
 */
import { describe, expect, it } from 'vitest';
import { M_PER_DEG } from '../../domain/fence/geometry.ts';
import type { LocationInput } from '../gateway/jt808/location.ts';
import { routeDeleteMessage, routeSetMessage } from '../gateway/jt808/routes.ts';
import { ALARM_BIT_ROUTE_DEVIATION, ALARM_BIT_SECTION_TIME, SimRouteStore } from './routes.ts';

const O = [114.05, 22.54] as const;
const KX = M_PER_DEG * Math.cos((O[1] * Math.PI) / 180);
const at = (x: number, y = 0) => ({ lng: O[0] + x / KX, lat: O[1] + y / M_PER_DEG });
const T0 = Date.parse('2026-11-28T10:00:00+08:00');
const report = (i: number, x: number, y = 0): LocationInput => ({ alarm: 0, status: 0b10, ...at(x, y), altitude: 0, speed: 40, direction: 0, time: T0 + i * 10_000 });

const route = routeSetMessage({
  id: 8, name: '测试线', points: [[O[0], O[1]], [at(1000).lng, O[1]], [at(1000).lng, at(0, 1000).lat]],
  sections: [{ width: 40, minSeconds: 60, maxSeconds: null, maxSpeed: null, overspeedSeconds: 0 }, { width: 40, minSeconds: null, maxSeconds: null, maxSpeed: null, overspeedSeconds: 0 }],
});

describe('simulated terminal routes', () => {
  it('holds bit 23 while off the corridor of a route it was on; the delete lets go of it', () => {
    const store = new SimRouteStore();
    store.apply(route);
    expect(store.get(8)?.points).toHaveLength(3);
    expect(store.applyTo(report(0, 100)).alarm & ALARM_BIT_ROUTE_DEVIATION).toBe(0);
    expect(store.applyTo(report(1, 200, 60)).alarm & ALARM_BIT_ROUTE_DEVIATION).toBe(ALARM_BIT_ROUTE_DEVIATION);
    expect(store.applyTo(report(2, 300, 60)).alarm & ALARM_BIT_ROUTE_DEVIATION).toBe(ALARM_BIT_ROUTE_DEVIATION);
    expect(store.applyTo(report(3, 400, 0)).alarm & ALARM_BIT_ROUTE_DEVIATION).toBe(0);
    store.applyTo(report(4, 500, 60));
    store.apply(routeDeleteMessage([8]));
    expect(store.get(8)).toBeUndefined();
    expect(store.applyTo(report(5, 600, 60)).alarm).toBe(0);
  });

  it('a section left too early sets bit 22 with item 0x13 (section id, seconds, 0 = too short)', () => {
    const store = new SimRouteStore();
    store.apply(route);
    store.applyTo(report(0, -100));
    store.applyTo(report(1, 0));
    expect(store.applyTo(report(2, 600)).alarm).toBe(0);
    const left = store.applyTo(report(3, 1000, 100));
    expect(left.alarm & ALARM_BIT_SECTION_TIME).toBe(ALARM_BIT_SECTION_TIME);
    const item = left.extras?.find((x) => x.id === 0x13);
    expect([...item!.data]).toEqual([0, 0, 0, 1, 0, 20, 0]);
  });
});
