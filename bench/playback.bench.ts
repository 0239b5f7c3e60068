/**
 * Track playback benchmark (issue 4): a 7-day 1 Hz track (604,800 points, synthesized with
 * encodeTrack: no database) served from loopback, replayed in Chromium at the fastest speed.
 *   (a) request → first drawn frame: ours (binary track → worker decode + rules + DP importance →
 *       transferred columns → binary deck.gl layers, until deck.gl's first render with the track)
 *       against the old console's way (JSON pages of 1,000 points fetched in turn and parsed on the
 *       main thread into per-point objects, a GeoJSON line + car `setData`, until maplibre is idle).
 *   (b) main-thread scripting ms per frame while playing (p50 / p95), measured in the page around
 *       every requestAnimationFrame callback and worker message handler (bench/console/instrument.ts):
 *       ours samples each vehicle with a binary search and swaps 2 tiny layers; the baseline rescans
 *       and rebuilds the GeoJSON every frame.
 * 'rAF frames/s' counts animation frames whose callbacks ran: on llvmpipe it is bound by drawing, not
 * scripting (ours redraws the whole week's path each frame; the baseline's frames often only queue a
 * setData that maplibre's worker finishes later), so it is reported, not compared.
 * Figures are measured, never asserted (shared, GPU-less machines: WebGL runs on llvmpipe).
 */
import { encodeTrack } from '../proto/track-codec.ts';
import { synthTrack } from '../src/live/track/synthetic.ts';
import { openBenchPage, percentile, type ExtraRoute } from './browser-page.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

/** The old console's page size for track points (the JSON trail call's pages). */
const PAGE = 1000;

/** The two trail calls the page makes, answered from memory (no database in this bench). */
function trackRoutes(bytes: Uint8Array, pages: string[]): ExtraRoute {
  return (u, res) => {
    if (u.pathname === '/service-monitor/trail/binary') {
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      return true;
    }
    if (u.pathname === '/service-monitor/trail') {
      const page = pages[Number(u.searchParams.get('current') ?? '1') - 1] ?? '{"code":200,"data":{"records":[]}}';
      res.writeHead(200, { 'content-type': 'application/json' }).end(page);
      return true;
    }
    return false;
  };
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const n = quick ? 86_400 : 604_800;
  const seconds = quick ? 2 : 6;
  const track = synthTrack(n);
  track.vehicleId = 1;
  const bytes = encodeTrack(track);
  const pages: string[] = [];
  for (let p = 0; p * PAGE < n; p++) {
    const records = [];
    for (let i = p * PAGE; i < Math.min(n, (p + 1) * PAGE); i++) {
      records.push({
        lng: track.lng[i], lat: track.lat[i], speed: track.speed[i], direction: track.heading[i], altitude: track.altitude[i],
        gpsTime: track.time[i], status: track.status[i], alarm: track.alarm[i], mileage: null,
      });
    }
    pages.push(JSON.stringify({ code: 200, msg: 'ok', data: { records, total: n, current: p + 1, size: PAGE } }));
  }

  const { url, context, close } = await openBenchPage('playback', { width: 1024, height: 640 }, trackRoutes(bytes, pages));
  const records: BenchRecord[] = [];
  try {
    const figures: Record<string, { firstFrameMs: number; samples: number[]; points: number }> = {};
    for (const mode of ['pipeline', 'baseline'] as const) {
      const page = await context.newPage();
      page.on('pageerror', (e) => process.stdout.write(`  [${mode}] page error: ${e.message}\n`));
      await page.goto(url);
      await page.waitForFunction(() => document.title === 'ready');
      const started = await page.evaluate(
        (o) => (window as unknown as { startBench(o: unknown): Promise<{ firstFrameMs: number; points: number; timings: Record<string, number> }> }).startBench(o),
        { mode, vehicleId: 1, startTime: track.startTime, endTime: track.endTime, pages: pages.length },
      );
      if (mode === 'pipeline') process.stdout.write(`  worker ms: ${JSON.stringify(started.timings)}\n`);
      await new Promise((r) => setTimeout(r, seconds * 1000));
      const rec = await page.evaluate(() => (window as unknown as { stopBench(): { samples: number[] } }).stopBench());
      figures[mode] = { firstFrameMs: started.firstFrameMs, samples: [...rec.samples].sort((a, b) => a - b), points: started.points };
      await page.close();
    }
    const ours = figures.pipeline!;
    const base = figures.baseline!;
    const name = `playback ${n.toLocaleString('en-US')} points`;
    const p50 = percentile(ours.samples, 0.5);
    const p95 = percentile(ours.samples, 0.95);
    const b50 = percentile(base.samples, 0.5);
    const b95 = percentile(base.samples, 0.95);
    records.push(
      { name, metric: 'request → first frame', value: ours.firstFrameMs, unit: 'ms', baseline: base.firstFrameMs, ratio: base.firstFrameMs / ours.firstFrameMs },
      { name, metric: 'main ms/frame p50', value: p50, unit: 'ms', baseline: b50, ratio: b50 / p50 },
      { name, metric: 'main ms/frame p95', value: p95, unit: 'ms', baseline: b95, ratio: b95 / p95 },
      { name, metric: 'rAF frames/s playing', value: ours.samples.length / seconds, unit: '1/s', baseline: base.samples.length / seconds, ratio: ours.samples.length / Math.max(1, base.samples.length) },
    );
    process.stdout.write(`  ${name}: ${ours.points} / ${base.points} points loaded; ${ours.samples.length} / ${base.samples.length} frames sampled\n`);
  } finally {
    await close();
  }
  return records;
}
