/**
 * Basemap sources: the bundled offline basemap plus sources the user adds (raster XYZ tiles, a vector
 * tiles through a maplibre style URL), each tagged with the CRS its tiles are drawn in. A GCJ-02
 * source (AMap, Tencent) makes the console convert vehicle positions for display; data stays WGS-84.
 * Persisted in localStorage 'mapSources'.
 */
import { isDisplayCrs, type DisplayCrs } from '../../../domain/geo/gcj02.ts';
import { isHttpOrRelativeUrl } from '../../../domain/request/url.ts';

/**
 * Vector tiles come through a style URL: a style names the vector source and how to draw its layers.
 * 'pmtiles': a street-map archive on our own server (streets/), drawn with the Protomaps style.
 */
export type MapSourceKind = 'raster' | 'style' | 'pmtiles';

export interface UserMapSource {
  id: string;
  name: string;
  kind: MapSourceKind;
  /** raster: an XYZ template with {z}/{x}/{y} (and optional {s}); style: a maplibre style JSON URL (raster or vector); pmtiles: `/tiles/<name>.pmtiles`. */
  url: string;
  crs: DisplayCrs;
  /** Raster tile size in pixels. @default 256 */
  tileSize?: number;
  attribution?: string;
}

export interface MapSourceSettings {
  /** 'bundled' or the id of a user source. */
  activeId: string;
  sources: UserMapSource[];
}

export const BUNDLED_ID = 'bundled';

/**
 * Common public basemaps offered as one click (they need internet; the bundled one does not). Each
 * becomes a user source with its preset id when chosen, so the CRS and URL are never typed by hand.
 */
export const PRESETS: readonly (UserMapSource & { nameKey: string })[] = [
  { id: 'preset-osm', nameKey: 'preset.osm', name: 'OpenStreetMap', kind: 'raster', url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', crs: 'wgs84', tileSize: 256, attribution: '© OpenStreetMap contributors' },
  { id: 'preset-openfreemap', nameKey: 'preset.openfreemap', name: 'OpenFreeMap Liberty', kind: 'style', url: 'https://tiles.openfreemap.org/styles/liberty', crs: 'wgs84' },
  { id: 'preset-carto', nameKey: 'preset.carto', name: 'CARTO Positron', kind: 'style', url: 'https://basemaps.cartocdn.com/gl/positron-gl-style/style.json', crs: 'wgs84' },
  { id: 'preset-amap', nameKey: 'preset.amap', name: '高德地图', kind: 'raster', url: 'https://webrd01.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}', crs: 'gcj02', tileSize: 256, attribution: '© AutoNavi' },
  { id: 'preset-esri-imagery', nameKey: 'preset.esriImagery', name: 'Esri World Imagery', kind: 'raster', url: 'https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}', crs: 'wgs84', tileSize: 256, attribution: '© Esri' },
];

/** Settings with a preset chosen: added to the sources once (kept for the next visit), made active. */
export function withPreset(settings: MapSourceSettings, presetId: string): MapSourceSettings {
  const preset = PRESETS.find((p) => p.id === presetId);
  if (!preset) return settings;
  const { nameKey: _nameKey, ...source } = preset;
  void _nameKey;
  const sources = settings.sources.some((s) => s.id === presetId) ? settings.sources : [...settings.sources, source];
  return { activeId: presetId, sources };
}
export const STORAGE_KEY = 'mapSources';
export const DEFAULT_SETTINGS: MapSourceSettings = { activeId: BUNDLED_ID, sources: [] };

/** Validation problems, as i18n keys of the map namespace. */
export type SourceProblem = 'nameRequired' | 'urlRequired' | 'urlInvalid' | 'urlNeedsXyz' | 'tileSizeInvalid';

/** Checks a source a user typed; an empty list means it can be saved. */
export function validateSource(s: Pick<UserMapSource, 'name' | 'kind' | 'url' | 'tileSize'>): SourceProblem[] {
  const problems: SourceProblem[] = [];
  if (s.name.trim() === '') problems.push('nameRequired');
  const url = s.url.trim();
  if (url === '') problems.push('urlRequired');
  else {
    try {
      // Template placeholders are not valid in a URL's host ({s}.tile…): test with them filled in.
      // Must parse, and be http(s) or relative: the rule the server applies to every stored URL.
      new URL(url.replace(/\{s\}/g, 'a').replace(/\{[xyz]\}/g, '0'), 'http://relative.invalid/');
      if (!isHttpOrRelativeUrl(url)) problems.push('urlInvalid');
    } catch {
      problems.push('urlInvalid');
    }
    if (s.kind === 'raster' && !(url.includes('{z}') && url.includes('{x}') && url.includes('{y}'))) problems.push('urlNeedsXyz');
  }
  if (s.tileSize !== undefined && ![256, 512].includes(s.tileSize)) problems.push('tileSizeInvalid');
  return problems;
}

function isSource(v: unknown): v is UserMapSource {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.id === 'string' &&
    typeof o.name === 'string' &&
    (o.kind === 'raster' || o.kind === 'style' || o.kind === 'pmtiles') &&
    typeof o.url === 'string' &&
    // A street archive is read from our own server only.
    (o.kind !== 'pmtiles' || /^\/tiles\/[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.pmtiles$/.test(o.url)) &&
    isDisplayCrs(o.crs)
  );
}

/** Reads stored settings; anything malformed is dropped (never throws), an unknown active id falls back to bundled. */
export function parseSettings(raw: string | null): MapSourceSettings {
  if (!raw) return DEFAULT_SETTINGS;
  try {
    const v = JSON.parse(raw) as { activeId?: unknown; sources?: unknown };
    const sources = Array.isArray(v.sources) ? v.sources.filter(isSource) : [];
    const activeId = typeof v.activeId === 'string' && sources.some((s) => s.id === v.activeId) ? v.activeId : BUNDLED_ID;
    return { activeId, sources };
  } catch {
    return DEFAULT_SETTINGS;
  }
}

export function loadSettings(): MapSourceSettings {
  try {
    return parseSettings(globalThis.localStorage?.getItem(STORAGE_KEY) ?? null);
  } catch {
    return DEFAULT_SETTINGS;
  }
}

export function saveSettings(settings: MapSourceSettings): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // storage unavailable (private mode): the choice applies to this page only
  }
}

export function activeSource(settings: MapSourceSettings): UserMapSource | undefined {
  return settings.sources.find((s) => s.id === settings.activeId);
}

/** The CRS vehicles must be drawn in for the active source. */
export function displayCrsOf(settings: MapSourceSettings): DisplayCrs {
  return activeSource(settings)?.crs ?? 'wgs84';
}

/** Expands `{s}` into a, b, c hosts, as maplibre has no subdomain placeholder. */
export function expandSubdomains(template: string): string[] {
  return template.includes('{s}') ? ['a', 'b', 'c'].map((s) => template.replace(/\{s\}/g, s)) : [template];
}
