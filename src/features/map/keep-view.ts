/**
 * What the map does when its container changes size (the alarm pop-up docking or undocking beside
 * it, the navigation folding): maplibre keeps the centre, so a vehicle the operator is looking at
 * near an edge can fall outside the narrower map. `recentreOn` says whether to bring it back.
 * Pure, for the unit test; MapView calls it after the size has settled.
 */

/** Pixels from the map's edge that still count as "out of view" (an arrow half off the canvas). */
export const EDGE_MARGIN = 48;

/** True when a point (container pixels) lies outside the map, or within `margin` of an edge. */
export function recentreOn(x: number, y: number, width: number, height: number, margin = EDGE_MARGIN): boolean {
  if (!Number.isFinite(x) || !Number.isFinite(y) || width <= 0 || height <= 0) return false;
  const m = Math.min(margin, width / 4, height / 4);
  return x < m || y < m || x > width - m || y > height - m;
}

/** A size change settles (AppShell animates the aside for ~200 ms) before the view is checked. */
export const RESIZE_SETTLE_MS = 250;
