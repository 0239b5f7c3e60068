/**
 * Route messages 0x8606 / 0x8607 (issue 17): bodies laid out field by field from JT/T 808-2019
 * §8.50–§8.51 (tables 68–72) and 2013 §8.44–§8.45, both ways; the platform's route turned into the
 * 0x8606 it sends and back; truncated bodies refused with the field named.
 */
import { describe, expect, it } from 'vitest';
import type { Route } from '../../../domain/route/types.ts';
import { fromHex, toHex } from './bytes.ts';
import { Jt808Error } from './errors.ts';
import type { ProtocolEdition } from './header.ts';
import { decodeMessage, encodeBody, isSupported, type Jt808Message, type Jt808MessageInput } from './messages.ts';
import { ROUTE_BIT, routeDeleteMessage, routeOf, routeSetMessage, SECTION_BIT, type SetRoute } from './routes.ts';

const hex = (...fields: string[]): string => fields.join('').replace(/\s+/g, '').toLowerCase();
function decode(msgId: number, body: string, version: ProtocolEdition): Jt808Message | null {
  const b = fromHex(body);
  return decodeMessage(msgId, version, b, 0, b.length);
}
function both(msg: Jt808MessageInput, body: string, version: ProtocolEdition) {
  expect(toHex(encodeBody(msg, version))).toBe(body);
  expect(decode(msg.msgId, body, version)).toEqual(msg);
}

const set: SetRoute = {
  msgId: 0x8606, id: 9, attribute: ROUTE_BIT.OUT_ALARM_PLATFORM | ROUTE_BIT.BY_TIME, startTime: '000000060000', endTime: '000000220000', name: '渣土线',
  points: [
    { pointId: 1, sectionId: 1, lat: 22.543096, lng: 114.057865, width: 40, attribute: SECTION_BIT.TRAVEL_TIME | SECTION_BIT.SPEED_LIMIT, maxSeconds: 600, minSeconds: 60, maxSpeed: 60, overspeedSeconds: 10, nightMaxSpeed: 48 },
    { pointId: 2, sectionId: 2, lat: 22.553096, lng: 114.067865, width: 30, attribute: 0, maxSeconds: null, minSeconds: null, maxSpeed: null, overspeedSeconds: null, nightMaxSpeed: null },
  ],
};

describe('route messages', () => {
  it('0x8606 and 0x8607 are supported', () => {
    expect(isSupported(0x8606)).toBe(true);
    expect(isSupported(0x8607)).toBe(true);
  });

  it('0x8606 (2019): id, attribute, BCD window, count, points (id, section, lat, lng ×10^6, width, attribute, thresholds, speed, duration, night speed), name', () => {
    both(set, hex(
      '00000009', '0021', // route id 9; attribute: by time + leave → platform
      '000000060000', '000000220000', // daily 06:00–22:00
      '0002', // turning points
      '00000001', '00000001', '0157faf8', '06cc6289', '28', '03', '0258', '003c', '003c', '0a', '0030',
      '00000002', '00000002', '01582208', '06cc8999', '1e', '00',
      '0006', 'd4fccdc1cfdf', // name length, GBK 渣土线
    ), 2019);
  });

  it('0x8606 (2013): no night speed, no name', () => {
    const msg: SetRoute = { ...set, name: '', points: set.points.map((p) => ({ ...p, nightMaxSpeed: null })) };
    both(msg, hex(
      '00000009', '0021', '000000060000', '000000220000', '0002',
      '00000001', '00000001', '0157faf8', '06cc6289', '28', '03', '0258', '003c', '003c', '0a',
      '00000002', '00000002', '01582208', '06cc8999', '1e', '00',
    ), 2013);
  });

  it('south and west coordinates set section attribute bits 2 and 3', () => {
    const body = encodeBody({ ...set, attribute: 0, startTime: null, endTime: null, points: set.points.map((p) => ({ ...p, lat: -p.lat, lng: -p.lng })) }, 2013);
    expect(body[2 + 4 + 2 + 4 + 4 + 4 + 4 + 1]! & 0x0c).toBe(0x0c);
    const back = decode(0x8606, toHex(body), 2013) as SetRoute;
    expect(back.points[1]).toMatchObject({ lat: -22.553096, lng: -114.067865 });
  });

  it('0x8607: count and ids; 0 means every route', () => {
    both(routeDeleteMessage([9, 10]), hex('02', '00000009', '0000000a'), 2019);
    both(routeDeleteMessage([]), '00', 2013);
  });

  it('a truncated turning point is refused naming the field', () => {
    const body = toHex(encodeBody(set, 2019)).slice(0, 2 * (4 + 2 + 12 + 2 + 4 + 4 + 2));
    expect(() => decode(0x8606, body, 2019)).toThrow(Jt808Error);
    expect(() => decode(0x8606, body, 2019)).toThrow(/turning point 0 latitude/);
  });

  it('the platform route: point i carries section i, the last point the last section without limits; and back', () => {
    const route: Route = {
      id: 3, companyId: 1, name: 'A', deviationSeconds: 30,
      points: [[114.1, 22.5], [114.2, 22.5], [114.2, 22.6]],
      sections: [
        { width: 40, maxSeconds: 900, minSeconds: null, maxSpeed: 50, overspeedSeconds: 5 },
        { width: 20, maxSeconds: null, minSeconds: null, maxSpeed: null, overspeedSeconds: 0 },
      ],
    };
    const msg = routeSetMessage(route);
    expect(msg.points.map((p) => [p.pointId, p.sectionId, p.width])).toEqual([[1, 1, 40], [2, 2, 20], [3, 2, 20]]);
    const back = decode(0x8606, toHex(encodeBody(msg, 2019)), 2019) as SetRoute;
    expect(routeOf(back, 30)).toEqual({
      id: 3, name: 'A', deviationSeconds: 30, points: route.points, startTime: null, endTime: null,
      sections: route.sections.map((s) => ({ ...s, nightMaxSpeed: null })),
    });
  });

  it('the platform route with a daily window 08:00–18:00 and a night limit of 40 on a 50 section: the bytes, and back', () => {
    const route: Route = {
      id: 3, companyId: 1, name: 'A', deviationSeconds: 30, startTime: '08:00', endTime: '18:00',
      points: [[114.1, 22.5], [114.2, 22.5]],
      sections: [{ width: 40, maxSeconds: null, minSeconds: null, maxSpeed: 50, overspeedSeconds: 5, nightMaxSpeed: 40 }],
    };
    const body = toHex(encodeBody(routeSetMessage(route), 2019));
    expect(body).toBe(hex(
      '00000003', '0021', // route id 3; attribute: bit 0 by time + bit 5 leave → platform
      '000000080000', '000000180000', // BCD, zero date: every day 08:00–18:00
      '0002',
      '00000001', '00000001', '015752a0', '06cd0720', '28', '02', '0032', '05', '0028', // speed-limited section: max 50, 5 s, night 40
      '00000002', '00000001', '015752a0', '06ce8dc0', '28', '00', // the last point: no limits
      '0001', '41',
    ));
    const back = routeOf(decode(0x8606, body, 2019) as SetRoute, 30);
    expect(back).toMatchObject({ startTime: '08:00', endTime: '18:00' });
    expect(back.sections[0]).toEqual(route.sections[0]);
  });

  it('a section without a night limit sends its day limit as the 2019 night speed (never 0 km/h)', () => {
    const msg = routeSetMessage({ id: 1, name: 'B', points: [[114.1, 22.5], [114.2, 22.5]], sections: [{ width: 20, maxSeconds: null, minSeconds: null, maxSpeed: 60, overspeedSeconds: 0 }] });
    expect(msg.points[0]!.nightMaxSpeed).toBe(60);
    expect(msg.startTime).toBeNull();
  });
});
