/**
 * Road-like routes: plausible, not real roads. A city trip follows a street grid (rotated per
 * city) with traffic lights at intersections; an intercity trip leaves the origin city on its
 * grid, follows the great circle between the cities with a smooth lateral deviation (sum of a few
 * sines, zero at both ends, so headings change gently like a highway), and enters the destination
 * city on its grid. Routes carry per-segment cruise speeds and the stops to make on the way.
 */
import { haversineKm } from '../../domain/track/geo.ts';
import type { City } from './cities.ts';
import type { Rng } from './rng.ts';

export const SEGMENT_URBAN = 0;
export const SEGMENT_HIGHWAY = 1;

export interface RouteStop {
  /** Distance along the route, km. */
  readonly atKm: number;
  /** Seconds stopped there. */
  readonly dwellS: number;
  /** A rest at a service area (resets continuous driving); lights are not. */
  readonly rest: boolean;
  /** The driver switches the engine off (ACC off) while stopped. */
  readonly accOff: boolean;
}

export interface Route {
  readonly lng: Float64Array;
  readonly lat: Float64Array;
  /** Metres, per waypoint. */
  readonly elevation: Float32Array;
  /** Cumulative km at each waypoint. */
  readonly cumKm: Float64Array;
  /** Per segment (waypoint i → i + 1): SEGMENT_URBAN or SEGMENT_HIGHWAY. */
  readonly kind: Uint8Array;
  /** Per segment: cruise speed, km/h. */
  readonly cruise: Float32Array;
  readonly stops: readonly RouteStop[];
  readonly lengthKm: number;
  /** Where the trip ends. */
  readonly destination: City;
}

const KM_PER_DEG_LAT = 110.574;
const RAD = Math.PI / 180;

function kmPerDegLng(lat: number): number {
  return 111.32 * Math.cos(lat * RAD);
}

/** Collects waypoints and stops; distances are computed once at the end. */
class RouteBuilder {
  private readonly lngs: number[] = [];
  private readonly lats: number[] = [];
  private readonly elevations: number[] = [];
  private readonly kinds: number[] = [];
  private readonly cruises: number[] = [];
  /** Stops as (waypoint index, fraction of the way to the next waypoint), resolved to km in build(). */
  private readonly pending: { index: number; dwellS: number; rest: boolean; accOff: boolean }[] = [];

  get count(): number {
    return this.lngs.length;
  }

  last(): [number, number] {
    const n = this.lngs.length;
    return [this.lngs[n - 1]!, this.lats[n - 1]!];
  }

  /** Adds a waypoint; the segment from the previous waypoint gets `kind` and `cruise`. */
  point(lng: number, lat: number, elevation: number, kind: number, cruise: number): void {
    const n = this.lngs.length;
    if (n > 0 && Math.abs(this.lngs[n - 1]! - lng) < 1e-7 && Math.abs(this.lats[n - 1]! - lat) < 1e-7) return;
    this.lngs.push(lng);
    this.lats.push(lat);
    this.elevations.push(elevation);
    if (n > 0) {
      this.kinds.push(kind);
      this.cruises.push(cruise);
    }
  }

  /** A stop at the latest waypoint. */
  stop(dwellS: number, rest = false, accOff = false): void {
    if (this.lngs.length > 1) this.pending.push({ index: this.lngs.length - 1, dwellS, rest, accOff });
  }

  build(destination: City): Route {
    const n = this.lngs.length;
    const lng = Float64Array.from(this.lngs);
    const lat = Float64Array.from(this.lats);
    const cumKm = new Float64Array(n);
    for (let i = 1; i < n; i++) cumKm[i] = cumKm[i - 1]! + haversineKm(lng[i - 1]!, lat[i - 1]!, lng[i]!, lat[i]!);
    const lengthKm = n > 0 ? cumKm[n - 1]! : 0;
    const stops: RouteStop[] = [];
    for (const p of this.pending) {
      const atKm = cumKm[p.index]!;
      // The end of the route is a stop of its own (arrival), so no light is kept there.
      if (atKm > 0.05 && atKm < lengthKm - 0.05) stops.push({ atKm, dwellS: p.dwellS, rest: p.rest, accOff: p.accOff });
    }
    return {
      lng, lat, elevation: Float32Array.from(this.elevations), cumKm, kind: Uint8Array.from(this.kinds),
      cruise: Float32Array.from(this.cruises), stops, lengthKm, destination,
    };
  }
}

/** A random point within `city`'s urban radius (denser towards the centre). */
export function pointInCity(rng: Rng, city: City, maxFraction = 0.85): [number, number] {
  const r = city.radiusKm * maxFraction * Math.sqrt(rng.next());
  const a = rng.range(0, 2 * Math.PI);
  return [city.lng + (r * Math.cos(a)) / kmPerDegLng(city.lat), city.lat + (r * Math.sin(a)) / KM_PER_DEG_LAT];
}

/** The street grid's orientation for a city: fixed per city so every trip there shares it. */
function gridAngle(city: City): number {
  return ((city.code % 37) / 37) * (Math.PI / 2);
}

/** Splits `total` into `parts` positive shares. */
function split(rng: Rng, total: number, parts: number): number[] {
  const w = Array.from({ length: parts }, () => rng.range(0.4, 1.6));
  const sum = w.reduce((a, b) => a + b, 0);
  return w.map((x) => (x / sum) * total);
}

/**
 * City streets from `from` to `to` on `city`'s grid: alternating legs along the two grid axes,
 * intersections every 0.3–0.9 km, a red light at about a third of them (15–80 s), turns mostly at lights.
 */
function addUrbanLegs(b: RouteBuilder, rng: Rng, city: City, from: [number, number], to: [number, number]): void {
  const kx = kmPerDegLng(city.lat);
  const theta = gridAngle(city);
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  // Local km frame at `from`, rotated into the grid's axes (u, v).
  const dx = (to[0] - from[0]) * kx;
  const dy = (to[1] - from[1]) * KM_PER_DEG_LAT;
  const du = dx * cos + dy * sin;
  const dv = -dx * sin + dy * cos;
  const turns = rng.int(1, 3);
  const uLegs = split(rng, du, turns);
  const vLegs = split(rng, dv, turns);
  const legs: [number, number][] = [];
  const uFirst = rng.chance(0.5);
  for (let i = 0; i < turns; i++) {
    if (uFirst) legs.push([uLegs[i]!, 0], [0, vLegs[i]!]);
    else legs.push([0, vLegs[i]!], [uLegs[i]!, 0]);
  }
  let u = 0;
  let v = 0;
  if (b.count === 0) b.point(from[0], from[1], city.elevation, SEGMENT_URBAN, 0);
  for (const [lu, lv] of legs) {
    const len = Math.abs(lu) + Math.abs(lv);
    if (len < 0.01) continue;
    // Arterial roads are faster than side streets.
    const cruise = rng.chance(0.4) ? rng.range(40, 50) : rng.range(25, 40);
    let done = 0;
    while (done < len) {
      const step = Math.min(len - done, rng.range(0.3, 0.9));
      done += step;
      const f = step / len;
      u += lu * f;
      v += lv * f;
      const x = u * cos - v * sin;
      const y = u * sin + v * cos;
      b.point(from[0] + x / kx, from[1] + y / KM_PER_DEG_LAT, city.elevation + rng.range(-3, 3), SEGMENT_URBAN, cruise);
      const corner = done >= len;
      if (rng.chance(corner ? 0.55 : 0.33)) b.stop(Math.round(rng.range(15, 80)));
    }
  }
  b.point(to[0], to[1], city.elevation, SEGMENT_URBAN, rng.range(20, 35));
}

/** A trip inside `city` from `from` to a point 3–15 km away, or to `target` (a slag truck's disposal site, sim/box.ts). */
export function planUrbanTrip(rng: Rng, city: City, from: [number, number], target?: [number, number]): Route {
  let to = target ?? pointInCity(rng, city);
  for (let i = 0; !target && i < 8 && haversineKm(from[0], from[1], to[0], to[1]) < 3; i++) to = pointInCity(rng, city);
  const b = new RouteBuilder();
  addUrbanLegs(b, rng, city, from, to);
  return b.build(city);
}

function slerp(lng1: number, lat1: number, lng2: number, lat2: number, f: number): [number, number] {
  const p1 = lat1 * RAD;
  const p2 = lat2 * RAD;
  const l1 = lng1 * RAD;
  const l2 = lng2 * RAD;
  const a = [Math.cos(p1) * Math.cos(l1), Math.cos(p1) * Math.sin(l1), Math.sin(p1)];
  const z = [Math.cos(p2) * Math.cos(l2), Math.cos(p2) * Math.sin(l2), Math.sin(p2)];
  const dot = Math.min(1, a[0]! * z[0]! + a[1]! * z[1]! + a[2]! * z[2]!);
  const w = Math.acos(dot);
  if (w < 1e-9) return [lng1, lat1];
  const s1 = Math.sin((1 - f) * w) / Math.sin(w);
  const s2 = Math.sin(f * w) / Math.sin(w);
  const x = s1 * a[0]! + s2 * z[0]!;
  const y = s1 * a[1]! + s2 * z[1]!;
  const zz = s1 * a[2]! + s2 * z[2]!;
  return [Math.atan2(y, x) / RAD, Math.atan2(zz, Math.sqrt(x * x + y * y)) / RAD];
}

export interface IntercityOptions {
  /** Km between service-area rests (the driver's habit). */
  readonly restEveryKm: readonly [number, number];
  /** Highway cruise speed, km/h. */
  readonly highwayCruise: number;
}

/**
 * A trip from `from` (in `origin`) to a point in `destination`: streets to the edge of the origin
 * city, the highway, streets to the destination point. Rests at service areas, a toll stop at each
 * end of the highway, and now and then a congested stretch.
 */
export function planIntercityTrip(rng: Rng, origin: City, from: [number, number], destination: City, options: IntercityOptions): Route {
  const b = new RouteBuilder();
  const bearingTo = (a: City, z: City) => Math.atan2((z.lat - a.lat) * KM_PER_DEG_LAT, (z.lng - a.lng) * kmPerDegLng(a.lat));
  const edge = (city: City, angle: number): [number, number] => {
    const r = city.radiusKm * 0.9;
    return [city.lng + (r * Math.cos(angle)) / kmPerDegLng(city.lat), city.lat + (r * Math.sin(angle)) / KM_PER_DEG_LAT];
  };
  const exit = edge(origin, bearingTo(origin, destination) + rng.range(-0.3, 0.3));
  const entry = edge(destination, bearingTo(destination, origin) + rng.range(-0.3, 0.3));
  addUrbanLegs(b, rng, origin, from, exit);
  b.stop(Math.round(rng.range(10, 30))); // toll gate onto the highway

  const distance = haversineKm(exit[0], exit[1], entry[0], entry[1]);
  // A waypoint every ~4 km: smooth enough for the gentle deviation, and ~10 KB per 500 km route
  // keeps 100,000 vehicles' routes in memory.
  const pieces = Math.max(4, Math.ceil(distance / 4));
  // Lateral deviation: three harmonics with random phases, tapered to zero at both ends.
  const amplitude = Math.min(distance * 0.05, 25);
  const harmonics = [1, 2, 3].map((k) => ({ k: k + rng.range(-0.3, 0.3), phase: rng.range(0, 2 * Math.PI), a: rng.range(-1, 1) / k }));
  const normal = bearingTo(origin, destination) + Math.PI / 2;
  let nextRest = rng.range(options.restEveryKm[0], options.restEveryKm[1]);
  let congestedUntil = -1;
  let congestedCruise = 0;
  for (let i = 1; i <= pieces; i++) {
    const f = i / pieces;
    const [gl, ga] = slerp(exit[0], exit[1], entry[0], entry[1], f);
    let offset = 0;
    for (const h of harmonics) offset += h.a * Math.sin(h.k * Math.PI * f + h.phase);
    offset = offset * amplitude * Math.sin(Math.PI * f);
    const lng = gl + (offset * Math.cos(normal)) / kmPerDegLng(ga);
    const lat = ga + (offset * Math.sin(normal)) / KM_PER_DEG_LAT;
    const elevation = origin.elevation + (destination.elevation - origin.elevation) * f + 40 * Math.sin(7 * Math.PI * f) ** 2;
    if (congestedUntil < i && rng.chance(0.004)) {
      congestedUntil = i + rng.int(1, 4);
      congestedCruise = rng.range(15, 40);
    }
    b.point(lng, lat, elevation, SEGMENT_HIGHWAY, i <= congestedUntil ? congestedCruise : options.highwayCruise * rng.range(0.96, 1.02));
    const km = f * distance;
    if (km >= nextRest && distance - km > 30) {
      b.stop(Math.round(rng.range(10, 25) * 60), true, rng.chance(0.5));
      nextRest = km + rng.range(options.restEveryKm[0], options.restEveryKm[1]);
    }
  }
  b.stop(Math.round(rng.range(10, 30))); // toll gate off the highway
  addUrbanLegs(b, rng, destination, b.last(), pointInCity(rng, destination));
  return b.build(destination);
}
