/**
 * Live-video viewers in a child process (bench/media-fanout.bench.ts): each opens the real viewer
 * websocket (`/ws-service/video`), decodes every media frame's header and counts frames and bytes, so
 * the viewers' CPU is not charged to the media server under test. Commands over IPC.
 */
import WebSocket from 'ws';
import { decodeMediaFrame } from '../../proto/media-frame.ts';

export interface ViewerCounts {
  viewers: number;
  /** Viewers that got their first frame. */
  playing: number;
  frames: number;
  bytes: number;
  errors: number;
}

const sockets: WebSocket[] = [];
let counting = false;
const counts: ViewerCounts = { viewers: 0, playing: 0, frames: 0, bytes: 0, errors: 0 };

function open(urls: readonly string[]): void {
  for (const url of urls) {
    const ws = new WebSocket(url);
    let first = true;
    ws.on('message', (data: Buffer, binary: boolean) => {
      if (!binary) return;
      try {
        decodeMediaFrame(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      } catch {
        counts.errors++;
        return;
      }
      if (first) {
        first = false;
        counts.playing++;
      }
      if (!counting) return;
      counts.frames++;
      counts.bytes += data.byteLength;
    });
    ws.on('error', () => counts.errors++);
    sockets.push(ws);
  }
  counts.viewers = sockets.length;
}

if (process.send && process.argv[2] === '--child') {
  process.on('message', (m: { cmd: 'open'; urls: string[] } | { cmd: 'status' } | { cmd: 'start' } | { cmd: 'stop' } | { cmd: 'close' }) => {
    if (m.cmd === 'open') open(m.urls);
    else if (m.cmd === 'start') {
      counts.frames = counts.bytes = 0;
      counting = true;
    } else if (m.cmd === 'stop') counting = false;
    else if (m.cmd === 'close') {
      for (const ws of sockets) ws.close();
      sockets.length = 0;
      counts.viewers = counts.playing = 0;
    }
    process.send!({ type: 'counts', counts });
  });
}
