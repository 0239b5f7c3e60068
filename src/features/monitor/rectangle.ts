/**
 * The frame query's rectangle (spec §5: "a complete rectangle must be drawn"). A drag is complete
 * when both corners are on the map and it spans at least a few pixels each way; a click or a drag
 * along a line is not a rectangle.
 */
export interface Bounds {
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

/** Fewer pixels than this on either side is a click, not a rectangle. */
export const MIN_RECT_PX = 4;

export type RectangleResult = { ok: true; bounds: Bounds } | { ok: false; reason: 'incomplete' };

/**
 * @param startPx / endPx drag corners in screen pixels (undefined when the drag never started or ended on the map)
 * @param startLngLat / endLngLat the same corners as WGS-84 positions
 */
export function rectangleFromDrag(
  startPx: readonly [number, number] | undefined,
  endPx: readonly [number, number] | undefined,
  startLngLat: readonly [number, number] | undefined,
  endLngLat: readonly [number, number] | undefined,
): RectangleResult {
  if (!startPx || !endPx || !startLngLat || !endLngLat) return { ok: false, reason: 'incomplete' };
  if (Math.abs(endPx[0] - startPx[0]) < MIN_RECT_PX || Math.abs(endPx[1] - startPx[1]) < MIN_RECT_PX) return { ok: false, reason: 'incomplete' };
  const values = [...startLngLat, ...endLngLat];
  if (!values.every(Number.isFinite)) return { ok: false, reason: 'incomplete' };
  return {
    ok: true,
    bounds: {
      minLng: Math.min(startLngLat[0], endLngLat[0]),
      minLat: Math.min(startLngLat[1], endLngLat[1]),
      maxLng: Math.max(startLngLat[0], endLngLat[0]),
      maxLat: Math.max(startLngLat[1], endLngLat[1]),
    },
  };
}
