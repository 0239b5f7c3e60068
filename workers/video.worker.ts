/**
 * Video worker entry: one per video tile. Builds a VideoWorkerCore (src/live/video/video-worker-core.ts)
 * over the browser's WebCodecs and WebSocket and forwards messages to it.
 */
import type { VideoWorkerIn, VideoWorkerOut } from '../src/live/video/protocol.ts';
import type { SocketLike } from '../src/live/stream/socket.ts';
import { VideoWorkerCore } from '../src/live/video/video-worker-core.ts';

const scope = self as unknown as {
  postMessage(msg: VideoWorkerOut, transfer: Transferable[]): void;
  onmessage: ((e: MessageEvent<VideoWorkerIn>) => void) | null;
};

const core = new VideoWorkerCore({
  post: (msg, transfer = []) => scope.postMessage(msg, transfer),
  createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
  codecs: {
    createDecoder: (output, error) => new VideoDecoder({ output: output as unknown as VideoFrameOutputCallback, error }),
    createChunk: (init) => new EncodedVideoChunk(init),
  },
  // Epoch ms, the clock of the media server's arrival stamps.
  now: () => performance.timeOrigin + performance.now(),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as number),
});

scope.onmessage = (e) => {
  core.handle(e.data);
  if (e.data.type === 'close') self.close();
};
