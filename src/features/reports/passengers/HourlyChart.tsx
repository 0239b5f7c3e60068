/**
 * Passengers by China hour as a uPlot bar-like step chart: boardings and alightings summed over the report's rows
 * (the big-data analysis: the day's profile, peaks at a glance).
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface HourlyChartProps {
  boarding: readonly number[];
  alighting: readonly number[];
  labels: { boarding: string; alighting: string };
  /** @default 260 */
  height?: number;
}

export function HourlyChart({ boarding, alighting, labels, height = 260 }: HourlyChartProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const hours = Array.from({ length: 24 }, (_, h) => h);
    const bars = uPlot.paths.bars?.({ size: [0.4, 40], align: 0 });
    const u = new uPlot(
      {
        width: Math.max(300, box.clientWidth),
        height,
        scales: { x: { time: false, range: [-0.5, 23.5] } },
        axes: [{ values: (_u, v) => v.map((h) => `${h}`), incrs: [1, 2, 3] }, { size: 50 }],
        series: [
          {},
          { label: labels.boarding, stroke: 'rgb(34, 139, 230)', fill: 'rgba(34, 139, 230, 0.5)', paths: bars, points: { show: false } },
          { label: labels.alighting, stroke: 'rgb(247, 103, 7)', fill: 'rgba(247, 103, 7, 0.4)', paths: bars, points: { show: false } },
        ],
      },
      [hours, [...boarding], [...alighting]] as uPlot.AlignedData,
      box,
    );
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(300, box.clientWidth), height }));
    resize.observe(box);
    return () => {
      resize.disconnect();
      u.destroy();
    };
  }, [boarding, alighting, labels.boarding, labels.alighting, height]);
  return <div ref={boxRef} data-testid="hourly-chart" style={{ width: '100%' }} />;
}
