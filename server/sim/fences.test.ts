/**
 * A simulated terminal obeys the areas it is sent (sim/fences.ts): stores and deletes them by kind
 * and id, raises bit 20 with the 0x12 item on the report that crosses an area whose rule asks for it,
 * bit 1 with the 0x11 item once over the area's speed limit for its duration, nothing outside the
 * area's time window; and the report with those items survives the wire.
 */
import { describe, expect, it } from 'vitest';
import type { Fence } from '../../domain/fence/types.ts';
import { fromHex, toHex } from '../gateway/jt808/bytes.ts';
import { AREA_ACTION, fenceSetMessage } from '../gateway/jt808/fences.ts';
import type { LocationInput, LocationReport } from '../gateway/jt808/location.ts';
import { decodeMessage, encodeBody } from '../gateway/jt808/messages.ts';
import { ALARM_BIT_AREA, ALARM_BIT_OVERSPEED, SimFenceStore } from './fences.ts';

/** 2026-11-28 10:00:00 China time. */
const T0 = Date.UTC(2026, 10, 28, 2, 0, 0);
const rule = { alarmIn: false, alarmOut: true, forbidIn: false, forbidOut: false, maxSpeed: 40, overspeedSeconds: 10, startTime: null, endTime: null };
const fence = (over: Partial<Fence> = {}): Fence => ({ id: 77, companyId: 1, name: '场站', geometry: { shape: 'circle', center: [114.05, 22.54], radius: 500 }, rule, ...over });
const at = (lng: number, speed: number, t: number): LocationInput => ({ alarm: 0, status: 3, lat: 22.54, lng, altitude: 0, speed, direction: 90, time: t });
/** ~1 km east of the centre: outside the 500 m circle. */
const OUT = 114.05 + 1000 / (111_195 * Math.cos(22.54 * Math.PI / 180));

describe('simulated terminal areas', () => {
  it('stores the areas sent and deletes them by kind and id (no id: all of that kind)', () => {
    const s = new SimFenceStore();
    s.apply(fenceSetMessage(fence(), AREA_ACTION.APPEND));
    s.apply(fenceSetMessage(fence({ id: 78, geometry: { shape: 'rect', sw: [114, 22.5], ne: [114.1, 22.6] } }), AREA_ACTION.APPEND));
    s.apply(fenceSetMessage(fence({ id: 79, geometry: { shape: 'polygon', points: [[114, 22.5], [114.1, 22.5], [114.05, 22.6]] } }), AREA_ACTION.APPEND));
    expect([...s.areas.keys()].sort()).toEqual(['circle:77', 'polygon:79', 'rect:78']);
    s.apply({ msgId: 0x8603, ids: [77] });
    expect(s.get('rect', 78)).toBeDefined();
    s.apply({ msgId: 0x8601, ids: [77] });
    expect(s.get('circle', 77)).toBeUndefined();
    s.apply({ msgId: 0x8605, ids: [] });
    expect(s.get('polygon', 79)).toBeUndefined();
    // Update (0) replaces every area of that kind.
    s.apply(fenceSetMessage(fence({ id: 80, geometry: { shape: 'rect', sw: [114, 22.5], ne: [114.1, 22.6] } }), AREA_ACTION.UPDATE));
    expect([...s.areas.keys()]).toEqual(['rect:80']);
  });

  it('leaving an area with an out alarm: bit 20 and 0x12 (type 1, id, direction 1) on that report only; entering raises nothing', () => {
    const s = new SimFenceStore();
    s.apply(fenceSetMessage(fence(), AREA_ACTION.APPEND));
    expect(s.applyTo(at(114.05, 30, T0))).toEqual(at(114.05, 30, T0));
    const left = s.applyTo(at(OUT, 30, T0 + 10_000));
    expect(left.alarm & ALARM_BIT_AREA).toBe(ALARM_BIT_AREA);
    expect(left.extras?.map((x) => [x.id, toHex(x.data)])).toEqual([[0x12, '010000004d01']]);
    expect(s.applyTo(at(OUT, 30, T0 + 20_000)).alarm).toBe(0);
    // Entering again: the rule asks for no in alarm.
    expect(s.applyTo(at(114.05, 30, T0 + 30_000)).alarm).toBe(0);
    // The report with the item decodes on the platform side.
    const body = encodeBody({ msgId: 0x0200, ...left });
    const back = decodeMessage(0x0200, 2013, fromHex(toHex(body)), 0, body.length) as LocationReport;
    expect(back.alarm & ALARM_BIT_AREA).toBe(ALARM_BIT_AREA);
    expect(back.extras).toEqual([{ id: 0x12, data: Uint8Array.from([1, 0, 0, 0, 0x4d, 1]) }]);
  });

  it('over the area limit for its duration: bit 1 and 0x11 while it lasts; outside the time window nothing', () => {
    const s = new SimFenceStore();
    s.apply(fenceSetMessage(fence({ geometry: { shape: 'rect', sw: [114, 22.5], ne: [114.1, 22.6] } }), AREA_ACTION.APPEND));
    expect(s.applyTo(at(114.05, 50, T0)).alarm).toBe(0);
    expect(s.applyTo(at(114.05, 50, T0 + 5_000)).alarm).toBe(0);
    const over = s.applyTo(at(114.05, 50, T0 + 10_000));
    expect(over.alarm).toBe(ALARM_BIT_OVERSPEED);
    expect(over.extras?.map((x) => [x.id, toHex(x.data)])).toEqual([[0x11, '020000004d']]);
    expect(s.applyTo(at(114.05, 35, T0 + 15_000)).alarm).toBe(0);
    // A window of 20:00–06:00: at 10:00 China time the area is asleep.
    const night = new SimFenceStore();
    night.apply(fenceSetMessage(fence({ rule: { ...rule, overspeedSeconds: 0, startTime: '20:00', endTime: '06:00' } }), AREA_ACTION.APPEND));
    expect(night.applyTo(at(114.05, 90, T0)).alarm).toBe(0);
    expect(night.applyTo(at(114.05, 90, T0 + 12 * 3600_000)).alarm).toBe(ALARM_BIT_OVERSPEED);
  });
});
