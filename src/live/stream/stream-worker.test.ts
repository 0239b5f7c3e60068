import { describe, expect, it, vi } from 'vitest';
import { VehicleState } from '../../../domain/vehicle/state.ts';
import { Commands, DirectoryKind, FrameKind, PushEncoder } from '../../../proto/codec.ts';
import type { LiveFrame, WorkerMessage } from './protocol.ts';
import type { SocketLike } from './socket.ts';
import { ALARMS_INTERVAL_MS, StreamWorker } from './stream-worker.ts';

const encoder = new PushEncoder();

function worker() {
  let now = 1000;
  const posted: WorkerMessage[] = [];
  const w = new StreamWorker({
    post: (m) => posted.push(m),
    now: () => now,
    nextFrame: () => undefined,
    createSocket: () => {
      throw new Error('no socket in this test');
    },
  });
  const alarmPosts = () => posted.filter((m): m is Extract<WorkerMessage, { type: 'alarms' }> => m.type === 'alarms');
  return { w, posted, alarmPosts, advance: (ms: number) => (now += ms) };
}

const alarm = (id: number, vehicleId = id) => encoder.json(Commands.alarm, { data: { id, alarmType: 12001, vehicleId, vehiidno: `沪A${id}`, dealStatus: 0 } });

describe('the stream worker’s frames', () => {
  it('posts a frame that came due while both buffer sets were on the main thread as soon as one comes back, with no new data', () => {
    const { w, posted, advance } = worker();
    const frames = () => posted.filter((m): m is LiveFrame => m.type === 'frame');
    w.step(); // the first frame (nothing known yet) takes buffer set A
    w.core.handleMessage(encoder.directory(DirectoryKind.Full, [{ vehicleId: 7, companyId: 1, plate: '沪A7', deviceNo: 'T7' }]), 1000);
    w.core.handleMessage(encoder.positions(FrameKind.Snapshot, 5000, {
      vehicleId: [7], lng: [121.4], lat: [31.2], speed: [0], heading: [0], state: [VehicleState.Parking], alarmFlags: [0], gpsTime: [4000], lastContact: [4000],
    }, [0], 1), 1000);
    advance(16);
    w.step(); // the snapshot takes buffer set B
    w.control().resync(); // a subscriber joined: both sets are still out, so nothing can go yet
    for (let i = 0; i < 10; i++) {
      advance(16);
      w.step();
    }
    expect(frames().map((f) => f.count)).toEqual([0, 1]);
    w.release(frames()[0]!);
    advance(16);
    w.step();
    expect(frames().map((f) => f.count)).toEqual([0, 1, 1]);
    // Nothing changed since: no more frames even with a free set.
    w.release(frames()[1]!);
    advance(16);
    w.step();
    expect(frames()).toHaveLength(3);
  });
});

describe('the stream worker’s alarm lists', () => {
  it('posts a burst of alarms as one snapshot, at most four times a second, and nothing while the lists stay the same', () => {
    const { w, alarmPosts, advance } = worker();
    w.step();
    expect(alarmPosts()).toHaveLength(1); // the initial (empty) lists
    for (let i = 1; i <= 5; i++) w.core.handleMessage(alarm(i), 0);
    w.step();
    expect(alarmPosts()).toHaveLength(1); // within 250 ms of the last post
    advance(ALARMS_INTERVAL_MS);
    w.step();
    expect(alarmPosts()).toHaveLength(2);
    expect(alarmPosts()[1]!.snapshot).toMatchObject({ unread: 5, counts: { alarms: 5, safety: 5, duty: 5 } });
    expect(alarmPosts()[1]!.snapshot.recent[0]!.id).toBe(5);
    advance(ALARMS_INTERVAL_MS);
    w.step();
    expect(alarmPosts()).toHaveLength(2);
  });

  it('posts single alarm messages to the main thread only while asked to, and keeps the lists either way', () => {
    const { w, posted } = worker();
    const singles = () => posted.filter((m): m is Extract<WorkerMessage, { type: 'alarm' }> => m.type === 'alarm');
    for (let i = 1; i <= 3; i++) w.core.handleMessage(alarm(i), 0);
    expect(singles()).toHaveLength(0);
    w.control().relayAlarms(true);
    w.core.handleMessage(alarm(4), 0);
    w.core.handleMessage(alarm(5), 0);
    expect(singles().map((m) => (m.data as { id: number }).id)).toEqual([4, 5]);
    w.control().relayAlarms(false);
    w.core.handleMessage(alarm(6), 0);
    expect(singles()).toHaveLength(2);
    expect(w.control().alarmList('alarms').map((a) => a.id)).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('answers the lists and clears the unread count through its control calls', () => {
    const { w, alarmPosts, advance } = worker();
    const control = w.control();
    w.core.handleMessage(alarm(1, 9), 0);
    w.core.handleMessage(alarm(2, 9), 0);
    expect(control.alarmList('safety').map((a) => a.id)).toEqual([2]);
    control.markAlarmsRead();
    control.markAlarmHandled(2, 2);
    advance(ALARMS_INTERVAL_MS);
    w.step();
    expect(alarmPosts().at(-1)!.snapshot).toMatchObject({ unread: 0, counts: { duty: 1 } });
  });

  it('applies an "alarm handled" push at once (another operator\'s handling leaves the pop-up) and posts it to the main thread', () => {
    const { w, posted } = worker();
    w.core.handleMessage(alarm(1), 0);
    w.core.handleMessage(alarm(2), 0);
    w.core.handleMessage(encoder.json(Commands.alarmHandled, { data: { alarmIds: [2], dealStatus: 2, boardItemId: null, userId: 5, time: 9 } }), 0);
    const handled = posted.filter((m): m is Extract<WorkerMessage, { type: 'alarmHandled' }> => m.type === 'alarmHandled');
    expect(handled.map((m) => m.notice)).toEqual([{ alarmIds: [2], dealStatus: 2, boardItemId: null, userId: 5, time: 9 }]);
    expect(w.alarms.snapshot().popup.map((a) => a.id)).toEqual([1]);
    expect(w.control().alarmList('duty').map((a) => a.id)).toEqual([1]);
    // A malformed one is counted as an error, not posted.
    w.core.handleMessage(encoder.json(Commands.alarmHandled, { data: { alarmIds: 'x' } }), 0);
    expect(w.core.errors).toBe(1);
    expect(posted.filter((m) => m.type === 'alarmHandled')).toHaveLength(1);
  });

  it('reconnects with the highest alarm id it holds, and adds the server\'s catch-up to its lists', () => {
    const urls: string[] = [];
    const sockets: SocketLike[] = [];
    const posts: WorkerMessage[] = [];
    let now = 0;
    const w = new StreamWorker({
      post: (m) => posts.push(m),
      now: () => now,
      nextFrame: () => undefined,
      createSocket: (url) => {
        urls.push(url);
        const s: SocketLike = { binaryType: '', onopen: null, onclose: null, onmessage: null, onerror: null, close: () => undefined };
        sockets.push(s);
        return s;
      },
    });
    vi.useFakeTimers();
    try {
      w.start({ url: 'ws://h/ws-service/websocket', token: 't', reconnectDelayMs: 1 });
      expect(posts.filter((m) => m.type === 'alarmHandled')).toEqual([]);
      expect(urls[0]).toBe('ws://h/ws-service/websocket?token=t'); // nothing to catch up on yet
      const first = sockets[0]!;
      first.onopen!();
      first.onmessage!({ data: toArrayBuffer(encoder.json(Commands.alarmReplay, { data: { after: null, lastId: 40, alarms: [], missed: 0, missedCapped: false } })) });
      first.onmessage!({ data: toArrayBuffer(alarm(41)) });
      first.onmessage!({ data: toArrayBuffer(alarm(42)) });
      first.onclose!({ code: 1006, reason: '' });
      vi.advanceTimersByTime(1); // the reconnect delay
      expect(urls[1]).toBe('ws://h/ws-service/websocket?token=t&alarmsAfter=42');
      const second = sockets[1]!;
      second.onopen!();
      const replayed = [43, 44].map((id) => ({ id, alarmType: 12001, vehicleId: id, vehiidno: `沪A${id}`, dealStatus: 0 }));
      second.onmessage!({ data: toArrayBuffer(encoder.json(Commands.alarmReplay, { data: { after: 42, lastId: 44, alarms: replayed, missed: 3, missedCapped: false } })) });
      now += ALARMS_INTERVAL_MS;
      expect(w.control().alarmList('alarms').map((a) => a.id)).toEqual([44, 43, 42, 41]);
      expect(w.alarms.snapshot()).toMatchObject({ missed: 3, unread: 4 });
      // Handlings made while away are not replayed: after the reconnect (not the first connect) views refetch.
      expect(posts.filter((m) => m.type === 'alarmHandled')).toEqual([{ type: 'alarmHandled', notice: null }]);
    } finally {
      w.dispose();
      vi.useRealTimers();
    }
  });
});

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.slice().buffer;
}
