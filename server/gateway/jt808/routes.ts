/**
 * Route messages, JT/T 808-2019 §8.50–§8.51 (2013 §8.44–§8.45):
 *
 * - 0x8606 set route (one route per message): route id DWORD, route attribute WORD (table 69: bit 0
 *   by time, 2/3 alarm the driver/platform on entering, 4/5 on leaving), [start BCD[6], end BCD[6] when
 *   bit 0], turning point count WORD, turning points (table 70): point id DWORD, section id DWORD,
 *   latitude DWORD, longitude DWORD (10^-6 degrees, unsigned), section width BYTE (m), section attribute
 *   BYTE (table 71: bit 0 travel time, 1 speed limit, 2 south latitude, 3 west longitude), [too-long
 *   threshold WORD s, too-short threshold WORD s when bit 0], [max speed WORD km/h, overspeed duration
 *   BYTE s when bit 1], and in 2019 [night max speed WORD when bit 1]; then in 2019 name length WORD,
 *   name STRING.
 * - 0x8607 delete routes: count BYTE (0: every route), route ids DWORD[count].
 *
 * The turning point item carries the section that starts at that point. The platform's route of n
 * points has n − 1 sections: `routeSetMessage` gives point i section i (id i + 1) and the last point
 * the last section again with no limits (it starts nothing), which is how terminals read the list.
 * Section attribute bits 0/1/2/3 are derived from the fields present and the coordinates' signs.
 * A route's daily time window goes as the BCD times with a zero date (YYMMDD 000000, as fences:
 * terminals read it as every day); a section's night limit as the 2019 night max speed (the day limit
 * when the section has none, so a 2019 terminal never sees 0 km/h).
 */
import type { LngLat, Route, RouteSection } from '../../../domain/route/types.ts';
import { encodeGbk, type Reader, type Writer } from './bytes.ts';
import { Jt808Error } from './errors.ts';
import { dailyTime } from './fences.ts';
import type { ProtocolEdition } from './header.ts';

export const ROUTE_MSG = { SET_ROUTE: 0x8606, DELETE_ROUTES: 0x8607 } as const;

/** Route attribute bits (table 69). */
export const ROUTE_BIT = { BY_TIME: 1 << 0, IN_ALARM_DRIVER: 1 << 2, IN_ALARM_PLATFORM: 1 << 3, OUT_ALARM_DRIVER: 1 << 4, OUT_ALARM_PLATFORM: 1 << 5 } as const;
/** Section attribute bits (table 71). */
export const SECTION_BIT = { TRAVEL_TIME: 1 << 0, SPEED_LIMIT: 1 << 1, SOUTH: 1 << 2, WEST: 1 << 3 } as const;

export interface TurningPoint {
  readonly pointId: number;
  readonly sectionId: number;
  readonly lat: number;
  readonly lng: number;
  /** metres, 0..255 */
  readonly width: number;
  /** The section attribute BYTE; bits 0–3 are derived when encoding. */
  readonly attribute: number;
  readonly maxSeconds: number | null;
  readonly minSeconds: number | null;
  readonly maxSpeed: number | null;
  readonly overspeedSeconds: number | null;
  /** 2019 only (null when decoded from 2013). */
  readonly nightMaxSpeed: number | null;
}

export interface SetRoute {
  msgId: 0x8606;
  id: number;
  attribute: number;
  /** Twelve BCD digits YYMMDDhhmmss when attribute bit 0. */
  startTime: string | null;
  endTime: string | null;
  points: TurningPoint[];
  /** 2019 only ('' when decoded from 2013). */
  name: string;
}
export interface DeleteRoutes { msgId: 0x8607; ids: number[] }
export type RouteMessage = SetRoute | DeleteRoutes;

export function isRouteMessage(msgId: number): boolean {
  return msgId === ROUTE_MSG.SET_ROUTE || msgId === ROUTE_MSG.DELETE_ROUTES;
}

// ------------------------------------------------------------------ decoding

function readTime(r: Reader, what: string): string {
  let s = '';
  for (const v of r.bytes(6, what)) {
    if ((v >> 4) > 9 || (v & 15) > 9) throw new Jt808Error('field', `${what}: not BCD`);
    s += (v >> 4).toString() + (v & 15).toString();
  }
  return s;
}

function readPoint(r: Reader, i: number, version: ProtocolEdition): TurningPoint {
  const pointId = r.u32(`turning point ${i} id`);
  const sectionId = r.u32(`turning point ${i} section id`);
  const lat = r.u32(`turning point ${i} latitude`) / 1e6;
  const lng = r.u32(`turning point ${i} longitude`) / 1e6;
  if (lat > 90 || lng > 180) throw new Jt808Error('field', `turning point ${i}: latitude ${lat} / longitude ${lng} out of range`);
  const width = r.u8(`turning point ${i} section width`);
  const attribute = r.u8(`turning point ${i} section attribute`);
  const timed = (attribute & SECTION_BIT.TRAVEL_TIME) !== 0;
  const maxSeconds = timed ? r.u16(`turning point ${i} too-long threshold`) : null;
  const minSeconds = timed ? r.u16(`turning point ${i} too-short threshold`) : null;
  const limited = (attribute & SECTION_BIT.SPEED_LIMIT) !== 0;
  const maxSpeed = limited ? r.u16(`turning point ${i} max speed`) : null;
  const overspeedSeconds = limited ? r.u8(`turning point ${i} overspeed duration`) : null;
  const nightMaxSpeed = limited && version === 2019 ? r.u16(`turning point ${i} night max speed`) : null;
  return {
    pointId, sectionId, lat: attribute & SECTION_BIT.SOUTH ? -lat : lat, lng: attribute & SECTION_BIT.WEST ? -lng : lng,
    width, attribute, maxSeconds, minSeconds, maxSpeed, overspeedSeconds, nightMaxSpeed,
  };
}

export function readRouteMessage(msgId: number, r: Reader, version: ProtocolEdition): RouteMessage {
  if (msgId === ROUTE_MSG.DELETE_ROUTES) {
    const count = r.u8('route count');
    const ids: number[] = [];
    for (let i = 0; i < count; i++) ids.push(r.u32('route id'));
    return { msgId, ids };
  }
  if (msgId !== ROUTE_MSG.SET_ROUTE) throw new Jt808Error('field', `0x${msgId.toString(16)} is not a route message`);
  const id = r.u32('route id');
  const attribute = r.u16('route attribute');
  const byTime = (attribute & ROUTE_BIT.BY_TIME) !== 0;
  const startTime = byTime ? readTime(r, 'start time') : null;
  const endTime = byTime ? readTime(r, 'end time') : null;
  const n = r.u16('turning point count');
  if (n < 2) throw new Jt808Error('field', `0x8606: ${n} turning points, a route needs 2`);
  const points: TurningPoint[] = [];
  for (let i = 0; i < n; i++) points.push(readPoint(r, i, version));
  const name = version === 2019 ? r.fixedString(r.u16('route name length'), 'route name') : '';
  return { msgId, id, attribute, startTime, endTime, points, name };
}

// ------------------------------------------------------------------ encoding

function writeTime(w: Writer, digits: string | null, what: string): void {
  if (digits === null || !/^\d{12}$/.test(digits)) throw new Jt808Error('encode', `${what}: "${String(digits)}" is not twelve digits YYMMDDhhmmss`);
  const b = new Uint8Array(6);
  for (let i = 0; i < 6; i++) b[i] = ((digits.charCodeAt(2 * i) - 48) << 4) | (digits.charCodeAt(2 * i + 1) - 48);
  w.bytes(b);
}

export function writeRouteMessage(w: Writer, msg: RouteMessage, version: ProtocolEdition): void {
  if (msg.msgId === ROUTE_MSG.DELETE_ROUTES) {
    if (msg.ids.length > 0xff) throw new Jt808Error('encode', `${msg.ids.length} route ids: one message carries at most 255`);
    w.u8(msg.ids.length, 'route count');
    for (const id of msg.ids) w.u32(id, 'route id');
    return;
  }
  if (msg.points.length < 2 || msg.points.length > 0xffff) throw new Jt808Error('encode', `${msg.points.length} turning points: a route needs 2`);
  let attr = msg.attribute & ~ROUTE_BIT.BY_TIME;
  if (msg.startTime !== null || msg.endTime !== null) attr |= ROUTE_BIT.BY_TIME;
  w.u32(msg.id, 'route id').u16(attr, 'route attribute');
  if (attr & ROUTE_BIT.BY_TIME) {
    writeTime(w, msg.startTime, 'start time');
    writeTime(w, msg.endTime, 'end time');
  }
  w.u16(msg.points.length, 'turning point count');
  msg.points.forEach((p, i) => {
    if (!(Math.abs(p.lat) <= 90) || !(Math.abs(p.lng) <= 180)) throw new Jt808Error('encode', `turning point ${i}: [${p.lng}, ${p.lat}] is not a position`);
    let a = p.attribute & ~0x0f;
    if (p.maxSeconds !== null || p.minSeconds !== null) a |= SECTION_BIT.TRAVEL_TIME;
    if (p.maxSpeed !== null) a |= SECTION_BIT.SPEED_LIMIT;
    if (p.lat < 0) a |= SECTION_BIT.SOUTH;
    if (p.lng < 0) a |= SECTION_BIT.WEST;
    w.u32(p.pointId, `turning point ${i} id`).u32(p.sectionId, `turning point ${i} section id`)
      .u32(Math.round(Math.abs(p.lat) * 1e6), `turning point ${i} latitude`).u32(Math.round(Math.abs(p.lng) * 1e6), `turning point ${i} longitude`)
      .u8(p.width, `turning point ${i} section width`).u8(a, `turning point ${i} section attribute`);
    // A missing threshold of a timed section is 0: "no limit" on that side (terminals skip a zero threshold).
    if (a & SECTION_BIT.TRAVEL_TIME) w.u16(p.maxSeconds ?? 0, `turning point ${i} too-long threshold`).u16(p.minSeconds ?? 0, `turning point ${i} too-short threshold`);
    if (a & SECTION_BIT.SPEED_LIMIT) {
      w.u16(p.maxSpeed!, `turning point ${i} max speed`).u8(p.overspeedSeconds ?? 0, `turning point ${i} overspeed duration`);
      if (version === 2019) w.u16(p.nightMaxSpeed ?? p.maxSpeed!, `turning point ${i} night max speed`);
    }
  });
  if (version === 2019) {
    const name = encodeGbk(msg.name);
    w.u16(name.length, 'route name length').bytes(name);
  }
}

// ------------------------------------------------------------------ the platform's route ↔ 0x8606

const LAST_POINT_ATTR = 0;

/** The platform's route as the one 0x8606 that sets it (route id = the route's id; alarm the platform on leaving). */
export function routeSetMessage(route: Pick<Route, 'id' | 'name' | 'points' | 'sections' | 'startTime' | 'endTime'>): SetRoute {
  const n = route.points.length;
  const points = route.points.map(([lng, lat]: LngLat, i): TurningPoint => {
    const last = i === n - 1;
    const s = route.sections[Math.min(i, n - 2)]!;
    return {
      pointId: i + 1, sectionId: Math.min(i, n - 2) + 1, lat, lng, width: s.width, attribute: LAST_POINT_ATTR,
      maxSeconds: last ? null : s.maxSeconds, minSeconds: last ? null : s.minSeconds,
      maxSpeed: last ? null : s.maxSpeed, overspeedSeconds: last || s.maxSpeed === null ? null : s.overspeedSeconds,
      nightMaxSpeed: last || s.maxSpeed === null ? null : (s.nightMaxSpeed ?? s.maxSpeed),
    };
  });
  const timed = route.startTime != null && route.endTime != null;
  return {
    msgId: ROUTE_MSG.SET_ROUTE, id: route.id, attribute: ROUTE_BIT.OUT_ALARM_PLATFORM,
    startTime: timed ? dailyTime(route.startTime!) : null, endTime: timed ? dailyTime(route.endTime!) : null, points, name: route.name,
  };
}

export function routeDeleteMessage(ids: number[]): DeleteRoutes {
  return { msgId: ROUTE_MSG.DELETE_ROUTES, ids };
}

/** The route a terminal was sent, in the platform's form (the simulator obeys it). */
export function routeOf(msg: SetRoute, deviationSeconds = 0): Pick<Route, 'id' | 'name' | 'points' | 'sections' | 'deviationSeconds' | 'startTime' | 'endTime'> {
  const points = msg.points.map((p): readonly [number, number] => [p.lng, p.lat]);
  const sections = msg.points.slice(0, -1).map((p): RouteSection => ({
    width: p.width,
    maxSeconds: p.maxSeconds === null || p.maxSeconds === 0 ? null : p.maxSeconds,
    minSeconds: p.minSeconds === null || p.minSeconds === 0 ? null : p.minSeconds,
    maxSpeed: p.maxSpeed, overspeedSeconds: p.overspeedSeconds ?? 0,
    // A night limit equal to the day one is no night limit (how the platform sends "none").
    nightMaxSpeed: p.nightMaxSpeed === null || p.nightMaxSpeed === p.maxSpeed ? null : p.nightMaxSpeed,
  }));
  // Only a daily window (zero date) is the platform's form; a dated one is read as its times of day.
  const hhmm = (t: string | null) => (t === null ? null : `${t.slice(6, 8)}:${t.slice(8, 10)}`);
  return { id: msg.id, name: msg.name, points, sections, deviationSeconds, startTime: hhmm(msg.startTime), endTime: hhmm(msg.endTime) };
}
