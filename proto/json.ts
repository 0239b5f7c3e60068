/**
 * `format=json` mode of the push channel: the same messages and content as the binary mode (same
 * quantisation: 1e-6 degree, 0.1 km/h, whole seconds), as text with spec §3 envelopes. Vehicles are
 * records with absolute values, which is what legacy JSON clients expect.
 */
import {
  Commands, createPositionColumns, DirectoryKind, FrameKind, type CommandHeaders, type DirectoryEntry, type PositionColumns,
  type PositionSource,
} from './codec.ts';
import { FrameError } from './wire.ts';

/** One vehicle of a JSON positions message. Coordinates, times and contact are null without a value. */
export interface JsonVehicle {
  vehicleId: number;
  lng: number | null;
  lat: number | null;
  speed: number;
  heading: number;
  state: number;
  alarmFlags: number;
  gpsTime: number | null;
  lastContact: number | null;
}

export interface JsonPositions {
  kind: 'snapshot' | 'delta';
  serverTime: number;
  vehicles: JsonVehicle[];
}

export interface JsonEnvelope<T> {
  commandType: string;
  commandHeaders: CommandHeaders;
  commandBody: { data: T };
}

export function jsonEnvelope<T>(headers: CommandHeaders, data: T): string {
  const envelope: JsonEnvelope<T> = { commandType: headers.commandType, commandHeaders: headers, commandBody: { data } };
  return JSON.stringify(envelope);
}

const micro = (v: number): number | null => (Number.isFinite(v) ? Math.round(v * 1e6) / 1e6 : null);
const seconds = (v: number): number | null => (Number.isFinite(v) ? Math.floor(v / 1000) * 1000 : null);

export function jsonPositions(kind: FrameKind, serverTime: number, src: PositionSource, rows: ArrayLike<number>, count: number): string {
  const vehicles: JsonVehicle[] = new Array<JsonVehicle>(count);
  for (let i = 0; i < count; i++) {
    const row = rows[i]!;
    const s = src.speed[row]!;
    const h = src.heading[row]!;
    vehicles[i] = {
      vehicleId: src.vehicleId[row]!,
      lng: micro(src.lng[row]!),
      lat: micro(src.lat[row]!),
      speed: s > 0 ? Math.round(s * 10) / 10 : 0,
      heading: h >= 0 && h < 360 ? Math.round(h) % 360 : 0,
      state: src.state[row]! & 0xff,
      alarmFlags: src.alarmFlags[row]! >>> 0,
      gpsTime: seconds(src.gpsTime[row]!),
      lastContact: seconds(src.lastContact[row]!),
    };
  }
  vehicles.sort((a, b) => a.vehicleId - b.vehicleId);
  const data: JsonPositions = { kind: kind === FrameKind.Snapshot ? 'snapshot' : 'delta', serverTime, vehicles };
  return jsonEnvelope(kind === FrameKind.Snapshot ? Commands.snapshot : Commands.delta, data);
}

export interface JsonDirectory {
  kind: 'full' | 'additions';
  vehicles: DirectoryEntry[];
}

export function jsonDirectory(kind: DirectoryKind, entries: readonly DirectoryEntry[]): string {
  const vehicles = [...entries].sort((a, b) => a.vehicleId - b.vehicleId)
    .map((e) => ({ vehicleId: e.vehicleId, companyId: e.companyId, plate: e.plate, deviceNo: e.deviceNo }));
  const data: JsonDirectory = { kind: kind === DirectoryKind.Full ? 'full' : 'additions', vehicles };
  return jsonEnvelope(kind === DirectoryKind.Full ? Commands.directory : Commands.directoryAdditions, data);
}

/** Reads a JSON positions body into columns (the decode benchmark's baseline, and legacy-format tests). */
export function columnsFromJson(data: JsonPositions, out: PositionColumns = createPositionColumns(data.vehicles.length)): PositionColumns {
  const list = data.vehicles;
  if (!Array.isArray(list)) throw new FrameError('positions body has no vehicles array');
  const n = list.length;
  if (out.vehicleId.length < n) out = createPositionColumns(n);
  out.kind = data.kind === 'snapshot' ? FrameKind.Snapshot : FrameKind.Delta;
  out.serverTime = data.serverTime;
  out.count = n;
  for (let i = 0; i < n; i++) {
    const v = list[i]!;
    out.vehicleId[i] = v.vehicleId;
    out.lng[i] = v.lng ?? NaN;
    out.lat[i] = v.lat ?? NaN;
    out.speed[i] = v.speed;
    out.heading[i] = v.heading;
    out.state[i] = v.state;
    out.alarmFlags[i] = v.alarmFlags;
    out.gpsTime[i] = v.gpsTime ?? NaN;
    out.lastContact[i] = v.lastContact ?? NaN;
  }
  return out;
}
