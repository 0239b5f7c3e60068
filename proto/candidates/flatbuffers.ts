/**
 * FlatBuffers codec of position.fbs (decode benchmark candidate), written the way flatc's TypeScript
 * output reads tables. Fixed-width vectors are read as typed-array views, then the deltas are summed.
 */
import { Builder, ByteBuffer } from 'flatbuffers';
import { createPositionColumns, MISSING, type FrameKind, type PositionColumns, type PositionSource } from '../codec.ts';

// vtable slot of each field (declaration order in position.fbs).
const S = { kind: 0, serverTime: 1, vehicleId: 2, lng: 3, lat: 4, speed: 5, heading: 6, state: 7, alarm: 8, gpsTime: 9, lastContact: 10 } as const;

export function encodeFlatFrame(kind: FrameKind, serverTime: number, src: PositionSource, rows: ArrayLike<number>, count: number): Uint8Array {
  const b = new Builder(count * 30 + 256);
  const baseSec = Math.floor(serverTime / 1000);
  const ints = (value: (i: number) => number): number => {
    b.startVector(4, count, 4);
    for (let i = count - 1; i >= 0; i--) b.addInt32(value(i));
    return b.endVector();
  };
  const shorts = (value: (i: number) => number): number => {
    b.startVector(2, count, 2);
    for (let i = count - 1; i >= 0; i--) b.addInt16(value(i));
    return b.endVector();
  };
  const row = (i: number) => rows[i]!;
  const microOf = (values: ArrayLike<number>) => {
    const m = new Int32Array(count);
    let prev = 0;
    for (let i = 0; i < count; i++) {
      const v = values[row(i)]!;
      if (!Number.isFinite(v)) { m[i] = MISSING; continue; }
      const x = Math.round(v * 1e6);
      m[i] = x - prev;
      prev = x;
    }
    return m;
  };
  const ids = new Int32Array(count);
  for (let i = 0, prev = 0; i < count; i++) { const id = src.vehicleId[row(i)]!; ids[i] = id - prev; prev = id; }
  const lngs = microOf(src.lng);
  const lats = microOf(src.lat);
  const oId = ints((i) => ids[i]!);
  const oLng = ints((i) => lngs[i]!);
  const oLat = ints((i) => lats[i]!);
  const oSpeed = shorts((i) => Math.round(src.speed[row(i)]! * 10));
  const oHeading = shorts((i) => src.heading[row(i)]!);
  b.startVector(1, count, 1);
  for (let i = count - 1; i >= 0; i--) b.addInt8(src.state[row(i)]!);
  const oState = b.endVector();
  const oAlarm = ints((i) => src.alarmFlags[row(i)]! | 0);
  const rel = (values: ArrayLike<number>) => (i: number) => {
    const v = values[row(i)]!;
    return Number.isFinite(v) ? Math.floor(v / 1000) - baseSec : MISSING;
  };
  const oGps = ints(rel(src.gpsTime));
  const oContact = ints(rel(src.lastContact));
  b.startObject(11);
  b.addFieldInt8(S.kind, kind, 0);
  b.addFieldFloat64(S.serverTime, serverTime, 0);
  b.addFieldOffset(S.vehicleId, oId, 0);
  b.addFieldOffset(S.lng, oLng, 0);
  b.addFieldOffset(S.lat, oLat, 0);
  b.addFieldOffset(S.speed, oSpeed, 0);
  b.addFieldOffset(S.heading, oHeading, 0);
  b.addFieldOffset(S.state, oState, 0);
  b.addFieldOffset(S.alarm, oAlarm, 0);
  b.addFieldOffset(S.gpsTime, oGps, 0);
  b.addFieldOffset(S.lastContact, oContact, 0);
  b.finish(b.endObject());
  return b.asUint8Array().slice();
}

export function decodeFlatFrame(bytes: Uint8Array, out: PositionColumns = createPositionColumns(0)): PositionColumns {
  const bb = new ByteBuffer(bytes);
  const table = bb.readInt32(bb.position()) + bb.position();
  const field = (slot: number) => bb.__offset(table, 4 + slot * 2);
  const vector = <T>(slot: number, make: (buffer: ArrayBuffer, offset: number, length: number) => T): T => {
    const o = field(slot);
    const start = bb.__vector(table + o);
    return make(bytes.buffer as ArrayBuffer, bytes.byteOffset + start, bb.__vector_len(table + o));
  };
  const kindOffset = field(S.kind);
  const timeOffset = field(S.serverTime);
  out.kind = (kindOffset ? bb.readUint8(table + kindOffset) : 0) as FrameKind;
  out.serverTime = timeOffset ? bb.readFloat64(table + timeOffset) : 0;
  const ids = vector(S.vehicleId, (b, o, n) => new Int32Array(b, o, n));
  const n = ids.length;
  if (out.vehicleId.length < n) out = Object.assign(createPositionColumns(n), { kind: out.kind, serverTime: out.serverTime });
  out.count = n;
  const state = vector(S.state, (b, o, len) => new Uint8Array(b, o, len));
  out.state.set(state);
  let acc = 0;
  for (let i = 0; i < n; i++) { acc = (acc + ids[i]!) | 0; out.vehicleId[i] = acc; }
  for (const [slot, target] of [[S.lng, out.lng], [S.lat, out.lat]] as const) {
    const d = vector(slot, (b, o, len) => new Int32Array(b, o, len));
    acc = 0;
    for (let i = 0; i < n; i++) {
      if (d[i] === MISSING) { target[i] = NaN; continue; }
      acc = (acc + d[i]!) | 0;
      target[i] = acc / 1e6;
    }
  }
  const speed = vector(S.speed, (b, o, len) => new Uint16Array(b, o, len));
  for (let i = 0; i < n; i++) out.speed[i] = speed[i]! / 10;
  out.heading.set(vector(S.heading, (b, o, len) => new Uint16Array(b, o, len)));
  out.alarmFlags.set(vector(S.alarm, (b, o, len) => new Uint32Array(b, o, len)));
  const baseSec = Math.floor(out.serverTime / 1000);
  for (const [slot, target] of [[S.gpsTime, out.gpsTime], [S.lastContact, out.lastContact]] as const) {
    const d = vector(slot, (b, o, len) => new Int32Array(b, o, len));
    for (let i = 0; i < n; i++) target[i] = d[i] === MISSING ? NaN : (baseSec + d[i]!) * 1000;
  }
  return out;
}
