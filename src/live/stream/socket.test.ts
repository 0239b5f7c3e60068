import { describe, expect, it } from 'vitest';
import { FrameKind, PushEncoder } from '../../../proto/codec.ts';
import type { WorkerMessage } from './protocol.ts';
import { ReconnectingSocket, type SocketLike } from './socket.ts';
import { StreamWorker } from './stream-worker.ts';

class FakeSocket implements SocketLike {
  binaryType = '';
  onopen: (() => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {}
  close() {
    this.closed = true;
  }
  drop(code = 1006) {
    this.onclose?.({ code, reason: '' });
  }
}

class FakeTimers {
  now = 0;
  private queue: { at: number; fn: () => void; id: number }[] = [];
  private next = 1;
  setTimeout = (fn: () => void, ms: number) => {
    const id = this.next++;
    this.queue.push({ at: this.now + ms, fn, id });
    return id;
  };
  clearTimeout = (id: unknown) => {
    this.queue = this.queue.filter((t) => t.id !== id);
  };
  advance(ms: number) {
    const end = this.now + ms;
    for (;;) {
      this.queue.sort((a, b) => a.at - b.at);
      const t = this.queue[0];
      if (!t || t.at > end) break;
      this.queue.shift();
      this.now = t.at;
      t.fn();
    }
    this.now = end;
  }
}

describe('ReconnectingSocket', () => {
  it('reconnects 7000 ms after a drop, up to the attempt limit, then reports closed', () => {
    const timers = new FakeTimers();
    const sockets: FakeSocket[] = [];
    const statuses: string[] = [];
    const s = new ReconnectingSocket(() => 'ws://x/ws-service/websocket?token=t', (url) => {
      const f = new FakeSocket(url);
      sockets.push(f);
      return f;
    }, { status: (c, a, code) => statuses.push(`${c}:${a}${code ? `:${code}` : ''}`), open: () => undefined, message: () => undefined }, { attempts: 3, delayMs: 7000 }, timers);
    s.start();
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.binaryType).toBe('arraybuffer');
    sockets[0]!.onopen?.();
    sockets[0]!.drop(4008);
    timers.advance(6999);
    expect(sockets).toHaveLength(1);
    timers.advance(1);
    expect(sockets).toHaveLength(2);
    sockets[1]!.drop();
    timers.advance(7000);
    sockets[2]!.drop();
    timers.advance(7000);
    sockets[3]!.drop();
    timers.advance(70_000);
    expect(sockets).toHaveLength(4);
    expect(statuses).toEqual(['connecting:0', 'open:0', 'reconnecting:1:4008', 'reconnecting:2:1006', 'reconnecting:3:1006', 'closed:3:1006']);
  });

  it('stops reconnecting once disposed', () => {
    const timers = new FakeTimers();
    const sockets: FakeSocket[] = [];
    const s = new ReconnectingSocket(() => 'ws://x', (url) => {
      const f = new FakeSocket(url);
      sockets.push(f);
      return f;
    }, { status: () => undefined, open: () => undefined, message: () => undefined }, { attempts: 7000, delayMs: 7000 }, timers);
    s.start();
    sockets[0]!.drop();
    s.dispose();
    timers.advance(100_000);
    expect(sockets).toHaveLength(1);
  });
});

describe('StreamWorker', () => {
  it('posts status, a frame per animation frame with its buffers transferred, and resyncs after a reconnect', () => {
    const posted: { msg: WorkerMessage; transfer: Transferable[] }[] = [];
    const sockets: FakeSocket[] = [];
    let now = 1000;
    let frameCb: (() => void) | null = null;
    const w = new StreamWorker({
      post: (msg, transfer) => posted.push({ msg, transfer }),
      now: () => now,
      nextFrame: (cb) => {
        frameCb = cb;
      },
      createSocket: (url) => {
        const f = new FakeSocket(url);
        sockets.push(f);
        return f;
      },
    });
    w.start({ url: 'ws://h/ws-service/websocket', token: 'a b', reconnectDelayMs: 10 });
    expect(sockets[0]!.url).toBe('ws://h/ws-service/websocket?token=a%20b');
    sockets[0]!.onopen?.();
    const enc = new PushEncoder();
    const snap = (lng: number) => enc.positions(FrameKind.Snapshot, Date.now(), {
      vehicleId: [7], lng: [lng], lat: [30], speed: [10], heading: [0], state: [2], alarmFlags: [0], gpsTime: [Date.now()], lastContact: [Date.now()],
    }, [0], 1);
    const bytes = snap(120);
    sockets[0]!.onmessage?.({ data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
    frameCb!();
    const frames = posted.filter((p) => p.msg.type === 'frame');
    expect(frames).toHaveLength(1);
    expect(frames[0]!.transfer).toHaveLength(5);
    expect(posted.some((p) => p.msg.type === 'stats')).toBe(true);
    expect(posted.filter((p) => p.msg.type === 'status').map((p) => p.msg.type === 'status' && p.msg.connection)).toEqual(['connecting', 'open']);

    // Nothing changed: the next animation frame posts nothing.
    now += 16;
    frameCb!();
    expect(posted.filter((p) => p.msg.type === 'frame')).toHaveLength(1);

    w.control().setToken('fresh');
    sockets[0]!.drop();
    return new Promise<void>((resolve) => setTimeout(() => {
      expect(sockets[1]!.url).toContain('token=fresh');
      sockets[1]!.onopen?.();
      const again = snap(121);
      sockets[1]!.onmessage?.({ data: again.buffer.slice(again.byteOffset, again.byteOffset + again.byteLength) });
      expect(w.control().lookup(7)).toMatchObject({ lng: 121 });
      w.dispose();
      resolve();
    }, 30));
  });
});
