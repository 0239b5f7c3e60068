/** Lays recordings out on one bar per channel over the searched period (percentages of its width). */
import type { Recording } from './api.ts';

export interface TimelineRow {
  channel: number;
  bars: { recording: Recording; left: number; width: number }[];
}

export function timelineRows(recordings: readonly Recording[], from: number, to: number): TimelineRow[] {
  const span = Math.max(1, to - from);
  const rows = new Map<number, TimelineRow>();
  for (const r of recordings) {
    const start = Math.max(from, r.startTime);
    const end = Math.min(to, r.endTime);
    if (end <= start) continue;
    let row = rows.get(r.channel);
    if (!row) rows.set(r.channel, (row = { channel: r.channel, bars: [] }));
    // At least 0.3 % wide: a short file on a week-long bar must stay visible and clickable.
    row.bars.push({ recording: r, left: ((start - from) / span) * 100, width: Math.max(0.3, ((end - start) / span) * 100) });
  }
  return [...rows.values()].sort((a, b) => a.channel - b.channel);
}
