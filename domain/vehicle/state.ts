/**
 * Vehicle real-time states (spec §3) and how they are derived (spec §4, §9).
 *
 * Codes are small integers so they fit a Uint8Array column in workers and push frames.
 * "online" is not a state of its own: it is driving, parking or idling (the console's online tab).
 */
export const VehicleState = {
  NeverOnline: 0,
  Offline: 1,
  Driving: 2,
  Parking: 3,
  Idling: 4,
} as const;
export type VehicleState = (typeof VehicleState)[keyof typeof VehicleState];

export const VEHICLE_STATE_NAMES = ['neverOnline', 'offline', 'driving', 'parking', 'idling'] as const;

/** Offline: no server contact for over 3 minutes (spec §4). Exactly 3 minutes is still online. */
export const OFFLINE_AFTER_MS = 3 * 60 * 1000;

/**
 * Below this speed a vehicle is standing: GPS jitter reports 1–2 km/h on a parked vehicle, so 0 would
 * make parked vehicles flicker into "driving".
 */
export const DRIVING_MIN_KMH = 3;

/** JT/T 808 status bit 0: ACC on. */
export const STATUS_ACC_ON = 1;

/**
 * The state of one vehicle at `now`.
 * @param lastContactMs last time the server heard from the terminal (any message), NaN if never
 * @param speedKmh speed of the latest position
 * @param statusFlags JT/T 808 status word of the latest position
 */
export function deriveState(lastContactMs: number, now: number, speedKmh: number, statusFlags: number): VehicleState {
  if (!Number.isFinite(lastContactMs)) return VehicleState.NeverOnline;
  if (now - lastContactMs > OFFLINE_AFTER_MS) return VehicleState.Offline;
  if (speedKmh >= DRIVING_MIN_KMH) return VehicleState.Driving;
  return (statusFlags & STATUS_ACC_ON) !== 0 ? VehicleState.Idling : VehicleState.Parking;
}

export function isOnline(state: VehicleState): boolean {
  return state >= VehicleState.Driving;
}
