/**
 * Wall soak (issue 14): the real wall (bench/wall/: WallFrame with the overallMonitoring preset, its
 * map on the monitor's binary deck.gl pipeline, eight panels, rolling alarms) at 3840×2160 in headless
 * Chromium, many vehicles moving and alarms at a realistic rate, for 30 minutes of accelerated time
 * (every page interval — panel refreshes, clock — runs `accel`× faster; alarms are raised at the
 * accelerated rate; frames stay at the display's rate). The vehicles come through the product's stream
 * worker from the console bench's feeder in this process (bench/console/feed.ts: every vehicle's binary
 * push message at 1 Hz, real time). Reported:
 * - main-thread CPU per frame that applied a position update, p50 / p95, in a 15-second trace window
 *   at 5 simulated minutes and at the end (framesFromTrace of console.bench.ts);
 * - JS heap after a forced GC at 5 minutes and at the end, the growth between them, and the DOM node
 *   count at both (goal: flat — nothing kept per alarm or per frame).
 *
 * Sizes: `--quick` 5,000 vehicles for 10 simulated minutes; default 20,000 vehicles for 30 minutes at
 * 20× (≈ 90 s: what these shared 2-core machines manage); `WALL_SOAK=full` (or `-- --wall-full`)
 * 100,000 vehicles for 30 minutes at 10× (≈ 3 minutes), the size.
 */
import os from 'node:os';
import path from 'node:path';
import { endTrace, openBenchPage, percentile } from './browser-page.ts';
import { framesFromTrace } from './console.bench.ts';
import { Feed } from './console/feed.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

interface Soak {
  simMinutes(): number;
  alarms(): number;
  tickerRows(): number;
  domNodes(): number;
  frames(): number;
}

/** Trace window: software GL at 3840×2160 applies only a few updates a second on a loaded machine; 15 s gets a sample. */
const TRACE_SECONDS = 15;

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const full = process.env['WALL_SOAK'] === 'full' || process.argv.includes('--wall-full');
  const vehicles = quick ? 5000 : full ? 100_000 : 20_000;
  const minutes = quick ? 10 : 30;
  const accel = quick ? 30 : full ? 10 : 20;
  const first = quick ? 3 : 5;
  const { url, context, close } = await openBenchPage('wall', { width: 3840, height: 2160 });
  const feed = new Feed();
  const records: BenchRecord[] = [];
  try {
    feed.prepare({ count: vehicles }, false);
    const feedUrl = await feed.ready;
    const page = await context.newPage();
    await page.goto(`${url}?vehicles=${vehicles}&accel=${accel}&feed=${encodeURIComponent(feedUrl)}`);
    await page.waitForFunction(() => document.title === 'ready');
    await page.waitForFunction(() => (window as unknown as { soak: Soak }).soak.frames() > 0, undefined, { timeout: 120_000 });
    await page.evaluate(() => (window as unknown as { soak: { begin(): void } }).soak.begin());
    const cdp = await context.newCDPSession(page);
    const soak = <K extends keyof Soak>(k: K) => page.evaluate((key) => (window as unknown as { soak: Record<string, () => number> }).soak[key]!(), k);
    const untilMinute = async (m: number) => {
      while ((await soak('simMinutes')) < m) await new Promise((r) => setTimeout(r, 500));
    };
    const measure = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
      await cdp.send('Tracing.start', { categories: 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReturnAsStream' });
      await page.evaluate(() => (window as unknown as { soak: { startRecording(): void } }).soak.startRecording());
      await new Promise((r) => setTimeout(r, TRACE_SECONDS * 1000));
      const events = await endTrace<Parameters<typeof framesFromTrace>[0][number]>(cdp);
      await page.evaluate(() => (window as unknown as { soak: { stopRecording(): unknown } }).soak.stopRecording());
      const f = framesFromTrace(events);
      const sorted = [...f.frames].sort((a, b) => a - b);
      return {
        heapMb: heap.usedSize / 1048576, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), frames: sorted.length,
        alarms: await soak('alarms'), dom: await soak('domNodes'), rows: await soak('tickerRows'), sim: await soak('simMinutes'),
      };
    };
    await untilMinute(first);
    const early = await measure();
    await untilMinute(minutes);
    const late = await measure();
    const name = `wall 3840x2160 ${vehicles.toLocaleString('en-US')} vehicles`;
    records.push(
      { name, metric: `main CPU ms/frame p50 @${first}min`, value: early.p50, unit: 'ms' },
      { name, metric: `main CPU ms/frame p95 @${first}min`, value: early.p95, unit: 'ms' },
      { name, metric: `main CPU ms/frame p50 @${minutes}min`, value: late.p50, unit: 'ms', baseline: early.p50, ratio: late.p50 / early.p50 },
      { name, metric: `main CPU ms/frame p95 @${minutes}min`, value: late.p95, unit: 'ms', baseline: early.p95, ratio: late.p95 / early.p95 },
      { name, metric: `update frames/s @${minutes}min`, value: late.frames / TRACE_SECONDS, unit: '1/s', baseline: early.frames / TRACE_SECONDS, ratio: late.frames / Math.max(1, early.frames) },
      { name, metric: `JS heap MB @${first}min`, value: early.heapMb, unit: 'MB' },
      { name, metric: `JS heap MB @${minutes}min`, value: late.heapMb, unit: 'MB', baseline: early.heapMb, ratio: late.heapMb / early.heapMb },
      { name, metric: `DOM nodes @${minutes}min`, value: late.dom, unit: 'nodes', baseline: early.dom, ratio: late.dom / early.dom },
      { name, metric: 'alarms raised', value: late.alarms, unit: 'alarms', baseline: early.alarms, ratio: late.alarms / Math.max(1, early.alarms) },
    );
    process.stdout.write(
      `  ${name}: ${accel}x, sim ${early.sim.toFixed(1)} → ${late.sim.toFixed(1)} min; update frames ${early.frames} / ${late.frames}; ticker rows ${early.rows} / ${late.rows}; ` +
      `alarms ${early.alarms} → ${late.alarms}; heap ${early.heapMb.toFixed(1)} → ${late.heapMb.toFixed(1)} MB; DOM ${early.dom} → ${late.dom}\n`,
    );
    await page.screenshot({ path: path.join(os.tmpdir(), 'wall-soak.png') }).catch(() => undefined);
  } finally {
    await feed.close();
    await close();
  }
  return records;
}
