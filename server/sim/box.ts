/**
 * A simulated slag truck's cargo box (issue 17; item 0xE1, domain/box/status.ts). Driven by the
 * truck's own reports, so it follows how the vehicle really moves: an empty truck that stands at a stop
 * long enough may be loading (a site); it leaves loaded with the cover closed; at a later long stop it
 * lifts the body for a few reports (unloading) and leaves empty. Violations come at rates
 * (`BOX_RATES`): leaving loaded without closing the cover (70001), a lift while driving (70002);
 * unloading wherever the truck stops is checked by the platform against its disposal sites (70004, and
 * 70003 as the load leaves); an overloaded load now and then (70009) and a load sensor that goes silent
 * for a few minutes (70010) come from a stream of their own.
 * Deterministic from the device number. What the truck physically does is `state`; what it reports goes
 * through the controller's parameters (0xF3A0 as the platform last set it, else the factory values;
 * domain/box/controller.ts): a load below `loadedThreshold` is reported empty, the cover is reported
 * only with `sealCheck` on, and with `liftLock` on the body is not raised above `liftSpeedLimit`.
 */
import { controllerState, liftAllowed } from '../../domain/box/controller.ts';
import { BOX_ITEM_ID, encodeBoxItem, type BoxState } from '../../domain/box/status.ts';
import { blockDefaults, type ActiveSafetyBlock } from '../../domain/terminal-params/active-safety.ts';
import { HJWS_PARAMS } from '../../domain/terminal-params/hjws.ts';
import type { LocationInput } from '../gateway/jt808/index.ts';
import { Rng } from './rng.ts';

export const BOX_RATES = {
  /** A stop counts as a site after standing this long. */
  siteStopMs: 3 * 60_000,
  /** Share of long stops of an empty truck that are a loading site. */
  loadAtStop: 0.5,
  /** Share of long stops of a loaded truck that are an unloading. */
  unloadAtStop: 0.7,
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

  constructor(deviceNo: string, seed = 'box') {
    this.rng = Rng.of(seed, deviceNo, 'box');
    this.faults = Rng.of(seed, deviceNo, 'box-faults');
  }

  /** What the truck physically does (the reported state is `controllerState` of it). */
  get now(): Readonly<BoxState> {
    return this.state;
  }

  /** Advances the box with this report and attaches the item as the controller (parameters `block`) reports it. */
  applyTo<L extends LocationInput>(loc: L, block: ActiveSafetyBlock = blockDefaults(HJWS_PARAMS)): L {
    this.advance(loc.time, loc.speed, block);
    const s = this.state;
    if (this.sensorSilentLeft > 0) this.sensorSilentLeft--;
    else if (this.faults.chance(BOX_RATES.sensorFault)) this.sensorSilentLeft = BOX_RATES.sensorFaultReports;
    // A silent sensor measures nothing: the controller then reports no load and "empty" (70010 on the platform).
    const loadT = this.sensorSilentLeft > 0 ? null : s.loaded ? s.loadT : 0;
    const reported = controllerState({ liftAngle: s.lifted ? 45 : 0, coverClosed: s.sealed, loadT }, block);
    const extras = [...(loc.extras ?? []).filter((e) => e.id !== BOX_ITEM_ID), { id: BOX_ITEM_ID, data: encodeBoxItem(reported) }];
    return { ...loc, extras };
  }

  private advance(time: number, speed: number, block: ActiveSafetyBlock): void {
    const r = this.rng;
    const s = this.state;
    if (this.unloadLeft > 0) {
      if (--this.unloadLeft === 0) this.state = { lifted: false, sealed: true, loaded: false, loadT: 0 };
      return;
    }
    if (speed > 1) {
      this.stoppedSince = Number.NaN;
      this.stopDecided = false;
      // A raised body while driving is a one-report slip (70002); a lift held from unloading never drives.
      if (s.lifted) this.state = { ...s, lifted: false };
      // The chance is drawn first so the random stream does not depend on the parameters.
      else if (s.loaded && r.chance(BOX_RATES.liftWhileMoving) && liftAllowed(speed, block)) this.state = { ...s, lifted: true };
      return;
    }
    if (Number.isNaN(this.stoppedSince)) this.stoppedSince = time;
    if (this.stopDecided || time - this.stoppedSince < BOX_RATES.siteStopMs) return;
    this.stopDecided = true;
    if (!s.loaded && r.chance(BOX_RATES.loadAtStop)) {
      const loadT = r.int(12, 30);
      this.state = { lifted: false, loaded: true, sealed: !r.chance(BOX_RATES.unsealedLoad), loadT: this.faults.chance(BOX_RATES.overloadShare) ? this.faults.int(33, 38) : loadT };
    } else if (s.loaded && r.chance(BOX_RATES.unloadAtStop)) {
      this.state = { ...s, lifted: true };
      this.unloadLeft = BOX_RATES.unloadReports;
    }
  }
}
