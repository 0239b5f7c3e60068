/**
 * mileageDaily's curve: km by day of the selected vehicles together (track km, and odometer km where the
 * terminals report it), as a uPlot line chart. Days are China dates placed at 00:00 UTC so the axis reads the date.
 */
import { useEffect, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface KmDay { date: string; trackKm: number; odometerKm: number | null }

/** Sums rows (one per vehicle and day) into one point per date, dates ascending. */
export function kmByDay(rows: readonly KmDay[]): { dates: string[]; track: number[]; odometer: number[] } {
  const sums = new Map<string, { track: number; odometer: number }>();
  for (const r of rows) {
    const s = sums.get(r.date) ?? { track: 0, odometer: 0 };
    s.track += r.trackKm;
    s.odometer += r.odometerKm ?? 0;
    sums.set(r.date, s);
  }
  const dates = [...sums.keys()].sort();
  const round = (x: number) => Math.round(x * 100) / 100;
  return { dates, track: dates.map((d) => round(sums.get(d)!.track)), odometer: dates.map((d) => round(sums.get(d)!.odometer)) };
}

export function KmChart({ rows, labels, height = 200 }: { rows: readonly KmDay[]; labels: { track: string; odometer: string }; height?: number }) {
  const boxRef = useRef<HTMLDivElement>(null);
  const data = useMemo(() => kmByDay(rows), [rows]);
  useEffect(() => {
    const box = boxRef.current;
    if (!box || data.dates.length === 0) return;
    const xs = data.dates.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const u = new uPlot(
      {
        width: Math.max(300, box.clientWidth),
        height,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { x: { time: true }, y: { auto: true, range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [{}, { label: 'km', size: 60 }],
        series: [
          {},
          { label: labels.track, stroke: 'rgb(34, 139, 230)', width: 2 },
          { label: labels.odometer, stroke: 'rgb(64, 192, 87)', width: 2, dash: [6, 4] },
        ],
      },
      [xs, data.track, data.odometer],
      box,
    );
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(300, box.clientWidth), height }));
    resize.observe(box);
    return () => {
      resize.disconnect();
      u.destroy();
    };
  }, [data, labels.track, labels.odometer, height]);
  return <div ref={boxRef} data-testid="km-chart" style={{ width: '100%' }} />;
}
