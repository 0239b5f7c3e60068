/**
 * Video bench page: N tiles, each on its own media websocket from the bench's stream server (which
 * plays the media server: a committed clip at 25 fps, stamped with its arrival time). `webcodecs`
 * runs the console's path (a video worker per tile, WebCodecs, OffscreenCanvas); `mse` runs the
 * jmuxer fallback, the way open-source JT/T 1078 players do it (remux to MP4, MSE, <video>).
 *
 * Both sides stop the clock at the same event on the same thread: the main thread's rendering step
 * after the frame was handed to the compositor. For <video> that is requestVideoFrameCallback (fired
 * in the rendering step for a presented frame); for the canvas, the first requestAnimationFrame after
 * the worker's "painted" message lands (the worker's drawImage reaches the compositor when its task
 * ends, before the message can be read here). Frames counted for fps: presentedFrames for <video>,
 * pictures drawn (each committed to the compositor) for the canvas. (A compositor-side stamp for the
 * canvas, the worker's requestAnimationFrame, fired only a few times a second in headless Chromium
 * while drawing VideoFrames, so both sides are timed where the main thread sees the frame.)
 */
import { openMseChannel, openWebCodecsChannel, type VideoChannel } from '../../src/live/video/video-channel.ts';
import type { LatePolicy } from '../../src/live/video/video-pipeline.ts';

interface TileFigures {
  painted: number;
  /** Canvas: frames the worker drew (its own once-a-second count), shown or drawn over. */
  drawn: number;
  drawnBase: number;
  fps: number;
  latencies: number[];
}

let channels: VideoChannel[] = [];
let tiles: TileFigures[] = [];
let recording = false;
let recordedAt = 0;
let recordedEpoch = 0;

/** Epoch ms: the clock of the stream server's arrival stamps (same machine). */
const epochNow = () => performance.timeOrigin + performance.now();

function startVideoBench(opts: { n: number; url: string; mode: 'webcodecs' | 'mse'; policy?: LatePolicy }): void {
  const wall = document.getElementById('wall')!;
  wall.replaceChildren();
  tiles = [];
  channels = [];
  for (let i = 0; i < opts.n; i++) {
    const t: TileFigures = { painted: 0, drawn: 0, drawnBase: -1, fps: 0, latencies: [] };
    tiles.push(t);
    const sep = opts.url.includes('?') ? '&' : '?';
    if (opts.mode === 'webcodecs') {
      const canvas = document.createElement('canvas');
      wall.append(canvas);
      const pending: number[] = [];
      const onRender = () => {
        const now = epochNow();
        if (recording) for (const arrival of pending) t.latencies.push(now - arrival);
        pending.length = 0;
      };
      const ch = openWebCodecsChannel(canvas, {
        painted: (arrival, drawnAt) => {
          if (!recording || drawnAt < recordedEpoch) return;
          t.painted++;
          if (pending.length === 0) requestAnimationFrame(onRender);
          pending.push(arrival);
        },
        stats: (st) => {
          if (!recording) return;
          if (t.drawnBase < 0) t.drawnBase = st.painted;
          t.drawn = st.painted - t.drawnBase;
        },
      }, { policy: opts.policy });
      ch.connect(`${opts.url}${sep}tile=${i}`);
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
      let presentedAtStart = -1;
      const onFrame = (_now: number, meta: VideoFrameCallbackMetadata) => {
        const k = Math.round(meta.mediaTime / 0.04);
        const arrival = arrivals.get(k);
        if (recording) {
          if (presentedAtStart < 0) presentedAtStart = meta.presentedFrames - 1;
          t.painted = meta.presentedFrames - presentedAtStart;
          if (arrival !== undefined) t.latencies.push(epochNow() - arrival);
        }
        for (const key of arrivals.keys()) if (key <= k) arrivals.delete(key);
        video.requestVideoFrameCallback(onFrame);
      };
      video.requestVideoFrameCallback(onFrame);
      ch.connect(`${opts.url}${sep}tile=${i}`);
      channels.push(ch);
    }
  }
}

function record(): void {
  recording = true;
  for (const t of tiles) {
    t.latencies = [];
    t.painted = 0;
  }
  recordedAt = performance.now();
  recordedEpoch = epochNow();
}

/** Per tile: frames painted (on screen) and their latencies since `record()`. */
function stopVideoBench(): TileFigures[] {
  recording = false;
  const seconds = (performance.now() - recordedAt) / 1000;
  for (const t of tiles) t.fps = t.painted / seconds;
  for (const c of channels) c.dispose();
  channels = [];
  return tiles;
}

Object.assign(window, { startVideoBench, record, stopVideoBench });
document.title = 'ready';
