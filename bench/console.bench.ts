/**
 * Console benchmark (issue 3): main-thread scripting time per frame in Chromium with 10k and 100k
 * live vehicles — our pipeline (worker frames → binary deck.gl layers) against a Traccar-style
 * baseline in the same page build (JSON.parse on the main thread, FeatureCollection rebuilt,
 * `setData` on a clustered maplibre source). Per frame interval that applied an update: p50 / p95
 * of the renderer main thread's CPU time from a Chromium trace (see framesFromTrace), which includes
 * maplibre's and deck.gl's render calls; and the data path alone (the update handler's time: for us
 * copy + colours + layer descriptors, for the baseline JSON.parse + FeatureCollection + setData).
 *
 * The page is built with Vite into a temp dir and served from loopback; Chromium runs headless
 * with a fresh profile and no background networking.
 */
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
  } finally {
    await close();
  }
  return records;
}
