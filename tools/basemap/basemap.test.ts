import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../public/basemap');
const FILES = ['land.json', 'borders.json', 'provinces.json', 'places.json'];

interface Fc {
  type: string;
  features: { properties: Record<string, unknown>; geometry: { type: string; coordinates: unknown } }[];
}
const read = (f: string) => JSON.parse(readFileSync(path.join(DIR, f), 'utf8')) as Fc;

describe('bundled basemap', () => {
  it('stays small enough to ship with the console (under 3 MB)', () => {
    const total = FILES.reduce((sum, f) => sum + statSync(path.join(DIR, f)).size, 0);
    expect(total).toBeLessThan(3 * 1024 * 1024);
  });

  it('has every provincial-level division of China with Chinese and English names', () => {
    const provinces = read('provinces.json').features;
    expect(provinces.length).toBe(34);
    const names = provinces.map((f) => f.properties.zh);
    for (const n of ['北京', '新疆', '西藏', '广东', '台湾', '香港', '澳门']) expect(names).toContain(n);
    expect(provinces.every((f) => typeof f.properties.en === 'string' && f.properties.en !== f.properties.zh)).toBe(true);
  });

  it('puts Beijing inside the Beijing polygon and the cities where they belong', () => {
    const places = read('places.json').features;
    const beijing = places.find((f) => f.properties.kind === 'city' && f.properties.zh === '北京');
    expect(beijing?.geometry.coordinates).toEqual([116.41, 39.9]);
    const bj = read('provinces.json').features.find((f) => f.properties.zh === '北京')!;
    const ring = (bj.geometry.coordinates as number[][][][] | number[][][]).flat(bj.geometry.type === 'MultiPolygon' ? 2 : 1) as unknown as number[][];
    const lngs = ring.map((p) => p[0]!);
    const lats = ring.map((p) => p[1]!);
    expect(Math.min(...lngs)).toBeLessThan(116.41);
    expect(Math.max(...lngs)).toBeGreaterThan(116.41);
    expect(Math.min(...lats)).toBeLessThan(39.9);
    expect(Math.max(...lats)).toBeGreaterThan(39.9);
  });

  it('has world land and country borders as WGS-84 geometry', () => {
    const land = read('land.json');
    expect(land.features.length).toBeGreaterThan(0);
    expect(['Polygon', 'MultiPolygon']).toContain(land.features[0]!.geometry.type);
    const borders = read('borders.json').features[0]!;
    expect(borders.geometry.type).toBe('MultiLineString');
    const coords = (borders.geometry.coordinates as number[][][]).flat();
    expect(coords.every(([x, y]) => x! >= -180 && x! <= 180 && y! >= -90 && y! <= 90)).toBe(true);
  });
});
