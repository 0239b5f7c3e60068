/**
 * Slag-truck cargo box (渣土车货箱) state and its group 70 rules (server/services/box-status/api.md).
 *
 * Wire: a JT/T 808 0x0200 additional item in the customer range, id 0xE1, length 2 (the regional
 * slag-truck terminals carry the box sensors in a vendor item because the standard status DWORD has no
 * bits for them):
 *   byte 0: bit 0 lifted (举升: the body is raised), bit 1 sealed (密闭: the cover/tarpaulin is closed),
 *           bit 2 loaded (重车: the load sensor says loaded), bits 3–7 reserved (0);
 *   byte 1: load in tonnes (0–254), 0xFF unknown.
 * A report without the item says nothing about the box (the state before it stands).
 *
 * Rules (platform side, evaluated per live report, pure so the console and tests share them):
 *   70001 unsealed transport: loaded, not sealed, speed > MOVING_KMH;
 *   70002 illegal lifting: lifted, speed > LIFT_SPEED_KMH;
 *   70004 unloading outside an approved disposal site: lifted while loaded, at rest, outside every site;
 *   70005 loaded overspeed: loaded, speed > LOADED_LIMIT_KMH.
 * Each holds while its condition holds and ends on the first report without it.
 */

export const BOX_ITEM_ID = 0xe1;
export const BOX_ITEM_LENGTH = 2;
export const BOX_LIFTED = 0x1;
export const BOX_SEALED = 0x2;
export const BOX_LOADED = 0x4;
export const LOAD_UNKNOWN = 0xff;

/** Speed above which a truck counts as transporting (km/h): GNSS jitter at rest stays below it. */
export const MOVING_KMH = 5;
/** A raised body above this speed is an illegal lift (km/h). */
export const LIFT_SPEED_KMH = 5;
/** Loaded slag trucks are limited to this speed in town (km/h). */
export const LOADED_LIMIT_KMH = 60;

export const BOX_ALARM = { unsealed: 70001, illegalLift: 70002, dumpOutsideSite: 70004, loadedOverspeed: 70005 } as const;
export const BOX_ALARM_CODES: readonly number[] = Object.values(BOX_ALARM);

export interface BoxState {
  lifted: boolean;
  sealed: boolean;
  loaded: boolean;
  /** Tonnes; null unknown. */
  loadT: number | null;
}

/** Decodes the item's value; undefined when its length is not the documented one. */
export function decodeBoxItem(data: Uint8Array): BoxState | undefined {
  if (data.length !== BOX_ITEM_LENGTH) return undefined;
  const bits = data[0]!;
  return { lifted: (bits & BOX_LIFTED) !== 0, sealed: (bits & BOX_SEALED) !== 0, loaded: (bits & BOX_LOADED) !== 0, loadT: data[1] === LOAD_UNKNOWN ? null : data[1]! };
}

export function encodeBoxItem(s: BoxState): Uint8Array {
  const bits = (s.lifted ? BOX_LIFTED : 0) | (s.sealed ? BOX_SEALED : 0) | (s.loaded ? BOX_LOADED : 0);
  return Uint8Array.of(bits, s.loadT === null ? LOAD_UNKNOWN : Math.max(0, Math.min(254, Math.round(s.loadT))));
}

/** The box item among a report's unknown items (the location decoder keeps customer items raw). */
export function boxStateOf(extras: readonly { id: number; data: Uint8Array }[] | undefined): BoxState | undefined {
  if (!extras) return undefined;
  for (const e of extras) if (e.id === BOX_ITEM_ID) return decodeBoxItem(e.data);
  return undefined;
}

/** An approved disposal site: a circle. */
export interface DisposalSite {
  lng: number;
  lat: number;
  radiusM: number;
}

/** Great-circle distance in metres (haversine; a site is at most a few km across). */
export function distanceM(lng1: number, lat1: number, lng2: number, lat2: number): number {
  const r = 6371000, rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad, dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * r * Math.asin(Math.min(1, Math.sqrt(a)));
}

export function insideSite(sites: readonly DisposalSite[], lng: number, lat: number): boolean {
  return sites.some((s) => distanceM(s.lng, s.lat, lng, lat) <= s.radiusM);
}

/**
 * The group 70 codes whose condition holds for a box state at a speed and place. `limits` defaults to the
 * constants above; a controller's parameters (0xF3A0) give their own (controller.ts `boxLimitsOf`).
 */
export function boxViolations(s: BoxState, speedKmh: number, atSite: boolean, limits: { movingKmh: number; liftSpeedKmh: number; loadedLimitKmh: number } = { movingKmh: MOVING_KMH, liftSpeedKmh: LIFT_SPEED_KMH, loadedLimitKmh: LOADED_LIMIT_KMH }): Set<number> {
  const out = new Set<number>();
  if (s.loaded && !s.sealed && speedKmh > limits.movingKmh) out.add(BOX_ALARM.unsealed);
  if (s.lifted && speedKmh > limits.liftSpeedKmh) out.add(BOX_ALARM.illegalLift);
  if (s.lifted && s.loaded && speedKmh <= limits.liftSpeedKmh && !atSite) out.add(BOX_ALARM.dumpOutsideSite);
  if (s.loaded && speedKmh > limits.loadedLimitKmh) out.add(BOX_ALARM.loadedOverspeed);
  return out;
}

/** Filter values of the list (state): what one row's state matches. */
export const BOX_FILTERS = ['lifted', 'unsealed', 'loaded', 'empty'] as const;
export type BoxFilter = (typeof BOX_FILTERS)[number];

export function matchesFilter(s: BoxState, f: BoxFilter): boolean {
  switch (f) {
    case 'lifted': return s.lifted;
    case 'unsealed': return !s.sealed;
    case 'loaded': return s.loaded;
    case 'empty': return !s.loaded;
  }
}
