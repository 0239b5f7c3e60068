/**
 * Console benchmark (issues 3, 16): the live map in Chromium with 10k, 100k and 1M vehicles, every
 * vehicle reporting once a second, fed from the bench's Node process over a websocket
 * (bench/console/feed.ts: pre-encoded messages replayed at 1 Hz, so the feeder never runs on the
 * page's threads).
 *
 * Ours is what ships: the binary push messages server/push sends (proto/codec.ts's encoder), through
 * the real stream worker (workers/stream.worker.ts: decode, FleetState apply, gliding, frame buffers)
 * and MonitorController (binary deck.gl layers, cluster worker, labels).
 *
 * The baseline stands for Traccar's console (traccar-web): Traccar's websocket sends JSON
 * `{positions:[…]}`, traccar-web parses it on the main thread and its map rebuilds a GeoJSON
 * FeatureCollection and calls `setData` on a clustered maplibre source, whose clustering runs in
 * maplibre's workers. That is what a competent traccar-web engineer ships; the records are trimmed
 * (favouring the baseline) and it draws circles, not arrows. Traccar does not glide between reports,
 * so it updates the map once a second where ours moves vehicles every frame: hence the total CPU
 * figure beside the per-frame ones.
 *
 * Figures from one Chromium trace per side over the same window (see framesFromTrace, threadsFromTrace):
 * main-thread CPU (thread time) per frame — p50 / p95 over frames that applied an update and over all
 * frames; total CPU of every renderer thread (main, workers, compositor, raster) per second; the stream
 * worker's CPU per second and its longest task per 1 Hz tick (the decode and apply of a report); the
 * renderer's resident memory; and the data path alone (update handler time). 1M vehicles run ours only:
 * a Traccar JSON message for 1M vehicles is ≈ 120 MB a second, which no traccar-web page survives.
 *
 * Plate labels (issue 13): the street scene (zoom 17 over a city, N vehicles crowding it, plates
 * known) with labels on against labels off in the same run — main-thread CPU per frame and the
 * frame interval (wall time between frames, what the operator sees as smoothness, GPU included).
 *
 * The page is built with Vite into a temp dir and served from loopback; Chromium runs headless
 * with a fresh profile and no background networking.
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext } from 'playwright-core';
import { endTrace, openBenchPage, percentile } from './browser-page.ts';
import type { BenchArgs, BenchRecord } from './types.ts';
import { Feed } from './console/feed.ts';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { message?: string; url?: string; workerThreadId?: number } };
}

export interface FrameFigures {
  /** Main-thread CPU (thread time) per frame interval that applied an update, ms. */
  frames: number[];
  updates: number;
  /** Main-thread CPU per frame interval, every frame of the window, ms. */
  all: number[];
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
  const all: number[] = [];
  for (let f = 1; f < faf.length; f++) all.push(cpu.get(f) ?? 0);
  return { frames, all, updates, cpuMs: total, seconds: Number.isFinite(first) ? (last - first) / 1e6 : 0 };
}

const TOP_TASKS = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

export interface ThreadFigures {
  /** CPU (thread time) of every thread of the page's renderer process per second of the window, ms/s. */
  totalMsPerS: number;
  mainMsPerS: number;
  /** The stream worker's thread (NaN when the page has none: the baseline). */
  streamMsPerS: number;
  /** The stream worker's longest task in each 1 s window: the decode and apply of that second's report. */
  streamTickMs: number[];
  /** Renderer process id (its resident memory is read from /proc). */
  pid: number;
  /** Per thread name, ms/s (the report's breakdown). */
  byThread: Record<string, number>;
}

/**
 * All renderer threads' CPU from the same trace: top-level tasks (RunTask) by thread time on every
 * thread of the page's renderer process (main, dedicated workers, compositor, raster), nested tasks
 * not counted twice. The stream worker's thread is found by its script URL (TracingSessionIdForWorker).
 */
export function threadsFromTrace(events: TraceEvent[], seconds: number): ThreadFigures {
  const main = framesMainKey(events);
  const pid = Number(main.split(':')[0]);
  const names = new Map<number, string>();
  let streamTid = -1;
  for (const e of events) {
    if (e.pid !== pid) continue;
    if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name) names.set(e.tid, e.args.name);
    if (e.name === 'TracingSessionIdForWorker' && e.args?.data?.url?.includes('stream.worker')) streamTid = e.args.data.workerThreadId ?? -1;
  }
  const tasks = events.filter((e) => e.pid === pid && e.ph === 'X' && TOP_TASKS.has(e.name)).sort((a, b) => a.ts - b.ts);
  const endOf = new Map<number, number>();
  const perThread = new Map<number, number>();
  const t0 = tasks[0]?.ts ?? 0;
  const tick = new Map<number, number>();
  for (const e of tasks) {
    if (e.ts < (endOf.get(e.tid) ?? -Infinity)) continue;
    endOf.set(e.tid, e.ts + (e.dur ?? 0));
    const d = (e.tdur ?? e.dur ?? 0) / 1000;
    perThread.set(e.tid, (perThread.get(e.tid) ?? 0) + d);
    if (e.tid === streamTid) {
      const w = Math.floor((e.ts - t0) / 1e6);
      tick.set(w, Math.max(tick.get(w) ?? 0, d));
    }
  }
  const s = Math.max(seconds, 1e-9);
  let total = 0;
  const byThread: Record<string, number> = {};
  for (const [tid, ms] of perThread) {
    total += ms;
    const n = tid === streamTid ? 'stream worker' : `${names.get(tid) ?? 'thread'}${`${pid}:${tid}` === main ? ' (main)' : ''}`;
    byThread[n] = (byThread[n] ?? 0) + ms / s;
  }
  const mainTid = Number(main.split(':')[1]);
  // Whole windows only: the trace's first and last second are partial.
  const ticks = [...tick.entries()].filter(([w]) => w > 0 && w < Math.floor(seconds)).map(([, ms]) => ms);
  return {
    totalMsPerS: total / s, mainMsPerS: (perThread.get(mainTid) ?? 0) / s,
    streamMsPerS: streamTid >= 0 ? (perThread.get(streamTid) ?? 0) / s : Number.NaN,
    streamTickMs: ticks.sort((a, b) => a - b), pid, byThread,
  };
}

/** The renderer main thread: the thread running the most requestAnimationFrame callbacks. */
function framesMainKey(events: TraceEvent[]): string {
  const n = new Map<string, number>();
  for (const e of events) if (e.name === 'FireAnimationFrame' && e.ph === 'X') n.set(`${e.pid}:${e.tid}`, (n.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const best = [...n.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (best) return best;
  // No animation frame in the window (a GPU-bound page on a loaded machine): the renderer main thread by name.
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  return main ? `${main.pid}:${main.tid}` : '0:0';
}

/** Resident memory of a process (MB) from /proc: the renderer holds the page and all its workers. */
function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

const TRACE_CATEGORIES = 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline';

interface SideFigures {
  frames: FrameFigures;
  threads: ThreadFigures;
  handlers: number[];
  rss: number;
  heap: number;
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const { url, context, close } = await openBenchPage('console');
  const feed = new Feed();
  const feedUrl = await feed.ready;
  const records: BenchRecord[] = [];
  try {
    const counts = quick ? [1000] : [10_000, 100_000, 1_000_000];
    const seconds = quick ? 3 : 8;
    for (const count of counts) {
      // A Traccar JSON message for 1M vehicles is ≈ 120 MB a second: the baseline stops at 100k.
      const withBaseline = count <= 100_000;
      feed.prepare({ count }, withBaseline);
      const sides: Partial<Record<'pipeline' | 'baseline', SideFigures>> = {};
      let webgl = '';
      for (const mode of withBaseline ? (['pipeline', 'baseline'] as const) : (['pipeline'] as const)) {
        const page = await context.newPage();
        await page.goto(url);
        await page.waitForFunction(() => document.title === 'ready');
        webgl = await page.evaluate((o) => (window as unknown as { startBench(o: unknown): Promise<string> }).startBench(o), { mode, count, feed: feedUrl, warmupMs: count >= 1_000_000 ? 8000 : 3500 });
        const cdp = await context.newCDPSession(page);
        await cdp.send('Tracing.start', { categories: TRACE_CATEGORIES, transferMode: 'ReturnAsStream' });
        await new Promise((r) => setTimeout(r, seconds * 1000));
        const events = await endTrace<TraceEvent>(cdp);
        const inPage = await page.evaluate(() => (window as unknown as { stopBench(): { handlerMs: number[] } }).stopBench());
        await cdp.send('Performance.enable');
        const metrics = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
        const threads = threadsFromTrace(events, seconds);
        sides[mode] = {
          frames: framesFromTrace(events), threads, handlers: inPage.handlerMs.sort((a, b) => a - b),
          rss: rssMb(threads.pid), heap: (metrics.metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? Number.NaN) / 2 ** 20,
        };
        await page.close();
      }
      records.push(...sideRecords(count, seconds, sides.pipeline!, sides.baseline));
      const ours = sides.pipeline!;
      const breakdown = Object.entries(ours.threads.byThread).sort((a, b) => b[1] - a[1]).slice(0, 6).map(([n, v]) => `${n} ${v.toFixed(0)}`).join(', ');
      process.stdout.write(`  console ${count.toLocaleString('en-US')}: ${ours.frames.frames.length} pipeline / ${sides.baseline?.frames.frames.length ?? '-'} baseline update frames; ours ms/s by thread: ${breakdown}; WebGL: ${webgl}\n`);
    }
    feed.prepare({ count: quick ? 1000 : 10_000, spread: 0.004, orbit: 0.001 }, false);
    records.push(...(await plateLabels(context, url, feedUrl, quick ? 1000 : 10_000, seconds)));
    records.push(...(await freshMemory(context, url)));
  } finally {
    await feed.close();
    await close();
  }
  return records;
}

/**
 * What fresh memory costs this machine in the page (read beside the 1M figures): filling a newly
 * allocated 8 MiB typed array (the kernel maps each 4 KiB page on its first write) against filling the
 * same array again. At 1M vehicles every 1 Hz message is a fresh ArrayBuffer of ~16 MiB made by the
 * browser, so a machine whose page faults are slow (virtual machines) pays it in the stream worker's tick.
 */
async function freshMemory(context: BrowserContext, url: string): Promise<BenchRecord[]> {
  const page = await context.newPage();
  try {
    await page.goto(url);
    await page.waitForFunction(() => document.title === 'ready');
    // A string: the bench's TS transform would wrap a function's helpers in names the page lacks.
    const r = (await page.evaluate(`(() => {
      const N = 2 * 1024 * 1024, fresh = [], reuse = [], kept = new Float32Array(N);
      kept.fill(1);
      for (let k = 0; k < 12; k++) {
        let t = performance.now();
        new Float32Array(N).fill(k);
        fresh.push(performance.now() - t);
        t = performance.now();
        kept.fill(k);
        reuse.push(performance.now() - t);
      }
      const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
      return { fresh: med(fresh), reuse: med(reuse) };
    })()`)) as { fresh: number; reuse: number };
    const name = 'machine: fresh memory in the page';
    return [{ name, metric: 'fill a fresh 8 MiB array (vs the same array again)', value: r.fresh, unit: 'ms', baseline: r.reuse, ratio: r.fresh / Math.max(r.reuse, 0.01) }];
  } finally {
    await page.close();
  }
}

function sideRecords(count: number, seconds: number, ours: SideFigures, base: SideFigures | undefined): BenchRecord[] {
  const name = `console ${count.toLocaleString('en-US')} vehicles`;
  const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
  const out: BenchRecord[] = [];
  // Lower is better for every figure here but updates/s: ratio = baseline / ours (> 1: ours better).
  const rec = (metric: string, unit: string, v: number, b: number | undefined): void => {
    out.push(b === undefined || !Number.isFinite(b) ? { name, metric, value: v, unit } : { name, metric, value: v, unit, baseline: b, ratio: b / v });
  };
  const of = (s: SideFigures | undefined, f: (s: SideFigures) => number): number | undefined => (s ? f(s) : undefined);
  const uf = (s: SideFigures) => sorted(s.frames.frames);
  const af = (s: SideFigures) => sorted(s.frames.all);
  rec('main CPU ms/frame p50 (update frames)', 'ms', percentile(uf(ours), 0.5), of(base, (s) => percentile(uf(s), 0.5)));
  rec('main CPU ms/frame p95 (update frames)', 'ms', percentile(uf(ours), 0.95), of(base, (s) => percentile(uf(s), 0.95)));
  rec('main CPU ms/frame p50 (all frames)', 'ms', percentile(af(ours), 0.5), of(base, (s) => percentile(af(s), 0.5)));
  rec('main CPU ms/frame p95 (all frames)', 'ms', percentile(af(ours), 0.95), of(base, (s) => percentile(af(s), 0.95)));
  rec('main thread CPU ms/s', 'ms/s', ours.threads.mainMsPerS, of(base, (s) => s.threads.mainMsPerS));
  rec('all renderer threads CPU ms/s', 'ms/s', ours.threads.totalMsPerS, of(base, (s) => s.threads.totalMsPerS));
  rec('data path ms/update p50', 'ms', percentile(ours.handlers, 0.5), of(base, (s) => percentile(s.handlers, 0.5)));
  rec('data path ms/update p95', 'ms', percentile(ours.handlers, 0.95), of(base, (s) => percentile(s.handlers, 0.95)));
  rec('renderer RSS MB', 'MB', ours.rss, of(base, (s) => s.rss));
  rec('main JS heap MB', 'MB', ours.heap, of(base, (s) => s.heap));
  out.push(
    { name, metric: 'stream worker CPU ms/s', value: ours.threads.streamMsPerS, unit: 'ms/s' },
    { name, metric: 'stream worker ms per 1 Hz tick p50', value: percentile(ours.threads.streamTickMs, 0.5), unit: 'ms' },
    { name, metric: 'stream worker ms per 1 Hz tick max', value: ours.threads.streamTickMs.at(-1) ?? Number.NaN, unit: 'ms' },
    { name, metric: 'updates/s', value: ours.frames.updates / seconds, unit: '1/s', ...(base ? { baseline: base.frames.updates / seconds, ratio: ours.frames.updates / Math.max(1, base.frames.updates) } : {}) },
  );
  return out;
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
export async function plateLabels(context: BrowserContext, url: string, feed: string, count: number, seconds: number): Promise<BenchRecord[]> {
  const figures: Record<'on' | 'off', { frames: number[]; intervals: number[]; labels: number }> = { on: { frames: [], intervals: [], labels: 0 }, off: { frames: [], intervals: [], labels: 0 } };
  for (const labels of [true, false]) {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.title === 'ready');
    await page.evaluate((o) => (window as unknown as { startBench(o: unknown): Promise<string> }).startBench(o), { mode: 'pipeline', count, feed, scene: 'street', labels });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Tracing.start', { categories: TRACE_CATEGORIES, transferMode: 'ReturnAsStream' });
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
