/**
 * 70007 (未按核准路线行驶) as the box service raises it: a loaded, moving slag truck while the alarm
 * engine holds the vehicle off a bound route (13010, raised by the route watch on the same report,
 * which the alarm service handles first). Driven with a recording alarm service: no database needed
 * for live reports.
 */
import { describe, expect, it } from 'vitest';
import { BOX_ITEM_ID, encodeBoxItem, type BoxState } from '../../../domain/box/status.ts';
import type { LocationReport } from '../../gateway/jt808/index.ts';
import { BoxStatusService, type PlatformAlarms } from './index.ts';

const NOON = Date.UTC(2026, 10, 28, 4, 0); // 12:00 China time: outside the rush hours (70008)

function recorder(offRoute: () => boolean) {
  const open = new Set<number>();
  const alarms: PlatformAlarms = {
    platformStart: (_v, code) => void open.add(code),
    platformEnd: (_v, code) => void open.delete(code),
    engine: { isActive: (_v, code) => code === 13010 && offRoute() },
  };
  return { open, alarms };
}

const report = (time: number, speed: number, s: Partial<BoxState>): LocationReport => ({
  alarm: 0, status: 0b10, lat: 31.2, lng: 121.5, altitude: 0, speed, direction: 0, time,
  extras: [{ id: BOX_ITEM_ID, data: encodeBoxItem({ lifted: false, sealed: true, loaded: false, loadT: 0, ...s }) }],
} as unknown as LocationReport);

describe('70007 off the approved route', () => {
  it('holds while a loaded truck moves off its bound route, ends back on it; an empty truck off route raises nothing', () => {
    let off = false;
    const { open, alarms } = recorder(() => off);
    const service = new BoxStatusService(undefined as never, () => '', () => alarms);
    service.onReport(7, report(NOON, 30, { loaded: true, loadT: 20 }));
    expect(open.has(70007)).toBe(false);
    off = true;
    service.onReport(7, report(NOON + 10_000, 30, { loaded: true, loadT: 20 }));
    expect([...open]).toEqual([70007]);
    off = false;
    service.onReport(7, report(NOON + 20_000, 30, { loaded: true, loadT: 20 }));
    expect(open.has(70007)).toBe(false);
    // Empty and off the route: the approved route binds the loaded trip only.
    off = true;
    service.onReport(8, report(NOON, 30, { loaded: false, loadT: 0 }));
    expect(open.has(70007)).toBe(false);
  });
});
