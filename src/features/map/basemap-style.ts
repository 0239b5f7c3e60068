/**
 * maplibre styles: the bundled offline basemap (GeoJSON in public/basemap/, no glyphs or sprites so
 * nothing is fetched from the network; labels are drawn by deck.gl, see PlaceLabels) and styles for
 * user raster/vector sources.
 */
import type { StyleSpecification } from 'maplibre-gl';
import { expandSubdomains, type UserMapSource } from './map-sources.ts';
import { streetStyle } from './streets/streets-style.ts';

export const BASEMAP_COLORS = {
  water: '#b9d3e6',
  land: '#f3f1ec',
  province: '#c9b8a6',
  border: '#8d7b6b',
} as const;

/** The dark console theme's variant of the same basemap: only the paint colours differ. */
export const BASEMAP_COLORS_DARK = {
  water: '#141a22',
  land: '#262a31',
  province: '#4a4f58',
  border: '#7d8590',
} as const;

function colors(dark: boolean): Readonly<Record<keyof typeof BASEMAP_COLORS, string>> {
  return dark ? BASEMAP_COLORS_DARK : BASEMAP_COLORS;
}

/** URL of a bundled basemap file, under Vite's base (/bcmp-web/). */
export function basemapUrl(file: string): string {
  return `${import.meta.env.BASE_URL}basemap/${file}`;
}

export function bundledStyle(dark = false): StyleSpecification {
  const c = colors(dark);
  return {
    version: 8,
    sources: {
      land: { type: 'geojson', data: basemapUrl('land.json'), tolerance: 0.5 },
      borders: { type: 'geojson', data: basemapUrl('borders.json'), tolerance: 0.5 },
      provinces: { type: 'geojson', data: basemapUrl('provinces.json'), tolerance: 0.5 },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': c.water } },
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': c.land } },
      {
        id: 'province-line',
        type: 'line',
        source: 'provinces',
        paint: { 'line-color': c.province, 'line-width': ['interpolate', ['linear'], ['zoom'], 3, 0.5, 8, 1.5] },
      },
      {
        id: 'country-border',
        type: 'line',
        source: 'borders',
        paint: { 'line-color': c.border, 'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.7, 8, 2] },
      },
    ],
  };
}

/** A style for a user raster source over the water colour. */
export function userRasterStyle(source: UserMapSource, dark = false): StyleSpecification {
  return {
    version: 8,
    sources: {
      user: { type: 'raster', tiles: expandSubdomains(source.url), tileSize: source.tileSize ?? 256, attribution: source.attribution ?? '' },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': colors(dark).water } },
      { id: 'user-raster', type: 'raster', source: 'user' },
    ],
  };
}

/**
 * What to pass to `map.setStyle`: an object, or a style URL for 'style' sources. `dark` (the dark
 * console theme) repaints the bundled basemap and picks the street map's dark flavour; a user's own
 * tiles keep their colours. `lang` names the street map's labels.
 */
export function styleFor(source: UserMapSource | undefined, dark = false, lang: 'zh' | 'en' = 'zh'): StyleSpecification | string {
  if (!source) return bundledStyle(dark);
  if (source.kind === 'style') return source.url;
  if (source.kind === 'pmtiles') return streetStyle(source.url, { dark, lang });
  return userRasterStyle(source, dark);
}
