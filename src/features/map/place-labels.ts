/**
 * City and province labels of the bundled basemap, drawn by a deck.gl TextLayer: the basemap style has
 * no glyph server (nothing may be fetched at run time), and deck.gl rasterises the few hundred
 * characters it needs from the system's fonts.
 */
import { TextLayer } from '@deck.gl/layers';
import type { DisplayCrs } from '../../../domain/geo/gcj02.ts';
import { toDisplay } from '../../../domain/geo/gcj02.ts';
import { basemapUrl } from './basemap-style.ts';

export interface Place {
  kind: 'city' | 'province';
  zh: string;
  en: string;
  rank: number;
  position: [number, number];
}

let placesPromise: Promise<Place[]> | undefined;

interface PlacesFile {
  features: { properties: { kind: 'city' | 'province'; zh: string; en: string; rank?: number }; geometry: { coordinates: [number, number] } }[];
}

/** Loads places.json once per page. A failure yields no labels (the map still works). */
export function loadPlaces(): Promise<Place[]> {
  placesPromise ??= fetch(basemapUrl('places.json'))
    .then((r) => (r.ok ? (r.json() as Promise<PlacesFile>) : { features: [] }))
    .then((f) =>
      f.features.map((x) => ({
        kind: x.properties.kind,
        zh: x.properties.zh,
        en: x.properties.en,
        rank: x.properties.rank ?? 0,
        position: x.geometry.coordinates,
      })),
    )
    .catch(() => []);
  return placesPromise;
}

const FONT = '"Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", "Source Han Sans SC", sans-serif';

/** Which labels show at a zoom: provinces on the country view, capitals from 4, other cities from 6. */
export function placeVisible(p: Place, zoom: number): boolean {
  if (p.kind === 'province') return zoom >= 3 && zoom < 6.5;
  return p.rank === 1 ? zoom >= 4.5 : zoom >= 6;
}

/** `dark`: light text with a dark outline over the dark basemap variant. */
export function placeLabelLayer(places: readonly Place[], zoom: number, lang: 'zh' | 'en', crs: DisplayCrs, dark = false): TextLayer<Place> {
  const shown = places.filter((p) => placeVisible(p, zoom));
  return new TextLayer<Place>({
    id: 'basemap-place-labels',
    data: shown,
    getPosition: (p) => toDisplay(crs, p.position[0], p.position[1]),
    getText: (p) => (lang === 'en' ? p.en : p.zh),
    getSize: (p) => (p.kind === 'province' ? 13 : p.rank === 1 ? 13 : 11),
    getColor: (p) => (dark ? (p.kind === 'province' ? [170, 160, 150, 200] : [225, 225, 225, 255]) : p.kind === 'province' ? [120, 100, 85, 200] : [50, 50, 50, 255]),
    fontFamily: FONT,
    characterSet: 'auto',
    outlineWidth: 2,
    outlineColor: dark ? [20, 22, 28, 220] : [255, 255, 255, 220],
    fontSettings: { sdf: true },
    getPixelOffset: (p) => (p.kind === 'city' ? [0, -10] : [0, 0]),
    updateTriggers: { getText: lang, getPosition: crs, getColor: dark },
  });
}
