/**
 * The latest-state store: one slot per known vehicle in dense typed-array columns (contract L1 → L3
 * in the live-monitoring notes). Slots are assigned on first sight and never reused, so a slot index
 * is a stable handle for push frames and REST scans over 100k vehicles without per-vehicle objects.
 *
 * Columns grow by doubling: `columns` is replaced on growth, so readers must fetch `store.columns`
 * again after anything that may add a vehicle (never cache the arrays across calls).
 */
import { deriveState, OFFLINE_AFTER_MS, type VehicleState } from '../../domain/vehicle/state.ts';

export interface LiveColumns {
  readonly vehicleId: Int32Array;
  readonly companyId: Int32Array;
  readonly lng: Float64Array;
  readonly lat: Float64Array;
  /** km/h */
  readonly speed: Float32Array;
  /** 0..359, clockwise from north */
  readonly heading: Uint16Array;
  /** m */
  readonly altitude: Int16Array;
  readonly statusFlags: Uint32Array;
  readonly alarmFlags: Uint32Array;
  /** Epoch ms of the latest position's GPS time; NaN before the first position. */
  readonly gpsTime: Float64Array;
  /** Epoch ms of the last message from the terminal; NaN when never heard from. */
  readonly lastContact: Float64Array;
}

/** One accepted position (WGS-84). */
export interface LivePosition {
  readonly vehicleId: number;
  readonly lng: number;
  readonly lat: number;
  readonly speed: number;
  readonly heading: number;
  readonly altitude: number;
  readonly statusFlags: number;
  readonly alarmFlags: number;
  readonly gpsTime: number;
}

export interface LiveVehicle {
  readonly vehicleId: number;
  readonly companyId: number;
  /** Materialised company path, e.g. `/1/3/12/`. */
  readonly companyPath: string;
  /** Known latest position (e.g. from history at start); its receive time becomes lastContact. */
  readonly last?: LivePosition & { readonly receivedAt: number };
}

export interface LiveStoreOptions {
  /** Injectable clock (tests use a test clock). @default Date.now */
  readonly clock?: () => number;
  /** Initial slot capacity. @default 1024 */
  readonly capacity?: number;
}

/**
 * `touch` notifies listeners only when contact moves the vehicle's derived state or lastContact
 * advanced by at least this much since the last notification: heartbeats every few seconds from
 * 100k terminals would otherwise flood the push hub with changes nobody can see.
 */
export const TOUCH_NOTIFY_MS = 60_000;

type Listener = (slot: number) => void;

function allocate(capacity: number): LiveColumns {
  return {
    vehicleId: new Int32Array(capacity),
    companyId: new Int32Array(capacity),
    lng: new Float64Array(capacity).fill(NaN),
    lat: new Float64Array(capacity).fill(NaN),
    speed: new Float32Array(capacity),
    heading: new Uint16Array(capacity),
    altitude: new Int16Array(capacity),
    statusFlags: new Uint32Array(capacity),
    alarmFlags: new Uint32Array(capacity),
    gpsTime: new Float64Array(capacity).fill(NaN),
    lastContact: new Float64Array(capacity).fill(NaN),
  };
}

function clampInt16(v: number): number {
  return v > 32767 ? 32767 : v < -32768 ? -32768 : Math.round(v);
}

export class LiveStore {
  readonly clock: () => number;
  private cols: LiveColumns;
  private size = 0;
  private readonly slots = new Map<number, number>();
  private readonly companyPaths = new Map<number, string>();
  private readonly listeners = new Set<Listener>();
  /** lastContact at the last touch notification, per slot. */
  private notifiedContact: Float64Array;
  /**
   * Issue 20: called with every contact `touch` records (the vehicle and its new lastContact), set on a
   * gateway node with NATS_URL: server/bus/events.ts sends contacts to the other nodes. Accepted positions
   * are not reported here (they travel on the bus themselves).
   */
  onContact: ((vehicleId: number, at: number) => void) | undefined;

  constructor(options: LiveStoreOptions = {}) {
    this.clock = options.clock ?? Date.now;
    const capacity = Math.max(1, options.capacity ?? 1024);
    this.cols = allocate(capacity);
    this.notifiedContact = new Float64Array(capacity).fill(NaN);
  }

  get count(): number {
    return this.size;
  }

  get columns(): LiveColumns {
    return this.cols;
  }

  get capacity(): number {
    return this.cols.vehicleId.length;
  }

  slotOf(vehicleId: number): number {
    return this.slots.get(vehicleId) ?? -1;
  }

  companyPathOf(slot: number): string {
    return this.companyPaths.get(this.cols.companyId[slot] ?? -1) ?? '';
  }

  /**
   * Adds a vehicle (or moves a known one to another company). Answers its slot. Adding does not
   * notify listeners: a new vehicle with no contact has nothing to push until it reports.
   */
  upsertVehicle(v: LiveVehicle): number {
    this.companyPaths.set(v.companyId, v.companyPath);
    let slot = this.slots.get(v.vehicleId);
    if (slot === undefined) {
      if (this.size === this.capacity) this.grow(this.capacity * 2);
      slot = this.size++;
      this.slots.set(v.vehicleId, slot);
      this.cols.vehicleId[slot] = v.vehicleId;
    }
    this.cols.companyId[slot] = v.companyId;
    if (v.last) {
      this.write(slot, v.last);
      this.cols.lastContact[slot] = v.last.receivedAt;
    }
    return slot;
  }

  /** Loads many vehicles at start, growing once. */
  load(vehicles: Iterable<LiveVehicle>): void {
    for (const v of vehicles) this.upsertVehicle(v);
  }

  /**
   * Applies a position: false for an unknown vehicle or one older than the latest (a blind-area
   * re-upload, history only). An accepted position is also contact at `clock()`.
   */
  applyPosition(p: LivePosition): boolean {
    const slot = this.slots.get(p.vehicleId);
    if (slot === undefined) return false;
    const latest = this.cols.gpsTime[slot]!;
    if (p.gpsTime < latest) return false;
    this.write(slot, p);
    const now = this.clock();
    if (!(this.cols.lastContact[slot]! > now)) this.cols.lastContact[slot] = now;
    this.notifiedContact[slot] = this.cols.lastContact[slot]!;
    this.emit(slot);
    return true;
  }

  /**
   * Issue 20: a position read back from the database (a push node starting to follow a subtree it had not
   * followed): applied only when newer than the vehicle's latest, its receive time as contact when later
   * than what the store holds (never the clock: the vehicle reported then, not now). Answers whether it applied.
   */
  catchUp(p: LivePosition & { readonly receivedAt: number }): boolean {
    const slot = this.slots.get(p.vehicleId);
    // No position yet is NaN: every comparison false, so the first one applies.
    if (slot === undefined || p.gpsTime <= this.cols.gpsTime[slot]!) return false;
    this.write(slot, p);
    if (!(this.cols.lastContact[slot]! >= p.receivedAt)) this.cols.lastContact[slot] = p.receivedAt;
    this.notifiedContact[slot] = this.cols.lastContact[slot]!;
    this.emit(slot);
    return true;
  }

  /** Any message from the terminal is contact. Notifies when the state may have changed (see TOUCH_NOTIFY_MS). */
  touch(vehicleId: number, now: number = this.clock()): void {
    const slot = this.slots.get(vehicleId);
    if (slot === undefined) return;
    const before = this.cols.lastContact[slot]!;
    if (before >= now) return;
    this.cols.lastContact[slot] = now;
    this.onContact?.(vehicleId, now);
    const wasOnline = Number.isFinite(before) && now - before <= OFFLINE_AFTER_MS;
    const notified = this.notifiedContact[slot]!;
    if (!wasOnline || !(now - notified < TOUCH_NOTIFY_MS)) {
      this.notifiedContact[slot] = now;
      this.emit(slot);
    }
  }

  /**
   * Issue 15: the vehicle's terminal was removed (an installation record) — it shows offline now
   * instead of after OFFLINE_AFTER_MS, and listeners hear of it. Its last position stays.
   */
  markOffline(vehicleId: number, now: number = this.clock()): void {
    const slot = this.slots.get(vehicleId);
    if (slot === undefined) return;
    const last = this.cols.lastContact[slot]!;
    if (!Number.isFinite(last) || now - last > OFFLINE_AFTER_MS) return;
    this.cols.lastContact[slot] = now - OFFLINE_AFTER_MS - 1;
    this.notifiedContact[slot] = this.cols.lastContact[slot]!;
    this.emit(slot);
  }

  /**
   * Issue 15: a deleted vehicle. Slots are never reused, so the slot stays, emptied: no position, no
   * contact, company -1 (a path no company has) and no longer found by id (reports and lookups miss it).
   */
  forget(vehicleId: number): void {
    const slot = this.slots.get(vehicleId);
    if (slot === undefined) return;
    this.slots.delete(vehicleId);
    const c = this.cols;
    c.companyId[slot] = -1;
    this.companyPaths.set(-1, '\u0000deleted');
    c.lng[slot] = NaN;
    c.lat[slot] = NaN;
    c.gpsTime[slot] = NaN;
    c.lastContact[slot] = NaN;
    this.notifiedContact[slot] = NaN;
    this.emit(slot);
  }

  /** Listener called synchronously for each accepted change; answers the unsubscribe function. */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stateOf(slot: number, now: number = this.clock()): VehicleState {
    const c = this.cols;
    return deriveState(c.lastContact[slot]!, now, c.speed[slot]!, c.statusFlags[slot]!);
  }

  private write(slot: number, p: LivePosition): void {
    const c = this.cols;
    c.lng[slot] = p.lng;
    c.lat[slot] = p.lat;
    c.speed[slot] = p.speed;
    c.heading[slot] = p.heading;
    c.altitude[slot] = clampInt16(p.altitude);
    c.statusFlags[slot] = p.statusFlags >>> 0;
    c.alarmFlags[slot] = p.alarmFlags >>> 0;
    c.gpsTime[slot] = p.gpsTime;
  }

  private emit(slot: number): void {
    for (const l of this.listeners) l(slot);
  }

  private grow(capacity: number): void {
    const next = allocate(capacity);
    const old = this.cols;
    for (const key of Object.keys(old) as (keyof LiveColumns)[]) {
      (next[key] as Float64Array).set(old[key] as Float64Array);
    }
    this.cols = next;
    const notified = new Float64Array(capacity).fill(NaN);
    notified.set(this.notifiedContact);
    this.notifiedContact = notified;
  }
}
