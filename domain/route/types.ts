/**
 * The route (路线) as every layer sees it: the console plans it on the map, the server stores it
 * (table `route_plan`, migration 34) and sends it to terminals (JT/T 808 0x8606 / 0x8607), the
 * simulator obeys it, and the platform evaluates it against every live position of the vehicles bound
 * to it (13010 platform route deviation, 13003 section travel time, 12006 section overspeed).
 *
 * Coordinates are WGS-84 [lng, lat] degrees (the console converts for its basemap); distances are
 * metres, speeds km/h, times seconds. A route of n turning points has n − 1 sections; section i runs
 * from point i to point i + 1.
 */
import type { LngLat } from '../fence/types.ts';

export type { LngLat };

export interface RouteSection {
  /** Corridor width in metres (JT/T 808 路段宽度 BYTE): the vehicle is on the section within width / 2 of its line. */
  readonly width: number;
  /** 路段行驶过长阈值: more seconds than this on the section is 13003; null: not judged. */
  readonly maxSeconds: number | null;
  /** 路段行驶不足阈值: fewer seconds than this is 13003; null: not judged. */
  readonly minSeconds: number | null;
  /** 路段最高速度, km/h; null: none (platform 12006). */
  readonly maxSpeed: number | null;
  /** 路段超速持续时间: seconds over maxSpeed before it is an alarm. */
  readonly overspeedSeconds: number;
}

export interface Route {
  readonly id: number;
  readonly companyId: number;
  readonly name: string;
  /** 2..ROUTE_LIMITS.maxPoints turning points. */
  readonly points: readonly LngLat[];
  /** One per section (points.length − 1). */
  readonly sections: readonly RouteSection[];
  /** Seconds outside the corridor before the platform raises 13010 (the GNSS jitter and a short detour are forgiven). */
  readonly deviationSeconds: number;
}

export const ROUTE_LIMITS = Object.freeze({
  nameMaxLength: 50,
  minPoints: 2,
  /** 0x8606 must fit one 1023-byte body: a 2019 turning point item is up to 27 bytes, so 32 points fit beside a 50-character name. */
  maxPoints: 32,
  widthMinM: 1,
  widthMaxM: 255,
  secondsMax: 65_535,
  maxSpeedKmh: 255,
  overspeedSecondsMax: 255,
  deviationSecondsMax: 3600,
});

export const DEFAULT_DEVIATION_SECONDS = 30;
