/**
 * The spatial index of the platform's fences: which fences are near a position, so a live report
 * costs O(fences near the vehicle) and never a scan of every fence (issue 17: 10,000 fences ×
 * 100,000 vehicles).
 *
 * Two layers over the fences' bounding boxes (grown by the hysteresis margin, rules.ts, so every
 * fence a vehicle could still be "inside" by that rule is a candidate; the caller runs the exact test):
 * - A uniform grid of 0.01° cells (≈ 1.1 km × 0.9 km in China) holding the fences whose box touches
 *   each cell: one hash lookup and a few box tests per position. Fences are clustered in cities and
 *   overlap there; a Flatbush point query over 10,000 such boxes measured 7× the cost of scanning
 *   50 boxes (its upper nodes overlap, so a query descends many branches), the grid about a tenth.
 * - Flatbush (a packed Hilbert R-tree) for the few large fences (a box over 1,024 cells, ≈ 30 km
 *   across, up to a 100 km circle) that would fill thousands of grid cells each.
 * One fence is set or removed in place (`set`): its grid cells are patched, so a change costs the
 * changed fence's cells, not a rebuild of every fence (the gateway's event loop must not stall on an
 * edit). Flatbush cannot add or remove a box once finished, so a change of a large fence rebuilds
 * the tree over the large fences only (few: a handful of boxes).
 */
import Flatbush from 'flatbush';
import { expandBBox, type PreparedGeometry } from './geometry.ts';

/** Grid cell size, degrees. */
export const FENCE_CELL_DEG = 0.01;
/** A fence touching more cells than this goes to the R-tree instead. */
const MAX_CELLS = 1024;
const cellOf = (deg: number): number => Math.floor(deg / FENCE_CELL_DEG);
/** One number per cell (lng cells −18,000…18,000, lat cells −9,000…9,000: exact in a double). */
const keyOf = (cx: number, cy: number): number => (cx + 20_000) * 40_000 + (cy + 20_000);

export class FenceIndex {
  /** Grown boxes, 4 numbers per fence position (NaN: no fence there); grown by doubling. */
  private boxes: Float64Array;
  private readonly cells = new Map<number, number[]>();
  /** The large fences (positions) and their R-tree (rebuilt when one of them changes). */
  private large: number[] = [];
  private tree: Flatbush | null = null;
  private count = 0;
  private readonly found: number[] = [];
  private readonly collect = (i: number): boolean => {
    this.found.push(this.large[i]!);
    return false; // collected here; Flatbush's own result array stays empty
  };

  /**
   * @param geometries the fences by position (a hole: no fence there)
   * @param marginM grows every box by this many metres (the hysteresis margin).
   */
  constructor(geometries: readonly (PreparedGeometry | undefined)[], readonly marginM = 0) {
    this.boxes = new Float64Array(Math.max(4, geometries.length * 4)).fill(NaN);
    geometries.forEach((g, i) => {
      if (g !== undefined) this.place(i, g);
    });
    this.buildTree();
  }

  get size(): number {
    return this.count;
  }

  /** Puts the fence at position `i` (replacing what was there), or removes it (`undefined`). */
  set(i: number, g: PreparedGeometry | undefined): void {
    const wasLarge = this.unplace(i);
    const isLarge = g !== undefined && this.place(i, g);
    if (wasLarge || isLarge) this.buildTree();
  }

  /** Adds the fence's box to its cells (or the large list); true when it is large. */
  private place(i: number, g: PreparedGeometry): boolean {
    if (this.boxes.length < i * 4 + 4) {
      const grown = new Float64Array(Math.max(this.boxes.length * 2, i * 4 + 4)).fill(NaN);
      grown.set(this.boxes);
      this.boxes = grown;
    }
    const b = expandBBox(g.bbox, this.marginM);
    this.boxes.set(b, i * 4);
    this.count++;
    const x0 = cellOf(b[0]), y0 = cellOf(b[1]), x1 = cellOf(b[2]), y1 = cellOf(b[3]);
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > MAX_CELLS) {
      this.large.push(i);
      return true;
    }
    for (let cx = x0; cx <= x1; cx++) {
      for (let cy = y0; cy <= y1; cy++) {
        const key = keyOf(cx, cy);
        const list = this.cells.get(key);
        if (list === undefined) this.cells.set(key, [i]);
        else list.push(i);
      }
    }
    return false;
  }

  /** Takes the fence at position `i` out (nothing when none); true when it was large. */
  private unplace(i: number): boolean {
    const o = i * 4;
    if (o >= this.boxes.length || Number.isNaN(this.boxes[o]!)) return false;
    const x0 = cellOf(this.boxes[o]!), y0 = cellOf(this.boxes[o + 1]!), x1 = cellOf(this.boxes[o + 2]!), y1 = cellOf(this.boxes[o + 3]!);
    this.boxes.fill(NaN, o, o + 4);
    this.count--;
    const at = this.large.indexOf(i);
    if (at >= 0) {
      this.large.splice(at, 1);
      return true;
    }
    for (let cx = x0; cx <= x1; cx++) {
      for (let cy = y0; cy <= y1; cy++) {
        const key = keyOf(cx, cy);
        const list = this.cells.get(key);
        if (list === undefined) continue;
        const k = list.indexOf(i);
        if (k >= 0) list.splice(k, 1);
        if (list.length === 0) this.cells.delete(key);
      }
    }
    return false;
  }

  private buildTree(): void {
    this.tree = null;
    if (this.large.length === 0) return;
    const tree = new Flatbush(this.large.length);
    for (const i of this.large) tree.add(this.boxes[i * 4]!, this.boxes[i * 4 + 1]!, this.boxes[i * 4 + 2]!, this.boxes[i * 4 + 3]!);
    tree.finish();
    this.tree = tree;
  }

  /**
   * Positions (into `geometries`) of the fences whose grown box holds the point. The answer is a
   * reused array, valid until the next call (the hot path allocates nothing per report).
   */
  near(lng: number, lat: number): readonly number[] {
    const found = this.found;
    found.length = 0;
    const list = this.cells.get(keyOf(cellOf(lng), cellOf(lat)));
    if (list !== undefined) {
      const boxes = this.boxes;
      for (let k = 0; k < list.length; k++) {
        const i = list[k]!, o = i * 4;
        if (lng >= boxes[o]! && lng <= boxes[o + 2]! && lat >= boxes[o + 1]! && lat <= boxes[o + 3]!) found.push(i);
      }
    }
    this.tree?.search(lng, lat, lng, lat, this.collect);
    return found;
  }
}
