/**
 * A month's days as a uPlot chart: alarms per day (bars, left axis) and km per day (line, right axis).
 * Days are China dates; they are placed at 00:00 UTC of the date so the axis labels read the date.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface DailyChartProps {
  dates: readonly string[];
  alarms: readonly number[];
  km: readonly number[];
  labels: { alarms: string; km: string };
  /** @default 220 */
  height?: number;
}

export function DailyChart({ dates, alarms, km, labels, height = 220 }: DailyChartProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = boxRef.current;
    if (!box || dates.length === 0) return;
    const xs = dates.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const u = new uPlot(
      {
        width: Math.max(300, box.clientWidth),
        height,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { x: { time: true }, alarms: { auto: true, range: (_u, _min, max) => [0, Math.max(1, max)] }, km: { auto: true, range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [{}, { scale: 'alarms', label: labels.alarms, size: 50 }, { scale: 'km', side: 1, label: labels.km, size: 60, grid: { show: false } }],
        series: [
          {},
          { label: labels.alarms, scale: 'alarms', stroke: 'rgb(224, 49, 49)', fill: 'rgba(224, 49, 49, 0.35)', paths: uPlot.paths.bars!({ size: [0.6, 40] }), points: { show: false } },
          { label: labels.km, scale: 'km', stroke: 'rgb(34, 139, 230)', width: 2 },
        ],
      },
      [xs, [...alarms], [...km]],
      box,
    );
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(300, box.clientWidth), height }));
    resize.observe(box);
    return () => {
      resize.disconnect();
      u.destroy();
    };
  }, [dates, alarms, km, labels.alarms, labels.km, height]);
  return <div ref={boxRef} data-testid="daily-chart" style={{ width: '100%' }} />;
}
