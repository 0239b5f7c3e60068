/**
 * Fences between the contract (WGS-84 geometry, domain/fence/types.ts) and the map: rings in the display
 * CRS for deck.gl and terra-draw, and a shape drawn with terra-draw (display coordinates) back to a
 * WGS-84 geometry. Every point crosses `toDisplay`/`fromDisplay` (domain/geo/gcj02.ts) exactly as the
 * rest of the map does, so a fence sits where the basemap shows it whatever the source's CRS.
 */
import type { FenceGeometry, FenceRule, FenceShape, LngLat } from '../../../domain/fence/types.ts';
import { fromDisplay, toDisplay, type DisplayCrs } from '../../../domain/geo/gcj02.ts';
import { haversineKm } from '../../../domain/track/geo.ts';

/** Vertices of a circle's outline: 64 keeps a 100 km circle within 0.2 % of its radius. */
export const CIRCLE_STEPS = 64;
/** Stored coordinates keep 7 decimals (≈ 1 cm), as the terminal's 1e-6° wire format needs no more. */
const round7 = (v: number) => Math.round(v * 1e7) / 1e7;
const EARTH_M = 6_371_008.8;
const DEG = Math.PI / 180;

/** The point `metres` away from `center` on `bearingDeg` (great circle). */
function destination([lng, lat]: LngLat, metres: number, bearingDeg: number): [number, number] {
  const d = metres / EARTH_M;
  const b = bearingDeg * DEG;
  const φ1 = lat * DEG;
  const λ1 = lng * DEG;
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(b));
  const λ2 = λ1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
  return [λ2 / DEG, φ2 / DEG];
}

/** The fence's outline in WGS-84, closed (first point repeated). */
export function ringWgs(g: FenceGeometry): [number, number][] {
  switch (g.shape) {
    case 'circle': {
      const out: [number, number][] = [];
      for (let i = 0; i < CIRCLE_STEPS; i++) out.push(destination(g.center, g.radius, (360 * i) / CIRCLE_STEPS));
      out.push(out[0]!);
      return out;
    }
    case 'rect': {
      const [w, s] = g.sw;
      const [e, n] = g.ne;
      return [[w, s], [e, s], [e, n], [w, n], [w, s]];
    }
    case 'polygon': {
      const out = g.points.map(([x, y]) => [x, y] as [number, number]);
      if (out.length > 0) out.push(out[0]!);
      return out;
    }
  }
}

/** The outline in the basemap's coordinates (what deck.gl and terra-draw draw). */
export function ringDisplay(g: FenceGeometry, crs: DisplayCrs): [number, number][] {
  return ringWgs(g).map(([lng, lat]) => toDisplay(crs, lng, lat));
}

/** WGS-84 bounds [west, south, east, north]. */
export function bounds(g: FenceGeometry): [number, number, number, number] {
  const ring = ringWgs(g);
  const lngs = ring.map((p) => p[0]);
  const lats = ring.map((p) => p[1]);
  return [Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)];
}

/** terra-draw's mode name for each shape. */
export const DRAW_MODE: Record<FenceShape, 'circle' | 'rectangle' | 'polygon'> = { circle: 'circle', rect: 'rectangle', polygon: 'polygon' };

/** A GeoJSON polygon feature terra-draw can take (`addFeatures`), in the display CRS. */
export function toDrawFeature(id: string, g: FenceGeometry, crs: DisplayCrs) {
  const coordinates = [ringDisplay(g, crs).map(([x, y]) => [round7(x), round7(y)])];
  const properties: Record<string, unknown> = { mode: DRAW_MODE[g.shape] };
  if (g.shape === 'circle') properties['radiusKilometers'] = g.radius / 1000;
  return { id, type: 'Feature' as const, geometry: { type: 'Polygon' as const, coordinates }, properties };
}

const mercY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * DEG) / 2));
const unMercY = (y: number) => (2 * Math.atan(Math.exp(y)) - Math.PI / 2) / DEG;

/**
 * A shape terra-draw finished (its polygon ring in the display CRS) as a fence geometry in WGS-84.
 * A circle is drawn round in Web Mercator: its centre is the mean of the ring there, its radius the
 * mean ground distance from that centre to the ring (whole metres, as the terminal stores it).
 */
export function fromDrawnRing(shape: FenceShape, ring: readonly (readonly number[])[], crs: DisplayCrs): FenceGeometry {
  const open = ring.length > 1 && ring[0]![0] === ring[ring.length - 1]![0] && ring[0]![1] === ring[ring.length - 1]![1] ? ring.slice(0, -1) : ring;
  const wgs = open.map((p) => fromDisplay(crs, p[0]!, p[1]!));
  if (shape === 'circle') {
    const lng = wgs.reduce((a, p) => a + p[0], 0) / wgs.length;
    const lat = unMercY(wgs.reduce((a, p) => a + mercY(p[1]), 0) / wgs.length);
    const radius = Math.round((wgs.reduce((a, p) => a + haversineKm(lng, lat, p[0], p[1]), 0) / wgs.length) * 1000);
    return { shape: 'circle', center: [round7(lng), round7(lat)], radius };
  }
  if (shape === 'rect') {
    // The corners are converted, not the box: under GCJ-02 the box of the converted ring is a hair larger.
    const xs = open.map((p) => p[0]!);
    const ys = open.map((p) => p[1]!);
    const sw = fromDisplay(crs, Math.min(...xs), Math.min(...ys));
    const ne = fromDisplay(crs, Math.max(...xs), Math.max(...ys));
    return { shape: 'rect', sw: [round7(sw[0]), round7(sw[1])], ne: [round7(ne[0]), round7(ne[1])] };
  }
  return { shape: 'polygon', points: wgs.map(([x, y]) => [round7(x), round7(y)] as const) };
}

/** Whether a WGS-84 point lies inside the fence (the map's own check for tests and hints, not the alarm engine). */
export function contains(g: FenceGeometry, lng: number, lat: number): boolean {
  if (g.shape === 'circle') return haversineKm(g.center[0], g.center[1], lng, lat) * 1000 <= g.radius;
  if (g.shape === 'rect') return lng >= g.sw[0] && lng <= g.ne[0] && lat >= g.sw[1] && lat <= g.ne[1];
  let inside = false;
  const pts = g.points;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const [xi, yi] = pts[i]!;
    const [xj, yj] = pts[j]!;
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Words for a geometry: the key under `geometrySummary` and its values. */
export function geometryParts(g: FenceGeometry): { key: FenceShape; values: Record<string, string | number> } {
  if (g.shape === 'circle') return { key: 'circle', values: { lng: g.center[0].toFixed(5), lat: g.center[1].toFixed(5), radius: g.radius } };
  if (g.shape === 'rect') {
    const w = Math.round(haversineKm(g.sw[0], g.sw[1], g.ne[0], g.sw[1]) * 1000);
    const h = Math.round(haversineKm(g.sw[0], g.sw[1], g.sw[0], g.ne[1]) * 1000);
    return { key: 'rect', values: { w, h } };
  }
  return { key: 'polygon', values: { n: g.points.length } };
}

/** The rule's parts in display order: the keys under `ruleLabels` that are on, the speed limit, the window. */
export function ruleParts(r: FenceRule): { flags: ('alarmIn' | 'alarmOut' | 'forbidIn' | 'forbidOut')[]; speed: { speed: number; seconds: number } | null; window: string | null } {
  const flags = (['alarmIn', 'alarmOut', 'forbidIn', 'forbidOut'] as const).filter((k) => r[k]);
  return {
    flags,
    speed: r.maxSpeed === null ? null : { speed: r.maxSpeed, seconds: r.overspeedSeconds },
    window: r.startTime && r.endTime ? `${r.startTime}–${r.endTime}` : null,
  };
}
