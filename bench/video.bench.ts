/**
 * Video benchmark (issues 6 and 16), in headless Chromium: how many channels one page decodes and
 * paints in real time, and the latency a frame adds from its arrival at the media server to its
 * display, p50 / p95 — the console's path (a video worker per tile: WebCodecs, optimizeForLatency,
 * OffscreenCanvas) against the MSE baseline in the same page build.
 *
 * Peer: the baseline stands for the websocket-FLV/fMP4 players of open-source JT/T 1078 stacks and
 * the web players of commercial CMSV6-class platforms: remux the H.264 access units to fragmented MP4
 * (jmuxer, the library those players use or copy) and let a <video> element play it over MSE. It is a
 * fair copy: same clip, same socket framing, the same key-frame start, live-edge seeking so it does
 * not drift behind, and the browser's own hardware/software decoder behind <video>.
 *
 * Same event on both sides: the frame handed to the compositor for display, stamped where it happens
 * (not where a busy main thread hears of it): requestVideoFrameCallback's presentationTime and
 * presentedFrames for <video>; for the canvas, the worker's requestAnimationFrame after drawImage, the
 * frame its OffscreenCanvas submits (bench/video/main.ts). A tile's fps counts pictures that reached
 * the compositor (canvas pictures drawn over before a frame do not count). Previously ours was stamped
 * right after drawImage, a frame earlier than the baseline's event. The feeder (this process's stream
 * server) runs outside the page on both sides.
 *
 * The stream server plays the media server: over loopback websockets it sends a committed clip looped
 * at 25 fps per tile, each frame stamped with the epoch ms it was sent (proto/media-frame.ts
 * `arrival`), starting at a key frame: the main stream (fixtures/video/main-640x360-25fps-4s.h264) or
 * the sub stream (sub-320x180-25fps-4s.h264, what the wall asks terminals for by default: 0x9101
 * stream type 1). Goals (issue 16): 25 sub streams and 9 main streams with no tile below real time.
 * Measured, never asserted. Defaults as shipped (one worker per tile, desynchronized 2D canvas, the
 * skip-paint late-frame policy); the earlier drop-GOP policy runs beside it in the same run.
 *
 * Where the time goes (bench/video/PROFILE.md): the CPU of every Chromium thread, from /proc (FFmpeg
 * and Mesa llvmpipe threads included, which a trace does not show), per picture that reached the
 * compositor, grouped by the stage the thread does. On a loaded shared machine painted fps swings
 * with the load; CPU per painted frame is the steadier ratio. The 1-minute load average at each
 * case's start is recorded beside its figures.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { isIdrAccessUnit, splitAccessUnits } from '../proto/h264.ts';
import { encodeMediaFrame, MEDIA_KIND } from '../proto/media-frame.ts';
import { loadavg } from 'node:os';
import { openBenchPage, percentile, ROOT } from './browser-page.ts';
import { cpuBetween, sampleThreads } from './video/proc-cpu.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const FPS = 25;
/** A tile counts as real time when it painted ≥ 95 % of the frames sent (23.75 of 25 per second). */
const REAL_TIME = 0.95;

const CLIPS = {
  main: { file: 'main-640x360-25fps-4s.h264', label: '640x360@25 main' },
  sub: { file: 'sub-320x180-25fps-4s.h264', label: '320x180@25 sub' },
} as const;
type Clip = keyof typeof CLIPS;

interface TileFigures {
  painted: number;
  drawn: number;
  fps: number;
  latencies: number[];
}

/** Streams the asked clip (`?clip=main|sub`) to every connected socket at 25 fps, all tiles on one 40 ms timer. */
export function startStreamServer(): Promise<{ url: string; close(): void }> {
  const clips: Record<Clip, Uint8Array[]> = {
    main: splitAccessUnits(new Uint8Array(readFileSync(path.join(ROOT, 'fixtures/video', CLIPS.main.file)))),
    sub: splitAccessUnits(new Uint8Array(readFileSync(path.join(ROOT, 'fixtures/video', CLIPS.sub.file)))),
  };
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  const sockets = new Map<WebSocket, { i: number; clip: Uint8Array[] }>();
  wss.on('connection', (ws, req) => {
    const clip = new URL(req.url ?? '/', 'http://x').searchParams.get('clip') === 'sub' ? clips.sub : clips.main;
    sockets.set(ws, { i: 0, clip });
    ws.on('close', () => sockets.delete(ws));
  });
  const timer = setInterval(() => {
    for (const [ws, s] of sockets) {
      const au = s.clip[s.i % s.clip.length]!;
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

/** 'drop-gop' is the worker's earlier late-frame policy (src/live/video/video-pipeline.ts), measured beside the shipped one. */
type Mode = 'webcodecs' | 'drop-gop' | 'mse';
interface Case { mode: Mode; clip: Clip; n: number }

/** The issue-16 goals first (9 main, 25 sub), each side next to the other so they share the machine's load. */
function cases(quick: boolean): Case[] {
  const goals: Case[] = [
    { mode: 'webcodecs', clip: 'main', n: 9 }, { mode: 'mse', clip: 'main', n: 9 }, { mode: 'drop-gop', clip: 'main', n: 9 },
    { mode: 'webcodecs', clip: 'sub', n: 25 }, { mode: 'mse', clip: 'sub', n: 25 },
  ];
  if (quick) return goals;
  return [
    ...goals,
    ...[1, 4, 16, 25].map((n) => ({ mode: 'webcodecs' as const, clip: 'main' as const, n })),
    ...[9, 16].map((n) => ({ mode: 'webcodecs' as const, clip: 'sub' as const, n })),
    ...[1, 4].map((n) => ({ mode: 'mse' as const, clip: 'main' as const, n })),
  ];
}

const SIDE: Record<Mode, string> = { webcodecs: 'WebCodecs worker', 'drop-gop': 'WebCodecs worker, drop-GOP policy (before)', mse: 'MSE baseline (jmuxer)' };
const caseName = (c: Case) => `video ${SIDE[c.mode]}, ${c.n} × ${CLIPS[c.clip].label}`;

/**
 * Where the CPU goes, by thread family (bench/video/proc-cpu.ts reads every Chromium thread from
 * /proc, those no trace shows included): the stage each family does for a tile. See PROFILE.md.
 */
const STAGES: [stage: string, match: (key: string) => boolean][] = [
  ['decode (renderer Media thread, FFmpeg)', (k) => k === 'renderer / Media'],
  ['video worker (socket, parse, VideoFrame→canvas)', (k) => k === 'renderer / DedicatedWorker'],
  ['page main thread', (k) => k === 'renderer / chromium'],
  ['video compositor thread (<video>)', (k) => k.startsWith('renderer / VideoFrameCompo')],
  ['GPU raster + composite (llvmpipe)', (k) => k === 'gpu-process / llvmpipe'],
  ['GPU process main + viz', (k) => k === 'gpu-process / chromium' || k.startsWith('gpu-process / VizCompositor')],
  ['socket IO (network service, IO threads)', (k) => k.includes('Chrome_ChildIOT') || k.includes('Chrome_IOThread') || k.startsWith('utility /')],
];

function stagesOf(cpu: [string, number][]): { stages: Map<string, number>; total: number } {
  const stages = new Map<string, number>();
  let total = 0;
  for (const [key, ms] of cpu) {
    total += ms;
    const stage = STAGES.find(([, m]) => m(key))?.[0] ?? 'other threads';
    stages.set(stage, (stages.get(stage) ?? 0) + ms);
  }
  return { stages, total };
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const stream = await startStreamServer();
  const page = await openBenchPage('video', { width: 1024, height: 640 });
  const records: BenchRecord[] = [];
  const seconds = quick ? 3 : 6;
  try {
    const realTimeMax: Record<Clip, number> = { main: 0, sub: 0 };
    const at = new Map<string, { p50: number; p95: number; fps: number; cpuPerFrame: number }>();
    for (const c of cases(quick)) {
      const tab = await page.context.newPage();
      await tab.goto(page.url);
      await tab.waitForFunction(() => document.title === 'ready');
      const opts = { n: c.n, url: `${stream.url}?clip=${c.clip}`, mode: c.mode === 'mse' ? 'mse' : 'webcodecs', policy: c.mode === 'drop-gop' ? 'drop-gop' : undefined };
      await tab.evaluate((o) => (window as unknown as { startVideoBench(o: unknown): void }).startVideoBench(o), opts);
      // Warm-up: first key frame, decoder set-up, MSE source opening.
      await new Promise((r) => setTimeout(r, 2000));
      const load = loadavg()[0]!;
      const cpu0 = sampleThreads(page.profile);
      await tab.evaluate(() => (window as unknown as { record(): void }).record());
      await new Promise((r) => setTimeout(r, seconds * 1000));
      const cpu1 = sampleThreads(page.profile);
      const tiles = await tab.evaluate(() => (window as unknown as { stopVideoBench(): TileFigures[] }).stopVideoBench());
      await tab.close();
      const minFps = Math.min(...tiles.map((t) => t.fps));
      const lat = tiles.flatMap((t) => t.latencies).sort((a, b) => a - b);
      const name = caseName(c);
      // CPU of every browser thread per picture that reached the compositor: what a tile costs, whatever the load let it paint.
      const painted = Math.max(1, tiles.reduce((n, t) => n + t.painted, 0));
      const { stages, total } = stagesOf(cpuBetween(cpu0, cpu1));
      const figures = { p50: percentile(lat, 0.5), p95: percentile(lat, 0.95), fps: minFps, cpuPerFrame: total / painted };
      records.push(
        { name, metric: 'painted fps, slowest tile', value: minFps, unit: 'fps' },
        { name, metric: 'latency arrival→display p50', value: figures.p50, unit: 'ms' },
        { name, metric: 'latency arrival→display p95', value: figures.p95, unit: 'ms' },
        { name, metric: 'browser CPU per painted frame, all threads', value: figures.cpuPerFrame, unit: 'ms' },
        { name, metric: 'browser CPU, all threads', value: total / seconds, unit: 'ms/s' },
        ...[...stages].map(([stage, ms]) => ({ name, metric: `CPU per painted frame: ${stage}`, value: ms / painted, unit: 'ms' })),
        { name, metric: 'machine load average (1 min) at start', value: load, unit: '(2 cores)' },
      );
      at.set(`${c.mode}:${c.clip}:${c.n}`, figures);
      if (c.mode === 'webcodecs' && minFps >= FPS * REAL_TIME) realTimeMax[c.clip] = Math.max(realTimeMax[c.clip], c.n);
      process.stdout.write(`  ${name}: load ${load.toFixed(1)}, slowest tile ${minFps.toFixed(1)} fps, p50 ${figures.p50.toFixed(1)} / p95 ${figures.p95.toFixed(1)} ms, ${lat.length} samples; CPU ${figures.cpuPerFrame.toFixed(2)} ms/painted frame (${[...stages].map(([k, v]) => `${k} ${(v / painted).toFixed(2)}`).join(', ')}); drawn by workers (1 s counts) ${tiles.map((t) => t.drawn).join('/')}\n`);
    }
    for (const clip of ['main', 'sub'] as const) {
      records.push({ name: `video WebCodecs worker, ${CLIPS[clip].label}`, metric: 'real-time channels (of tried)', value: realTimeMax[clip], unit: 'channels' });
    }
    // Ours against the baseline (and against the earlier policy) wherever both ran the same load.
    for (const c of cases(quick)) {
      if (c.mode !== 'webcodecs') continue;
      const ours = at.get(`webcodecs:${c.clip}:${c.n}`)!;
      for (const [other, label] of [['mse', 'WebCodecs vs MSE'], ['drop-gop', 'skip-paint vs drop-GOP policy']] as const) {
        const base = at.get(`${other}:${c.clip}:${c.n}`);
        if (!base) continue;
        const name = `video ${c.n} × ${CLIPS[c.clip].label}, ${label}`;
        records.push(
          { name, metric: 'p95 arrival→display', value: ours.p95, unit: 'ms', baseline: base.p95, ratio: base.p95 / ours.p95 },
          { name, metric: 'painted fps, slowest tile', value: ours.fps, unit: 'fps', baseline: base.fps, ratio: ours.fps / base.fps },
          { name, metric: 'browser CPU per painted frame', value: ours.cpuPerFrame, unit: 'ms', baseline: base.cpuPerFrame, ratio: base.cpuPerFrame / ours.cpuPerFrame },
        );
      }
    }
  } finally {
    await page.close();
    stream.close();
  }
  return records;
}
