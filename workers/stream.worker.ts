/**
 * Stream worker entry: owns the push websocket through StreamWorker (src/live/stream/stream-worker.ts).
 * Frames, stats and status go out with raw postMessage (frames with a transfer list); control calls
 * come through Comlink on the port the main thread sends in 'init'.
 */
import * as Comlink from 'comlink';
import type { MainMessage, WorkerMessage } from '../src/live/stream/protocol.ts';
import type { SocketLike } from '../src/live/stream/socket.ts';
import { StreamWorker } from '../src/live/stream/stream-worker.ts';

const scope = self as unknown as {
  postMessage(msg: WorkerMessage, transfer: Transferable[]): void;
  onmessage: ((e: MessageEvent<MainMessage>) => void) | null;
};

const worker = new StreamWorker({
  post: (msg, transfer) => scope.postMessage(msg, transfer),
  now: () => performance.now(),
  // A 16 ms timer (≈ one frame at 60 fps), not the worker's requestAnimationFrame: Chromium ticks a
  // worker's rAF only while the page produces frames (measured headless: on a still map a report's
  // frame waited seconds for the next tick). The main thread applies at most one frame per its own rAF.
  nextFrame: (cb) => setTimeout(cb, 16),
  createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
});

scope.onmessage = (e) => {
  const msg = e.data;
  if (msg.type === 'init') {
    Comlink.expose(worker.control(), msg.control);
    worker.start(msg.options);
  } else if (msg.type === 'release') worker.release(msg.frame);
};
