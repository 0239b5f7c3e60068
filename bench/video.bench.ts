/**
 * Video benchmark (issue 6), in headless Chromium: how many 640x360 / 25 fps channels one page decodes
 * and paints in real time, and the latency a frame adds from its arrival at the media server to its
 * paint, p50 / p95 — the console's path (a video worker per tile: WebCodecs, optimizeForLatency,
 * OffscreenCanvas) against the MSE baseline in the same page build (jmuxer → fragmented MP4 → <video>,
 * what websocket-FLV players of open-source JT/T 1078 stacks do).
 *
 * The bench's stream server plays the media server: over loopback websockets it sends the committed
 * clip (fixtures/video/main-640x360-25fps-4s.h264) looped at 25 fps per tile, each frame stamped with
 * the epoch ms it was sent (proto/media-frame.ts `arrival`), starting at a key frame. WebCodecs
 * latency is stamped in the worker right after drawImage; MSE latency when requestVideoFrameCallback
 * reports the frame presented. Measured, never asserted.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { isIdrAccessUnit, splitAccessUnits } from '../proto/h264.ts';
import { encodeMediaFrame, MEDIA_KIND } from '../proto/media-frame.ts';
import { openBenchPage, percentile, ROOT } from './browser-page.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const FPS = 25;
/** A tile counts as real time when it painted ≥ 95 % of the frames sent (23.75 of 25 per second). */
const REAL_TIME = 0.95;

interface TileFigures {
  painted: number;
  fps: number;
  latencies: number[];
}

/** Streams the clip to every connected socket at 25 fps, all tiles on one 40 ms timer. */
function startStreamServer(): Promise<{ url: string; close(): void }> {
  const clip = splitAccessUnits(new Uint8Array(readFileSync(path.join(ROOT, 'fixtures/video/main-640x360-25fps-4s.h264'))));
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  const sockets = new Map<WebSocket, { i: number }>();
  wss.on('connection', (ws) => {
    sockets.set(ws, { i: 0 });
    ws.on('close', () => sockets.delete(ws));
  });
  const timer = setInterval(() => {
    for (const [ws, s] of sockets) {
      const au = clip[s.i % clip.length]!;
      const bytes = encodeMediaFrame({ kind: MEDIA_KIND.H264, key: isIdrAccessUnit(au), discontinuity: false, channel: 1, timestamp: s.i * (1000 / FPS), arrival: Date.now(), payload: au });
      s.i++;
      // A tile that cannot keep up is the measurement, not a reason to buffer: skip, the tile resyncs at a key frame.
      if (ws.bufferedAmount < 1 << 20) ws.send(bytes);
    }
  }, 1000 / FPS);
  return new Promise((resolve) => wss.on('listening', () => {
    const { port } = wss.address() as { port: number };
    resolve({ url: `ws://127.0.0.1:${port}/media`, close: () => { clearInterval(timer); wss.close(); } });
  }));
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const stream = await startStreamServer();
  const page = await openBenchPage('video', { width: 1024, height: 640 });
  const records: BenchRecord[] = [];
  const seconds = quick ? 3 : 6;
  const counts = quick ? [1, 4] : [1, 4, 9, 16, 25];
  try {
    let realTimeMax = 0;
    const latencyAt: Record<string, { p50: number; p95: number; fps: number }> = {};
    for (const mode of ['webcodecs', 'mse'] as const) {
      for (const n of mode === 'mse' ? [1, 4] : counts) {
        const tab = await page.context.newPage();
        await tab.goto(page.url);
        await tab.waitForFunction(() => document.title === 'ready');
        await tab.evaluate((o) => (window as unknown as { startVideoBench(o: unknown): void }).startVideoBench(o), { n, url: stream.url, mode });
        // Warm-up: first key frame, decoder set-up, MSE source opening.
        await new Promise((r) => setTimeout(r, 2000));
        await tab.evaluate(() => (window as unknown as { record(): void }).record());
        await new Promise((r) => setTimeout(r, seconds * 1000 + 1100));
        const tiles = await tab.evaluate(() => (window as unknown as { stopVideoBench(): TileFigures[] }).stopVideoBench());
        await tab.close();
        const fps = tiles.map((t) => t.fps);
        const minFps = Math.min(...fps);
        const lat = tiles.flatMap((t) => t.latencies).sort((a, b) => a - b);
        const name = `video ${mode === 'webcodecs' ? 'WebCodecs worker' : 'MSE baseline (jmuxer)'}, ${n} × 640x360@25`;
        records.push(
          { name, metric: 'painted fps, slowest tile', value: minFps, unit: 'fps' },
          { name, metric: 'latency arrival→paint p50', value: percentile(lat, 0.5), unit: 'ms' },
          { name, metric: 'latency arrival→paint p95', value: percentile(lat, 0.95), unit: 'ms' },
        );
        latencyAt[`${mode}:${n}`] = { p50: percentile(lat, 0.5), p95: percentile(lat, 0.95), fps: minFps };
        if (mode === 'webcodecs' && minFps >= FPS * REAL_TIME) realTimeMax = Math.max(realTimeMax, n);
        process.stdout.write(`  ${name}: slowest tile ${minFps.toFixed(1)} fps, ${lat.length} latency samples\n`);
      }
    }
    records.push({ name: 'video WebCodecs worker', metric: 'real-time channels (of tried)', value: realTimeMax, unit: 'channels' });
    for (const n of [1, 4]) {
      const ours = latencyAt[`webcodecs:${n}`];
      const base = latencyAt[`mse:${n}`];
      if (ours && base) {
        records.push({ name: `video latency, ${n} tiles`, metric: 'p95 arrival→paint vs MSE', value: ours.p95, unit: 'ms', baseline: base.p95, ratio: base.p95 / ours.p95 });
      }
    }
  } finally {
    await page.close();
    stream.close();
  }
  return records;
}
