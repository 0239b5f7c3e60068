/**
 * How a slag-truck controller turns its sensors into the box item it reports (0xE1, status.ts) under the
 * parameters it holds (0xF3A0, domain/terminal-params/hjws.ts), and the platform limits those parameters
 * imply. Pure: the simulator's controller (server/sim/box.ts) and the tests share it.
 */
import type { ActiveSafetyBlock } from '../terminal-params/active-safety.ts';
import { blockDefaults } from '../terminal-params/active-safety.ts';
import { HJWS_PARAMS } from '../terminal-params/hjws.ts';
import { LIFT_SPEED_KMH, LOADED_LIMIT_KMH, MOVING_KMH, type BoxState } from './status.ts';

/** The speeds the group 70 rules compare with (status.ts `boxViolations`). */
export interface BoxLimits {
  /** Above it an open cover on a loaded truck is unsealed transport (70001). */
  readonly movingKmh: number;
  /** Above it a raised body is an illegal lift (70002). */
  readonly liftSpeedKmh: number;
  /** Above it a loaded truck is over its speed limit (70005). */
  readonly loadedLimitKmh: number;
}

export const DEFAULT_BOX_LIMITS: BoxLimits = { movingKmh: MOVING_KMH, liftSpeedKmh: LIFT_SPEED_KMH, loadedLimitKmh: LOADED_LIMIT_KMH };

const num = (block: ActiveSafetyBlock, key: string): number => block[key] ?? blockDefaults(HJWS_PARAMS)[key]!;

/** The limits a controller block sets (its missing fields fall back to the block's defaults). */
export function boxLimitsOf(block: ActiveSafetyBlock): BoxLimits {
  return { movingKmh: num(block, 'unsealedSpeed'), liftSpeedKmh: num(block, 'liftSpeedLimit'), loadedLimitKmh: num(block, 'loadedSpeedLimit') };
}

/** What the sensors measure, before the controller's thresholds. */
export interface BoxSensors {
  /** Body angle in degrees. */
  readonly liftAngle: number;
  /** Cover closed. */
  readonly coverClosed: boolean;
  /** Measured load in tonnes; null when the load sensor gives nothing. */
  readonly loadT: number | null;
}

/** The box state the controller reports: raised above `liftAngle`, loaded from `loadedThreshold`, the cover read only with `sealCheck` on. */
export function controllerState(s: BoxSensors, block: ActiveSafetyBlock): BoxState {
  return {
    lifted: s.liftAngle > num(block, 'liftAngle'),
    // Cover check off: the controller does not read the cover sensor and reports it closed.
    sealed: num(block, 'sealCheck') === 0 ? true : s.coverClosed,
    loaded: s.loadT !== null && s.loadT >= num(block, 'loadedThreshold'),
    loadT: s.loadT,
  };
}

/** With `liftLock` on, the controller refuses to raise the body while the truck moves faster than `liftSpeedLimit`. */
export function liftAllowed(speedKmh: number, block: ActiveSafetyBlock): boolean {
  return num(block, 'liftLock') === 0 || speedKmh <= num(block, 'liftSpeedLimit');
}

/** The limits the platform's group 70 rules apply to one truck: its controller's speeds and rated load. */
export interface TruckLimits extends BoxLimits {
  /** Rated load (t, 核定载质量) for 70009. */
  readonly ratedLoadT: number;
}

/**
 * A truck's limits from the 0xF3A0 block it last acknowledged, or the platform's defaults (the fleet's
 * rated load RATED_LOAD_T, the speeds of status.ts) for a truck the platform never set or read.
 */
export function truckLimitsOf(block: ActiveSafetyBlock | undefined, defaultRatedLoadT: number): TruckLimits {
  if (!block) return { ...DEFAULT_BOX_LIMITS, ratedLoadT: defaultRatedLoadT };
  return { ...boxLimitsOf(block), ratedLoadT: num(block, 'ratedLoad') };
}
