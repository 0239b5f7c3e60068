/**
 * The moving vehicles of playback on a deck.gl canvas of their own, above MapView's overlay.
 *
 * Why a second canvas: deck.gl redraws every layer of its canvas whenever one layer changes, so with
 * the vehicles in MapView's overlay every frame of playback redrew the whole path, the stops, the
 * markers and the place labels. Without a GPU (software WebGL: virtual desktops, office PCs) that held
 * playback of a day to ≈ 1.5 painted frames a second. Here a frame redraws ≤ 20 markers and their
 * arrows; MapView's canvas is redrawn only when the camera moves or the tracks, the stop filter or the
 * zoom bucket change. The browser composites the two canvases (no WebGL work).
 */
import type * as maplibregl from 'maplibre-gl';
import { MapboxOverlay } from '@deck.gl/mapbox';
import type { LayerFeed } from '../map/MapView.tsx';

/** Adds the overlay to `map` and feeds it; the answer removes it (safe after the map is gone). */
export function attachVehicleOverlay(map: maplibregl.Map, feed: LayerFeed, onAfterRender?: () => void): () => void {
  // Nothing here is pickable (clicks seek through MapView's markers), and pointer events pass through.
  // deck.gl calls its onAfterRender prop unconditionally: an undefined one must not replace its default.
  const overlay = new MapboxOverlay({ interleaved: false, layers: [...feed.layers()], ...(onAfterRender ? { onAfterRender } : {}) });
  map.addControl(overlay);
  const off = feed.subscribe(() => overlay.setProps({ layers: [...feed.layers()] }));
  let attached = true;
  return () => {
    if (!attached) return;
    attached = false;
    off();
    // MapView may have removed the map (and with it its controls) first.
    if (map.hasControl(overlay)) map.removeControl(overlay);
    overlay.finalize();
  };
}
