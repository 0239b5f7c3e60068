/**
 * The timeline scrubber: a uPlot speed chart of the active track with a playhead. Clicking or
 * dragging on the chart seeks; while playing the playhead follows the clock. The playhead is a div
 * moved per frame from `controller.onFrame` (a style write, no React render, no uPlot redraw).
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { LoadedTrack } from '../../live/track/protocol.ts';
import type { PlaybackController } from './playback-controller.ts';

export interface SpeedChartProps {
  controller: PlaybackController;
  track: LoadedTrack | undefined;
  /** Line colour of the active track. */
  color: string;
  label: string;
  /** @default 130 */
  height?: number;
}

export function SpeedChart({ controller, track, color, label, height = 130 }: SpeedChartProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const headRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const box = boxRef.current;
    if (!box || !track) return;
    const width = Math.max(200, box.clientWidth);
    // The plot area's left edge, read on layout only: reading it per frame after the time label's
    // text write would force a synchronous layout every frame.
    let plotLeft = 0;
    const fitHead = (p: uPlot) => {
      const head = headRef.current;
      plotLeft = p.over.offsetLeft;
      if (!head) return;
      head.style.top = `${p.over.offsetTop}px`;
      head.style.height = `${p.over.clientHeight}px`;
      // After the effect body (the hook may run inside the constructor, before `place` exists).
      queueMicrotask(() => place(controller.time));
    };
    const u = new uPlot(
      {
        width,
        height,
        legend: { show: false },
        cursor: { drag: { x: false, y: false }, points: { show: false } },
        scales: { x: { time: true } },
        axes: [{}, { label: 'km/h', size: 44 }],
        series: [{}, { label, stroke: color, width: 1, fill: `${color.replace('rgb', 'rgba').replace(')', ', 0.12)')}` }],
        // uPlot lays itself out after construction: size the playhead to the plot area once it has.
        hooks: { ready: [(p) => fitHead(p)], setSize: [(p) => fitHead(p)] },
      },
      [track.chartTime as unknown as number[], track.chartSpeed as unknown as number[]],
      box,
    );
    const over = u.over;
    const head = headRef.current;
    const place = (t: number) => {
      if (!head) return;
      const x = u.valToPos(t / 1000, 'x');
      head.style.transform = `translateX(${(Number.isFinite(x) ? x : -10) + plotLeft}px)`;
      head.dataset.time = String(Math.round(t));
    };
    const seekAt = (e: PointerEvent) => {
      const r = over.getBoundingClientRect();
      const x = Math.min(r.width, Math.max(0, e.clientX - r.left));
      controller.seek(u.posToVal(x, 'x') * 1000);
    };
    let dragging = false;
    const down = (e: PointerEvent) => {
      dragging = true;
      over.setPointerCapture(e.pointerId);
      seekAt(e);
    };
    const move = (e: PointerEvent) => {
      if (dragging) seekAt(e);
    };
    const up = () => {
      dragging = false;
    };
    over.addEventListener('pointerdown', down);
    over.addEventListener('pointermove', move);
    over.addEventListener('pointerup', up);
    over.addEventListener('pointercancel', up);
    const off = controller.onFrame(place);
    place(controller.time);
    const resize = new ResizeObserver(() => {
      u.setSize({ width: Math.max(200, box.clientWidth), height });
      place(controller.time);
    });
    resize.observe(box);
    return () => {
      off();
      resize.disconnect();
      u.destroy();
    };
  }, [controller, track, color, label, height]);

  return (
    <div style={{ position: 'relative' }} data-testid="speed-chart">
      <div ref={boxRef} style={{ width: '100%' }} />
      <div
        ref={headRef}
        data-testid="playhead"
        style={{ position: 'absolute', top: 0, left: 0, width: 2, height: 0, background: '#e03131', pointerEvents: 'none', willChange: 'transform' }}
      />
    </div>
  );
}
