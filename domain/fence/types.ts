/**
 * The fence (geofence, 电子围栏) as every layer sees it: the console draws and edits it, the server stores
 * it (table `fence`, migration 30) and sends it to terminals (JT/T 808 0x8600–0x8605), the simulator obeys
 * it, and the platform evaluates it against every live position (group 13 alarms and 12005 area overspeed).
 *
 * Coordinates are WGS-84 [lng, lat] degrees, like every stored position; the console converts to and
 * from the basemap's system (domain/geo/gcj02.ts) when it draws. Distances are metres, speeds km/h.
 * Times of day are the fence's local wall-clock ('HH:mm', Asia/Shanghai like the rest of the platform);
 * a window whose end is before its start runs over midnight.
 */

export type LngLat = readonly [lng: number, lat: number];

/** The three shapes JT/T 808 can carry (0x8600 circle, 0x8602 rectangle, 0x8604 polygon). */
export type FenceGeometry =
  | { readonly shape: 'circle'; readonly center: LngLat; readonly radius: number }
  | { readonly shape: 'rect'; /** south-west corner */ readonly sw: LngLat; /** north-east corner */ readonly ne: LngLat }
  | { readonly shape: 'polygon'; /** 3..125 vertices, not closed (the first is not repeated) */ readonly points: readonly LngLat[] };

export type FenceShape = FenceGeometry['shape'];

/** What the fence watches (JT/T 808 area attribute bits, table 59) and the platform's own rules. */
export interface FenceRule {
  /** Alarm on entering (bit 2 进区域报警给驾驶员 / platform 13005). */
  readonly alarmIn: boolean;
  /** Alarm on leaving (bit 4 / platform 13006). */
  readonly alarmOut: boolean;
  /** Entering is forbidden (platform 13007 禁入区域报警). */
  readonly forbidIn: boolean;
  /** Leaving is forbidden (platform 13008 禁出区域报警). */
  readonly forbidOut: boolean;
  /** Speed limit inside (bit 1 限速); null: none (platform 12005 area overspeed). */
  readonly maxSpeed: number | null;
  /** Seconds over maxSpeed before it is an alarm (JT/T 808 超速持续时间). */
  readonly overspeedSeconds: number;
  /** Active only between these times of day (bit 0 根据时间); both null: always. */
  readonly startTime: string | null;
  readonly endTime: string | null;
}

export interface Fence {
  readonly id: number;
  readonly companyId: number;
  readonly name: string;
  readonly geometry: FenceGeometry;
  readonly rule: FenceRule;
}

/** JT/T 808 limits the fence forms and the codec both enforce. */
export const FENCE_LIMITS = Object.freeze({
  nameMaxLength: 50,
  polygonMinPoints: 3,
  /** 0x8604: the vertex count is a WORD, but one frame of 1023 body bytes carries 125 points. */
  polygonMaxPoints: 125,
  radiusMinM: 10,
  radiusMaxM: 100_000,
  maxSpeedKmh: 255,
});
