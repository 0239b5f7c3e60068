/**
 * Track playback benchmark: a day (86,400 points) and, in the full run, a week (604,800) of a 1 Hz
 * track (synthesized with synthTrack: no database), served from loopback, replayed in Chromium at the
 * fastest speed (1200×) on software WebGL (see browser-page.ts), camera still.
 *
 * Peer: Traccar's web app (traccar-web, src/other/ReplayPage.jsx + map/MapRoutePath.js +
 * map/MapPositions.js). Its replay GETs /api/positions for the whole period in ONE request, parses the
 * JSON on the main thread, draws the route once as a GeoJSON line on maplibre and moves the vehicle by
 * `setData` on a one-point GeoJSON source. The copy here (bench/playback/main.ts, `baseline`) does
 * exactly that, as a competent engineer of that design would: Traccar-shaped position objects (ISO
 * fixTime, latitude, longitude, speed, course, altitude) in one answer; the route ONE LineString (cheaper
 * than traccar-web's feature per segment, and without its per-point ▲ symbols); a forward cursor per frame
 * (no rescan); `setData` only when the shown position changes; maplibre's own geojson-vt tiling, which
 * simplifies the route per zoom in maplibre's worker. It runs at our fastest speed (traccar-web steps
 * one position per 500 ms; a clock at 1200× is the like-for-like comparison). Line width (4 px) and
 * the marker size are ours. Ours draws more (gaps, stops, drift and alarm markers, place labels).
 *
 * Same event on both sides, same instruments:
 *   - request → first frame: from the request until the end of the first WebGL draw whose frame holds
 *     the route: deck.gl's `onAfterRender` (ours), maplibre's `render` event once the route's source is
 *     loaded (baseline). Both fire at the end of the draw inside the requestAnimationFrame phase.
 *   - painted frames/s: frames the compositor presented while playing, counted from Chromium's own
 *     trace (`PipelineReporter` events with state PRESENTED_*), not by either page, so a frame that
 *     only queued work is not counted for either side. The pages' own draw counts are printed beside.
 *   - main-thread scripting: bench/console/instrument.ts times every requestAnimationFrame callback
 *     and every worker 'message' handler in the page; ms per frame that moved the vehicle (p50, p95)
 *     and ms per second of playing.
 * Each side gets its own page (its own renderer process); the sides alternate which goes first from
 * one round to the next; the data server is a separate process (node) and answers from memory.
 * Figures are measured, never asserted (shared, GPU-less machines).
 */
import { encodeTrack } from '../proto/track-codec.ts';
import { synthTrack } from '../src/live/track/synthetic.ts';
import { endTrace, openBenchPage, percentile, type ExtraRoute } from './browser-page.ts';
import type { StartOptions, Started } from './playback/main.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const ZOOM = 9;
type Mode = StartOptions['mode'];

interface Served {
  vehicleId: number;
  startTime: number;
  endTime: number;
  points: number;
  binary: Buffer;
  json: Buffer;
}

/** The track as Traccar's GET /api/positions answers it: an array of position objects. */
function traccarJson(t: ReturnType<typeof synthTrack>, vehicleId: number): Buffer {
  const out = new Array(t.count);
  for (let i = 0; i < t.count; i++) {
    out[i] = {
      deviceId: vehicleId, fixTime: new Date(t.time[i]!).toISOString(), latitude: t.lat[i], longitude: t.lng[i], altitude: t.altitude[i],
      speed: t.speed[i]! * 0.539957, course: t.heading[i],
    };
  }
  return Buffer.from(JSON.stringify(out));
}

function routes(served: Served[]): ExtraRoute {
  const byId = new Map(served.map((s) => [s.vehicleId, s]));
  return (u, res) => {
    if (u.pathname === '/service-monitor/trail/binary') {
      const s = byId.get(Number(u.searchParams.get('vehicleId')));
      if (!s) return false;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(s.binary);
      return true;
    }
    if (u.pathname === '/api/positions') {
      const s = byId.get(Number(u.searchParams.get('deviceId')));
      if (!s) return false;
      res.writeHead(200, { 'content-type': 'application/json' }).end(s.json);
      return true;
    }
    return false;
  };
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  pid: number;
  args?: { frame_reporter?: { state?: string; frame_sequence?: number } };
}

/** Frames the page's compositor presented per second, from the trace's PipelineReporter events. */
function presentedPerSecond(events: TraceEvent[]): { fps: number; presented: number; seconds: number } {
  const reports = events.filter((e) => e.name === 'PipelineReporter' && e.ph === 'b' && e.args?.frame_reporter?.state);
  if (reports.length < 2) return { fps: 0, presented: 0, seconds: 0 };
  // The renderer's compositor reports most; another process's (if any) is left out.
  const perPid = new Map<number, number>();
  for (const e of reports) perPid.set(e.pid, (perPid.get(e.pid) ?? 0) + 1);
  const pid = [...perPid.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const mine = reports.filter((e) => e.pid === pid);
  // A presented frame is reported twice (its own reporter and a FORKED copy): count each sequence once.
  const presented = new Set(mine.filter((e) => e.args!.frame_reporter!.state!.startsWith('STATE_PRESENTED')).map((e) => e.args!.frame_reporter!.frame_sequence)).size;
  const seconds = (mine[mine.length - 1]!.ts - mine[0]!.ts) / 1e6;
  return { fps: seconds > 0 ? presented / seconds : 0, presented, seconds };
}

interface Figures {
  firstFrameMs: number;
  fps: number;
  p50: number;
  p95: number;
  scriptingMsPerS: number;
}

/** The sides alternate which goes first from one round to the next (the runner calls `run` per round). */
let round = 0;

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const sizes = quick ? [86_400] : [86_400, 604_800];
  const seconds = quick ? 3 : 6;
  const served: Served[] = sizes.map((n, k) => {
    const track = synthTrack(n);
    const vehicleId = k + 1;
    track.vehicleId = vehicleId;
    return { vehicleId, startTime: track.startTime, endTime: track.endTime, points: n, binary: Buffer.from(encodeTrack(track)), json: traccarJson(track, vehicleId) };
  });
  const order: Mode[] = round++ % 2 === 0 ? ['ours', 'baseline'] : ['baseline', 'ours'];

  const { url, context, close } = await openBenchPage('playback', { width: 1024, height: 640 }, routes(served));
  const records: BenchRecord[] = [];
  try {
    for (const s of served) {
      const figures = {} as Record<Mode, Figures>;
      for (const mode of order) {
        const page = await context.newPage();
        page.on('pageerror', (e) => process.stdout.write(`  [${mode}] page error: ${e.message}\n`));
        await page.goto(url);
        await page.waitForFunction(() => document.title === 'ready');
        const opts: StartOptions = { mode, vehicleId: s.vehicleId, startTime: s.startTime, endTime: s.endTime, zoom: ZOOM, oneCanvas: process.env.PLAYBACK_ONE_CANVAS === '1' };
        const started = await page.evaluate((o) => (window as unknown as { startBench(o: StartOptions): Promise<Started> }).startBench(o), opts);
        if (started.points !== s.points) throw new Error(`${mode}: ${started.points} of ${s.points} points loaded`);
        const cdp = await context.newCDPSession(page);
        await cdp.send('Tracing.start', { transferMode: 'ReturnAsStream', traceConfig: { includedCategories: ['benchmark'] } });
        await new Promise((r) => setTimeout(r, seconds * 1000));
        const rec = await page.evaluate(() => (window as unknown as { stopBench(): { samples: number[]; totalMs: number; draws: number; updates: number } }).stopBench());
        const trace = presentedPerSecond(await endTrace<TraceEvent>(cdp));
        await cdp.detach();
        await page.close();
        const samples = [...rec.samples].sort((a, b) => a - b);
        figures[mode] = { firstFrameMs: started.firstFrameMs, fps: trace.fps, p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), scriptingMsPerS: rec.totalMs / seconds };
        process.stdout.write(
          `  ${s.points} ${mode}: first frame ${started.firstFrameMs.toFixed(0)} ms ${JSON.stringify(started.timings, (_, v: unknown) => (typeof v === 'number' ? Math.round(v) : v))}; ` +
            `${trace.presented} frames presented in ${trace.seconds.toFixed(1)} s, page drew ${rec.draws} in ${seconds} s, ${samples.length} frames moved the vehicle\n`,
        );
      }
      const o = figures.ours;
      const b = figures.baseline;
      const name = `playback ${s.points.toLocaleString('en-US')} points`;
      records.push(
        { name, metric: 'request → first frame', value: o.firstFrameMs, unit: 'ms', baseline: b.firstFrameMs, ratio: b.firstFrameMs / o.firstFrameMs },
        { name, metric: 'painted frames/s playing', value: o.fps, unit: '1/s', baseline: b.fps, ratio: o.fps / b.fps },
        { name, metric: 'main ms/frame p50', value: o.p50, unit: 'ms', baseline: b.p50, ratio: b.p50 / o.p50 },
        { name, metric: 'main ms/frame p95', value: o.p95, unit: 'ms', baseline: b.p95, ratio: b.p95 / o.p95 },
        { name, metric: 'main scripting ms/s', value: o.scriptingMsPerS, unit: 'ms', baseline: b.scriptingMsPerS, ratio: b.scriptingMsPerS / o.scriptingMsPerS },
      );
    }
  } finally {
    await close();
  }
  return records;
}
