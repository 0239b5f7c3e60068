/**
 * The icons the Protomaps layers name (town and capital dots at low zoom, POI icons at street zoom)
 * without a sprite sheet from a CDN: each is drawn here the first time maplibre asks for it, as a
 * dot — a capital ringed, a POI small — so the map never shows a gap or fetches anything.
 */
import type { Map as MapLibreMap } from 'maplibre-gl';

/** Draws a dot of `size` pixels (at pixel ratio 2) as RGBA. */
export function dotImage(size: number, fill: [number, number, number], ring: boolean): { width: number; height: number; data: Uint8Array } {
  const data = new Uint8Array(size * size * 4);
  const c = (size - 1) / 2;
  const r = size / 2 - 0.5;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x - c, y - c);
      if (d > r) continue;
      const i = (y * size + x) * 4;
      // A white edge keeps the dot readable over roads and water.
      const edge = d > r - 2 || (ring && d > r * 0.45 && d < r * 0.65);
      const rgb = edge ? [255, 255, 255] : fill;
      data[i] = rgb[0]!;
      data[i + 1] = rgb[1]!;
      data[i + 2] = rgb[2]!;
      data[i + 3] = 255;
    }
  }
  return { width: size, height: size, data };
}

export function iconFor(id: string): { width: number; height: number; data: Uint8Array } {
  if (id === 'capital') return dotImage(22, [70, 70, 70], true);
  if (id === 'townspot') return dotImage(16, [110, 110, 110], false);
  return dotImage(14, [120, 120, 140], false);
}

/** Answers maplibre's missing-image requests with drawn dots (any style; the bundled one names none). */
export function installLocalIcons(map: MapLibreMap): void {
  map.on('styleimagemissing', (e) => {
    if (map.hasImage(e.id)) return;
    map.addImage(e.id, iconFor(e.id), { pixelRatio: 2 });
  });
}
