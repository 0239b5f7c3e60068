/**
 * The push channel codec: protobuf wire format (position.proto) written and read by hand so columns go
 * straight between typed arrays and packed varints, with no per-vehicle objects on either side.
 * Used by the server (server/push) and the stream worker (src/live/stream); no Node imports.
 */
import { countVarints, FrameError, ProtoReader, ProtoWriter, unzigzag, WireType, zigzag } from './wire.ts';

export const FrameKind = { Snapshot: 1, Delta: 2 } as const;
export type FrameKind = (typeof FrameKind)[keyof typeof FrameKind];

export const DirectoryKind = { Full: 1, Additions: 2 } as const;
export type DirectoryKind = (typeof DirectoryKind)[keyof typeof DirectoryKind];

/**
 * "No value" in the lng, lat, gpsTime and lastContact columns: the int32 minimum, which no real delta
 * reaches (coordinate deltas stay within ±360e6). Costs 5 bytes, only for vehicles without the value
 * (never online, or connected before their first fix). A missing coordinate leaves the delta chain as is.
 */
export const MISSING = -2147483648;
const MISSING_ZIGZAG = 0xffffffff;

/** Decoded position columns; arrays may be longer than `count` (reused buffers). */
export interface PositionColumns {
  kind: FrameKind;
  /** Epoch ms when the server built the frame. */
  serverTime: number;
  count: number;
  vehicleId: Int32Array;
  /** WGS-84 degrees; NaN for a vehicle without a position (never online). */
  lng: Float64Array;
  lat: Float64Array;
  /** km/h */
  speed: Float32Array;
  /** degrees 0..359 */
  heading: Uint16Array;
  /** Motion state: never online, driving, parking or idling. Offline is derived from lastContact by the reader. */
  state: Uint8Array;
  alarmFlags: Uint32Array;
  /** Epoch ms (second resolution). */
  gpsTime: Float64Array;
  /** Epoch ms (second resolution); NaN when never heard from. */
  lastContact: Float64Array;
}

/** Where the encoder reads vehicles from: the live store's columns, indexed by `rows`. */
export interface PositionSource {
  readonly vehicleId: ArrayLike<number>;
  readonly lng: ArrayLike<number>;
  readonly lat: ArrayLike<number>;
  readonly speed: ArrayLike<number>;
  readonly heading: ArrayLike<number>;
  /** Motion state per row (see PositionColumns.state). */
  readonly state: ArrayLike<number>;
  readonly alarmFlags: ArrayLike<number>;
  readonly gpsTime: ArrayLike<number>;
  readonly lastContact: ArrayLike<number>;
}

export interface CommandHeaders {
  mutation: string;
  state: string;
  commandType: string;
}

export interface Directory {
  kind: DirectoryKind;
  vehicleId: Int32Array;
  companyId: Int32Array;
  plates: string[];
  deviceNos: string[];
}

export interface DirectoryEntry {
  readonly vehicleId: number;
  readonly companyId: number;
  readonly plate: string;
  readonly deviceNo: string;
}

export type PushBody =
  | { readonly type: 'positions'; readonly frame: PositionColumns }
  | { readonly type: 'directory'; readonly directory: Directory }
  | { readonly type: 'json'; readonly value: unknown };

export interface PushMessage {
  commandType: string;
  commandHeaders: CommandHeaders;
  body: PushBody;
}

/** The spec §3 headers of each message the hub sends. */
export const Commands = {
  snapshot: { commandType: 'positions', mutation: 'REPLACE_POSITIONS', state: 'monitor' },
  delta: { commandType: 'positions', mutation: 'MERGE_POSITIONS', state: 'monitor' },
  directory: { commandType: 'directory', mutation: 'REPLACE_DIRECTORY', state: 'monitor' },
  directoryAdditions: { commandType: 'directory', mutation: 'MERGE_DIRECTORY', state: 'monitor' },
  alarm: { commandType: 'alarm', mutation: 'ADD_ALARM', state: 'alarm' },
  /** On every connect: the alarm cursor, and on a reconnect the alarms raised while away (proto/README.md). */
  alarmReplay: { commandType: 'alarmReplay', mutation: 'REPLAY_ALARMS', state: 'alarm' },
  /** An operator handled alarms or took a board step: other consoles refresh (proto/README.md "Alarm handlings"). */
  alarmHandled: { commandType: 'alarmHandled', mutation: 'HANDLE_ALARMS', state: 'alarm' },
  /** To every console: the dictionary or the system parameters changed, refetch (issue 19, server/services/system-config). */
  configChanged: { commandType: 'configChanged', mutation: 'CONFIG_CHANGED', state: 'system' },
  /** To one user's consoles only: their unread notice count changed (issue 19, server/services/notices/api.md). */
  noticeUnread: { commandType: 'noticeUnread', mutation: 'SET_UNREAD', state: 'message' },
} as const satisfies Record<string, CommandHeaders>;

/** Separates plates (and terminal numbers) in the directory's joined strings. */
export const DIRECTORY_SEPARATOR = '\u001f';

const F = {
  msgCommandType: 1, msgHeaders: 2, msgPositions: 10, msgDirectory: 11, msgJson: 12,
  hdrMutation: 1, hdrState: 2, hdrCommandType: 3,
  posKind: 1, posServerTime: 2, posCount: 3, posVehicleId: 4, posLng: 5, posLat: 6, posSpeed: 7, posHeading: 8,
  posState: 9, posAlarm: 10, posGpsTime: 11, posLastContact: 12,
  dirKind: 1, dirCount: 2, dirVehicleId: 3, dirCompanyId: 4, dirPlates: 5, dirDeviceNos: 6,
} as const;

// ---------------------------------------------------------------------------------------------- encode

/** Reusable encoder: keeps its buffers between frames (the hub encodes many frames per second). */
export class PushEncoder {
  private readonly msg = new ProtoWriter(64 * 1024);
  private readonly body = new ProtoWriter(64 * 1024);
  private readonly column = new ProtoWriter(64 * 1024);
  private readonly headers = new ProtoWriter(64);

  /**
   * A positions message for `count` rows of `src` (row numbers in `rows`, sorted by vehicle id ascending
   * so id deltas stay small).
   */
  positions(kind: FrameKind, serverTime: number, src: PositionSource, rows: ArrayLike<number>, count: number): Uint8Array {
    const b = this.body.reset();
    b.uint32Field(F.posKind, kind);
    b.doubleField(F.posServerTime, serverTime);
    b.uint32Field(F.posCount, count);
    if (count > 0) {
      const baseSec = Math.floor(serverTime / 1000);
      const c = this.column;
      let prev = 0;
      c.reset();
      for (let i = 0; i < count; i++) {
        const id = src.vehicleId[rows[i]!]!;
        c.sint32(id - prev);
        prev = id;
      }
      b.embed(F.posVehicleId, c);
      this.deltaCoordinate(src.lng, rows, count);
      b.embed(F.posLng, c);
      this.deltaCoordinate(src.lat, rows, count);
      b.embed(F.posLat, c);
      c.reset();
      for (let i = 0; i < count; i++) {
        const s = src.speed[rows[i]!]!;
        c.uint32(s > 0 ? Math.round(s * 10) : 0);
      }
      b.embed(F.posSpeed, c);
      c.reset();
      for (let i = 0; i < count; i++) {
        const h = src.heading[rows[i]!]!;
        c.uint32(h >= 0 && h < 360 ? Math.round(h) % 360 : 0);
      }
      b.embed(F.posHeading, c);
      c.reset();
      for (let i = 0; i < count; i++) c.uint32(src.state[rows[i]!]! & 0xff);
      b.embed(F.posState, c);
      c.reset();
      for (let i = 0; i < count; i++) c.uint32(src.alarmFlags[rows[i]!]!);
      b.embed(F.posAlarm, c);
      this.relativeSeconds(src.gpsTime, rows, count, baseSec);
      b.embed(F.posGpsTime, c);
      this.relativeSeconds(src.lastContact, rows, count, baseSec);
      b.embed(F.posLastContact, c);
    }
    return this.envelope(kind === FrameKind.Snapshot ? Commands.snapshot : Commands.delta, F.msgPositions, b);
  }

  directory(kind: DirectoryKind, entries: readonly DirectoryEntry[]): Uint8Array {
    const sorted = [...entries].sort((a, b) => a.vehicleId - b.vehicleId);
    const b = this.body.reset();
    const c = this.column;
    b.uint32Field(F.dirKind, kind);
    b.uint32Field(F.dirCount, sorted.length);
    if (sorted.length > 0) {
      c.reset();
      let prev = 0;
      for (const e of sorted) {
        c.sint32(e.vehicleId - prev);
        prev = e.vehicleId;
      }
      b.embed(F.dirVehicleId, c);
      c.reset();
      for (const e of sorted) c.uint32(e.companyId);
      b.embed(F.dirCompanyId, c);
      b.stringField(F.dirPlates, sorted.map((e) => clean(e.plate)).join(DIRECTORY_SEPARATOR));
      b.stringField(F.dirDeviceNos, sorted.map((e) => clean(e.deviceNo)).join(DIRECTORY_SEPARATOR));
    }
    return this.envelope(kind === DirectoryKind.Full ? Commands.directory : Commands.directoryAdditions, F.msgDirectory, b);
  }

  /** A message whose commandBody is JSON text (alarms and other rare messages). */
  json(headers: CommandHeaders, body: unknown): Uint8Array {
    const m = this.msg.reset();
    m.stringField(F.msgCommandType, headers.commandType);
    m.embed(F.msgHeaders, this.headerBytes(headers));
    m.tag(F.msgJson, WireType.LengthDelimited);
    m.bytes(new TextEncoder().encode(JSON.stringify(body)));
    return m.finish();
  }

  private envelope(headers: CommandHeaders, field: number, body: ProtoWriter): Uint8Array {
    const m = this.msg.reset();
    m.stringField(F.msgCommandType, headers.commandType);
    m.embed(F.msgHeaders, this.headerBytes(headers));
    m.embed(field, body);
    return m.finish();
  }

  private headerBytes(headers: CommandHeaders): ProtoWriter {
    const h = this.headers.reset();
    h.stringField(F.hdrMutation, headers.mutation);
    h.stringField(F.hdrState, headers.state);
    h.stringField(F.hdrCommandType, headers.commandType);
    return h;
  }

  /** 1e-6 degree deltas against the previous vehicle; a row without a position gets MISSING (the chain skips it). */
  private deltaCoordinate(values: ArrayLike<number>, rows: ArrayLike<number>, count: number): void {
    const c = this.column.reset();
    let prev = 0;
    for (let i = 0; i < count; i++) {
      const v = values[rows[i]!]!;
      if (!Number.isFinite(v)) {
        c.uint32(MISSING_ZIGZAG);
        continue;
      }
      const micro = Math.round(v * 1e6);
      c.uint32(zigzag(micro - prev));
      prev = micro;
    }
  }

  private relativeSeconds(values: ArrayLike<number>, rows: ArrayLike<number>, count: number, baseSec: number): void {
    const c = this.column.reset();
    for (let i = 0; i < count; i++) {
      const v = values[rows[i]!]!;
      c.uint32(Number.isFinite(v) ? zigzag(Math.floor(v / 1000) - baseSec) : MISSING_ZIGZAG);
    }
  }
}

function clean(s: string): string {
  return s.includes(DIRECTORY_SEPARATOR) ? s.replaceAll(DIRECTORY_SEPARATOR, ' ') : s;
}

// ---------------------------------------------------------------------------------------------- decode

/** Empty columns with room for `capacity` vehicles. */
export function createPositionColumns(capacity = 0): PositionColumns {
  return {
    kind: FrameKind.Delta, serverTime: 0, count: 0,
    vehicleId: new Int32Array(capacity), lng: new Float64Array(capacity), lat: new Float64Array(capacity),
    speed: new Float32Array(capacity), heading: new Uint16Array(capacity), state: new Uint8Array(capacity),
    alarmFlags: new Uint32Array(capacity), gpsTime: new Float64Array(capacity), lastContact: new Float64Array(capacity),
  };
}

/** Reusable decoder: keeps one set of output columns and a scratch varint buffer. */
export class PushDecoder {
  private scratch = new Uint32Array(1024);
  private columns = createPositionColumns(1024);

  /**
   * Decodes one push message. The positions columns are owned by the decoder and overwritten by the
   * next call: apply them before decoding again. Throws FrameError on malformed input.
   */
  decode(bytes: Uint8Array): PushMessage {
    const r = new ProtoReader(bytes);
    let commandType = '';
    let commandHeaders: CommandHeaders = { mutation: '', state: '', commandType: '' };
    let body: PushBody | undefined;
    while (!r.done) {
      const tag = r.uint32();
      const field = tag >>> 3;
      const wire = tag & 7;
      if (field === F.msgCommandType && wire === WireType.LengthDelimited) commandType = r.string();
      else if (field === F.msgHeaders && wire === WireType.LengthDelimited) commandHeaders = decodeHeaders(r);
      else if (field === F.msgPositions && wire === WireType.LengthDelimited) body = { type: 'positions', frame: this.positions(r) };
      else if (field === F.msgDirectory && wire === WireType.LengthDelimited) body = { type: 'directory', directory: this.directory(r) };
      else if (field === F.msgJson && wire === WireType.LengthDelimited) {
        const text = r.string();
        try {
          body = { type: 'json', value: JSON.parse(text) as unknown };
        } catch {
          throw new FrameError('commandBody is not valid JSON');
        }
      } else r.skip(wire);
    }
    if (!body) throw new FrameError('push message has no commandBody');
    if (!commandType) throw new FrameError('push message has no commandType');
    return { commandType, commandHeaders, body };
  }

  private positions(outer: ProtoReader): PositionColumns {
    const [start, end] = outer.range();
    const r = new ProtoReader(outer.buf, start, end);
    const buf = outer.buf;
    let kind = 0;
    let serverTime = 0;
    let count = -1;
    const ranges: ([number, number] | undefined)[] = [];
    while (!r.done) {
      const tag = r.uint32();
      const field = tag >>> 3;
      const wire = tag & 7;
      if (field === F.posKind && wire === WireType.Varint) kind = r.uint32();
      else if (field === F.posServerTime && wire === WireType.Fixed64) serverTime = r.double();
      else if (field === F.posCount && wire === WireType.Varint) count = r.uint32();
      else if (field >= F.posVehicleId && field <= F.posLastContact && wire === WireType.LengthDelimited) ranges[field] = r.range();
      else r.skip(wire);
    }
    if (kind !== FrameKind.Snapshot && kind !== FrameKind.Delta) throw new FrameError(`unknown position frame kind ${kind}`);
    if (count < 0) {
      const ids = ranges[F.posVehicleId];
      count = ids ? countVarints(buf, ids[0], ids[1]) : 0;
    }
    const out = this.ensure(count);
    out.kind = kind;
    out.serverTime = serverTime;
    out.count = count;
    if (count === 0) return out;

    const range = (field: number): [number, number] => {
      const r = ranges[field];
      if (!r) throw new FrameError(`position frame lacks column ${field}`);
      return r;
    };
    const s = this.scratch;
    const [stateStart, stateEnd] = range(F.posState);
    if (decodeVarints(buf, stateStart, stateEnd, s) !== count) throw new FrameError(`column ${F.posState} has the wrong length`);
    out.state.set(s.subarray(0, count));
    const baseSec = Math.floor(serverTime / 1000);
    readIds(buf, range(F.posVehicleId), out.vehicleId, count);
    readCoordinates(buf, range(F.posLng), out.lng, count);
    readCoordinates(buf, range(F.posLat), out.lat, count);
    readSpeeds(buf, range(F.posSpeed), out.speed, count);
    readUints(buf, range(F.posAlarm), out.alarmFlags, count);
    readHeadings(buf, range(F.posHeading), out.heading, count);
    readTimes(buf, range(F.posGpsTime), out.gpsTime, count, baseSec);
    readTimes(buf, range(F.posLastContact), out.lastContact, count, baseSec);
    return out;
  }

  private directory(outer: ProtoReader): Directory {
    const [start, end] = outer.range();
    const r = new ProtoReader(outer.buf, start, end);
    let kind = 0;
    let count = 0;
    let ids: [number, number] | undefined;
    let companies: [number, number] | undefined;
    let plates = '';
    let deviceNos = '';
    while (!r.done) {
      const tag = r.uint32();
      const field = tag >>> 3;
      const wire = tag & 7;
      if (field === F.dirKind && wire === WireType.Varint) kind = r.uint32();
      else if (field === F.dirCount && wire === WireType.Varint) count = r.uint32();
      else if (field === F.dirVehicleId && wire === WireType.LengthDelimited) ids = r.range();
      else if (field === F.dirCompanyId && wire === WireType.LengthDelimited) companies = r.range();
      else if (field === F.dirPlates && wire === WireType.LengthDelimited) plates = r.string();
      else if (field === F.dirDeviceNos && wire === WireType.LengthDelimited) deviceNos = r.string();
      else r.skip(wire);
    }
    if (kind !== DirectoryKind.Full && kind !== DirectoryKind.Additions) throw new FrameError(`unknown directory kind ${kind}`);
    const vehicleId = new Int32Array(count);
    const companyId = new Int32Array(count);
    if (count > 0) {
      if (!ids || !companies) throw new FrameError('directory lacks its id or company column');
      const s = this.grow(count);
      if (decodeVarints(outer.buf, ids[0], ids[1], s) !== count) throw new FrameError('directory id column has the wrong length');
      let acc = 0;
      for (let i = 0; i < count; i++) {
        acc = (acc + unzigzag(s[i]!)) | 0;
        vehicleId[i] = acc;
      }
      if (decodeVarints(outer.buf, companies[0], companies[1], s) !== count) throw new FrameError('directory company column has the wrong length');
      companyId.set(s.subarray(0, count));
    }
    const plateList = count > 0 ? plates.split(DIRECTORY_SEPARATOR) : [];
    const deviceList = count > 0 ? deviceNos.split(DIRECTORY_SEPARATOR) : [];
    if (plateList.length !== count || deviceList.length !== count) throw new FrameError('directory plates or terminal numbers do not match its count');
    return { kind, vehicleId, companyId, plates: plateList, deviceNos: deviceList };
  }

  private grow(n: number): Uint32Array {
    if (this.scratch.length < n) this.scratch = new Uint32Array(Math.max(n, this.scratch.length * 2));
    return this.scratch;
  }

  private ensure(n: number): PositionColumns {
    this.grow(n);
    if (this.columns.vehicleId.length < n) this.columns = createPositionColumns(Math.max(n, this.columns.vehicleId.length * 2));
    return this.columns;
  }
}

function decodeHeaders(outer: ProtoReader): CommandHeaders {
  const [start, end] = outer.range();
  const r = new ProtoReader(outer.buf, start, end);
  const h: CommandHeaders = { mutation: '', state: '', commandType: '' };
  while (!r.done) {
    const tag = r.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === F.hdrMutation && wire === WireType.LengthDelimited) h.mutation = r.string();
    else if (field === F.hdrState && wire === WireType.LengthDelimited) h.state = r.string();
    else if (field === F.hdrCommandType && wire === WireType.LengthDelimited) h.commandType = r.string();
    else r.skip(wire);
  }
  return h;
}

/**
 * Decodes the packed varints in buf[start, end) into `out` (up to its length); answers how many values
 * the run holds. Hot loop: 100k vehicles × 9 columns per snapshot, so the first two bytes are unrolled.
 */
export function decodeVarints(buf: Uint8Array, start: number, end: number, out: Uint32Array): number {
  let p = start;
  let n = 0;
  const cap = out.length;
  while (p < end) {
    let b = buf[p++]!;
    let v = b & 0x7f;
    if (b >= 0x80) {
      b = buf[p++]!;
      v |= (b & 0x7f) << 7;
      if (b >= 0x80) {
        let shift = 14;
        do {
          if (p >= end || shift > 28) throw new FrameError('bad varint in packed column');
          b = buf[p++]!;
          v |= (b & 0x7f) << shift;
          shift += 7;
        } while (b >= 0x80);
      }
    }
    if (p > end) throw new FrameError('packed column runs past its length');
    if (n >= cap) throw new FrameError('packed column holds more values than the frame count');
    out[n++] = v >>> 0;
  }
  return n;
}

// Fused column readers: one pass from packed varints to the typed-array column, 100k vehicles per
// snapshot. The varint is unrolled (values are at most 5 bytes); reading past a column's end cannot
// crash (undefined bytes read as 0) and is caught by the position check after the loop.

function columnEnd(p: number, end: number): void {
  if (p !== end) throw new FrameError('packed column length does not match the frame count');
}

function badVarint(): never {
  throw new FrameError('varint longer than 32 bits in a packed column');
}

function readIds(buf: Uint8Array, [start, end]: [number, number], out: Int32Array, n: number): void {
  let p = start;
  let acc = 0;
  for (let i = 0; i < n; i++) {
    let b = buf[p++]!;
    let v = b & 0x7f;
    if (b > 0x7f) {
      b = buf[p++]!; v |= (b & 0x7f) << 7;
      if (b > 0x7f) {
        b = buf[p++]!; v |= (b & 0x7f) << 14;
        if (b > 0x7f) {
          b = buf[p++]!; v |= (b & 0x7f) << 21;
          if (b > 0x7f) { b = buf[p++]!; v |= b << 28; if (b > 0x0f) badVarint(); }
        }
      }
    }
    acc = (acc + ((v >>> 1) ^ -(v & 1))) | 0;
    out[i] = acc;
  }
  columnEnd(p, end);
}

function readCoordinates(buf: Uint8Array, [start, end]: [number, number], out: Float64Array, n: number): void {
  let p = start;
  let acc = 0;
  for (let i = 0; i < n; i++) {
    let b = buf[p++]!;
    let v = b & 0x7f;
    if (b > 0x7f) {
      b = buf[p++]!; v |= (b & 0x7f) << 7;
      if (b > 0x7f) {
        b = buf[p++]!; v |= (b & 0x7f) << 14;
        if (b > 0x7f) {
          b = buf[p++]!; v |= (b & 0x7f) << 21;
          if (b > 0x7f) { b = buf[p++]!; v |= b << 28; if (b > 0x0f) badVarint(); }
        }
      }
    }
    // v is the zigzag value as int32: -1 is 0xffffffff, the MISSING marker.
    if (v === -1) {
      out[i] = NaN;
      continue;
    }
    acc = (acc + ((v >>> 1) ^ -(v & 1))) | 0;
    out[i] = acc / 1e6;
  }
  columnEnd(p, end);
}

function readSpeeds(buf: Uint8Array, [start, end]: [number, number], out: Float32Array, n: number): void {
  let p = start;
  for (let i = 0; i < n; i++) {
    let b = buf[p++]!;
    let v = b & 0x7f;
    if (b > 0x7f) {
      b = buf[p++]!; v |= (b & 0x7f) << 7;
      if (b > 0x7f) {
        b = buf[p++]!; v |= (b & 0x7f) << 14;
        if (b > 0x7f) {
          b = buf[p++]!; v |= (b & 0x7f) << 21;
          if (b > 0x7f) { b = buf[p++]!; v |= b << 28; if (b > 0x0f) badVarint(); }
        }
      }
    }
    // × 0.1 rather than / 10: the column is float32, so the last-bit difference is rounded away.
    out[i] = v * 0.1;
  }
  columnEnd(p, end);
}

function readUints(buf: Uint8Array, [start, end]: [number, number], out: Uint32Array, n: number): void {
  let p = start;
  for (let i = 0; i < n; i++) {
    let b = buf[p++]!;
    let v = b & 0x7f;
    if (b > 0x7f) {
      b = buf[p++]!; v |= (b & 0x7f) << 7;
      if (b > 0x7f) {
        b = buf[p++]!; v |= (b & 0x7f) << 14;
        if (b > 0x7f) {
          b = buf[p++]!; v |= (b & 0x7f) << 21;
          if (b > 0x7f) { b = buf[p++]!; v |= b << 28; if (b > 0x0f) badVarint(); }
        }
      }
    }
    out[i] = v;
  }
  columnEnd(p, end);
}

function readHeadings(buf: Uint8Array, [start, end]: [number, number], out: Uint16Array, n: number): void {
  let p = start;
  for (let i = 0; i < n; i++) {
    let b = buf[p++]!;
    let v = b & 0x7f;
    if (b > 0x7f) {
      b = buf[p++]!; v |= (b & 0x7f) << 7;
      if (b > 0x7f) {
        b = buf[p++]!; v |= (b & 0x7f) << 14;
        if (b > 0x7f) {
          b = buf[p++]!; v |= (b & 0x7f) << 21;
          if (b > 0x7f) { b = buf[p++]!; v |= b << 28; if (b > 0x0f) badVarint(); }
        }
      }
    }
    out[i] = v;
  }
  columnEnd(p, end);
}

function readTimes(buf: Uint8Array, [start, end]: [number, number], out: Float64Array, n: number, baseSec: number): void {
  let p = start;
  for (let i = 0; i < n; i++) {
    let b = buf[p++]!;
    let v = b & 0x7f;
    if (b > 0x7f) {
      b = buf[p++]!; v |= (b & 0x7f) << 7;
      if (b > 0x7f) {
        b = buf[p++]!; v |= (b & 0x7f) << 14;
        if (b > 0x7f) {
          b = buf[p++]!; v |= (b & 0x7f) << 21;
          if (b > 0x7f) { b = buf[p++]!; v |= b << 28; if (b > 0x0f) badVarint(); }
        }
      }
    }
    out[i] = v === -1 ? NaN : (baseSec + ((v >>> 1) ^ -(v & 1))) * 1000;
  }
  columnEnd(p, end);
}
