/**
 * Continuity between consecutive points (spec §9), judged on the track with drift points removed:
 * under 2 km continuous; over 10 km discontinuous; 2–10 km counts as continuous up to 5 in a row,
 * the sixth in a row is discontinuous.
 *
 * Decisions:
 * - Band edges: d < 2 km is short; 2 ≤ d ≤ 10 km is the middle band; d > 10 km is long. So exactly
 *   2 km and exactly 10 km are both middle band.
 * - The run counts consecutive pairs at least 2 km apart. Only a short pair (< 2 km, a properly
 *   sampled step) resets it. A long pair is discontinuous on its own and also advances the run: a
 *   jump of over 10 km is evidence of more sparse data, not of recovery, so it must not make the
 *   middle-band pairs after it look continuous again.
 */

export const SHORT_GAP_KM = 2;
export const LONG_GAP_KM = 10;
/** Middle-band pairs in a row that still count as continuous; the next one is discontinuous. */
export const MAX_MIDDLE_RUN = 5;

export type GapBand = 'short' | 'middle' | 'long';

export function gapBand(km: number): GapBand {
  if (km < SHORT_GAP_KM) return 'short';
  return km <= LONG_GAP_KM ? 'middle' : 'long';
}

/** Walks consecutive pairs in time order; `step` answers whether the pair is continuous. */
export class ContinuityRun {
  /** Pairs ≥ 2 km in a row up to and including the last one stepped. */
  run = 0;

  step(km: number): boolean {
    if (km < SHORT_GAP_KM) {
      this.run = 0;
      return true;
    }
    this.run++;
    return km <= LONG_GAP_KM && this.run <= MAX_MIDDLE_RUN;
  }

  reset(): void {
    this.run = 0;
  }
}

/** Continuity of each pair of a sequence of distances, in order (a convenience over ContinuityRun). */
export function classifyGaps(kms: ArrayLike<number>): boolean[] {
  const run = new ContinuityRun();
  const out: boolean[] = [];
  for (let i = 0; i < kms.length; i++) out.push(run.step(kms[i]!));
  return out;
}
