/**
 * Issue 12 §2: media and playback connections are bound to the terminal that was asked. A real server
 * (gateway, media port, playback port) with two scripted JT/T 808 terminals A and B, and scripted
 * JT/T 1078 media connections: the packet's SIM and channel are claims, the binding decides.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isIdrAccessUnit, splitAccessUnits } from '../../proto/h264.ts';
import { decodeMediaFrame, type MediaFrame as WireFrame } from '../../proto/media-frame.ts';
import type { TestTerminal } from '../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { ScriptedFleet, type SeededVehicle } from '../test/scripted-fleet.ts';
import { until } from '../test/sim-fleet.ts';
import { Packetizer } from './jt1078/index.ts';
import { fixture } from './jt1078/test-support.ts';
import type { Viewer } from './media-hub.ts';

const clip = splitAccessUnits(fixture('sub-320x180-25fps-4s.h264'));
/** Short, so the silent-connection test waits well under a second. */
const FIRST_PACKET_MS = 400;

let server: LiveTestServer;
let fleet: ScriptedFleet;
let a: SeededVehicle;
let b: SeededVehicle;
let terminalA: TestTerminal;
let terminalB: TestTerminal;

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 12, mediaFirstPacketMs: FIRST_PACKET_MS });
  fleet = await ScriptedFleet.open(server);
  a = fleet.fresh();
  b = fleet.fresh();
  terminalA = await fleet.terminal(a);
  terminalB = await fleet.terminal(b);
});

afterAll(async () => {
  await fleet?.close();
  await server?.close();
});

class TestViewer implements Viewer {
  readonly frames: WireFrame[] = [];
  readonly statuses: string[] = [];
  bufferedAmount = 0;
  send(data: Uint8Array | string): void {
    if (typeof data === 'string') {
      const s = JSON.parse(data) as { state: string; reason?: string };
      this.statuses.push(s.reason ? `${s.state}:${s.reason}` : s.state);
    } else this.frames.push(decodeMediaFrame(data));
  }
}

/** A scripted JT/T 1078 media connection, optionally from another local address (127.0.0.2 is loopback too). */
async function mediaConnection(port: number, localAddress?: string) {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let isClosed = false;
  void closed.then(() => (isClosed = true));
  const streams = new Map<string, Packetizer>();
  /** Clip frames [from, to) as `sim` on `channel` (one packetizer per claimed stream, as a terminal has). */
  const video = (sim: string, channel: number, from: number, to: number) => {
    const key = `${sim}/${channel}`;
    let tx = streams.get(key);
    if (!tx) streams.set(key, (tx = new Packetizer({ sim, channel, simLength: 6 })));
    for (let i = from; i < to; i++) {
      const au = clip[i % clip.length]!;
      socket.write(tx.video(au, i * 40, isIdrAccessUnit(au)));
    }
  };
  const audio = (sim: string, channel: number) => socket.write(new Packetizer({ sim, channel, simLength: 6 }).audio(new Uint8Array(160), 0));
  return { socket, closed, isClosed: () => isClosed, video, audio };
}

const mediaPort = () => server.app.media.port;
const settle = () => new Promise((r) => setTimeout(r, 150));

describe('live media port: a connection is bound to the one requested channel of the terminal that was asked', () => {
  it('attack: terminal B injects frames naming A\'s SIM and channel on its own connection; they reach no viewer of A, B\'s connection is closed, and A\'s stream plays on unbroken', async () => {
    const hub = server.app.media.hub;
    const viewerA1 = new TestViewer();
    const viewerA2 = new TestViewer();
    const viewerB = new TestViewer();
    const leave = [
      hub.addViewer({ vehicleId: a.vehicleId, sim: a.deviceNo, channel: 1, stream: 1 }, viewerA1),
      hub.addViewer({ vehicleId: a.vehicleId, sim: a.deviceNo, channel: 1, stream: 1 }, viewerA2),
      hub.addViewer({ vehicleId: b.vehicleId, sim: b.deviceNo, channel: 2, stream: 1 }, viewerB),
    ];
    try {
      // The 0x9101s went out and were accepted.
      await until(() => terminalA.commands.some((c) => c.message.msgId === 0x9101) && terminalB.commands.some((c) => c.message.msgId === 0x9101));
      const streamA = await mediaConnection(mediaPort().port);
      const streamB = await mediaConnection(mediaPort().port);
      streamA.video(a.deviceNo, 1, 0, 10);
      streamB.video(b.deviceNo, 2, 0, 5);
      await until(() => viewerA1.frames.length === 10 && viewerA2.frames.length === 10 && viewerB.frames.length === 5);
      const foreignBefore = mediaPort().stats.foreign;
      // B's connection now claims to be A, channel 1, starting mid-GOP with a key frame of its own.
      streamB.video(a.deviceNo, 1, 25, 35);
      await streamB.closed;
      expect(mediaPort().stats.foreign).toBe(foreignBefore + 1);
      // A's real stream continues: every viewer sees exactly A's frames 0..19, in order, never "connecting" again.
      streamA.video(a.deviceNo, 1, 10, 20);
      await until(() => viewerA1.frames.length === 20 && viewerA2.frames.length === 20);
      await settle();
      for (const v of [viewerA1, viewerA2]) {
        expect(v.frames.map((f) => f.timestamp / 40)).toEqual([...Array(20).keys()]);
        expect(v.statuses).toEqual(['connecting', 'playing']);
      }
      // B's own channel went back to waiting for B's connection: its viewer lost nothing else.
      expect(viewerB.frames).toHaveLength(5);
      expect(streamA.isClosed()).toBe(false);
      streamA.socket.destroy();
    } finally {
      for (const l of leave) l();
    }
  });

  it('attack: a second connection naming a channel that already streams cannot take it over', async () => {
    const hub = server.app.media.hub;
    const viewer = new TestViewer();
    const leave = hub.addViewer({ vehicleId: a.vehicleId, sim: a.deviceNo, channel: 3, stream: 1 }, viewer);
    try {
      const first = await mediaConnection(mediaPort().port);
      first.video(a.deviceNo, 3, 0, 5);
      await until(() => viewer.frames.length === 5);
      const unexpected = mediaPort().stats.unexpected;
      const second = await mediaConnection(mediaPort().port);
      second.video(a.deviceNo, 3, 0, 5);
      await second.closed;
      expect(mediaPort().stats.unexpected).toBe(unexpected + 1);
      await settle();
      expect(viewer.frames).toHaveLength(5);
      first.socket.destroy();
    } finally {
      leave();
    }
  });

  it('attack: a connection naming a channel nobody requested (A\'s SIM, channel 5) is closed at its first packet', async () => {
    const unexpected = mediaPort().stats.unexpected;
    const c = await mediaConnection(mediaPort().port);
    c.video(a.deviceNo, 5, 0, 3);
    await c.closed;
    expect(mediaPort().stats.unexpected).toBe(unexpected + 1);
  });

  it('attack: a stream for A\'s requested channel from an address other than A\'s 808 connection is refused; A\'s own address is bound', async () => {
    const hub = server.app.media.hub;
    const viewer = new TestViewer();
    const leave = hub.addViewer({ vehicleId: a.vehicleId, sim: a.deviceNo, channel: 4, stream: 1 }, viewer);
    try {
      expect(server.app.live.gateway.authenticatedAddress(a.vehicleId)).toMatch(/127\.0\.0\.1$/);
      const wrongAddress = mediaPort().stats.wrongAddress;
      const stranger = await mediaConnection(mediaPort().port, '127.0.0.2');
      stranger.video(a.deviceNo, 4, 0, 5);
      await stranger.closed;
      expect(mediaPort().stats.wrongAddress).toBe(wrongAddress + 1);
      expect(viewer.frames).toHaveLength(0);
      // The channel still awaits its terminal: the refused stranger did not use it up.
      const own = await mediaConnection(mediaPort().port);
      own.video(a.deviceNo, 4, 0, 5);
      await until(() => viewer.frames.length === 5);
      own.socket.destroy();
    } finally {
      leave();
    }
  });

  it('attack: a connection that sends nothing (or only garbage) is closed after the bound time', async () => {
    const silent = mediaPort().stats.silent;
    const started = Date.now();
    const idle = await mediaConnection(mediaPort().port);
    const garbage = await mediaConnection(mediaPort().port);
    garbage.socket.write(new Uint8Array(40).fill(0x7e));
    await Promise.all([idle.closed, garbage.closed]);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(FIRST_PACKET_MS - 50);
    expect(took).toBeLessThan(FIRST_PACKET_MS + 2000);
    expect(mediaPort().stats.silent).toBe(silent + 2);
  });

  it('attack: the intercom follows the same rules: a stranger\'s address is refused, and the claimed connection naming another terminal\'s SIM is closed', async () => {
    const talk = server.app.media.talk;
    const sent: string[] = [];
    const session = talk.open({ vehicleId: a.vehicleId, sim: a.deviceNo, channel: 1 }, 'talk', { send: (d) => void (typeof d === 'string' && sent.push(d)) });
    try {
      const wrongAddress = mediaPort().stats.wrongAddress;
      const stranger = await mediaConnection(mediaPort().port, '127.0.0.2');
      stranger.audio(a.deviceNo, 1);
      await stranger.closed;
      expect(mediaPort().stats.wrongAddress).toBe(wrongAddress + 1);
      expect(session.state).toBe('connecting');
      const own = await mediaConnection(mediaPort().port);
      own.audio(a.deviceNo, 1);
      await session.started();
      const foreign = mediaPort().stats.foreign;
      own.audio(b.deviceNo, 1);
      await own.closed;
      expect(mediaPort().stats.foreign).toBe(foreign + 1);
      await until(() => session.state === 'stopped');
    } finally {
      session.close();
    }
  });
});

describe('playback port: the same binding against the 0x9201 that was sent', () => {
  it('attack: a stranger\'s address, an unrequested channel and a foreign SIM are refused; only A\'s connection for the requested channel feeds the viewer', async () => {
    const playback = server.app.media.playback;
    const port = playback.port;
    // No 0x1205 answer: the session stays waiting for its connection (it would time out after 10 s).
    terminalA.commandResult = null;
    const viewer = new TestViewer();
    const now = Date.now();
    const handle = playback.hub.open({ vehicleId: a.vehicleId, sim: a.deviceNo, channel: 2, startTime: now - 600_000, endTime: now }, viewer)!;
    try {
      await until(() => terminalA.commands.some((c) => c.message.msgId === 0x9201));
      const stats = { ...port.stats };
      const stranger = await mediaConnection(playback.boundPort(), '127.0.0.2');
      stranger.video(a.deviceNo, 2, 0, 3);
      const unrequested = await mediaConnection(playback.boundPort());
      unrequested.video(a.deviceNo, 1, 0, 3);
      await Promise.all([stranger.closed, unrequested.closed]);
      expect(port.stats.wrongAddress).toBe(stats.wrongAddress + 1);
      expect(port.stats.unexpected).toBe(stats.unexpected + 1);
      expect(viewer.frames).toHaveLength(0);
      const own = await mediaConnection(playback.boundPort());
      own.video(a.deviceNo, 2, 0, 5);
      await until(() => viewer.frames.length === 5);
      own.video(b.deviceNo, 2, 5, 10);
      await own.closed;
      expect(port.stats.foreign).toBe(stats.foreign + 1);
      expect(viewer.frames).toHaveLength(5);
    } finally {
      handle.leave();
      terminalA.commandResult = 0;
    }
  });
});
