import { describe, expect, it } from 'vitest';
import { BUNDLED_ID, displayCrsOf, expandSubdomains, parseSettings, PRESETS, validateSource, withPreset } from './map-sources.ts';

// The URLs below are what an administrator types for their own tile servers (reserved .test hosts):
// they are validated here and never fetched. The default basemap is bundled (basemap-style.test.ts).
describe('map sources', () => {
  it('accepts an XYZ raster template with a subdomain placeholder', () => {
    expect(validateSource({ name: 'AMap', kind: 'raster', url: 'https://webrd0{s}.tiles.test/tile?x={x}&y={y}&z={z}' })).toEqual([]);
  });

  it('refuses a raster URL without {z}/{x}/{y}, an empty name and an odd tile size', () => {
    expect(validateSource({ name: ' ', kind: 'raster', url: 'https://tiles.test/a.png', tileSize: 300 })).toEqual([
      'nameRequired',
      'urlNeedsXyz',
      'tileSizeInvalid',
    ]);
  });

  it('refuses URLs that are not http(s)', () => {
    expect(validateSource({ name: 'x', kind: 'style', url: 'javascript:alert(1)' })).toContain('urlInvalid');
    expect(validateSource({ name: 'x', kind: 'style', url: '' })).toEqual(['urlRequired']);
  });

  it('falls back to the bundled basemap when storage holds garbage or an unknown active source', () => {
    expect(parseSettings('{not json').activeId).toBe(BUNDLED_ID);
    const s = parseSettings(
      JSON.stringify({ activeId: 'gone', sources: [{ id: 'a', name: 'A', kind: 'raster', url: 'https://t/{z}/{x}/{y}.png', crs: 'gcj02' }, { id: 'b' }] }),
    );
    expect(s.activeId).toBe(BUNDLED_ID);
    expect(s.sources.map((x) => x.id)).toEqual(['a']);
  });

  it('draws vehicles in GCJ-02 only when the active source is a GCJ-02 one', () => {
    const sources = [{ id: 'a', name: 'A', kind: 'raster' as const, url: 'https://t/{z}/{x}/{y}.png', crs: 'gcj02' as const }];
    expect(displayCrsOf({ activeId: 'a', sources })).toBe('gcj02');
    expect(displayCrsOf({ activeId: BUNDLED_ID, sources })).toBe('wgs84');
  });

  it('expands {s} into three hosts', () => {
    expect(expandSubdomains('https://{s}.t/{z}/{x}/{y}')).toEqual(['https://a.t/{z}/{x}/{y}', 'https://b.t/{z}/{x}/{y}', 'https://c.t/{z}/{x}/{y}']);
  });

  it('offers presets that pass the same URL rule as a typed source, and choosing one keeps it with its CRS', () => {
    for (const p of PRESETS) expect(validateSource(p), p.id).toEqual([]);
    const amap = withPreset({ activeId: BUNDLED_ID, sources: [] }, 'preset-amap');
    expect(amap.activeId).toBe('preset-amap');
    expect(displayCrsOf(amap)).toBe('gcj02'); // vehicles drawn shifted onto AMap's tiles
    // Choosing it again does not add a second copy; the choice survives a reload.
    const again = withPreset(amap, 'preset-amap');
    expect(again.sources).toHaveLength(1);
    expect(parseSettings(JSON.stringify(again)).activeId).toBe('preset-amap');
    expect(withPreset(amap, 'preset-unknown')).toBe(amap);
  });
});
