/**
 * The track playback codec (track.proto): a vehicle's history as columns, protobuf wire format written
 * and read by hand so 604,800 points a week go straight between typed arrays and packed varints, with
 * no per-point objects. Used by the server (GET /service-monitor/trail/binary) and the track worker;
 * no Node imports.
 */
import { countVarints, FrameError, ProtoReader, ProtoWriter, WireType, zigzag } from './wire.ts';

/** One vehicle's track; index i of every column is one point, in time order. */
export interface TrackData {
  vehicleId: number;
  plate: string;
  deviceNo: string;
  /** The period asked for, epoch ms. */
  startTime: number;
  endTime: number;
  /** Points in the period (may exceed `count` when the answer was capped). */
  total: number;
  /** Points in these columns. */
  count: number;
  /** Epoch ms (whole seconds on the wire). */
  time: Float64Array;
  /** WGS-84 degrees (1e-6 on the wire). */
  lng: Float64Array;
  lat: Float64Array;
  /** km/h (0.1 on the wire). */
  speed: Float32Array;
  /** degrees 0..359 */
  heading: Uint16Array;
  /** metres */
  altitude: Int32Array;
  /** JT/T 808 status word. */
  status: Uint32Array;
  /** JT/T 808 alarm word. */
  alarm: Uint32Array;
  /** Terminal odometer in km; NaN = not reported. */
  mileage: Float64Array;
}

/** Empty columns for `n` points (header fields zero). */
export function allocateTrack(n: number): TrackData {
  return {
    vehicleId: 0, plate: '', deviceNo: '', startTime: 0, endTime: 0, total: n, count: n,
    time: new Float64Array(n), lng: new Float64Array(n), lat: new Float64Array(n), speed: new Float32Array(n),
    heading: new Uint16Array(n), altitude: new Int32Array(n), status: new Uint32Array(n), alarm: new Uint32Array(n),
    mileage: new Float64Array(n),
  };
}

const F = {
  header: 1, time: 2, lng: 3, lat: 4, speed: 5, heading: 6, altitude: 7, statusAt: 8, statusValue: 9, alarmAt: 10, alarmValue: 11,
  mileage: 12, mileageMissingAt: 13,
  hVehicleId: 1, hPlate: 2, hDeviceNo: 3, hStartTime: 4, hEndTime: 5, hTotal: 6, hCount: 7,
} as const;

/** Zigzag varint of an integer within ±2^52 (sint64 on the wire; epoch seconds need > 32 bits). */
function writeSint64(w: ProtoWriter, v: number): void {
  if (v >= -0x40000000 && v < 0x40000000) {
    w.uint32(zigzag(v));
    return;
  }
  let zz = v >= 0 ? v * 2 : -v * 2 - 1;
  w.ensure(10);
  const b = w.buf;
  let p = w.pos;
  while (zz >= 128) {
    b[p++] = (zz % 128) | 0x80;
    zz = Math.floor(zz / 128);
  }
  b[p++] = zz;
  w.pos = p;
}

// ---------------------------------------------------------------------------------------------- encode

/** The Track message for `t` (its first `t.count` points). */
export function encodeTrack(t: TrackData): Uint8Array {
  const n = t.count;
  // ≈ 8 bytes per 1 Hz point; start near the final size so the writer rarely grows.
  const msg = new ProtoWriter(Math.max(256, n * 10));
  const c = new ProtoWriter(Math.max(64, n * 3));

  const h = new ProtoWriter(128);
  h.uint32Field(F.hVehicleId, t.vehicleId);
  h.stringField(F.hPlate, t.plate);
  h.stringField(F.hDeviceNo, t.deviceNo);
  h.doubleField(F.hStartTime, t.startTime);
  h.doubleField(F.hEndTime, t.endTime);
  h.uint32Field(F.hTotal, t.total);
  h.uint32Field(F.hCount, n);
  msg.embed(F.header, h);
  if (n === 0) return msg.finish();

  c.reset();
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const s = Math.floor(t.time[i]! / 1000);
    writeSint64(c, s - prev);
    prev = s;
  }
  msg.embed(F.time, c);
  deltaMicro(c, t.lng, n);
  msg.embed(F.lng, c);
  deltaMicro(c, t.lat, n);
  msg.embed(F.lat, c);

  c.reset();
  for (let i = 0; i < n; i++) {
    const s = t.speed[i]!;
    c.uint32(s > 0 ? Math.round(s * 10) : 0);
  }
  msg.embed(F.speed, c);
  c.reset();
  for (let i = 0; i < n; i++) c.uint32(t.heading[i]! % 360);
  msg.embed(F.heading, c);
  c.reset();
  prev = 0;
  for (let i = 0; i < n; i++) {
    const a = t.altitude[i]!;
    c.sint32(a - prev);
    prev = a;
  }
  msg.embed(F.altitude, c);

  runLength(msg, c, t.status, n, F.statusAt, F.statusValue);
  runLength(msg, c, t.alarm, n, F.alarmAt, F.alarmValue);

  // Mileage: 0.1 km deltas; a missing value repeats the previous one (delta 0) and is listed apart.
  c.reset();
  const missing: number[] = [];
  prev = 0;
  for (let i = 0; i < n; i++) {
    const m = t.mileage[i]!;
    if (!Number.isFinite(m)) {
      missing.push(i);
      c.uint32(0);
      continue;
    }
    const units = Math.round(m * 10);
    writeSint64(c, units - prev);
    prev = units;
  }
  msg.embed(F.mileage, c);
  if (missing.length > 0) {
    c.reset();
    for (const i of missing) c.uint32(i);
    msg.embed(F.mileageMissingAt, c);
  }
  return msg.finish();
}

function deltaMicro(c: ProtoWriter, values: Float64Array, n: number): void {
  c.reset();
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const micro = Math.round(values[i]! * 1e6);
    c.sint32(micro - prev);
    prev = micro;
  }
}

/** (index, value) pairs where the word changes; the word before the first pair is 0. */
function runLength(msg: ProtoWriter, c: ProtoWriter, values: Uint32Array, n: number, atField: number, valueField: number): void {
  const at: number[] = [];
  const vals: number[] = [];
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (v !== prev) {
      at.push(i);
      vals.push(v);
      prev = v;
    }
  }
  if (at.length === 0) return;
  c.reset();
  for (const i of at) c.uint32(i);
  msg.embed(atField, c);
  c.reset();
  for (const v of vals) c.uint32(v);
  msg.embed(valueField, c);
}

// ---------------------------------------------------------------------------------------------- decode

type Range = [number, number];

/**
 * Decodes a Track message into fresh columns. Throws FrameError on malformed input; every loop is
 * bounded by the point count, which is checked against the time column's bytes before allocating.
 */
export function decodeTrack(bytes: Uint8Array): TrackData {
  const r = new ProtoReader(bytes);
  const ranges: (Range | undefined)[] = [];
  let header: Range | undefined;
  while (!r.done) {
    const tag = r.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === F.header && wire === WireType.LengthDelimited) header = r.range();
    else if (field >= F.time && field <= F.mileageMissingAt && wire === WireType.LengthDelimited) ranges[field] = r.range();
    else r.skip(wire);
  }

  let vehicleId = 0, plate = '', deviceNo = '', startTime = 0, endTime = 0, total = 0, headerCount = 0;
  if (header) {
    const h = new ProtoReader(bytes, header[0], header[1]);
    while (!h.done) {
      const tag = h.uint32();
      const field = tag >>> 3;
      const wire = tag & 7;
      if (field === F.hVehicleId && wire === WireType.Varint) vehicleId = h.uint32();
      else if (field === F.hPlate && wire === WireType.LengthDelimited) plate = h.string();
      else if (field === F.hDeviceNo && wire === WireType.LengthDelimited) deviceNo = h.string();
      else if (field === F.hStartTime && wire === WireType.Fixed64) startTime = h.double();
      else if (field === F.hEndTime && wire === WireType.Fixed64) endTime = h.double();
      else if (field === F.hTotal && wire === WireType.Varint) total = h.uint32();
      else if (field === F.hCount && wire === WireType.Varint) headerCount = h.uint32();
      else h.skip(wire);
    }
  }

  const timeRange = ranges[F.time];
  const n = timeRange ? countVarints(bytes, timeRange[0], timeRange[1]) : 0;
  if (headerCount !== 0 && headerCount !== n) throw new FrameError(`track header says ${headerCount} points, the time column holds ${n}`);
  const t = allocateTrack(n);
  Object.assign(t, { vehicleId, plate, deviceNo, startTime, endTime, total: Math.max(total, n), count: n });
  if (n === 0) return t;

  const required = (field: number, name: string): Range => {
    const range = ranges[field];
    if (!range) throw new FrameError(`track lacks its ${name} column`);
    return range;
  };
  readSint64Deltas(bytes, timeRange!, t.time, n, 1000, 1);
  readMicroDeltas(bytes, required(F.lng, 'lng'), t.lng, n);
  readMicroDeltas(bytes, required(F.lat, 'lat'), t.lat, n);
  const scratch = new Uint32Array(n);
  // Optional columns: proto3 omits an empty packed field, so a missing column reads as zeros.
  const speedRange = ranges[F.speed], headingRange = ranges[F.heading], altitudeRange = ranges[F.altitude], mileageRange = ranges[F.mileage];
  if (speedRange) {
    readPacked(bytes, speedRange, scratch, n, 'speed');
    for (let i = 0; i < n; i++) t.speed[i] = scratch[i]! * 0.1;
  }
  if (headingRange) {
    readPacked(bytes, headingRange, scratch, n, 'heading');
    for (let i = 0; i < n; i++) t.heading[i] = scratch[i]! % 360;
  }
  if (altitudeRange) {
    readPacked(bytes, altitudeRange, scratch, n, 'altitude');
    let acc = 0;
    for (let i = 0; i < n; i++) {
      const v = scratch[i]!;
      acc = (acc + ((v >>> 1) ^ -(v & 1))) | 0;
      t.altitude[i] = acc;
    }
  }
  readRunLength(bytes, ranges[F.statusAt], ranges[F.statusValue], t.status, n, 'status');
  readRunLength(bytes, ranges[F.alarmAt], ranges[F.alarmValue], t.alarm, n, 'alarm');
  if (mileageRange) {
    readSint64Deltas(bytes, mileageRange, t.mileage, n, 1, 10);
    const missingRange = ranges[F.mileageMissingAt];
    if (missingRange) {
      const k = countVarints(bytes, missingRange[0], missingRange[1]);
      const at = new Uint32Array(k);
      readPacked(bytes, missingRange, at, k, 'mileageMissingAt');
      for (let j = 0; j < k; j++) {
        const i = at[j]!;
        if (i >= n) throw new FrameError(`mileageMissingAt ${i} is beyond the ${n} points`);
        t.mileage[i] = NaN;
      }
    }
  } else {
    t.mileage.fill(NaN);
  }
  return t;
}

function columnEnd(p: number, end: number, name: string): void {
  if (p !== end) throw new FrameError(`track column ${name} does not hold exactly the point count`);
}

/** Packed varints (≤ 32 bits) into `out`; exactly `n` values. */
function readPacked(buf: Uint8Array, [start, end]: Range, out: Uint32Array, n: number, name: string): void {
  let p = start;
  for (let i = 0; i < n; i++) {
    if (p >= end) throw new FrameError(`track column ${name} holds fewer values than the point count`);
    let b = buf[p++]!;
    let v = b & 0x7f;
    let shift = 7;
    while (b > 0x7f) {
      if (p >= end || shift > 28) throw new FrameError(`bad varint in track column ${name}`);
      b = buf[p++]!;
      v |= (b & 0x7f) << shift;
      shift += 7;
    }
    out[i] = v >>> 0;
  }
  columnEnd(p, end, name);
}

/** 1e-6 degree zigzag deltas (sint32) summed into degrees. Hot loop: 604,800 points × 2 a week. */
function readMicroDeltas(buf: Uint8Array, [start, end]: Range, out: Float64Array, n: number): void {
  let p = start;
  let acc = 0;
  for (let i = 0; i < n; i++) {
    if (p >= end) throw new FrameError('coordinate column holds fewer values than the point count');
    let b = buf[p++]!;
    let v = b & 0x7f;
    let shift = 7;
    while (b > 0x7f) {
      if (p >= end || shift > 28) throw new FrameError('bad varint in a coordinate column');
      b = buf[p++]!;
      v |= (b & 0x7f) << shift;
      shift += 7;
    }
    acc = (acc + ((v >>> 1) ^ -(v & 1))) | 0;
    out[i] = acc / 1e6;
  }
  columnEnd(p, end, 'lng/lat');
}

/** sint64 zigzag deltas (up to 2^53) summed, then × mul / div (division keeps 0.1 km values exact decimals). */
function readSint64Deltas(buf: Uint8Array, [start, end]: Range, out: Float64Array, n: number, mul: number, div: number): void {
  let p = start;
  let acc = 0;
  for (let i = 0; i < n; i++) {
    if (p >= end) throw new FrameError('sint64 column holds fewer values than the point count');
    let b = buf[p++]!;
    let v = b & 0x7f;
    if (b > 0x7f) {
      let mul = 128;
      do {
        if (p >= end || mul > 2 ** 63) throw new FrameError('bad varint in a sint64 column');
        b = buf[p++]!;
        v += (b & 0x7f) * mul;
        mul *= 128;
      } while (b > 0x7f);
    }
    // Zigzag without 32-bit operators (values exceed 2^32).
    acc += v % 2 === 0 ? v / 2 : -(v + 1) / 2;
    out[i] = (acc * mul) / div;
  }
  columnEnd(p, end, 'sint64');
}

function readRunLength(buf: Uint8Array, atRange: Range | undefined, valueRange: Range | undefined, out: Uint32Array, n: number, name: string): void {
  if (!atRange && !valueRange) return;
  if (!atRange || !valueRange) throw new FrameError(`track ${name} run-length pairs are incomplete`);
  const k = countVarints(buf, atRange[0], atRange[1]);
  if (k > n) throw new FrameError(`track ${name} has more changes than points`);
  const at = new Uint32Array(k);
  const values = new Uint32Array(k);
  readPacked(buf, atRange, at, k, `${name}At`);
  readPacked(buf, valueRange, values, k, `${name}Value`);
  let prevAt = -1;
  for (let j = 0; j < k; j++) {
    const from = at[j]!;
    if (from <= prevAt || from >= n) throw new FrameError(`track ${name} change index ${from} is out of order or beyond the points`);
    const to = j + 1 < k ? Math.min(at[j + 1]!, n) : n;
    out.fill(values[j]!, from, Math.max(from, to));
    prevAt = from;
  }
}
