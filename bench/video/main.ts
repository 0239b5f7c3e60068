/**
 * Video bench page: N tiles, each on its own media websocket from the bench's stream server (which
 * plays the media server: the committed clip at 25 fps, stamped with its arrival time). `webcodecs`
 * runs the console's path (a video worker per tile, WebCodecs, OffscreenCanvas); `mse` runs the
 * jmuxer fallback, the way open-source JT/T 1078 players do it (remux to MP4, MSE, <video>).
 */
import { openMseChannel, openWebCodecsChannel, type VideoChannel } from '../../src/live/video/video-channel.ts';

interface TileFigures {
  painted: number;
  /** WebCodecs stats are cumulative and arrive once a second: fps = Δpainted / Δtime between two stats. */
  cumulative: number;
  cumulativeAt: number;
  base: number;
  baseAt: number;
  fps: number;
  decoded: number;
  dropped: number;
  latencies: number[];
}

let channels: VideoChannel[] = [];
let tiles: TileFigures[] = [];
let recording = false;
let recordedAt = 0;

/** Epoch ms: the clock of the stream server's arrival stamps (same machine). */
const epochNow = () => performance.timeOrigin + performance.now();

function startVideoBench(opts: { n: number; url: string; mode: 'webcodecs' | 'mse' }): void {
  const wall = document.getElementById('wall')!;
  wall.replaceChildren();
  tiles = [];
  channels = [];
  for (let i = 0; i < opts.n; i++) {
    const t: TileFigures = { painted: 0, cumulative: 0, cumulativeAt: 0, base: 0, baseAt: 0, fps: 0, decoded: 0, dropped: 0, latencies: [] };
    tiles.push(t);
    if (opts.mode === 'webcodecs') {
      const canvas = document.createElement('canvas');
      wall.append(canvas);
      const ch = openWebCodecsChannel(canvas, {
        stats: (s, lat, at) => {
          t.cumulative = s.painted;
          t.cumulativeAt = at;
          if (!recording) return;
          t.painted = s.painted - t.base;
          t.fps = (t.painted * 1000) / (t.cumulativeAt - t.baseAt);
          t.decoded = s.decoded;
          t.dropped = s.droppedLate + s.droppedWaiting;
          for (const v of lat) t.latencies.push(v);
        },
      });
      ch.connect(`${opts.url}?tile=${i}`);
      channels.push(ch);
    } else {
      const video = document.createElement('video');
      video.muted = true;
      video.autoplay = true;
      video.playsInline = true;
      wall.append(video);
      // jmuxer stamps frame k at k × 40 ms of media time: pair presented frames with their arrival.
      const arrivals = new Map<number, number>();
      let fed = 0;
      const ch = openMseChannel(video, {}, (arrival) => arrivals.set(fed++, arrival));
      const onFrame = (_now: number, meta: VideoFrameCallbackMetadata) => {
        const k = Math.round(meta.mediaTime / 0.04);
        const arrival = arrivals.get(k);
        if (recording) {
          t.painted++;
          if (arrival !== undefined) t.latencies.push(epochNow() - arrival);
        }
        for (const key of arrivals.keys()) if (key <= k) arrivals.delete(key);
        video.requestVideoFrameCallback(onFrame);
      };
      video.requestVideoFrameCallback(onFrame);
      ch.connect(`${opts.url}?tile=${i}`);
      channels.push(ch);
    }
  }
}

function record(): void {
  recording = true;
  for (const t of tiles) {
    t.latencies = [];
    t.painted = 0;
    t.base = t.cumulative;
    // A tile that has not reported yet starts counting now (its cumulative count is still 0).
    t.baseAt = t.cumulativeAt > 0 ? t.cumulativeAt : epochNow();
  }
  recordedAt = performance.now();
}

/** Per tile: frames painted and their latencies since `record()`. */
function stopVideoBench(): TileFigures[] {
  recording = false;
  // MSE tiles count presented frames directly over the recording window.
  const seconds = (performance.now() - recordedAt) / 1000;
  for (const t of tiles) if (t.cumulativeAt === 0) t.fps = t.painted / seconds;
  for (const c of channels) c.dispose();
  channels = [];
  return tiles;
}

Object.assign(window, { startVideoBench, record, stopVideoBench });
document.title = 'ready';
