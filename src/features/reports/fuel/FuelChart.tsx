/**
 * One vehicle-day's fuel level as a uPlot chart: the raw readings (grey points: sloshing jumps), the smoothed
 * level (blue line) and the day's refuels (green) and leaks (red) as vertical markers at their start. China time.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface FuelChartEvent { kind: 'refuel' | 'leak'; start: number; end: number; litres: number }

export interface FuelChartProps {
  /** ms */
  t: readonly number[];
  raw: readonly (number | null)[];
  smooth: readonly (number | null)[];
  events: readonly FuelChartEvent[];
  labels: { raw: string; smooth: string };
  /** @default 320 */
  height?: number;
}

const MARK = { refuel: 'rgb(47, 158, 68)', leak: 'rgb(224, 49, 49)' } as const;

export function FuelChart({ t, raw, smooth, events, labels, height = 320 }: FuelChartProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = boxRef.current;
    if (!box || t.length === 0) return;
    const markers: uPlot.Plugin = {
      hooks: {
        draw: (u) => {
          const ctx = u.ctx;
          ctx.save();
          ctx.lineWidth = 2 * devicePixelRatio;
          for (const e of events) {
            const x = u.valToPos(e.start / 1000, 'x', true);
            ctx.strokeStyle = MARK[e.kind];
            ctx.beginPath();
            ctx.moveTo(x, u.bbox.top);
            ctx.lineTo(x, u.bbox.top + u.bbox.height);
            ctx.stroke();
          }
          ctx.restore();
        },
      },
    };
    const u = new uPlot(
      {
        width: Math.max(300, box.clientWidth),
        height,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Asia/Shanghai'),
        scales: { x: { time: true } },
        axes: [{}, { label: 'L', size: 50 }],
        series: [
          {},
          { label: labels.raw, stroke: 'rgba(134, 142, 150, 0.8)', width: 0, points: { show: true, size: 3, fill: 'rgba(134, 142, 150, 0.8)' } },
          { label: labels.smooth, stroke: 'rgb(34, 139, 230)', width: 2, points: { show: false } },
        ],
        plugins: [markers],
      },
      [t.map((x) => x / 1000), [...raw], [...smooth]] as uPlot.AlignedData,
      box,
    );
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(300, box.clientWidth), height }));
    resize.observe(box);
    return () => {
      resize.disconnect();
      u.destroy();
    };
  }, [t, raw, smooth, events, labels.raw, labels.smooth, height]);
  return <div ref={boxRef} data-testid="fuel-chart" style={{ width: '100%' }} />;
}
