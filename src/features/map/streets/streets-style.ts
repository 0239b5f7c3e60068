/**
 * Street-level maps offline (issue 14): a maplibre style for a PMTiles archive the server serves
 * (`/tiles/<name>.pmtiles`, server/services/tiles), drawn with the Protomaps basemap layers.
 *
 * Nothing comes from a CDN:
 * - tiles: the `pmtiles://` protocol (protocol.ts) reads the archive from our server with range requests;
 * - glyphs: the style has no `glyphs` URL, so maplibre 6 draws every label itself with TinySDF from the
 *   browser's fonts (Chinese through `localIdeographFontFamily`, Latin through the style's font stack
 *   falling back to sans-serif) — no glyph PBFs to ship, every script covered;
 * - sprites: none; the few icons the style names (town dots, POIs) are drawn on demand (icons.ts).
 *
 * Light flavour for the console, dark for walls and the console's dark theme. Protomaps extracts are
 * OpenStreetMap data in WGS-84, so the source's CRS is 'wgs84' and vehicles are not shifted.
 */
import type { StyleSpecification } from 'maplibre-gl';
import { layers, namedFlavor } from '@protomaps/basemaps';
import { API_BASE } from '../../../api/http.ts';
import { ensurePmtilesProtocol } from './protocol.ts';

/** The vector source id the Protomaps layers read. */
export const STREET_SOURCE = 'protomaps';

export interface StreetStyleOptions {
  /** Dark flavour (walls, the console's dark theme). */
  dark?: boolean;
  /** UI language: labels in Chinese (zh-Hans) or English, falling back to the local name. */
  lang?: 'zh' | 'en';
}

/** `pmtiles://` + the archive's absolute URL (the protocol fetches it with range requests). */
export function pmtilesUrl(archivePath: string, base: string = globalThis.location?.href ?? 'http://localhost/'): string {
  return `pmtiles://${new URL(archivePath, base).href}`;
}

/** The Protomaps language code for the UI language. */
export function protomapsLang(lang: 'zh' | 'en'): string {
  return lang === 'zh' ? 'zh-Hans' : 'en';
}

/** A maplibre style drawing the archive at `archivePath` (same origin, e.g. `/tiles/china.pmtiles`). */
export function streetStyle(archivePath: string, { dark = false, lang = 'zh' }: StreetStyleOptions = {}): StyleSpecification {
  ensurePmtilesProtocol();
  return {
    version: 8,
    // No glyphs and no sprite on purpose (see the file comment): labels and icons are drawn locally.
    sources: {
      [STREET_SOURCE]: { type: 'vector', url: pmtilesUrl(`${API_BASE}${archivePath}`) },
    },
    layers: layers(STREET_SOURCE, namedFlavor(dark ? 'dark' : 'light'), { lang: protomapsLang(lang) }),
  };
}

/** The walls' street map: the dark flavour (a control-room wall is dark). */
export function wallStreetStyle(archivePath: string, lang: 'zh' | 'en' = 'zh'): StyleSpecification {
  return streetStyle(archivePath, { dark: true, lang });
}
