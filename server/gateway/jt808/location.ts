/**
 * Location report 0x0200 (JT/T 808-2013 §8.18 / -2019 §8.20), its additional items, the
 * active-safety ADAS 0x64 / DMS 0x65 items (T/JSATL 12 "Su-biao", used with JT/T 1078), and the
 * batch upload 0x0704. This is the gateway's hot path: one flat object per report, every field
 * initialised in the same order so V8 keeps a single hidden class.
 */
import { decodeBcdTime, decodeGbk, Reader, type Writer } from './bytes.ts';
import { Jt808Error } from './errors.ts';

/** Status bit 2: south latitude; bit 3: west longitude. */
export const STATUS_SOUTH = 0x4;
export const STATUS_WEST = 0x8;

export const ITEM = {
  MILEAGE: 0x01,
  FUEL: 0x02,
  RECORDER_SPEED: 0x03,
  ALARM_EVENT_ID: 0x04,
  EXT_SIGNAL: 0x25,
  IO_STATUS: 0x2a,
  ANALOG: 0x2b,
  SIGNAL: 0x30,
  SATELLITES: 0x31,
  ADAS: 0x64,
  DMS: 0x65,
} as const;

/** Alarm identification (报警标识号), 16 bytes: terminal id, time, sequence, attachment count. */
export interface AlarmIdentification {
  /** BYTE[7] terminal id, trailing NULs removed. */
  terminalId: string;
  time: number;
  seq: number;
  attachments: number;
  reserved: number;
}

/** 0x64 advanced driver-assistance alarm; 47 bytes. */
export interface AdasAlarm {
  alarmId: number;
  /** 0 not applicable, 1 start, 2 end. */
  flag: number;
  /** 1 forward collision, 2 lane departure, 3 too close, 4 pedestrian, 5 lane change, 6 road sign over-limit, 7 obstacle, 16 road sign, 17 active capture. */
  type: number;
  /** 1 level one, 2 level two. */
  level: number;
  /** Front vehicle speed, km/h. */
  frontSpeed: number;
  /** Headway to the front vehicle / pedestrian, in 100 ms. */
  frontDistance: number;
  /** 1 left, 2 right. */
  deviationType: number;
  /** 1 speed limit, 2 height limit, 3 weight limit. */
  roadSignType: number;
  roadSignValue: number;
  /** km/h */
  speed: number;
  /** m */
  altitude: number;
  lat: number;
  lng: number;
  time: number;
  vehicleStatus: number;
  identification: AlarmIdentification;
}

/** 0x65 driver-monitoring alarm; 47 bytes. */
export interface DmsAlarm {
  alarmId: number;
  flag: number;
  /** 1 fatigue, 2 phone call, 3 smoking, 4 distraction, 5 driver abnormal, 16 active capture, 17 driver change. */
  type: number;
  level: number;
  /** 1..10, only for fatigue alarms. */
  fatigue: number;
  /** BYTE[4] reserved, as a DWORD. */
  reserved: number;
  speed: number;
  altitude: number;
  lat: number;
  lng: number;
  time: number;
  vehicleStatus: number;
  identification: AlarmIdentification;
}

/** An additional item the codec does not interpret (or whose length did not match), kept raw. */
export interface AdditionalItem {
  id: number;
  data: Uint8Array;
}

/** The fixed fields of a location report (the 28 bytes every 0x0200 starts with; multimedia messages carry them too). */
export interface LocationBasics {
  /** Alarm flags DWORD (bit 0 SOS, 1 over-speed, 2 fatigue, ...). */
  alarm: number;
  /** Status DWORD (bit 0 ACC, 1 fixed, 2 south, 3 west, ...). */
  status: number;
  /** Degrees, negative when south (status bit 2). */
  lat: number;
  /** Degrees, negative when west (status bit 3). */
  lng: number;
  /** m */
  altitude: number;
  /** km/h (wire: 1/10 km/h) */
  speed: number;
  /** 0..359, 0 = north, clockwise */
  direction: number;
  /** Epoch ms from BCD GMT+8; NaN when the terminal sent all zeros. */
  time: number;
}

export interface LocationReport extends LocationBasics {
  msgId: 0x0200;
  /** 0x01, km (wire 1/10 km) */
  mileage: number | undefined;
  /** 0x02, L (wire 1/10 L) */
  fuel: number | undefined;
  /** 0x03, tachograph speed km/h (wire 1/10 km/h) */
  recorderSpeed: number | undefined;
  /** 0x04, id of an alarm event needing manual confirmation */
  alarmEventId: number | undefined;
  /** 0x25, extended vehicle signal status bits */
  extSignal: number | undefined;
  /** 0x2A, IO status bits */
  ioStatus: number | undefined;
  /** 0x2B, analog: bits 0-15 AD0, 16-31 AD1 */
  analog: number | undefined;
  /** 0x30, wireless signal strength */
  signal: number | undefined;
  /** 0x31, GNSS satellites in use */
  satellites: number | undefined;
  adas: AdasAlarm | undefined;
  dms: DmsAlarm | undefined;
  /** Unknown items in arrival order. */
  extras: AdditionalItem[] | undefined;
}

/** Fixed part of a location report: 4+4+4+4+2+2+2+6. */
export const LOCATION_FIXED_LENGTH = 28;
const SAFETY_ALARM_LENGTH = 47;

function u16(b: Uint8Array, o: number): number {
  return (b[o]! << 8) | b[o + 1]!;
}

function u32(b: Uint8Array, o: number): number {
  return b[o]! * 0x1000000 + ((b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!);
}

function time(b: Uint8Array, o: number, what: string): number {
  const t = decodeBcdTime(b, o);
  if (t === -1) throw new Jt808Error('field', `${what}: not a valid BCD date-time`);
  return t;
}

function identification(b: Uint8Array, o: number): AlarmIdentification {
  let end = o + 7;
  while (end > o && (b[end - 1] === 0 || b[end - 1] === 0x20)) end--;
  return {
    terminalId: decodeGbk(b, o, end),
    time: time(b, o + 7, 'alarm identification time'),
    seq: b[o + 13]!,
    attachments: b[o + 14]!,
    reserved: b[o + 15]!,
  };
}

function decodeAdas(b: Uint8Array, o: number): AdasAlarm {
  return {
    alarmId: u32(b, o),
    flag: b[o + 4]!,
    type: b[o + 5]!,
    level: b[o + 6]!,
    frontSpeed: b[o + 7]!,
    frontDistance: b[o + 8]!,
    deviationType: b[o + 9]!,
    roadSignType: b[o + 10]!,
    roadSignValue: b[o + 11]!,
    speed: b[o + 12]!,
    altitude: u16(b, o + 13),
    lat: u32(b, o + 15) / 1e6,
    lng: u32(b, o + 19) / 1e6,
    time: time(b, o + 23, 'ADAS alarm time'),
    vehicleStatus: u16(b, o + 29),
    identification: identification(b, o + 31),
  };
}

function decodeDms(b: Uint8Array, o: number): DmsAlarm {
  return {
    alarmId: u32(b, o),
    flag: b[o + 4]!,
    type: b[o + 5]!,
    level: b[o + 6]!,
    fatigue: b[o + 7]!,
    reserved: u32(b, o + 8),
    speed: b[o + 12]!,
    altitude: u16(b, o + 13),
    lat: u32(b, o + 15) / 1e6,
    lng: u32(b, o + 19) / 1e6,
    time: time(b, o + 23, 'DMS alarm time'),
    vehicleStatus: u16(b, o + 29),
    identification: identification(b, o + 31),
  };
}

/**
 * Decodes a 0x0200 body in bytes[start, end). Throws Jt808Error (truncated / field); the
 * frame decoder turns that into a result. Unknown items, and known ones of an unexpected
 * length, are kept raw in `extras` rather than failing the report.
 */
export function decodeLocation(b: Uint8Array, start: number, end: number): LocationReport {
  if (end - start < LOCATION_FIXED_LENGTH) {
    throw new Jt808Error('truncated', `location report: ${end - start} bytes, needs ${LOCATION_FIXED_LENGTH}`);
  }
  const status = u32(b, start + 4);
  const rawLat = u32(b, start + 8);
  const rawLng = u32(b, start + 12);
  const loc: LocationReport = {
    msgId: 0x0200,
    alarm: u32(b, start),
    status,
    // `raw > 0` check keeps 0 from becoming -0.
    lat: status & STATUS_SOUTH && rawLat > 0 ? -rawLat / 1e6 : rawLat / 1e6,
    lng: status & STATUS_WEST && rawLng > 0 ? -rawLng / 1e6 : rawLng / 1e6,
    altitude: u16(b, start + 16),
    speed: u16(b, start + 18) / 10,
    direction: u16(b, start + 20),
    time: time(b, start + 22, 'location time'),
    mileage: undefined,
    fuel: undefined,
    recorderSpeed: undefined,
    alarmEventId: undefined,
    extSignal: undefined,
    ioStatus: undefined,
    analog: undefined,
    signal: undefined,
    satellites: undefined,
    adas: undefined,
    dms: undefined,
    extras: undefined,
  };
  let o = start + LOCATION_FIXED_LENGTH;
  while (o < end) {
    if (o + 2 > end) throw new Jt808Error('truncated', `location item at byte ${o - start}: no id/length`);
    const id = b[o]!;
    const len = b[o + 1]!;
    const v = o + 2;
    o = v + len;
    if (o > end) throw new Jt808Error('truncated', `location item 0x${id.toString(16)}: length ${len}, ${end - v} bytes left`);
    switch (id) {
      case ITEM.MILEAGE:
        if (len === 4) {
          loc.mileage = u32(b, v) / 10;
          continue;
        }
        break;
      case ITEM.FUEL:
        if (len === 2) {
          loc.fuel = u16(b, v) / 10;
          continue;
        }
        break;
      case ITEM.RECORDER_SPEED:
        if (len === 2) {
          loc.recorderSpeed = u16(b, v) / 10;
          continue;
        }
        break;
      case ITEM.ALARM_EVENT_ID:
        if (len === 2) {
          loc.alarmEventId = u16(b, v);
          continue;
        }
        break;
      case ITEM.EXT_SIGNAL:
        if (len === 4) {
          loc.extSignal = u32(b, v);
          continue;
        }
        break;
      case ITEM.IO_STATUS:
        if (len === 2) {
          loc.ioStatus = u16(b, v);
          continue;
        }
        break;
      case ITEM.ANALOG:
        if (len === 4) {
          loc.analog = u32(b, v);
          continue;
        }
        break;
      case ITEM.SIGNAL:
        if (len === 1) {
          loc.signal = b[v]!;
          continue;
        }
        break;
      case ITEM.SATELLITES:
        if (len === 1) {
          loc.satellites = b[v]!;
          continue;
        }
        break;
      case ITEM.ADAS:
        if (len === SAFETY_ALARM_LENGTH) {
          loc.adas = decodeAdas(b, v);
          continue;
        }
        break;
      case ITEM.DMS:
        if (len === SAFETY_ALARM_LENGTH) {
          loc.dms = decodeDms(b, v);
          continue;
        }
        break;
      default:
        break;
    }
    (loc.extras ??= []).push({ id, data: b.slice(v, o) });
  }
  return loc;
}

/** The fields a caller must give to encode a report; optional items default to absent. */
export type LocationInput = LocationBasics & Partial<Omit<LocationReport, 'msgId' | keyof LocationBasics>>;

function scaled(v: number, factor: number, max: number, what: string): number {
  const raw = Math.round(v * factor);
  if (!Number.isFinite(raw) || raw < 0 || raw > max) throw new Jt808Error('encode', `${what}: ${v} is out of range`);
  return raw;
}

function hemisphere(status: number, value: number, bit: number): number {
  if (value < 0) return status | bit;
  if (value > 0) return status & ~bit;
  return status;
}

function item(w: Writer, id: number, len: number): void {
  w.u8(id);
  w.u8(len);
}

function writeIdentification(w: Writer, id: AlarmIdentification): void {
  w.fixedString(id.terminalId, 7, 'alarm identification terminal id');
  w.bcdTime(id.time, 'alarm identification time');
  w.u8(id.seq, 'alarm identification seq');
  w.u8(id.attachments, 'alarm identification attachments');
  w.u8(id.reserved, 'alarm identification reserved');
}

function writeSafetyTail(w: Writer, a: AdasAlarm | DmsAlarm, what: string): void {
  w.u8(a.speed, `${what} speed`);
  w.u16(a.altitude, `${what} altitude`);
  w.u32(scaled(a.lat, 1e6, 0xffffffff, `${what} lat`));
  w.u32(scaled(a.lng, 1e6, 0xffffffff, `${what} lng`));
  w.bcdTime(a.time, `${what} time`);
  w.u16(a.vehicleStatus, `${what} vehicle status`);
  writeIdentification(w, a.identification);
}

/** Writes a 0x0200 body. Status bits 2/3 follow the signs of lat/lng. Throws Jt808Error('encode'). */
export function writeLocation(w: Writer, loc: LocationInput): void {
  let status = hemisphere(loc.status >>> 0, loc.lat, STATUS_SOUTH);
  status = hemisphere(status, loc.lng, STATUS_WEST) >>> 0;
  w.u32(loc.alarm, 'alarm flags');
  w.u32(status, 'status');
  w.u32(scaled(Math.abs(loc.lat), 1e6, 90_000_000, 'lat'));
  w.u32(scaled(Math.abs(loc.lng), 1e6, 180_000_000, 'lng'));
  w.u16(loc.altitude, 'altitude');
  w.u16(scaled(loc.speed, 10, 0xffff, 'speed'));
  w.u16(loc.direction, 'direction');
  w.bcdTime(loc.time, 'location time');
  if (loc.mileage !== undefined) {
    item(w, ITEM.MILEAGE, 4);
    w.u32(scaled(loc.mileage, 10, 0xffffffff, 'mileage'));
  }
  if (loc.fuel !== undefined) {
    item(w, ITEM.FUEL, 2);
    w.u16(scaled(loc.fuel, 10, 0xffff, 'fuel'));
  }
  if (loc.recorderSpeed !== undefined) {
    item(w, ITEM.RECORDER_SPEED, 2);
    w.u16(scaled(loc.recorderSpeed, 10, 0xffff, 'recorder speed'));
  }
  if (loc.alarmEventId !== undefined) {
    item(w, ITEM.ALARM_EVENT_ID, 2);
    w.u16(loc.alarmEventId, 'alarm event id');
  }
  if (loc.extSignal !== undefined) {
    item(w, ITEM.EXT_SIGNAL, 4);
    w.u32(loc.extSignal, 'extended signal status');
  }
  if (loc.ioStatus !== undefined) {
    item(w, ITEM.IO_STATUS, 2);
    w.u16(loc.ioStatus, 'IO status');
  }
  if (loc.analog !== undefined) {
    item(w, ITEM.ANALOG, 4);
    w.u32(loc.analog, 'analog');
  }
  if (loc.signal !== undefined) {
    item(w, ITEM.SIGNAL, 1);
    w.u8(loc.signal, 'signal strength');
  }
  if (loc.satellites !== undefined) {
    item(w, ITEM.SATELLITES, 1);
    w.u8(loc.satellites, 'satellites');
  }
  const adas = loc.adas;
  if (adas !== undefined) {
    item(w, ITEM.ADAS, SAFETY_ALARM_LENGTH);
    w.u32(adas.alarmId, 'ADAS alarm id');
    w.u8(adas.flag, 'ADAS flag');
    w.u8(adas.type, 'ADAS type');
    w.u8(adas.level, 'ADAS level');
    w.u8(adas.frontSpeed, 'ADAS front speed');
    w.u8(adas.frontDistance, 'ADAS front distance');
    w.u8(adas.deviationType, 'ADAS deviation type');
    w.u8(adas.roadSignType, 'ADAS road sign type');
    w.u8(adas.roadSignValue, 'ADAS road sign value');
    writeSafetyTail(w, adas, 'ADAS');
  }
  const dms = loc.dms;
  if (dms !== undefined) {
    item(w, ITEM.DMS, SAFETY_ALARM_LENGTH);
    w.u32(dms.alarmId, 'DMS alarm id');
    w.u8(dms.flag, 'DMS flag');
    w.u8(dms.type, 'DMS type');
    w.u8(dms.level, 'DMS level');
    w.u8(dms.fatigue, 'DMS fatigue');
    w.u32(dms.reserved, 'DMS reserved');
    writeSafetyTail(w, dms, 'DMS');
  }
  for (const extra of loc.extras ?? []) {
    if (extra.data.length > 0xff) throw new Jt808Error('encode', `item 0x${extra.id.toString(16)}: ${extra.data.length} bytes exceed 255`);
    item(w, extra.id, extra.data.length);
    w.bytes(extra.data);
  }
}

/** 0x0704: blind-area re-upload (type 1) or normal batch (type 0). */
export interface BatchLocation {
  msgId: 0x0704;
  /** 0 normal batch, 1 blind-area re-upload. */
  type: number;
  items: LocationReport[];
  /** Items whose own body failed to decode; the rest are kept. */
  invalid: number;
}

export function decodeBatch(b: Uint8Array, start: number, end: number): BatchLocation {
  const r = new Reader(b, start, end);
  const count = r.u16('batch count');
  const type = r.u8('batch type');
  const items: LocationReport[] = [];
  let invalid = 0;
  for (let i = 0; i < count; i++) {
    const len = r.u16(`batch item ${i + 1} length`);
    r.need(len, `batch item ${i + 1}`);
    try {
      items.push(decodeLocation(b, r.o, r.o + len));
    } catch (e) {
      // One damaged item must not cost the other positions of a blind-area upload.
      if (!(e instanceof Jt808Error)) throw e;
      invalid++;
    }
    r.o += len;
  }
  if (r.remaining !== 0) throw new Jt808Error('length', `batch of ${count} items leaves ${r.remaining} trailing bytes`);
  return { msgId: 0x0704, type, items, invalid };
}

export interface BatchLocationInput {
  type: number;
  items: LocationInput[];
}

export function writeBatch(w: Writer, batch: BatchLocationInput): void {
  w.u16(batch.items.length, 'batch count');
  w.u8(batch.type, 'batch type');
  for (const loc of batch.items) {
    const at = w.reserve(2);
    const before = w.length;
    writeLocation(w, loc);
    w.patchU16(at, w.length - before);
  }
}
