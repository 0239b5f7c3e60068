/**
 * The route (路线) as every layer sees it: the console plans it on the map, the server stores it
 * (table `route_plan`, migration 34) and sends it to terminals (JT/T 808 0x8606 / 0x8607), the
 * simulator obeys it, and the platform evaluates it against every live position of the vehicles bound
 * to it (13010 platform route deviation, 13003 section travel time, 12006 section overspeed).
 *
 * Coordinates are WGS-84 [lng, lat] degrees (the console converts for its basemap); distances are
 * metres, speeds km/h, times seconds. A route of n turning points has n − 1 sections; section i runs
 * from point i to point i + 1. Times of day are China wall-clock 'HH:mm' (like fences); a window whose
 * end is before its start runs over midnight.
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
  /**
   * JT/T 808-2019 夜间最高速度 (km/h): the limit inside the platform's night window (setting
   * ROUTE_NIGHT_WINDOW, default 22:00–06:00 China time); null/absent: maxSpeed day and night. Needs
   * maxSpeed (the 2019 field only follows a speed-limited section) and is at most maxSpeed.
   */
  readonly nightMaxSpeed?: number | null;
}

/**
 * A key point (关键点): a turning point the vehicle must reach between `arriveFrom` and `arriveBy`
 * every China day. A vehicle on the route during the window that has not reached the point when the
 * window closes raises 13011 (关键点未到达报警).
 */
export interface RouteKeyPoint {
  /** Index into Route.points. */
  readonly point: number;
  readonly arriveFrom: string;
  readonly arriveBy: string;
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
  /** 0x8606 route attribute bit 0 根据时间: the route applies (and is evaluated) only between these times of day; null/absent: always. */
  readonly startTime?: string | null;
  readonly endTime?: string | null;
  /** Key points (13011); absent: none. */
  readonly keyPoints?: readonly RouteKeyPoint[];
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
  keyPointsMax: 32,
});

/** The default night window of the night speed limit (China time), when ROUTE_NIGHT_WINDOW is not set. */
export const DEFAULT_NIGHT_WINDOW = Object.freeze({ startTime: '22:00', endTime: '06:00' });

export const DEFAULT_DEVIATION_SECONDS = 30;
