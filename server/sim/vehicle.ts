/**
 * One simulated vehicle and its terminal's reporting decisions, as a pure program: no sockets, no
 * timers. `step()` advances the vehicle to its next report time and says what the terminal does
 * then (report live, record while in a blind area, go offline). The socket layer (terminal.ts)
 * only carries that out, so the same seed and start time give the same reports whatever the
 * network or the scheduler did.
 *
 * Movement runs in whole 1 s physics steps from the start time, drawing only from the movement
 * stream, so the trajectory does not depend on the report rate; reporting decisions (drift,
 * blind areas, offline periods, ADAS/DMS alarms) draw from a second stream.
 */
import { haversineKm } from '../../domain/track/geo.ts';
import { chinaTimeOfDayMs, DAY_MS } from '../../domain/track/days.ts';
import type { AdasAlarm, DmsAlarm, LocationInput } from '../gateway/jt808/index.ts';
import { CITIES, cityByWeight, cityOfPlate, type City } from './cities.ts';
import { SimFuelSensor } from './fuel.ts';
import { Rng, unitHash } from './rng.ts';
import { planIntercityTrip, planUrbanTrip, pointInCity, SEGMENT_HIGHWAY, type Route } from './route.ts';
import { videoAlarmItem } from '../../domain/alarms/video.ts';

/** How often things happen; every rate is per vehicle. */
export interface SimRates {
  /** Share of terminals that never connect. @default 0.03 */
  readonly neverOnlineShare: number;
  /** Offline periods (terminal off, socket closed, nothing recorded) per day. @default 0.7 */
  readonly offlinePerDay: number;
  /** Blind areas (no network while driving; positions recorded, re-uploaded with 0x0704) per day of driving. @default 1.5 */
  readonly blindPerDrivingDay: number;
  /** GPS drift jumps (one position displaced 15–60 km) per day. @default 1 */
  readonly driftPerDay: number;
  /** ADAS (0x64) alarms per hour of driving above 30 km/h. @default 0.4 */
  readonly adasPerDrivingHour: number;
  /** DMS (0x65) alarms per hour of driving above 30 km/h. @default 0.2 */
  readonly dmsPerDrivingHour: number;
  /** Emergency (SOS, alarm bit 0) presses per day. @default 0.003 */
  readonly sosPerDay: number;
  /**
   * Camera faults (alarm bit 11, 10–120 min each) per day, so the dashboard's device health has true
   * figures. Drawn from a stream of their own: the other events stay as they were. @default 0.02
   */
  readonly cameraFaultPerDay?: number;
  /**
   * Storage unit faults (JT/T 1078 video alarm item 0x14 bit 2, 1–6 h each) per day, for the device work
   * reports (issue 18). Own stream, like camera faults. @default 0.01
   */
  readonly storageFaultPerDay?: number;
}

export const DEFAULT_RATES: SimRates = {
  neverOnlineShare: 0.03,
  offlinePerDay: 0.7,
  blindPerDrivingDay: 1.5,
  driftPerDay: 1,
  adasPerDrivingHour: 0.4,
  dmsPerDrivingHour: 0.2,
  sosPerDay: 0.003,
  cameraFaultPerDay: 0.02,
  storageFaultPerDay: 0.01,
};

export interface VehicleSpec {
  readonly seed: number;
  /** 12-digit terminal number (the header's phone field). */
  readonly deviceNo: string;
  /** Plate; generated from the home city when absent. */
  readonly plate?: string;
  /** Simulation start, epoch ms (rounded down to a whole second). */
  readonly startMs: number;
  /** Report interval with ACC on (driving, idling). */
  readonly intervalMs: number;
  /** Report interval with ACC off (parked). */
  readonly parkedIntervalMs: number;
  readonly rates?: Partial<SimRates>;
  /** Share of terminals speaking the 2019 edition. @default 0.25 */
  readonly edition2019Share?: number;
  /** Delay before the first report (whole seconds), e.g. time to connect. @default 0 */
  readonly firstReportAfterMs?: number;
}

/**
 * What the terminal's network link is doing: 'up' reports live; 'blind' has no network (records
 * positions for a later 0x0704 type 1); 'off' is powered down (nothing recorded); 'never' never
 * connects at all.
 */
export type Link = 'up' | 'blind' | 'off' | 'never';

export interface Emission {
  /** Report time, epoch ms (whole seconds). */
  readonly at: number;
  readonly link: Link;
  /** The position report (null while offline). Live when link is 'up', recorded when 'blind'. */
  readonly location: LocationInput | null;
  /** The location is an injected GPS drift jump. */
  readonly drift: boolean;
}

const PARKED = 0;
const IDLE = 1;
const DRIVE = 2;
const DWELL = 3;

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** Fatigue driving (alarm bit 2) after 4 h without a rest of at least 20 minutes (JT/T 808 default). */
const FATIGUE_AFTER_MS = 4 * HOUR_MS;
const MIN_REST_MS = 20 * MINUTE_MS;
const URBAN_LIMIT_KMH = 60;
const HIGHWAY_LIMIT_KMH = 100;
/** A drift point is displaced this far: ≥ 15 km keeps both legs over 160 km/h for report intervals up to 5 minutes. */
const DRIFT_KM: readonly [number, number] = [15, 60];
const MAX_DRIFT_LEG_MS = 5 * MINUTE_MS;
/** Comfortable truck acceleration 1 m/s² and braking 1.8 m/s², as km/h per 1 s step. */
const ACCEL_KMH_S = 3.6;
const BRAKE_KMH_S = 6.5;
const BRAKE_MS2 = 1.8;

export const STATUS_ACC = 0x1;
export const STATUS_FIXED = 0x2;
/** Bits 18 and 19: GPS and BeiDou used for the fix. */
const STATUS_GNSS = (1 << 18) | (1 << 19);
export const ALARM_SOS = 0x1;
export const ALARM_OVERSPEED = 0x2;
export const ALARM_FATIGUE = 0x4;
const ALARM_OVERSPEED_WARNING = 1 << 13;
/** JT/T 808 alarm bit 11: camera fault (alarm catalogue 15008). */
export const ALARM_CAMERA_FAULT = 1 << 11;

const PLATE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

function wholeSeconds(ms: number): number {
  return Math.max(1000, Math.round(ms / 1000) * 1000);
}

function localHour(ms: number): number {
  return chinaTimeOfDayMs(ms) / HOUR_MS;
}

export class VehicleProgram {
  readonly deviceNo: string;
  readonly plate: string;
  readonly home: City;
  readonly edition: 2013 | 2019;
  readonly rates: SimRates;
  /**
   * Hours the vehicle's working day is shifted from China time: 0, or 12 for night-shift trucks
   * (cities keep heavy trucks out by day, so much long-haul freight moves at night).
   */
  readonly shiftHours: 0 | 12;
  /** Next report time (Infinity for a terminal that never comes online). */
  nextAt: number;
  /**
   * A slag truck's trips (sim/box.ts `tripTarget`): set, every trip stays in town and goes to the point
   * it answers (a disposal site while loaded), or somewhere of its own choosing on null.
   */
  tripTarget: ((lng: number, lat: number, time: number) => [number, number] | null) | undefined;
  link: Link;

  private readonly move: Rng;
  private readonly events: Rng;
  private readonly faults: Rng;
  private cameraFaultUntil = 0;
  private readonly storageFaults: Rng;
  /** Until when the storage unit fault holds; -1 before the first one (no 0x14 item is sent until then). */
  private storageFaultUntil = -1;
  private readonly intervalMs: number;
  private readonly parkedIntervalMs: number;
  // Movement state.
  private simMs: number;
  private activity = PARKED;
  private afterIdle: 'park' | 'drive' = 'park';
  private until = 0;
  private city: City;
  private route: Route | null = null;
  private seg = 0;
  private s = 0;
  private stopIdx = 0;
  private v = 0;
  private noise = 0;
  private braking = false;
  private lng: number;
  private lat: number;
  private heading: number;
  private elevation: number;
  private odometerKm: number;
  private fuelL: number;
  private readonly tankL: number;
  private readonly litresPerKm: number;
  /** What item 0x02 reports (sim/fuel.ts): a sensor on heavy trucks, with noise, dropouts and thefts. */
  private readonly fuelSensor: SimFuelSensor;
  private drivingMs = 0;
  private readonly cruiseFactor: number;
  private readonly restEveryKm: readonly [number, number];
  // Reporting state.
  private offUntil = 0;
  private blindUntil = 0;
  private lastDrift = false;
  private prevLocationAt = Number.NaN;
  private sosLeft = 0;
  private alarmSeq = 0;
  private signal: number;
  private satellites: number;

  constructor(spec: VehicleSpec) {
    const key = `${spec.seed}:${spec.deviceNo}`;
    this.deviceNo = spec.deviceNo;
    this.rates = { ...DEFAULT_RATES, ...spec.rates };
    this.move = Rng.of(key, 'move');
    this.events = Rng.of(key, 'events');
    this.faults = Rng.of(key, 'camera-faults');
    this.storageFaults = Rng.of(key, 'storage-faults');
    this.intervalMs = wholeSeconds(spec.intervalMs);
    this.parkedIntervalMs = Math.max(this.intervalMs, wholeSeconds(spec.parkedIntervalMs));
    this.edition = unitHash(`${key}:edition`) < (spec.edition2019Share ?? 0.25) ? 2019 : 2013;

    const fromPlate = spec.plate ? cityOfPlate(spec.plate) : undefined;
    this.home = fromPlate ?? cityByWeight(this.move.next());
    this.plate = spec.plate ?? this.makePlate();
    this.city = this.home;
    [this.lng, this.lat] = pointInCity(this.move, this.home);
    this.heading = this.move.int(0, 359);
    this.elevation = this.home.elevation;
    this.odometerKm = this.move.range(8_000, 400_000);
    this.tankL = this.move.pick([150, 200, 300, 400, 600]);
    this.fuelL = this.tankL * this.move.range(0.3, 1);
    this.litresPerKm = this.move.range(0.12, 0.35);
    this.fuelSensor = new SimFuelSensor(key, this.tankL);
    // One driver in ten drives a little over the limit; one in six skips rests.
    this.cruiseFactor = this.move.chance(0.1) ? this.move.range(1.02, 1.08) : this.move.range(0.88, 1);
    this.restEveryKm = this.move.chance(0.15) ? [380, 520] : [140, 260];
    this.shiftHours = this.move.chance(0.2) ? 12 : 0;
    this.signal = this.events.int(14, 31);
    this.satellites = this.events.int(8, 20);

    this.simMs = Math.floor(spec.startMs / 1000) * 1000;
    this.initialActivity();
    if (unitHash(`${key}:never`) < this.rates.neverOnlineShare) {
      this.link = 'never';
      this.nextAt = Infinity;
    } else {
      this.link = 'up';
      // Spread the fleet's first reports over one interval.
      this.nextAt = this.simMs + Math.round((spec.firstReportAfterMs ?? 0) / 1000) * 1000 + this.events.int(0, this.intervalMs / 1000 - 1) * 1000;
    }
  }

  /** Fuel tank size: the CAN fuel level (server/sim/can.ts) is a share of it. */
  get tankLitres(): number {
    return this.tankL;
  }

  /**
   * Litres in the tank now. The engine's CAN fuel level reads the tank itself, not the 0x0200 fuel item:
   * only trucks fitted with a level sensor (server/sim/fuel.ts) send that item, every engine has a gauge.
   */
  get fuelLitres(): number {
    return this.fuelL;
  }

  /** True while the engine is on (ACC status bit). */
  get accOn(): boolean {
    return this.activity === DRIVE || this.activity === IDLE || (this.activity === DWELL && !this.dwellAccOff);
  }

  private dwellAccOff = false;

  /** Current true position (tests). */
  get position(): { lng: number; lat: number; speed: number } {
    return { lng: this.lng, lat: this.lat, speed: this.v };
  }

  /** Advances to `nextAt` and returns what the terminal does then. Never call for link 'never'. */
  step(): Emission {
    const t = this.nextAt;
    if (!Number.isFinite(t)) throw new RangeError(`terminal ${this.deviceNo} never comes online`);
    this.advanceTo(t);
    const e = this.events;
    if (this.link === 'off' && t >= this.offUntil) {
      this.link = 'up';
      this.prevLocationAt = Number.NaN;
    }
    if (this.link === 'blind' && t >= this.blindUntil) this.link = 'up';
    const acc = this.accOn;
    const dt = acc ? this.intervalMs : this.parkedIntervalMs;

    if (this.link === 'up' && !this.lastDrift && e.chance((this.rates.offlinePerDay * dt) / DAY_MS)) {
      this.link = 'off';
      this.offUntil = t + wholeSeconds(Math.min(8 * HOUR_MS, Math.max(3 * MINUTE_MS, e.logNormal(25 * MINUTE_MS, 1))));
      this.nextAt = this.offUntil;
      return { at: t, link: 'off', location: null, drift: false };
    }
    const moving = this.activity === DRIVE && this.v > 3;
    if (this.link === 'up' && moving && e.chance((this.rates.blindPerDrivingDay * dt) / DAY_MS)) {
      this.link = 'blind';
      this.blindUntil = t + wholeSeconds(Math.min(40 * MINUTE_MS, Math.max(2 * MINUTE_MS, e.logNormal(8 * MINUTE_MS, 0.6))));
    }

    const location = this.location(t, acc, moving);
    let drift = false;
    // A drift point needs ordinary neighbours: a point shortly before, and no offline period right after (see above).
    if (
      this.link === 'up' && !this.lastDrift && t - this.prevLocationAt <= MAX_DRIFT_LEG_MS &&
      e.chance((this.rates.driftPerDay * dt) / DAY_MS)
    ) {
      const km = e.range(DRIFT_KM[0], DRIFT_KM[1]);
      const bearing = e.range(0, 2 * Math.PI);
      const lat = location.lat + (km * Math.cos(bearing)) / 110.574;
      const lng = location.lng + (km * Math.sin(bearing)) / (111.32 * Math.cos((location.lat * Math.PI) / 180));
      location.lat = Math.round(lat * 1e6) / 1e6;
      location.lng = Math.round(lng * 1e6) / 1e6;
      drift = true;
    }
    this.lastDrift = drift;
    this.prevLocationAt = t;
    this.nextAt = t + dt;
    return { at: t, link: this.link, location, drift };
  }

  private makePlate(): string {
    const r = this.move;
    const tail = r.chance(0.6)
      ? `${r.pick([...PLATE_LETTERS])}${String(r.int(0, 9999)).padStart(4, '0')}`
      : String(r.int(0, 99999)).padStart(5, '0');
    return this.home.plate + tail;
  }

  private location(t: number, acc: boolean, moving: boolean): LocationInput & { lat: number; lng: number } {
    const e = this.events;
    let status = STATUS_FIXED | STATUS_GNSS;
    if (acc) status |= STATUS_ACC;
    const speed = moving ? Math.max(0, Math.round((this.v + this.noise) * 10) / 10) : 0;
    let alarm = 0;
    const highway = this.route !== null && this.route.kind[this.seg] === SEGMENT_HIGHWAY;
    const limit = highway ? HIGHWAY_LIMIT_KMH : URBAN_LIMIT_KMH;
    if (speed > limit) alarm |= ALARM_OVERSPEED;
    else if (speed > limit - 5) alarm |= ALARM_OVERSPEED_WARNING;
    if (this.drivingMs > FATIGUE_AFTER_MS) alarm |= ALARM_FATIGUE;
    if (this.sosLeft > 0) {
      this.sosLeft--;
      alarm |= ALARM_SOS;
    } else if (e.chance((this.rates.sosPerDay * (acc ? this.intervalMs : this.parkedIntervalMs)) / DAY_MS)) {
      this.sosLeft = 2;
      alarm |= ALARM_SOS;
    }
    const faultRate = this.rates.cameraFaultPerDay ?? 0;
    if (t < this.cameraFaultUntil) alarm |= ALARM_CAMERA_FAULT;
    else if (faultRate > 0 && this.faults.chance((faultRate * (acc ? this.intervalMs : this.parkedIntervalMs)) / DAY_MS)) {
      this.cameraFaultUntil = t + this.faults.int(10, 120) * 60_000;
      alarm |= ALARM_CAMERA_FAULT;
    }
    const video = this.videoAlarm(t, acc);
    this.signal = Math.min(31, Math.max(5, this.signal + e.int(-2, 2)));
    this.satellites = Math.min(24, Math.max(5, this.satellites + e.int(-1, 1)));
    const hour = localHour(t);
    let ext = 0;
    if (acc && (hour >= 18.5 || hour < 6.5)) ext |= 0x1; // low beam
    if (moving && this.braking) ext |= 0x10; // brake
    const lat = Math.round(this.lat * 1e6) / 1e6;
    const lng = Math.round(this.lng * 1e6) / 1e6;
    const altitude = Math.max(0, Math.round(this.elevation));
    const direction = Math.round(this.heading) % 360;
    let adas: AdasAlarm | undefined;
    let dms: DmsAlarm | undefined;
    if (moving && speed > 30) {
      const hours = this.intervalMs / HOUR_MS;
      if (e.chance(this.rates.adasPerDrivingHour * hours)) adas = this.adas(t, speed, altitude, lat, lng);
      if (e.chance(this.rates.dmsPerDrivingHour * hours)) dms = this.dms(t, speed, altitude, lat, lng);
    }
    const fuel = this.fuelSensor.report({ t, acc, moving, litres: this.fuelL, tankL: this.tankL });
    this.fuelL -= fuel.stolen;
    return {
      alarm, status, lat, lng, altitude, speed, direction, time: t,
      mileage: Math.round(this.odometerKm * 10) / 10,
      fuel: fuel.reading,
      extSignal: ext,
      signal: this.signal,
      satellites: this.satellites,
      adas,
      dms,
      ...(video === undefined ? {} : { extras: [videoAlarmItem(video)] }),
    };
  }

  /** The 0x14 word of this report: bit 2 while a storage unit fault holds; absent until the first fault, 0 after it. */
  private videoAlarm(t: number, acc: boolean): number | undefined {
    const rate = this.rates.storageFaultPerDay ?? 0;
    if (t < this.storageFaultUntil) return 1 << 2;
    if (rate > 0 && this.storageFaults.chance((rate * (acc ? this.intervalMs : this.parkedIntervalMs)) / DAY_MS)) {
      this.storageFaultUntil = t + this.storageFaults.int(60, 360) * 60_000;
      return 1 << 2;
    }
    return this.storageFaultUntil < 0 ? undefined : 0;
  }

  private identification(t: number): AdasAlarm['identification'] {
    return { terminalId: this.deviceNo.slice(-7), time: t, seq: this.alarmSeq & 0xff, attachments: 0, reserved: 0 };
  }

  private adas(t: number, speed: number, altitude: number, lat: number, lng: number): AdasAlarm {
    const e = this.events;
    const u = e.next();
    // Lane departure and headway warnings dominate real ADAS traffic; collisions and pedestrians are rare.
    const type = u < 0.35 ? 2 : u < 0.65 ? 3 : u < 0.8 ? 1 : u < 0.95 ? 5 : 4;
    this.alarmSeq++;
    return {
      alarmId: this.alarmSeq, flag: 0, type, level: e.chance(0.75) ? 1 : 2,
      frontSpeed: type === 1 || type === 3 ? Math.max(0, Math.round(speed - e.range(0, 25))) : 0,
      frontDistance: type === 1 || type === 3 || type === 4 ? e.int(4, 25) : 0,
      deviationType: type === 2 ? e.int(1, 2) : 0,
      roadSignType: 0, roadSignValue: 0,
      speed: Math.min(255, Math.round(speed)), altitude, lat, lng, time: t,
      vehicleStatus: 0x401 | (this.braking ? 0x10 : 0),
      identification: this.identification(t),
    };
  }

  private dms(t: number, speed: number, altitude: number, lat: number, lng: number): DmsAlarm {
    const e = this.events;
    const u = e.next();
    // Tired drivers (long continuous driving) raise fatigue alarms more often.
    const fatigueShare = this.drivingMs > 3 * HOUR_MS ? 0.5 : 0.15;
    const type = u < fatigueShare ? 1 : u < fatigueShare + 0.25 ? 4 : u < fatigueShare + 0.5 ? 2 : u < 0.97 ? 3 : 5;
    this.alarmSeq++;
    return {
      alarmId: this.alarmSeq, flag: 0, type, level: e.chance(0.7) ? 1 : 2,
      fatigue: type === 1 ? e.int(3, 10) : 0, reserved: 0,
      speed: Math.min(255, Math.round(speed)), altitude, lat, lng, time: t,
      vehicleStatus: 0x401,
      identification: this.identification(t),
    };
  }

  // ---- Movement ----

  private initialActivity(): void {
    const hour = this.workHour(this.simMs);
    if (hour >= 20.5 || hour < 5.5) {
      this.park(this.morningAfter(this.simMs));
      return;
    }
    const u = this.move.next();
    if (u < 0.55) {
      // Mid-trip: start somewhere along a fresh route at cruise speed.
      this.route = this.planTrip();
      const r = this.route;
      this.s = r.lengthKm * this.move.range(0.05, 0.9);
      while (this.seg < r.kind.length - 1 && r.cumKm[this.seg + 1]! <= this.s) this.seg++;
      while (this.stopIdx < r.stops.length && r.stops[this.stopIdx]!.atKm <= this.s) this.stopIdx++;
      this.v = r.cruise[this.seg]! * this.cruiseFactor;
      this.activity = DRIVE;
      this.drivingMs = this.move.range(0, 2.5) * HOUR_MS;
      this.place();
    } else if (u < 0.65) {
      this.activity = IDLE;
      this.afterIdle = 'park';
      this.until = this.simMs + this.move.int(10, 300) * 1000;
    } else {
      this.park(this.simMs + this.move.int(60, 90 * 60) * 1000);
    }
  }

  /** Hour of the vehicle's working day (China time, shifted for night-shift vehicles). */
  private workHour(ms: number): number {
    return localHour(ms + this.shiftHours * HOUR_MS);
  }

  /** Next working morning (06:00–08:30 of the vehicle's day) after `ms`. */
  private morningAfter(ms: number): number {
    const shifted = ms + this.shiftHours * HOUR_MS;
    const dayStart = ms - chinaTimeOfDayMs(shifted);
    const base = localHour(shifted) >= 5.5 ? dayStart + DAY_MS : dayStart;
    return base + 6 * HOUR_MS + this.move.range(0, 2.5 * HOUR_MS);
  }

  private park(until: number): void {
    this.activity = PARKED;
    this.v = 0;
    this.drivingMs = 0;
    if (this.fuelL < this.tankL * 0.25) this.fuelL = this.tankL * this.move.range(0.9, 1);
    this.until = this.simMs + wholeSeconds(until - this.simMs);
  }

  private planTrip(): Route {
    const from: [number, number] = [this.lng, this.lat];
    if (this.tripTarget) return planUrbanTrip(this.move, this.city, from, this.tripTarget(this.lng, this.lat, this.simMs) ?? undefined);
    const hour = this.workHour(this.simMs);
    if (this.move.chance(0.45)) {
      const candidates = CITIES.filter((c) => {
        if (c === this.city) return false;
        const km = haversineKm(this.city.lng, this.city.lat, c.lng, c.lat);
        // Arrive before 21:00 of the working day: road distance ≈ 1.25 × great circle at ~75 km/h, plus the city ends.
        return km >= 60 && km <= 450 && hour + (km * 1.25) / 75 + 0.7 < 21;
      });
      if (candidates.length > 0) {
        const to = this.move.pick(candidates);
        return planIntercityTrip(this.move, this.city, from, to, {
          restEveryKm: this.restEveryKm,
          highwayCruise: this.move.range(78, 98),
        });
      }
    }
    return planUrbanTrip(this.move, this.city, from);
  }

  private advanceTo(t: number): void {
    while (this.simMs < t) {
      if (this.activity !== DRIVE) {
        // Nothing moves while standing: jump to the end of the activity or to t.
        const to = Math.min(t, this.until);
        const dt = to - this.simMs;
        if (this.accOn) {
          this.fuelL = Math.max(0, this.fuelL - (dt / HOUR_MS) * 1.5);
          if (this.activity === DWELL && !this.dwellRest) this.drivingMs += dt;
        }
        if (this.activity === DWELL && this.dwellRest && dt > 0) this.restMs += dt;
        this.simMs = to;
        if (this.simMs >= this.until) this.endActivity();
        continue;
      }
      this.driveOneSecond();
    }
  }

  private dwellRest = false;
  private restMs = 0;

  private endActivity(): void {
    switch (this.activity) {
      case PARKED: {
        const hour = this.workHour(this.simMs);
        if (hour >= 19.5 || hour < 5.5) {
          this.park(this.morningAfter(this.simMs));
          return;
        }
        this.route = this.planTrip();
        this.seg = 0;
        this.s = 0;
        this.stopIdx = 0;
        this.activity = IDLE;
        this.afterIdle = 'drive';
        this.until = this.simMs + this.move.int(60, 360) * 1000; // warm-up, loading
        return;
      }
      case IDLE:
        if (this.afterIdle === 'drive' && this.route) {
          this.activity = DRIVE;
          return;
        }
        this.departAfterStop();
        return;
      case DWELL: {
        if (this.dwellRest && this.restMs >= MIN_REST_MS) this.drivingMs = 0;
        this.dwellRest = false;
        this.dwellAccOff = false;
        this.stopIdx++;
        this.activity = DRIVE;
        return;
      }
      default:
        return;
    }
  }

  /** Parked at the destination: 15 min to 3 h, or overnight when evening has come. */
  private departAfterStop(): void {
    const hour = this.workHour(this.simMs);
    if (hour >= 19.5 || hour < 5.5) {
      this.park(this.morningAfter(this.simMs));
      return;
    }
    const stay = Math.min(3 * HOUR_MS, Math.max(15 * MINUTE_MS, this.move.logNormal(40 * MINUTE_MS, 0.6)));
    this.park(this.simMs + stay);
  }

  private driveOneSecond(): void {
    const r = this.route;
    if (!r) {
      this.departAfterStop();
      return;
    }
    const stop = this.stopIdx < r.stops.length ? r.stops[this.stopIdx]! : undefined;
    const stopKm = stop ? stop.atKm : r.lengthKm;
    const distM = (stopKm - this.s) * 1000;
    const cruise = r.cruise[this.seg]! * this.cruiseFactor;
    let target = Math.min(cruise, Math.sqrt(2 * BRAKE_MS2 * Math.max(0, distM - 2)) * 3.6);
    if (distM > 3) target = Math.max(target, 3);
    const dv = target - this.v;
    this.v += dv > 0 ? Math.min(dv, ACCEL_KMH_S) : Math.max(dv, -BRAKE_KMH_S);
    this.braking = dv < -1;
    this.noise = this.noise * 0.9 + this.move.normal() * 0.8;
    const before = this.s;
    this.s = Math.min(this.s + this.v / 3600, stopKm);
    const km = this.s - before;
    this.odometerKm += km;
    this.fuelL = Math.max(0, this.fuelL - km * this.litresPerKm);
    this.drivingMs += 1000;
    this.simMs += 1000;
    while (this.seg < r.kind.length - 1 && r.cumKm[this.seg + 1]! <= this.s) this.seg++;
    this.place();
    if (stopKm - this.s < 0.003) {
      this.s = stopKm;
      this.v = 0;
      this.noise = 0;
      if (stop) {
        this.activity = DWELL;
        this.dwellRest = stop.rest;
        this.dwellAccOff = stop.accOff;
        this.restMs = 0;
        this.until = this.simMs + stop.dwellS * 1000;
      } else {
        // Arrived: a few minutes with the engine running, then parked.
        this.city = r.destination;
        this.route = null;
        this.seg = 0;
        this.s = 0;
        this.stopIdx = 0;
        this.activity = IDLE;
        this.afterIdle = 'park';
        this.until = this.simMs + this.move.int(60, 300) * 1000;
      }
    }
  }

  /** Position, heading and elevation from the distance along the route. */
  private place(): void {
    const r = this.route;
    if (!r) return;
    const i = this.seg;
    const j = Math.min(i + 1, r.lng.length - 1);
    const span = r.cumKm[j]! - r.cumKm[i]!;
    const f = span > 0 ? Math.min(1, Math.max(0, (this.s - r.cumKm[i]!) / span)) : 0;
    const lng0 = r.lng[i]!;
    const lat0 = r.lat[i]!;
    const lng1 = r.lng[j]!;
    const lat1 = r.lat[j]!;
    this.lng = lng0 + (lng1 - lng0) * f;
    this.lat = lat0 + (lat1 - lat0) * f;
    this.elevation = r.elevation[i]! + (r.elevation[j]! - r.elevation[i]!) * f;
    if (span > 0) {
      const dx = (lng1 - lng0) * Math.cos((lat0 * Math.PI) / 180);
      const dy = lat1 - lat0;
      this.heading = ((Math.atan2(dx, dy) * 180) / Math.PI + 360) % 360;
    }
  }
}
