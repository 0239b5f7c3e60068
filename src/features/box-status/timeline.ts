/** The day bar of a truck's box states: pure, so it is tested without a DOM. */
import type { BoxChange } from './api.ts';

export type SegmentKind = 'empty' | 'loaded' | 'unsealed' | 'lifted' | 'unknown';

export interface Segment {
  kind: SegmentKind;
  from: number;
  to: number;
}

export function kindOf(s: Pick<BoxChange, 'lifted' | 'sealed' | 'loaded'>): SegmentKind {
  if (s.lifted) return 'lifted';
  if (!s.loaded) return 'empty';
  return s.sealed ? 'loaded' : 'unsealed';
}

/**
 * Segments covering [start, min(end, now)): the state in force at the start (unknown without one),
 * then each change until the next; neighbours of the same kind merge.
 */
export function daySegments(start: number, end: number, initial: BoxChange | null, changes: readonly BoxChange[], now: number): Segment[] {
  const stop = Math.min(end, now);
  if (stop <= start) return [];
  const out: Segment[] = [];
  const push = (kind: SegmentKind, from: number, to: number) => {
    if (to <= from) return;
    const last = out.at(-1);
    if (last && last.kind === kind && last.to === from) last.to = to;
    else out.push({ kind, from, to });
  };
  let kind: SegmentKind = initial ? kindOf(initial) : 'unknown';
  let from = start;
  for (const c of changes) {
    const at = Math.min(Math.max(c.time, start), stop);
    push(kind, from, at);
    kind = kindOf(c);
    from = at;
  }
  push(kind, from, stop);
  return out;
}
