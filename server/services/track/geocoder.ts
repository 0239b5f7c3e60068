/**
 * Offline reverse geocoding (trail/geocoder) from the console's bundled basemap: the province whose
 * polygon contains the point and the nearest of its ~70 major cities, with the distance. No network:
 * the demo runs offline. Loaded once, on first use (≈ 290 KB of GeoJSON, 34 provinces).
 */
import { readFileSync } from 'node:fs';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { haversineKm } from '../../../domain/track/geo.ts';

type Ring = readonly (readonly [number, number])[];
interface Province { zh: string; en: string; polygons: Ring[][]; box: [number, number, number, number] }
interface City { zh: string; en: string; lng: number; lat: number }

interface FeatureCollection {
  features: { properties: Record<string, string | number>; geometry: { type: string; coordinates: unknown } }[];
}

const BASEMAP = new URL('../../../public/basemap/', import.meta.url);
const MUNICIPALITIES = new Set(['北京', '上海', '天津', '重庆']);
const AUTONOMOUS: Record<string, string> = { 内蒙古: '自治区', 广西: '壮族自治区', 西藏: '自治区', 宁夏: '回族自治区', 新疆: '维吾尔自治区' };
const SPECIAL = new Set(['香港', '澳门']);

let loaded: { provinces: Province[]; cities: City[] } | undefined;

function load(): { provinces: Province[]; cities: City[] } {
  if (loaded) return loaded;
  const read = (name: string) => JSON.parse(readFileSync(new URL(name, BASEMAP), 'utf8')) as FeatureCollection;
  const provinces: Province[] = read('provinces.json').features.map((f) => {
    const polygons = (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates) as Ring[][];
    const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    // Every ring counts for the box: the echarts source stores islands as further rings of one polygon.
    for (const poly of polygons) for (const ring of poly) for (const [x, y] of ring) {
      box[0] = Math.min(box[0], x); box[1] = Math.min(box[1], y); box[2] = Math.max(box[2], x); box[3] = Math.max(box[3], y);
    }
    return { zh: String(f.properties.zh), en: String(f.properties.en), polygons, box };
  });
  const cities: City[] = read('places.json').features
    .filter((f) => f.properties.kind === 'city')
    .map((f) => {
      const [lng, lat] = f.geometry.coordinates as [number, number];
      return { zh: String(f.properties.zh), en: String(f.properties.en), lng, lat };
    });
  loaded = { provinces, cities };
  return loaded;
}

/** Even-odd test over every ring of a polygon (outer ring, holes, and the source's island rings). */
function inPolygon(lng: number, lat: number, rings: readonly Ring[]): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

export interface Place {
  province: { zh: string; en: string } | null;
  city: { zh: string; en: string };
  km: number;
}

export function locate(lng: number, lat: number): Place {
  const { provinces, cities } = load();
  const province = provinces.find((p) => lng >= p.box[0] && lng <= p.box[2] && lat >= p.box[1] && lat <= p.box[3]
    && p.polygons.some((poly) => inPolygon(lng, lat, poly))) ?? null;
  let best = cities[0]!;
  let bestKm = Infinity;
  for (const c of cities) {
    const km = haversineKm(lng, lat, c.lng, c.lat);
    if (km < bestKm) { best = c; bestKm = km; }
  }
  return { province: province && { zh: province.zh, en: province.en }, city: { zh: best.zh, en: best.en }, km: Math.round(bestKm * 10) / 10 };
}

function provinceZh(name: string): string {
  if (MUNICIPALITIES.has(name)) return `${name}市`;
  if (SPECIAL.has(name)) return `${name}特别行政区`;
  return `${name}${AUTONOMOUS[name] ?? '省'}`;
}

function cityZh(name: string): string {
  return SPECIAL.has(name) || name.endsWith('市') ? name : `${name}市`;
}

/** "浙江省 杭州市 附近 3.2 公里" / "Hangzhou, Zhejiang, 3.2 km away". */
export function address(lng: number, lat: number, lang: Lang): string {
  const { province, city, km } = locate(lng, lat);
  const sameName = province !== null && province.zh === city.zh;
  if (lang === 'zh') {
    const parts = [province ? provinceZh(province.zh) : '', sameName ? '' : cityZh(city.zh)].filter(Boolean);
    return `${parts.join(' ')} 附近 ${km} 公里`;
  }
  const parts = [city.en, province && !sameName ? province.en : ''].filter(Boolean);
  return `${parts.join(', ')}, ${km} km away`;
}
