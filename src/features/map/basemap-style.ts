/**
 * maplibre styles: the bundled offline basemap (GeoJSON in public/basemap/, no glyphs or sprites so
 * nothing is fetched from the network; labels are drawn by deck.gl, see PlaceLabels) and styles for
 * user raster/vector sources.
 */
import type { StyleSpecification } from 'maplibre-gl';
import { expandSubdomains, type UserMapSource } from './map-sources.ts';

export const BASEMAP_COLORS = {
  water: '#b9d3e6',
  land: '#f3f1ec',
  province: '#c9b8a6',
  border: '#8d7b6b',
} as const;

/** URL of a bundled basemap file, under Vite's base (/bcmp-web/). */
export function basemapUrl(file: string): string {
  return `${import.meta.env.BASE_URL}basemap/${file}`;
}

export function bundledStyle(): StyleSpecification {
  return {
    version: 8,
    sources: {
      land: { type: 'geojson', data: basemapUrl('land.json'), tolerance: 0.5 },
      borders: { type: 'geojson', data: basemapUrl('borders.json'), tolerance: 0.5 },
      provinces: { type: 'geojson', data: basemapUrl('provinces.json'), tolerance: 0.5 },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': BASEMAP_COLORS.water } },
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': BASEMAP_COLORS.land } },
      {
        id: 'province-line',
        type: 'line',
        source: 'provinces',
        paint: { 'line-color': BASEMAP_COLORS.province, 'line-width': ['interpolate', ['linear'], ['zoom'], 3, 0.5, 8, 1.5] },
      },
      {
        id: 'country-border',
        type: 'line',
        source: 'borders',
        paint: { 'line-color': BASEMAP_COLORS.border, 'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.7, 8, 2] },
      },
    ],
  };
}

/** A style for a user raster source over the water colour. */
export function userRasterStyle(source: UserMapSource): StyleSpecification {
  return {
    version: 8,
    sources: {
      user: { type: 'raster', tiles: expandSubdomains(source.url), tileSize: source.tileSize ?? 256, attribution: source.attribution ?? '' },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': BASEMAP_COLORS.water } },
      { id: 'user-raster', type: 'raster', source: 'user' },
    ],
  };
}

/** What to pass to `map.setStyle`: an object, or a style URL for 'style' sources. */
export function styleFor(source: UserMapSource | undefined): StyleSpecification | string {
  if (!source) return bundledStyle();
  if (source.kind === 'style') return source.url;
  return userRasterStyle(source);
}
