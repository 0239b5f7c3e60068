/**
 * The monitor page fed by the real stream worker (StreamWorker with a scripted socket, no Worker): the
 * port is a queue both sides drain by hand, so the order of frames, stats and releases is the one a
 * page sees and every step is deterministic.
 */
import { describe, expect, it } from 'vitest';
import { VehicleState } from '../../../domain/vehicle/state.ts';
import { DirectoryKind, FrameKind, PushEncoder } from '../../../proto/codec.ts';
import type { SocketLike } from '../../live/stream/socket.ts';
import { StreamWorker } from '../../live/stream/stream-worker.ts';
import type { WorkerMessage } from '../../live/stream/protocol.ts';
import type { LiveFrame, LiveMessage, LiveSource } from './live-source.ts';
import { MonitorController } from './monitor-controller.ts';

const encoder = new PushEncoder();
const SERVER_T0 = Date.UTC(2026, 10, 25, 2, 0, 0);
const FLEET = 20;

function wired() {
  let now = 0;
  const sockets: SocketLike[] = [];
  const port: WorkerMessage[] = [];
  const worker = new StreamWorker({
    post: (m) => port.push(m),
    now: () => now,
    nextFrame: () => undefined, // the test steps the worker itself
    createSocket: () => {
      const s: SocketLike = { binaryType: '', onopen: null, onclose: null, onmessage: null, onerror: null, close: () => undefined };
      sockets.push(s);
      return s;
    },
  });
  let listener: ((m: LiveMessage) => void) | undefined;
  const source: LiveSource = {
    subscribe(l) {
      listener = l;
      return () => (listener = undefined);
    },
    release: (f: LiveFrame) => worker.release(f),
    setDisplayCrs: (crs) => worker.control().setDisplayCrs(crs),
    directory: (ids) => Promise.resolve(worker.control().directory(ids)),
    dispose: () => worker.dispose(),
  };
  const controller = new MonitorController(source, { clusters: false, schedule: (cb) => cb(), now: () => now });
  /** One animation frame of the worker, then the main thread reads what it posted. */
  const tick = (ms: number) => {
    now += ms;
    worker.step();
    for (const m of port.splice(0)) if (m.type === 'frame' || m.type === 'stats' || m.type === 'status') listener?.(m);
  };
  worker.start({ url: 'ws://h/ws-service/websocket', token: 't' });
  return { controller, worker, tick, socket: () => sockets[0]!, local: () => now };
}

/** The directory and the snapshot a fresh connection starts with: a parked fleet that reported a minute ago. */
function snapshot(socket: SocketLike, serverTime: number) {
  const ids = Array.from({ length: FLEET }, (_, i) => 100 + i);
  const send = (bytes: Uint8Array) => socket.onmessage!({ data: bytes.slice().buffer });
  send(encoder.directory(DirectoryKind.Full, ids.map((id) => ({ vehicleId: id, companyId: 1, plate: `沪A${id}`, deviceNo: `T${id}` }))));
  send(encoder.positions(FrameKind.Snapshot, serverTime, {
    vehicleId: ids, lng: ids.map((_, i) => 121.4 + i * 0.001), lat: ids.map(() => 31.2), speed: ids.map(() => 0), heading: ids.map(() => 0),
    state: ids.map(() => VehicleState.Parking), alarmFlags: ids.map(() => 0),
    gpsTime: ids.map(() => serverTime - 60_000), lastContact: ids.map(() => serverTime - 60_000),
  }, ids.map((_, i) => i), FLEET));
}

describe('the vehicle list fed by the stream worker', () => {
  it('lists the whole fleet when the snapshot lands right after the first (empty) frame and no terminal reports after it', () => {
    const { controller, tick, socket } = wired();
    tick(16); // the worker's first frame: nothing known yet
    expect(controller.getPanel()).toMatchObject({ frames: 1, listLength: 0 });
    socket().onopen!();
    snapshot(socket(), SERVER_T0);
    tick(16); // the snapshot's frame, well within the 500 ms the list waits between refreshes
    expect(controller.fleet.views().count).toBe(FLEET); // the map already draws the fleet
    // The fleet is parked: no terminal reports, so no further frame comes; stats keep their 2 Hz.
    for (let i = 0; i < 120; i++) tick(16);
    expect(controller.getPanel()).toMatchObject({ listLength: FLEET, vehicleCount: FLEET });
    expect(controller.listId(0)).toBe(100);
  });

  it('keeps listing what the last frame showed when a tab change or a report lands between refreshes', () => {
    const { controller, tick, socket } = wired();
    socket().onopen!();
    snapshot(socket(), SERVER_T0);
    tick(16);
    expect(controller.getPanel().listLength).toBe(FLEET);
    controller.setTab('driving');
    expect(controller.getPanel().listLength).toBe(0);
    // One vehicle drives off 100 ms later (inside the list's 500 ms window), then all is quiet again.
    tick(100);
    socket().onmessage!({
      data: encoder.positions(FrameKind.Delta, SERVER_T0 + 1000, {
        vehicleId: [105], lng: [121.405], lat: [31.2], speed: [30], heading: [90], state: [VehicleState.Driving], alarmFlags: [0],
        gpsTime: [SERVER_T0 + 1000], lastContact: [SERVER_T0 + 1000],
      }, [0], 1).slice().buffer,
    });
    for (let i = 0; i < 120; i++) tick(16);
    expect(controller.getPanel().listLength).toBe(1);
    expect(controller.listId(0)).toBe(105);
  });
});
