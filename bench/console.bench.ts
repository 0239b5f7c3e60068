/**
 * Console benchmark (issue 3): main-thread scripting time per frame in Chromium with 10k and 100k
 * live vehicles — our pipeline (worker frames → binary deck.gl layers) against a Traccar-style
 * baseline in the same page build (JSON.parse on the main thread, FeatureCollection rebuilt,
 * `setData` on a clustered maplibre source). Per frame interval that applied an update: p50 / p95
 * of the renderer main thread's CPU time from a Chromium trace (see framesFromTrace), which includes
 * maplibre's and deck.gl's render calls; and the data path alone (the update handler's time: for us
 * copy + colours + layer descriptors, for the baseline JSON.parse + FeatureCollection + setData).
 *
 * Plate labels (issue 13): the street scene (zoom 17 over a city, N vehicles crowding it, plates
 * known) with labels on against labels off in the same run — main-thread CPU per frame and the
 * frame interval (wall time between frames, what the operator sees as smoothness, GPU included).
 *
 * The page is built with Vite into a temp dir and served from loopback; Chromium runs headless
 * with a fresh profile and no background networking.
 */
import type { BrowserContext } from 'playwright-core';
import { endTrace, openBenchPage, percentile } from './browser-page.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { message?: string } };
}

export interface FrameFigures {
  /** Main-thread CPU (thread time) per frame interval that applied an update, ms. */
  frames: number[];
  updates: number;
  /** Main-thread CPU over the whole window, ms. */
  cpuMs: number;
  seconds: number;
}

/**
 * Main-thread CPU per frame from a Chromium trace: every top-level task (RunTask) on the page's
 * renderer main thread, counted by thread time (tdur), so time blocked on the GPU process is
 * excluded. A frame interval ends where a requestAnimationFrame callback (FireAnimationFrame) runs;
 * only intervals holding a 'bench-update' TimeStamp are sampled.
 */
export function framesFromTrace(events: TraceEvent[]): FrameFigures {
  const rafs = new Map<string, number[]>();
  for (const e of events) {
    if (e.name === 'FireAnimationFrame' && e.ph === 'X') {
      const k = `${e.pid}:${e.tid}`;
      let l = rafs.get(k);
      if (!l) rafs.set(k, (l = []));
      l.push(e.ts);
    }
  }
  let main = '';
  for (const [k, l] of rafs) if (!main || l.length > (rafs.get(main)?.length ?? 0)) main = k;
  const faf = (rafs.get(main) ?? []).sort((a, b) => a - b);
  const frameOf = (t: number): number => {
    let lo = 0;
    let hi = faf.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((faf[mid] as number) <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const cpu = new Map<number, number>();
  const updated = new Set<number>();
  let total = 0;
  let updates = 0;
  let first = Infinity;
  let last = -Infinity;
  for (const e of events) {
    if (`${e.pid}:${e.tid}` !== main) continue;
    if (e.name === 'RunTask' && e.ph === 'X') {
      const d = (e.tdur ?? e.dur ?? 0) / 1000;
      const f = frameOf(e.ts + (e.dur ?? 0));
      cpu.set(f, (cpu.get(f) ?? 0) + d);
      total += d;
      first = Math.min(first, e.ts);
      last = Math.max(last, e.ts + (e.dur ?? 0));
    } else if (e.name === 'TimeStamp' && e.args?.data?.message === 'bench-update') {
      updated.add(frameOf(e.ts));
      updates++;
    }
  }
  const frames = [...updated].map((f) => cpu.get(f) ?? 0);
  return { frames, updates, cpuMs: total, seconds: Number.isFinite(first) ? (last - first) / 1e6 : 0 };
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const { url, context, close } = await openBenchPage('console');
  const records: BenchRecord[] = [];
  try {
    const counts = quick ? [1000] : [10_000, 100_000];
    const seconds = quick ? 2 : 8;
    for (const count of counts) {
      const results: Record<string, FrameFigures> = {};
      const handlers: Record<string, number[]> = {};
      let webgl = '';
      for (const mode of ['pipeline', 'baseline'] as const) {
        const page = await context.newPage();
        await page.goto(url);
        await page.waitForFunction(() => document.title === 'ready');
        webgl = await page.evaluate((o) => (window as unknown as { startBench(o: unknown): Promise<string> }).startBench(o), { mode, count });
        const cdp = await context.newCDPSession(page);
        await cdp.send('Tracing.start', { categories: 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReturnAsStream' });
        await new Promise((r) => setTimeout(r, seconds * 1000));
        const events = await endTrace<TraceEvent>(cdp);
        const inPage = await page.evaluate(() => (window as unknown as { stopBench(): { handlerMs: number[] } }).stopBench());
        handlers[mode] = inPage.handlerMs.sort((a, b) => a - b);
        results[mode] = framesFromTrace(events);
        await page.close();
      }
      const ours = results.pipeline!;
      const base = results.baseline!;
      const s1 = [...ours.frames].sort((a, b) => a - b);
      const s0 = [...base.frames].sort((a, b) => a - b);
      const name = `console ${count.toLocaleString('en-US')} vehicles`;
      const p50 = percentile(s1, 0.5);
      const p95 = percentile(s1, 0.95);
      const b50 = percentile(s0, 0.5);
      const b95 = percentile(s0, 0.95);
      const perUpdate = ours.cpuMs / Math.max(1, ours.updates);
      const basePerUpdate = base.cpuMs / Math.max(1, base.updates);
      const h1 = handlers.pipeline ?? [];
      const h0 = handlers.baseline ?? [];
      records.push(
        { name, metric: 'data path ms/update p50', value: percentile(h1, 0.5), unit: 'ms', baseline: percentile(h0, 0.5), ratio: percentile(h0, 0.5) / percentile(h1, 0.5) },
        { name, metric: 'data path ms/update p95', value: percentile(h1, 0.95), unit: 'ms', baseline: percentile(h0, 0.95), ratio: percentile(h0, 0.95) / percentile(h1, 0.95) },
        { name, metric: 'main CPU ms/frame p50', value: p50, unit: 'ms', baseline: b50, ratio: b50 / p50 },
        { name, metric: 'main CPU ms/frame p95', value: p95, unit: 'ms', baseline: b95, ratio: b95 / p95 },
        { name, metric: 'main CPU ms/update', value: perUpdate, unit: 'ms', baseline: basePerUpdate, ratio: basePerUpdate / perUpdate },
        { name, metric: 'updates/s', value: ours.updates / seconds, unit: '1/s', baseline: base.updates / seconds, ratio: ours.updates / base.updates },
      );
      process.stdout.write(`  ${name}: ${ours.frames.length} pipeline / ${base.frames.length} baseline update frames; WebGL: ${webgl}\n`);
    }
    records.push(...(await plateLabels(context, url, quick ? 1000 : 10_000, seconds)));
  } finally {
    await close();
  }
  return records;
}

/** Wall time between animation frames (ms) over a window: what the operator sees, GPU work included. */
function frameIntervals(events: TraceEvent[]): number[] {
  const byThread = new Map<string, number[]>();
  for (const e of events) {
    if (e.name !== 'FireAnimationFrame' || e.ph !== 'X') continue;
    const k = `${e.pid}:${e.tid}`;
    let l = byThread.get(k);
    if (!l) byThread.set(k, (l = []));
    l.push(e.ts);
  }
  const ts = [...byThread.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  ts.sort((a, b) => a - b);
  return ts.slice(1).map((t, i) => (t - (ts[i] as number)) / 1000);
}

/**
 * Plate labels at street zoom: the same scene (count vehicles crowding each city, camera at zoom 17
 * over Beijing) with labels on, then off, each on a fresh page. Ratios are on / off: the labels' cost.
 */
export async function plateLabels(context: BrowserContext, url: string, count: number, seconds: number): Promise<BenchRecord[]> {
  const figures: Record<'on' | 'off', { frames: number[]; intervals: number[]; labels: number }> = { on: { frames: [], intervals: [], labels: 0 }, off: { frames: [], intervals: [], labels: 0 } };
  for (const labels of [true, false]) {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.title === 'ready');
    await page.evaluate((o) => (window as unknown as { startBench(o: unknown): Promise<string> }).startBench(o), { mode: 'pipeline', count, scene: 'street', labels });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Tracing.start', { categories: 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReturnAsStream' });
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const events = await endTrace<TraceEvent>(cdp);
    const shown = await page.evaluate(() => (window as unknown as { benchLabels(): number }).benchLabels());
    await page.evaluate(() => (window as unknown as { stopBench(): unknown }).stopBench());
    figures[labels ? 'on' : 'off'] = { frames: framesFromTrace(events).frames.sort((a, b) => a - b), intervals: frameIntervals(events).sort((a, b) => a - b), labels: shown };
    await page.close();
  }
  const { on, off } = figures;
  if (on.labels === 0) throw new Error('plate labels bench: no label was drawn with labels on (street scene)');
  const name = `console street zoom ${count.toLocaleString('en-US')} vehicles, plate labels on vs off`;
  const rec = (metric: string, a: number[], b: number[], p: number): BenchRecord => {
    const v = percentile(a, p);
    const base = percentile(b, p);
    return { name, metric, value: v, unit: 'ms', baseline: base, ratio: v / base };
  };
  process.stdout.write(`  ${name}: ${on.labels} labels in view; ${on.frames.length} / ${off.frames.length} update frames\n`);
  return [
    rec('main CPU ms/frame p50', on.frames, off.frames, 0.5),
    rec('main CPU ms/frame p95', on.frames, off.frames, 0.95),
    rec('frame interval ms p50', on.intervals, off.intervals, 0.5),
    rec('frame interval ms p95', on.intervals, off.intervals, 0.95),
    { name, metric: 'labels in view', value: on.labels, unit: 'labels' },
  ];
}
