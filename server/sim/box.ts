/**
 * A simulated slag truck's cargo box (issue 17; item 0xE1, domain/box/status.ts). Driven by the
 * truck's own reports, so it follows how the vehicle really moves: an empty truck that stands at a stop
 * long enough may be loading (a construction site); it leaves loaded with the cover closed and drives
 * to the nearest disposal site its company registered (`tripTarget`, which the vehicle program asks
 * when it plans a trip; the sites come from the database, fleet-source.ts), lifts the body there for a
 * few reports (unloading) and leaves empty. Like a real fleet it keeps loads off the road in the rush
 * hours (the load is taken as the truck leaves, not from an hour before a forbidden window to its end;
 * domain/box/rules.ts FORBIDDEN_HOURS) and
 * unloads at sites; a few deliberate violations keep the alarms something true to show
 * (`BOX_RATES`): a load taken near the rush hour anyway (70008), unloading at a long stop off every site
 * (70004, 70003), leaving loaded without closing the cover (70001), a lift while driving (70002). A
 * truck with no site within reach hauls rarely (every such load is dumped off-site). An overloaded load
 * now and then (70009) and a load sensor that goes silent for a few minutes (70010) come from a stream
 * of their own.
 * Deterministic from the device number. What the truck physically does is `state`; what it reports goes
 * through the controller's parameters (0xF3A0 as the platform last set it, else the factory values;
 * domain/box/controller.ts): a load below `loadedThreshold` is reported empty, the cover is reported
 * only with `sealCheck` on, and with `liftLock` on the body is not raised above `liftSpeedLimit`.
 */
import { controllerState, liftAllowed } from '../../domain/box/controller.ts';
import { chinaMinuteOfDay, FORBIDDEN_HOURS, inWindow } from '../../domain/box/rules.ts';
import { BOX_ITEM_ID, distanceM, encodeBoxItem, insideSite, type BoxState, type DisposalSite } from '../../domain/box/status.ts';
import { blockDefaults, type ActiveSafetyBlock } from '../../domain/terminal-params/active-safety.ts';
import { HJWS_PARAMS } from '../../domain/terminal-params/hjws.ts';
import type { LocationInput } from '../gateway/jt808/index.ts';
import { Rng } from './rng.ts';

export const BOX_RATES = {
  /** A stop counts as a site after standing this long. */
  siteStopMs: 3 * 60_000,
  /** Share of long stops of an empty truck that are a loading site. */
  loadAtStop: 0.5,
  /** Share of long stops of a loaded truck that are an unloading (a truck with no site within reach). */
  unloadAtStop: 0.7,
  /** A disposal site farther than this (m) is out of reach: the truck does not drive there. */
  siteReachM: 80_000,
  /** Share of long stops of an empty truck with no site within reach that are a loading (rare hauls). */
  loadWithoutSite: 0.05,
  /** Share of long stops of a loaded truck off every site where it dumps anyway (70004, 70003). */
  dumpOffSite: 0.03,
  /** No loading from this long (min) before a forbidden window until it ends: the trip would drive into it. */
  rushLeadMin: 60,
  /** Share of loads taken in that time anyway (70008 when the trip runs into the window). */
  rushHourLoad: 0.05,
  /** Loads driven away with the cover open. */
  unsealedLoad: 0.1,
  /** Chance per moving report of a loaded truck that the body is raised (one report). */
  liftWhileMoving: 0.003,
  /** Reports the body stays up while unloading. */
  unloadReports: 3,
  /** Loads above the rated 31 t (33–38 t, 70009; domain/box/rules.ts): a few per cent, as weighbridge checks find. */
  overloadShare: 0.04,
  /** Chance per report that the load sensor goes silent (0xFF, 70010): about once in a few days of driving. */
  sensorFault: 0.0002,
  /** Reports a silent sensor stays silent (10 s reports: a few minutes, a loose connector). */
  sensorFaultReports: 20,
} as const;

export class SimBox {
  private readonly rng: Rng;
  private state: BoxState = { lifted: false, sealed: true, loaded: false, loadT: 0 };
  private stoppedSince = Number.NaN;
  /** The current stop was already used (loaded or unloaded, or passed over). */
  private stopDecided = false;
  private unloadLeft = 0;
  /** Overloads and sensor faults draw from their own stream, so the load/unload cycle stays as it was. */
  private readonly faults: Rng;
  private sensorSilentLeft = 0;
  /** The deliberate violations of the trip rules draw from their own stream as well. */
  private readonly trips: Rng;
  /** A load being taken at this stop: the truck is loaded when it leaves (`anyway`: even near the rush hours). */
  private pending: { state: BoxState; anyway: boolean } | null = null;

  /** `sites`: the disposal sites that apply to the truck's company (its own and those above it). */
  constructor(deviceNo: string, seed = 'box', private readonly sites: readonly DisposalSite[] = []) {
    this.rng = Rng.of(seed, deviceNo, 'box');
    this.faults = Rng.of(seed, deviceNo, 'box-faults');
    this.trips = Rng.of(seed, deviceNo, 'box-trips');
  }

  /** The nearest site within reach of a place, if any. */
  private nearestSite(lng: number, lat: number): DisposalSite | undefined {
    let best: DisposalSite | undefined;
    let bestM: number = BOX_RATES.siteReachM;
    for (const s of this.sites) {
      const m = distanceM(lng, lat, s.lng, s.lat);
      if (m <= bestM) {
        best = s;
        bestM = m;
      }
    }
    return best;
  }

  /**
   * Where the next trip starting at `time` goes (VehicleProgram.tripTarget): a loaded truck, or one
   * loading that will leave loaded, to the nearest site within reach; else anywhere (null).
   */
  tripTarget(lng: number, lat: number, time: number): [number, number] | null {
    const leavesLoaded = this.pending !== null && (!nearRushHour(time) || this.pending.anyway);
    if (!(this.state.loaded || leavesLoaded) || this.unloadLeft > 0) return null;
    const site = this.nearestSite(lng, lat);
    return site ? [site.lng, site.lat] : null;
  }

  /** What the truck physically does (the reported state is `controllerState` of it). */
  get now(): Readonly<BoxState> {
    return this.state;
  }

  /** Advances the box with this report and attaches the item as the controller (parameters `block`) reports it. */
  applyTo<L extends LocationInput>(loc: L, block: ActiveSafetyBlock = blockDefaults(HJWS_PARAMS)): L {
    this.advance(loc.time, loc.speed, loc.lng, loc.lat, block);
    const s = this.state;
    if (this.sensorSilentLeft > 0) this.sensorSilentLeft--;
    else if (this.faults.chance(BOX_RATES.sensorFault)) this.sensorSilentLeft = BOX_RATES.sensorFaultReports;
    // A silent sensor measures nothing: the controller then reports no load and "empty" (70010 on the platform).
    const loadT = this.sensorSilentLeft > 0 ? null : s.loaded ? s.loadT : 0;
    const reported = controllerState({ liftAngle: s.lifted ? 45 : 0, coverClosed: s.sealed, loadT }, block);
    const extras = [...(loc.extras ?? []).filter((e) => e.id !== BOX_ITEM_ID), { id: BOX_ITEM_ID, data: encodeBoxItem(reported) }];
    return { ...loc, extras };
  }

  private advance(time: number, speed: number, lng: number, lat: number, block: ActiveSafetyBlock): void {
    const r = this.rng;
    const s = this.state;
    if (this.unloadLeft > 0) {
      if (--this.unloadLeft === 0) this.state = { lifted: false, sealed: true, loaded: false, loadT: 0 };
      return;
    }
    if (speed > 1) {
      this.stoppedSince = Number.NaN;
      this.stopDecided = false;
      // Loading ends as the truck leaves: a load is taken only if the trip starts clear of the rush hours.
      const pending = this.pending;
      this.pending = null;
      if (pending && (!nearRushHour(time) || pending.anyway)) {
        this.state = pending.state;
        return;
      }
      // A raised body while driving is a one-report slip (70002); a lift held from unloading never drives.
      if (s.lifted) this.state = { ...s, lifted: false };
      // The chance is drawn first so the random stream does not depend on the parameters.
      else if (s.loaded && r.chance(BOX_RATES.liftWhileMoving) && liftAllowed(speed, block)) this.state = { ...s, lifted: true };
      return;
    }
    if (Number.isNaN(this.stoppedSince)) this.stoppedSince = time;
    if (this.stopDecided || time - this.stoppedSince < BOX_RATES.siteStopMs) return;
    this.stopDecided = true;
    const reach = this.nearestSite(lng, lat) !== undefined;
    if (!s.loaded) {
      // The draws come first, so the stream does not depend on the place or the hour.
      const load = r.chance(BOX_RATES.loadAtStop);
      const loadT = r.int(12, 30);
      const sealed = !r.chance(BOX_RATES.unsealedLoad);
      const anyway = this.trips.chance(BOX_RATES.rushHourLoad);
      const rare = this.trips.chance(BOX_RATES.loadWithoutSite);
      if (!load || (!reach && !rare)) return;
      // Loaded when it leaves (and only if it leaves clear of the rush hours): the stop may last hours.
      this.pending = { state: { lifted: false, loaded: true, sealed, loadT: this.faults.chance(BOX_RATES.overloadShare) ? this.faults.int(33, 38) : loadT }, anyway };
      return;
    }
    const dump = reach ? insideSite(this.sites, lng, lat) || this.trips.chance(BOX_RATES.dumpOffSite) : r.chance(BOX_RATES.unloadAtStop);
    if (dump) {
      this.state = { ...s, lifted: true };
      this.unloadLeft = BOX_RATES.unloadReports;
    }
  }
}

/** From `rushLeadMin` before a forbidden window to its end (China time): no time to start a loaded trip. */
export function nearRushHour(timeMs: number): boolean {
  const minute = chinaMinuteOfDay(timeMs);
  return FORBIDDEN_HOURS.some((w) => inWindow(minute, { fromMin: (w.fromMin - BOX_RATES.rushLeadMin + 1440) % 1440, toMin: w.toMin }));
}
