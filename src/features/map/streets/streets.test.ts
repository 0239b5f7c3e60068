/** The street map's style, its source in the basemap settings, and the locally drawn icons. */
import { describe, expect, it } from 'vitest';
import type { LayerSpecification } from 'maplibre-gl';
import { parseSettings, displayCrsOf, DEFAULT_SETTINGS } from '../map-sources.ts';
import { styleFor } from '../basemap-style.ts';
import { formatBytes, streetSource, withStreetArchive } from './archives.ts';
import { iconFor } from './icons.ts';
import { pmtilesUrl, streetStyle, STREET_SOURCE, wallStreetStyle } from './streets-style.ts';

const archive = { name: 'china.pmtiles', url: '/tiles/china.pmtiles' };
const paint = (layers: LayerSpecification[], id: string) => (layers.find((l) => l.id === id) as { paint: Record<string, unknown> }).paint;

describe('streetStyle', () => {
  it('reads the archive through pmtiles:// on our own server, with no glyph or sprite URL', () => {
    const s = streetStyle('/tiles/china.pmtiles');
    expect(s.sources[STREET_SOURCE]).toEqual({ type: 'vector', url: pmtilesUrl('/tiles/china.pmtiles') });
    expect(pmtilesUrl('/tiles/china.pmtiles', 'https://fleet.example/bcmp-web/monitor')).toBe('pmtiles://https://fleet.example/tiles/china.pmtiles');
    expect(s.glyphs).toBeUndefined();
    expect(s.sprite).toBeUndefined();
    expect(JSON.stringify(s)).not.toMatch(/https?:\/\/(?!localhost)/);
    expect(s.layers.filter((l) => 'source' in l).every((l) => (l as { source: string }).source === STREET_SOURCE)).toBe(true);
  });

  it('is light for the console and dark for walls', () => {
    const light = paint(streetStyle('/tiles/a.pmtiles').layers, 'earth')['fill-color'];
    const wall = paint(wallStreetStyle('/tiles/a.pmtiles').layers, 'earth')['fill-color'];
    expect(light).toBe('#e2dfda');
    expect(wall).toBe('#1f1f1f');
  });

  it('labels places in the UI language', () => {
    const zh = JSON.stringify(streetStyle('/tiles/a.pmtiles', { lang: 'zh' }).layers.find((l) => l.id === 'places_locality'));
    const en = JSON.stringify(streetStyle('/tiles/a.pmtiles', { lang: 'en' }).layers.find((l) => l.id === 'places_locality'));
    expect(zh).toContain('name:zh-Hans');
    expect(en).not.toContain('name:zh-Hans');
    expect(en).toContain('name:en');
  });

  it('is what styleFor answers for a street source, following the console theme', () => {
    const s = styleFor(streetSource(archive), true, 'en');
    expect(typeof s).toBe('object');
    expect(paint((s as { layers: LayerSpecification[] }).layers, 'earth')['fill-color']).toBe('#1f1f1f');
  });
});

describe('street sources in the basemap settings', () => {
  it('chooses an archive once, keeps it across visits, and draws vehicles in WGS-84', () => {
    const once = withStreetArchive(DEFAULT_SETTINGS, archive);
    const twice = withStreetArchive(once, archive);
    expect(twice.sources).toHaveLength(1);
    expect(twice.activeId).toBe('streets:china.pmtiles');
    const stored = parseSettings(JSON.stringify(twice));
    expect(stored).toEqual(twice);
    expect(displayCrsOf(stored)).toBe('wgs84');
  });

  it('drops a stored street source that points anywhere but our archives', () => {
    const evil = { activeId: 'x', sources: [{ ...streetSource(archive), id: 'x', url: 'https://elsewhere.example/a.pmtiles' }] };
    expect(parseSettings(JSON.stringify(evil))).toEqual({ activeId: 'bundled', sources: [] });
  });
});

describe('helpers', () => {
  it('formats archive sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(208_322)).toBe('203.4 KB');
    expect(formatBytes(1.5 * 1024 ** 3)).toBe('1.5 GB');
  });

  it('draws a ringed capital, a town dot and a POI dot, opaque only inside the circle', () => {
    const capital = iconFor('capital');
    const town = iconFor('townspot');
    expect([capital.width, town.width, iconFor('cafe').width]).toEqual([22, 16, 14]);
    expect(town.data[3]).toBe(0); // corner transparent
    const centre = (8 * 16 + 8) * 4;
    expect(town.data[centre + 3]).toBe(255);
    expect(capital.data.length).toBe(22 * 22 * 4);
  });
});
