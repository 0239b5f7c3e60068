import { describe, expect, it } from 'vitest';
import type { SocketLike } from '../stream/socket.ts';
import type { VideoWorkerOut } from './protocol.ts';
import { VideoWorkerCore } from './video-worker-core.ts';

class FakeSocket implements SocketLike {
  binaryType = '';
  onopen: (() => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  close() {
    this.closed = true;
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const out: VideoWorkerOut[] = [];
  const core = new VideoWorkerCore({
    post: (m) => out.push(m),
    createSocket: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    codecs: { createDecoder: () => { throw new Error('no decoding in this test'); }, createChunk: (i) => i },
    now: () => 0,
    setInterval: () => 0,
    clearInterval: () => undefined,
  });
  return { core, sockets, statuses: () => out.filter((m) => m.type === 'status').map((m) => (m.type === 'status' ? m.status : null)) };
}

describe('a video tile worker', () => {
  it('keeps the server\'s reason when it ends the session, and does not reconnect', () => {
    const { core, sockets, statuses } = setup();
    core.handle({ type: 'connect', url: 'ws://x/ws-service/video' });
    const s = sockets[0]!;
    s.onopen?.();
    s.onmessage?.({ data: JSON.stringify({ type: 'status', state: 'stopped', reason: 'vehicleOffline' }) });
    s.onclose?.({ code: 1000, reason: 'vehicleOffline' });
    expect(statuses()).toEqual([{ type: 'status', state: 'stopped', reason: 'vehicleOffline' }]);
    expect(sockets).toHaveLength(1);
    expect(s.closed).toBe(true);
  });

  it('reports a dropped connection as reconnecting while the session was not ended', () => {
    const { core, sockets, statuses } = setup();
    core.handle({ type: 'connect', url: 'ws://x/ws-service/video' });
    sockets[0]!.onopen?.();
    sockets[0]!.onmessage?.({ data: JSON.stringify({ type: 'status', state: 'playing' }) });
    sockets[0]!.onclose?.({ code: 1006, reason: '' });
    expect(statuses().map((s) => s?.state)).toEqual(['playing', 'reconnecting']);
    core.close();
  });
});
