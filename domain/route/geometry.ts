/**
 * Route geometry for the platform's evaluation: distance from a position to each section's line in
 * a local metric, and a Flatbush index of the sections so a position costs O(sections near it).
 *
 * Decisions:
 * - Distances use a local equirectangular projection per section (metres per degree of longitude at
 *   the section's mid latitude), as domain/fence/geometry.ts: sections are at most tens of km, the
 *   error is below 0.1 % of the distance, and the hot path is a few multiplications.
 * - Each section's box is grown by half its corridor width, so the index answers every section whose
 *   corridor might hold the point; the caller then measures.
 * - Flatbush is static: the index is rebuilt when any route changes (a few times a day by hand).
 */
import Flatbush from 'flatbush';
import { expandBBox, M_PER_DEG, type BBox } from '../fence/geometry.ts';
import type { Route } from './types.ts';

const RAD = Math.PI / 180;

/** One section prepared for repeated tests. */
export interface PreparedSection {
  /** Position of the route in the list the index was built from. */
  readonly route: number;
  /** Section index within the route. */
  readonly section: number;
  readonly ax: number;
  readonly ay: number;
  readonly bx: number;
  readonly by: number;
  /** Metres per degree of longitude at the section's mid latitude. */
  readonly kx: number;
  readonly halfWidth: number;
}

export function prepareSections(route: Route, routeIndex: number): PreparedSection[] {
  const out: PreparedSection[] = [];
  for (let i = 0; i + 1 < route.points.length; i++) {
    const a = route.points[i]!, b = route.points[i + 1]!;
    const kx = M_PER_DEG * Math.cos(((a[1] + b[1]) / 2) * RAD);
    out.push({ route: routeIndex, section: i, ax: a[0], ay: a[1], bx: b[0], by: b[1], kx, halfWidth: route.sections[i]!.width / 2 });
  }
  return out;
}

/**
 * Metres from the point to the section's line, and where along it the nearest point lies (0 at its
 * start, 1 at its end).
 */
export function sectionDistance(s: PreparedSection, lng: number, lat: number): { d: number; t: number } {
  const ax = (s.ax - lng) * s.kx, ay = (s.ay - lat) * M_PER_DEG;
  const vx = (s.bx - s.ax) * s.kx, vy = (s.by - s.ay) * M_PER_DEG;
  const len2 = vx * vx + vy * vy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * vx + ay * vy) / len2));
  return { d: Math.hypot(ax + t * vx, ay + t * vy), t };
}

export function sectionBBox(s: PreparedSection): BBox {
  return expandBBox([Math.min(s.ax, s.bx), Math.min(s.ay, s.by), Math.max(s.ax, s.bx), Math.max(s.ay, s.by)], s.halfWidth);
}

/** The sections of every route in one packed R-tree. */
export class SectionIndex {
  private readonly tree: Flatbush | null;
  private readonly found: number[] = [];
  private readonly collect = (i: number): boolean => {
    this.found.push(i);
    return false;
  };

  constructor(readonly sections: readonly PreparedSection[]) {
    if (sections.length === 0) {
      this.tree = null; // Flatbush refuses an empty index
      return;
    }
    const tree = new Flatbush(sections.length);
    for (const s of sections) {
      const b = sectionBBox(s);
      tree.add(b[0], b[1], b[2], b[3]);
    }
    tree.finish();
    this.tree = tree;
  }

  /** Positions (into `sections`) whose grown box holds the point; a reused array, valid until the next call. */
  near(lng: number, lat: number): readonly number[] {
    this.found.length = 0;
    this.tree?.search(lng, lat, lng, lat, this.collect);
    return this.found;
  }
}

/**
 * Which section of one route the point is on: the nearest section whose corridor holds it, or −1
 * when it is outside the whole corridor. Ties (within 0.5 m, at a turning point) keep `prefer`.
 */
export function locateOnRoute(sections: readonly PreparedSection[], lng: number, lat: number, prefer = -1): { section: number; t: number; d: number } {
  let best = -1, bestD = Infinity, bestT = 0;
  for (const s of sections) {
    const { d, t } = sectionDistance(s, lng, lat);
    if (d > s.halfWidth) continue;
    if (d < bestD - 0.5 || (Math.abs(d - bestD) <= 0.5 && s.section === prefer)) {
      best = s.section;
      bestD = d;
      bestT = t;
    }
  }
  return { section: best, t: bestT, d: bestD };
}
