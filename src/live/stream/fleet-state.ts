/**
 * The worker's copy of the fleet: one row per vehicle in typed-array columns (position, heading, speed,
 * state, alarm flags, last contact), plus the directory (plates) and what gliding needs. Plain class:
 * unit tests drive it without a Worker.
 */
import { toDisplay, type DisplayCrs } from '../../../domain/geo/gcj02.ts';
import { OFFLINE_AFTER_MS, VehicleState, isOnline } from '../../../domain/vehicle/state.ts';
import { FrameKind, type Directory, type PositionColumns } from '../../../proto/codec.ts';
import type { DirectoryEntry, LiveCounts, VehicleRecord } from './protocol.ts';

/** Glide at most this long: a vehicle reporting every 30 s would otherwise lag 30 s behind. */
export const MAX_GLIDE_MS = 2000;
/** A jump longer than this (degrees, ≈ 5 km) is drawn at once: GPS drift or a gap, not driving. */
export const TELEPORT_DEGREES = 0.05;
/**
 * Gliding stops above this many vehicles: it costs a full-fleet interpolation in the worker and a
 * full-fleet copy and GPU upload on the main thread every animation frame (at 100k vehicles that was
 * the main thread's 6–11 ms p95, bench/console.bench.ts), while at the zoom a fleet that size is watched
 * a one-second move is under a pixel. Larger fleets move once per report, as Traccar's console does.
 */
export const GLIDE_MAX_VEHICLES = 20_000;
/** Vehicle ids below this get a dense lookup table (16 MB at most); larger ids use a Map. */
const DENSE_ID_LIMIT = 1 << 22;

export interface FrameBuffers {
  ids: Int32Array;
  positions: Float32Array;
  headings: Float32Array;
  states: Uint8Array;
  alarm: Uint8Array;
}

export function allocateFrameBuffers(capacity: number): FrameBuffers {
  return {
    ids: new Int32Array(capacity), positions: new Float32Array(capacity * 2), headings: new Float32Array(capacity),
    states: new Uint8Array(capacity), alarm: new Uint8Array(capacity),
  };
}

export class FleetState {
  count = 0;
  private cap = 0;
  ids = new Int32Array(0);
  companyId = new Int32Array(0);
  /** Latest reported WGS-84 position. */
  lng = new Float64Array(0);
  lat = new Float64Array(0);
  /** Glide in display CRS: from (x0, y0) at glideStart to (x1, y1) over glideMs. */
  private x0 = new Float64Array(0);
  private y0 = new Float64Array(0);
  private x1 = new Float64Array(0);
  private y1 = new Float64Array(0);
  private glideStart = new Float64Array(0);
  private glideMs = new Float32Array(0);
  /** Local time the latest report arrived. */
  private reportAt = new Float64Array(0);
  speed = new Float32Array(0);
  heading = new Float32Array(0);
  /** Motion state from the server (never online, driving, parking, idling). */
  motion = new Uint8Array(0);
  /** Derived state (offline after 3 minutes without contact). */
  state = new Uint8Array(0);
  alarmFlags = new Uint32Array(0);
  gpsTime = new Float64Array(0);
  lastContact = new Float64Array(0);

  private dense = new Int32Array(0);
  private sparse = new Map<number, number>();
  private readonly dir = new Map<number, DirectoryEntry>();
  private crs: DisplayCrs = 'wgs84';
  /** Local time until which some vehicle is still gliding. */
  glidingUntil = 0;

  get displayCrs(): DisplayCrs {
    return this.crs;
  }

  indexOf(vehicleId: number): number {
    if (vehicleId >= 0 && vehicleId < DENSE_ID_LIMIT) return vehicleId < this.dense.length ? this.dense[vehicleId]! : -1;
    return this.sparse.get(vehicleId) ?? -1;
  }

  /** Applies a decoded positions frame received at local time `now`. */
  applyPositions(f: PositionColumns, now: number): void {
    if (f.kind === FrameKind.Snapshot) this.clear();
    this.reserve(this.count + f.count);
    const glide = Math.max(this.count, f.count) <= GLIDE_MAX_VEHICLES;
    for (let i = 0; i < f.count; i++) {
      const id = f.vehicleId[i]!;
      let row = this.indexOf(id);
      const fresh = row < 0;
      if (fresh) row = this.append(id);
      this.speed[row] = f.speed[i]!;
      this.heading[row] = f.heading[i]!;
      this.motion[row] = f.state[i]!;
      this.alarmFlags[row] = f.alarmFlags[i]!;
      this.gpsTime[row] = f.gpsTime[i]!;
      this.lastContact[row] = f.lastContact[i]!;
      this.move(row, f.lng[i]!, f.lat[i]!, now, fresh || f.kind === FrameKind.Snapshot || !glide);
    }
  }

  /** Applies the vehicle directory (a full one replaces, additions merge). */
  applyDirectory(d: Directory): void {
    if (d.kind === 1) this.dir.clear();
    for (let i = 0; i < d.vehicleId.length; i++) {
      const entry = { vehicleId: d.vehicleId[i]!, companyId: d.companyId[i]!, plate: d.plates[i]!, deviceNo: d.deviceNos[i]! };
      this.dir.set(entry.vehicleId, entry);
      const row = this.indexOf(entry.vehicleId);
      if (row >= 0) this.companyId[row] = entry.companyId;
    }
  }

  /** Re-derives every state at `serverNow`; answers whether any changed. */
  deriveStates(serverNow: number): boolean {
    let changed = false;
    for (let i = 0; i < this.count; i++) {
      const m = this.motion[i]!;
      const s = m === VehicleState.NeverOnline ? m : serverNow - this.lastContact[i]! > OFFLINE_AFTER_MS ? VehicleState.Offline : m;
      if (this.state[i] !== s) {
        this.state[i] = s;
        changed = true;
      }
    }
    return changed;
  }

  counts(): { counts: LiveCounts; byCompany: Map<number, { total: number; online: number }> } {
    const counts: LiveCounts = { total: this.count, online: 0, driving: 0, parking: 0, idling: 0, offline: 0, neverOnline: 0 };
    const byCompany = new Map<number, { total: number; online: number }>();
    for (let i = 0; i < this.count; i++) {
      const s = this.state[i]! as VehicleState;
      const online = isOnline(s);
      if (s === VehicleState.Driving) counts.driving++;
      else if (s === VehicleState.Parking) counts.parking++;
      else if (s === VehicleState.Idling) counts.idling++;
      else if (s === VehicleState.Offline) counts.offline++;
      else counts.neverOnline++;
      if (online) counts.online++;
      const c = this.companyId[i]!;
      let entry = byCompany.get(c);
      if (!entry) byCompany.set(c, (entry = { total: 0, online: 0 }));
      entry.total++;
      if (online) entry.online++;
    }
    return { counts, byCompany };
  }

  /** Writes the frame at local time `now` into `buf` (grown if needed); answers the buffers used. */
  fillFrame(buf: FrameBuffers, now: number): FrameBuffers {
    const n = this.count;
    if (buf.ids.length < n) buf = allocateFrameBuffers(Math.max(n, Math.ceil(buf.ids.length * 1.5)));
    buf.ids.set(this.ids.subarray(0, n));
    buf.states.set(this.state.subarray(0, n));
    buf.headings.set(this.heading.subarray(0, n));
    const pos = buf.positions;
    for (let i = 0; i < n; i++) {
      const t = this.glideMs[i]! > 0 ? Math.min(1, (now - this.glideStart[i]!) / this.glideMs[i]!) : 1;
      const x0 = this.x0[i]!;
      const y0 = this.y0[i]!;
      pos[2 * i] = x0 + (this.x1[i]! - x0) * t;
      pos[2 * i + 1] = y0 + (this.y1[i]! - y0) * t;
      buf.alarm[i] = this.alarmFlags[i] !== 0 ? 1 : 0;
    }
    return buf;
  }

  /** Converts every glide end point to `crs` (once per switch; reports convert one by one). */
  setDisplayCrs(crs: DisplayCrs): void {
    if (crs === this.crs) return;
    this.crs = crs;
    for (let i = 0; i < this.count; i++) {
      const [x, y] = toDisplay(crs, this.lng[i]!, this.lat[i]!);
      this.x0[i] = this.x1[i] = x;
      this.y0[i] = this.y1[i] = y;
      this.glideMs[i] = 0;
    }
  }

  lookup(vehicleId: number): VehicleRecord | undefined {
    const row = this.indexOf(vehicleId);
    const d = this.dir.get(vehicleId);
    if (row < 0) return undefined;
    return {
      vehicleId, plate: d?.plate ?? '', deviceNo: d?.deviceNo ?? '', companyId: d?.companyId ?? this.companyId[row]!,
      lng: this.lng[row]!, lat: this.lat[row]!, speed: this.speed[row]!, heading: this.heading[row]!, state: this.state[row]!,
      alarmFlags: this.alarmFlags[row]!, gpsTime: this.gpsTime[row]!, lastContact: this.lastContact[row]!,
    };
  }

  directory(ids: readonly number[]): DirectoryEntry[] {
    const out: DirectoryEntry[] = [];
    for (const id of ids) {
      const d = this.dir.get(id);
      if (d) out.push(d);
    }
    return out;
  }

  idsInBounds(west: number, south: number, east: number, north: number): Int32Array {
    const hits: number[] = [];
    for (let i = 0; i < this.count; i++) {
      const x = this.lng[i]!;
      const y = this.lat[i]!;
      if (x >= west && x <= east && y >= south && y <= north) hits.push(this.ids[i]!);
    }
    return Int32Array.from(hits);
  }

  private move(row: number, lng: number, lat: number, now: number, jump: boolean): void {
    let x = lng;
    let y = lat;
    if (this.crs !== 'wgs84') [x, y] = toDisplay(this.crs, lng, lat);
    const prevReport = this.reportAt[row]!;
    const far = !(Math.abs(lng - this.lng[row]!) < TELEPORT_DEGREES && Math.abs(lat - this.lat[row]!) < TELEPORT_DEGREES);
    this.lng[row] = lng;
    this.lat[row] = lat;
    this.reportAt[row] = now;
    if (jump || far || !Number.isFinite(prevReport)) {
      this.x0[row] = this.x1[row] = x;
      this.y0[row] = this.y1[row] = y;
      this.glideMs[row] = 0;
      return;
    }
    // Start where the vehicle is drawn now, glide to the report over the interval between reports.
    const g = this.glideMs[row]!;
    const t = g > 0 ? Math.min(1, (now - this.glideStart[row]!) / g) : 1;
    this.x0[row] = this.x0[row]! + (this.x1[row]! - this.x0[row]!) * t;
    this.y0[row] = this.y0[row]! + (this.y1[row]! - this.y0[row]!) * t;
    this.x1[row] = x;
    this.y1[row] = y;
    this.glideStart[row] = now;
    const ms = Math.min(MAX_GLIDE_MS, Math.max(0, now - prevReport));
    this.glideMs[row] = ms;
    if (now + ms > this.glidingUntil) this.glidingUntil = now + ms;
  }

  private append(id: number): number {
    const row = this.count++;
    this.ids[row] = id;
    this.reportAt[row] = NaN;
    this.lng[row] = NaN;
    this.lat[row] = NaN;
    this.glideMs[row] = 0;
    this.companyId[row] = this.dir.get(id)?.companyId ?? 0;
    if (id >= 0 && id < DENSE_ID_LIMIT) {
      if (id >= this.dense.length) {
        let size = Math.max(1024, this.dense.length);
        while (size <= id) size *= 2;
        const next = new Int32Array(size).fill(-1);
        next.set(this.dense);
        this.dense = next;
      }
      this.dense[id] = row;
    } else this.sparse.set(id, row);
    return row;
  }

  private clear(): void {
    for (let i = 0; i < this.count; i++) {
      const id = this.ids[i]!;
      if (id >= 0 && id < DENSE_ID_LIMIT) this.dense[id] = -1;
    }
    this.sparse.clear();
    this.count = 0;
  }

  private reserve(n: number): void {
    if (n <= this.cap) return;
    let cap = Math.max(1024, this.cap);
    while (cap < n) cap *= 2;
    const grow = <T extends Int32Array | Float64Array | Float32Array | Uint8Array | Uint32Array>(old: T, make: (k: number) => T): T => {
      const next = make(cap);
      next.set(old as never);
      return next;
    };
    this.ids = grow(this.ids, (k) => new Int32Array(k));
    this.companyId = grow(this.companyId, (k) => new Int32Array(k));
    this.lng = grow(this.lng, (k) => new Float64Array(k));
    this.lat = grow(this.lat, (k) => new Float64Array(k));
    this.x0 = grow(this.x0, (k) => new Float64Array(k));
    this.y0 = grow(this.y0, (k) => new Float64Array(k));
    this.x1 = grow(this.x1, (k) => new Float64Array(k));
    this.y1 = grow(this.y1, (k) => new Float64Array(k));
    this.glideStart = grow(this.glideStart, (k) => new Float64Array(k));
    this.glideMs = grow(this.glideMs, (k) => new Float32Array(k));
    this.reportAt = grow(this.reportAt, (k) => new Float64Array(k));
    this.speed = grow(this.speed, (k) => new Float32Array(k));
    this.heading = grow(this.heading, (k) => new Float32Array(k));
    this.motion = grow(this.motion, (k) => new Uint8Array(k));
    this.state = grow(this.state, (k) => new Uint8Array(k));
    this.alarmFlags = grow(this.alarmFlags, (k) => new Uint32Array(k));
    this.gpsTime = grow(this.gpsTime, (k) => new Float64Array(k));
    this.lastContact = grow(this.lastContact, (k) => new Float64Array(k));
    this.cap = cap;
  }
}
