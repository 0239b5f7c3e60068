/**
 * A uPlot chart of statistics rows: bars per category (type, vehicle, driver, company) or a line
 * over days; one or two series (the comparison draws A and B side by side). Clicking a bar or a day
 * picks that row. uPlot draws on one canvas, so a few hundred categories cost one redraw.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  values: readonly number[];
  color: string;
}

export interface StatsChartProps {
  /** One label per category (x axis). */
  labels: readonly string[];
  series: readonly ChartSeries[];
  /** @default 'bar' */
  kind?: 'bar' | 'line';
  /** @default 240 */
  height?: number;
  /** Called with the category index of a click. */
  onPick?: (index: number) => void;
}

/** At most this many axis labels are written; the rest are skipped so labels never overlap. */
const MAX_LABELS = 16;

export function StatsChart({ labels, series, kind = 'bar', height = 240, onPick }: StatsChartProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const pickRef = useRef(onPick);
  useEffect(() => {
    pickRef.current = onPick;
  }, [onPick]);

  useEffect(() => {
    const box = boxRef.current;
    if (!box || labels.length === 0) return;
    const n = labels.length;
    const xs = labels.map((_, i) => i);
    const step = Math.max(1, Math.ceil(n / MAX_LABELS));
    // Days read as MM-DD (a comparison's "A / B" day pair as MM-DD/MM-DD); long names are cut.
    const short = (s: string) => {
      const days = s.match(/\d{4}-(\d{2}-\d{2})/g);
      if (days && days.join(' / ') === s) return days.map((d) => d.slice(5)).join('/');
      return s.length > 10 ? `${s.slice(0, 9)}…` : s;
    };
    const bars = uPlot.paths.bars;
    const u = new uPlot(
      {
        width: Math.max(240, box.clientWidth),
        height,
        legend: { show: series.length > 1, live: false },
        cursor: { drag: { x: false, y: false }, points: { show: kind === 'line' } },
        scales: { x: { time: false, range: () => [-0.5, n - 0.5] }, y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] } },
        axes: [
          { splits: () => xs.filter((i) => i % step === 0), values: (_u, splits) => splits.map((i) => short(labels[i] ?? '')), gap: 4, size: 40 },
          // Wide enough for the longest tick label (a dashboard's 40,000 km would be cut at 48 px).
          { size: (_u, values) => Math.max(48, 14 + 7 * Math.max(0, ...(values ?? []).map((v) => String(v).length))) },
        ],
        series: [
          { label: '' },
          ...series.map((s, k) => ({
            label: s.label,
            stroke: s.color,
            fill: kind === 'bar' ? s.color : `${s.color}22`,
            width: kind === 'bar' ? 0 : 2,
            points: { show: kind === 'line' && n <= 62 },
            ...(kind === 'bar' && bars
              ? { paths: bars({ size: [series.length > 1 ? 0.4 : 0.7, 60], align: series.length > 1 ? (k === 0 ? -1 : 1) : 0 }) }
              : {}),
          })),
        ],
      },
      [xs, ...series.map((s) => [...s.values])],
      box,
    );
    const click = () => {
      const i = u.cursor.idx;
      if (i !== null && i !== undefined) pickRef.current?.(i);
    };
    u.over.addEventListener('click', click);
    u.over.style.cursor = 'pointer';
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(240, box.clientWidth), height }));
    resize.observe(box);
    return () => {
      resize.disconnect();
      u.over.removeEventListener('click', click);
      u.destroy();
    };
  }, [labels, series, kind, height]);

  return <div ref={boxRef} style={{ width: '100%', minHeight: labels.length ? height : 0 }} data-testid="stats-chart" data-points={labels.length} />;
}
