/**
 * The spatial index of the platform's fences: which fences are near a position, so a live report
 * costs O(fences near the vehicle) and never a scan of every fence (issue 17: 10,000 fences ×
 * 100,000 vehicles).
 *
 * Flatbush (a packed Hilbert R-tree over the fences' bounding boxes) is static: it cannot add or
 * remove a box once finished, so the whole index is rebuilt when any fence or binding changes. That
 * is the right trade here: fences change a few times a day by hand, positions arrive thousands of
 * times a second, and a rebuild of 10,000 boxes takes milliseconds, while a static packed tree
 * answers a point query faster and in less memory than a dynamic one (rbush) would.
 *
 * The boxes are grown by the hysteresis margin (rules.ts), so every fence a vehicle could still be
 * "inside" by that rule is among the candidates; the caller then runs the exact test (geometry.ts).
 */
import Flatbush from 'flatbush';
import { expandBBox, type PreparedGeometry } from './geometry.ts';

export class FenceIndex {
  private readonly tree: Flatbush | null;
  private readonly found: number[] = [];
  private readonly collect = (i: number): boolean => {
    this.found.push(i);
    return false; // collected here; Flatbush's own result array stays empty
  };

  /** @param marginM grows every box by this many metres (the hysteresis margin). */
  constructor(readonly geometries: readonly PreparedGeometry[], readonly marginM = 0) {
    if (geometries.length === 0) {
      this.tree = null; // Flatbush refuses an empty index
      return;
    }
    const tree = new Flatbush(geometries.length);
    for (const g of geometries) {
      const b = expandBBox(g.bbox, marginM);
      tree.add(b[0], b[1], b[2], b[3]);
    }
    tree.finish();
    this.tree = tree;
  }

  get size(): number {
    return this.geometries.length;
  }

  /**
   * Positions (into `geometries`) of the fences whose grown box holds the point. The answer is a
   * reused array, valid until the next call (the hot path allocates nothing per report).
   */
  near(lng: number, lat: number): readonly number[] {
    this.found.length = 0;
    this.tree?.search(lng, lat, lng, lat, this.collect);
    return this.found;
  }
}
