/**
 * Area (fence) messages, JT/T 808-2019 §8.44–§8.49 (2013 §8.38–§8.43):
 *
 * - 0x8600 set circular areas: setting attribute BYTE (0 update = replace all, 1 append, 2 modify),
 *   area count BYTE, then per area: id DWORD, attribute WORD, centre latitude DWORD, longitude DWORD
 *   (10^-6 degrees), radius DWORD (m), [start BCD[6], end BCD[6] when attribute bit 0],
 *   [max speed WORD km/h, overspeed duration BYTE s when bit 1], and in 2019 [night max speed WORD when
 *   bit 1], name length WORD, name STRING.
 * - 0x8602 set rectangular areas: the same list, with top-left latitude/longitude and bottom-right
 *   latitude/longitude DWORDs in place of centre and radius.
 * - 0x8604 set one polygonal area: id DWORD, attribute WORD, [start, end when bit 0], [max speed,
 *   overspeed duration when bit 1], vertex count WORD, vertices (latitude DWORD, longitude DWORD), and in
 *   2019 [night max speed WORD when bit 1], name length WORD, name STRING.
 * - 0x8601 / 0x8603 / 0x8605 delete circles / rectangles / polygons: count BYTE (0: all of that kind),
 *   ids DWORD[count].
 *
 * Area attribute (2019 table 59): bit 0 by time, 1 speed limit, 2 alarm the driver on entering, 3 alarm
 * the platform on entering, 4 / 5 the same on leaving, 6 south latitude, 7 west longitude, 8 doors
 * forbidden, 14 radio off inside, 15 detailed GNSS inside. Coordinates are unsigned; bits 6/7 carry the
 * hemisphere, so the encoder sets them from the coordinates' signs (all coordinates of one area must
 * share them).
 *
 * Times travel as the twelve BCD digits YYMMDDhhmmss (`'000000083000'`). A daily window uses the
 * convention terminals follow for the standard's time fields: year, month and day 00 mean "every day,
 * from hh:mm:ss to hh:mm:ss" (an end before the start runs over midnight). `fenceToArea` writes that
 * form; the decoder accepts any valid BCD digits.
 */
import type { Fence, FenceRule, LngLat } from '../../../domain/fence/types.ts';
import { encodeGbk, type Reader, type Writer } from './bytes.ts';
import { Jt808Error } from './errors.ts';
import type { ProtocolEdition } from './header.ts';

export const FENCE_MSG = {
  SET_CIRCLES: 0x8600,
  DELETE_CIRCLES: 0x8601,
  SET_RECTS: 0x8602,
  DELETE_RECTS: 0x8603,
  SET_POLYGON: 0x8604,
  DELETE_POLYGONS: 0x8605,
} as const;

/** 0x8600 / 0x8602 setting attribute. */
export const AREA_ACTION = { UPDATE: 0, APPEND: 1, MODIFY: 2 } as const;
export type AreaAction = (typeof AREA_ACTION)[keyof typeof AREA_ACTION];

/** Area attribute bits (JT/T 808-2019 table 59). */
export const AREA_BIT = {
  BY_TIME: 1 << 0,
  SPEED_LIMIT: 1 << 1,
  IN_ALARM_DRIVER: 1 << 2,
  IN_ALARM_PLATFORM: 1 << 3,
  OUT_ALARM_DRIVER: 1 << 4,
  OUT_ALARM_PLATFORM: 1 << 5,
  SOUTH: 1 << 6,
  WEST: 1 << 7,
  NO_DOORS: 1 << 8,
  RADIO_OFF: 1 << 14,
  GNSS_DETAIL: 1 << 15,
} as const;

/** What every area item carries besides its geometry. Plain JSON: tasks store it as it is. */
export interface AreaCommon {
  readonly id: number;
  /** The attribute WORD. Bits 0, 1, 6 and 7 are derived when encoding (times, speed, hemispheres). */
  readonly attribute: number;
  /** Twelve BCD digits YYMMDDhhmmss, present when attribute bit 0 is set. */
  readonly startTime: string | null;
  readonly endTime: string | null;
  /** km/h, present when attribute bit 1 is set. */
  readonly maxSpeed: number | null;
  readonly overspeedSeconds: number | null;
  /** 2019 only (absent in 2013 frames: null when decoded). */
  readonly nightMaxSpeed: number | null;
  /** 2019 only ('' when decoded from 2013). */
  readonly name: string;
}
/** Latitude and longitude in signed degrees (south and west negative). */
export interface LatLng { readonly lat: number; readonly lng: number }
export interface CircleArea extends AreaCommon { readonly center: LatLng; readonly radius: number }
export interface RectArea extends AreaCommon { readonly topLeft: LatLng; readonly bottomRight: LatLng }
export interface PolygonArea extends AreaCommon { readonly points: readonly LatLng[] }

export interface SetCircles { msgId: 0x8600; action: AreaAction; areas: CircleArea[] }
export interface SetRects { msgId: 0x8602; action: AreaAction; areas: RectArea[] }
export interface SetPolygon { msgId: 0x8604; area: PolygonArea }
export interface DeleteAreas { msgId: 0x8601 | 0x8603 | 0x8605; ids: number[] }
export type FenceMessage = SetCircles | SetRects | SetPolygon | DeleteAreas;

const FAMILY = new Set<number>(Object.values(FENCE_MSG));
export function isFenceMessage(msgId: number): boolean {
  return FAMILY.has(msgId);
}

// ------------------------------------------------------------------ decoding

function readTime(r: Reader, what: string): string {
  const b = r.bytes(6, what);
  let s = '';
  for (const v of b) {
    if ((v >> 4) > 9 || (v & 15) > 9) throw new Jt808Error('field', `${what}: not BCD`);
    s += (v >> 4).toString() + (v & 15).toString();
  }
  return s;
}

function readPoint(r: Reader, attribute: number, what: string): LatLng {
  const lat = r.u32(`${what} latitude`) / 1e6;
  const lng = r.u32(`${what} longitude`) / 1e6;
  if (lat > 90 || lng > 180) throw new Jt808Error('field', `${what}: latitude ${lat} / longitude ${lng} out of range`);
  return { lat: attribute & AREA_BIT.SOUTH ? -lat : lat, lng: attribute & AREA_BIT.WEST ? -lng : lng };
}

function readTimesAndSpeed(r: Reader, attribute: number) {
  const byTime = (attribute & AREA_BIT.BY_TIME) !== 0;
  const startTime = byTime ? readTime(r, 'start time') : null;
  const endTime = byTime ? readTime(r, 'end time') : null;
  const limited = (attribute & AREA_BIT.SPEED_LIMIT) !== 0;
  const maxSpeed = limited ? r.u16('max speed') : null;
  const overspeedSeconds = limited ? r.u8('overspeed duration') : null;
  return { startTime, endTime, maxSpeed, overspeedSeconds };
}

function readTail(r: Reader, attribute: number, version: ProtocolEdition): { nightMaxSpeed: number | null; name: string } {
  if (version === 2013) return { nightMaxSpeed: null, name: '' };
  const nightMaxSpeed = attribute & AREA_BIT.SPEED_LIMIT ? r.u16('night max speed') : null;
  const length = r.u16('area name length');
  return { nightMaxSpeed, name: r.fixedString(length, 'area name') };
}

export function readFenceMessage(msgId: number, r: Reader, version: ProtocolEdition): FenceMessage {
  switch (msgId) {
    case FENCE_MSG.SET_CIRCLES:
    case FENCE_MSG.SET_RECTS: {
      const action = r.u8('setting attribute');
      if (action > 2) throw new Jt808Error('field', `0x${msgId.toString(16)}: setting attribute ${action} is not 0, 1 or 2`);
      const count = r.u8('area count');
      const areas = [];
      for (let i = 0; i < count; i++) {
        const id = r.u32('area id');
        const attribute = r.u16('area attribute');
        const geometry = msgId === FENCE_MSG.SET_CIRCLES
          ? { center: readPoint(r, attribute, 'centre'), radius: r.u32('radius') }
          : { topLeft: readPoint(r, attribute, 'top-left'), bottomRight: readPoint(r, attribute, 'bottom-right') };
        areas.push({ id, attribute, ...geometry, ...readTimesAndSpeed(r, attribute), ...readTail(r, attribute, version) });
      }
      return msgId === FENCE_MSG.SET_CIRCLES
        ? { msgId, action: action as AreaAction, areas: areas as CircleArea[] }
        : { msgId, action: action as AreaAction, areas: areas as RectArea[] };
    }
    case FENCE_MSG.SET_POLYGON: {
      const id = r.u32('area id');
      const attribute = r.u16('area attribute');
      const ts = readTimesAndSpeed(r, attribute);
      const n = r.u16('vertex count');
      if (n < 3) throw new Jt808Error('field', `0x8604: ${n} vertices, a polygon needs 3`);
      const points: LatLng[] = [];
      for (let i = 0; i < n; i++) points.push(readPoint(r, attribute, `vertex ${i}`));
      return { msgId, area: { id, attribute, ...ts, points, ...readTail(r, attribute, version) } };
    }
    case FENCE_MSG.DELETE_CIRCLES:
    case FENCE_MSG.DELETE_RECTS:
    case FENCE_MSG.DELETE_POLYGONS: {
      const count = r.u8('area count');
      const ids: number[] = [];
      for (let i = 0; i < count; i++) ids.push(r.u32('area id'));
      return { msgId: msgId as DeleteAreas['msgId'], ids };
    }
    default:
      throw new Jt808Error('field', `0x${msgId.toString(16)} is not an area message`);
  }
}

// ------------------------------------------------------------------ encoding

function writeTime(w: Writer, digits: string | null, what: string): void {
  if (digits === null || !/^\d{12}$/.test(digits)) throw new Jt808Error('encode', `${what}: "${String(digits)}" is not twelve digits YYMMDDhhmmss`);
  const b = new Uint8Array(6);
  for (let i = 0; i < 6; i++) b[i] = ((digits.charCodeAt(2 * i) - 48) << 4) | (digits.charCodeAt(2 * i + 1) - 48);
  w.bytes(b);
}

/** The attribute with bits 0/1 from the fields present and 6/7 from the coordinates' signs. */
function attributeOf(a: AreaCommon, points: readonly LatLng[]): number {
  const south = points.some((p) => p.lat < 0);
  const west = points.some((p) => p.lng < 0);
  if ((south && points.some((p) => p.lat > 0)) || (west && points.some((p) => p.lng > 0))) {
    throw new Jt808Error('encode', `area ${a.id}: coordinates on both sides of the equator or the meridian cannot share one hemisphere bit`);
  }
  let attr = a.attribute & ~(AREA_BIT.BY_TIME | AREA_BIT.SPEED_LIMIT | AREA_BIT.SOUTH | AREA_BIT.WEST);
  if (a.startTime !== null || a.endTime !== null) attr |= AREA_BIT.BY_TIME;
  if (a.maxSpeed !== null) attr |= AREA_BIT.SPEED_LIMIT;
  if (south) attr |= AREA_BIT.SOUTH;
  if (west) attr |= AREA_BIT.WEST;
  return attr;
}

function writePoint(w: Writer, p: LatLng, what: string): void {
  if (!(Math.abs(p.lat) <= 90) || !(Math.abs(p.lng) <= 180)) throw new Jt808Error('encode', `${what}: [${p.lng}, ${p.lat}] is not a position`);
  w.u32(Math.round(Math.abs(p.lat) * 1e6), `${what} latitude`).u32(Math.round(Math.abs(p.lng) * 1e6), `${what} longitude`);
}

function writeTimesAndSpeed(w: Writer, a: AreaCommon, attr: number): void {
  if (attr & AREA_BIT.BY_TIME) {
    writeTime(w, a.startTime, 'start time');
    writeTime(w, a.endTime, 'end time');
  }
  if (attr & AREA_BIT.SPEED_LIMIT) w.u16(a.maxSpeed!, 'max speed').u8(a.overspeedSeconds ?? 0, 'overspeed duration');
}

function writeTail(w: Writer, a: AreaCommon, attr: number, version: ProtocolEdition): void {
  if (version === 2013) return;
  if (attr & AREA_BIT.SPEED_LIMIT) w.u16(a.nightMaxSpeed ?? a.maxSpeed!, 'night max speed');
  const name = encodeGbk(a.name);
  w.u16(name.length, 'area name length').bytes(name);
}

export function writeFenceMessage(w: Writer, msg: FenceMessage, version: ProtocolEdition): void {
  switch (msg.msgId) {
    case FENCE_MSG.SET_CIRCLES:
    case FENCE_MSG.SET_RECTS: {
      if (msg.areas.length === 0 || msg.areas.length > 0xff) throw new Jt808Error('encode', `${msg.areas.length} areas: one message carries 1 to 255`);
      w.u8(msg.action, 'setting attribute').u8(msg.areas.length, 'area count');
      for (const a of msg.areas) {
        const points = 'center' in a ? [a.center] : [a.topLeft, a.bottomRight];
        const attr = attributeOf(a, points);
        w.u32(a.id, 'area id').u16(attr, 'area attribute');
        if ('center' in a) {
          writePoint(w, a.center, 'centre');
          w.u32(a.radius, 'radius');
        } else {
          writePoint(w, a.topLeft, 'top-left');
          writePoint(w, a.bottomRight, 'bottom-right');
        }
        writeTimesAndSpeed(w, a, attr);
        writeTail(w, a, attr, version);
      }
      return;
    }
    case FENCE_MSG.SET_POLYGON: {
      const a = msg.area;
      if (a.points.length < 3 || a.points.length > 0xffff) throw new Jt808Error('encode', `${a.points.length} vertices: a polygon needs 3`);
      const attr = attributeOf(a, a.points);
      w.u32(a.id, 'area id').u16(attr, 'area attribute');
      writeTimesAndSpeed(w, a, attr);
      w.u16(a.points.length, 'vertex count');
      a.points.forEach((p, i) => writePoint(w, p, `vertex ${i}`));
      writeTail(w, a, attr, version);
      return;
    }
    default: {
      if (msg.ids.length > 0xff) throw new Jt808Error('encode', `${msg.ids.length} area ids: one message carries at most 255`);
      w.u8(msg.ids.length, 'area count');
      for (const id of msg.ids) w.u32(id, 'area id');
    }
  }
}

// ------------------------------------------------------------------ the platform's fence ↔ area

const ll = ([lng, lat]: LngLat): LatLng => ({ lat, lng });

/** 'HH:mm' → the daily form '000000HHmm00' (year/month/day 00: every day). */
export function dailyTime(hhmm: string): string {
  return `000000${hhmm.replace(':', '')}00`;
}

/** The area the platform sends for a fence: area id = fence id; in/out (and forbidden) alarms to driver and platform. */
export function fenceToArea(fence: Pick<Fence, 'id' | 'name' | 'geometry' | 'rule'>): CircleArea | RectArea | PolygonArea {
  const r = fence.rule;
  let attribute = 0;
  if (r.alarmIn || r.forbidIn) attribute |= AREA_BIT.IN_ALARM_DRIVER | AREA_BIT.IN_ALARM_PLATFORM;
  if (r.alarmOut || r.forbidOut) attribute |= AREA_BIT.OUT_ALARM_DRIVER | AREA_BIT.OUT_ALARM_PLATFORM;
  const timed = r.startTime !== null && r.endTime !== null;
  const common: AreaCommon = {
    id: fence.id, attribute, name: fence.name,
    startTime: timed ? dailyTime(r.startTime!) : null, endTime: timed ? dailyTime(r.endTime!) : null,
    maxSpeed: r.maxSpeed, overspeedSeconds: r.maxSpeed === null ? null : r.overspeedSeconds, nightMaxSpeed: r.maxSpeed,
  };
  const g = fence.geometry;
  switch (g.shape) {
    case 'circle':
      return { ...common, center: ll(g.center), radius: Math.round(g.radius) };
    case 'rect':
      // Top-left is north-west, bottom-right south-east.
      return { ...common, topLeft: { lat: g.ne[1], lng: g.sw[0] }, bottomRight: { lat: g.sw[1], lng: g.ne[0] } };
    case 'polygon':
      return { ...common, points: g.points.map(ll) };
  }
}

/** The set message for one fence (append, or modify when the terminal holds an older version). */
export function fenceSetMessage(fence: Pick<Fence, 'id' | 'name' | 'geometry' | 'rule'>, action: AreaAction): SetCircles | SetRects | SetPolygon {
  const area = fenceToArea(fence);
  if ('center' in area) return { msgId: FENCE_MSG.SET_CIRCLES, action, areas: [area] };
  if ('topLeft' in area) return { msgId: FENCE_MSG.SET_RECTS, action, areas: [area] };
  return { msgId: FENCE_MSG.SET_POLYGON, area };
}

/** The delete message for fences of one shape. */
export function fenceDeleteMessage(shape: Fence['geometry']['shape'], ids: number[]): DeleteAreas {
  return { msgId: shape === 'circle' ? FENCE_MSG.DELETE_CIRCLES : shape === 'rect' ? FENCE_MSG.DELETE_RECTS : FENCE_MSG.DELETE_POLYGONS, ids };
}

/** Back from an area to the platform's rule (the simulator obeys what it was sent). */
export function areaRule(a: AreaCommon): FenceRule {
  const hhmm = (t: string | null) => (t === null ? null : `${t.slice(6, 8)}:${t.slice(8, 10)}`);
  return {
    alarmIn: (a.attribute & (AREA_BIT.IN_ALARM_DRIVER | AREA_BIT.IN_ALARM_PLATFORM)) !== 0,
    alarmOut: (a.attribute & (AREA_BIT.OUT_ALARM_DRIVER | AREA_BIT.OUT_ALARM_PLATFORM)) !== 0,
    forbidIn: false, forbidOut: false,
    maxSpeed: a.maxSpeed, overspeedSeconds: a.overspeedSeconds ?? 0,
    startTime: hhmm(a.startTime), endTime: hhmm(a.endTime),
  };
}
