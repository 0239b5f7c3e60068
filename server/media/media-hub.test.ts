import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isIdrAccessUnit, splitAccessUnits } from '../../proto/h264.ts';
import { decodeMediaFrame, MEDIA_KIND, type MediaFrame as WireFrame, type MediaStatus } from '../../proto/media-frame.ts';
import { Packetizer } from './jt1078/index.ts';
import { fixture } from './jt1078/test-support.ts';
import { MediaHub, normalizeSim, type ChannelTarget, type Signalling, type Viewer } from './media-hub.ts';
import { MediaPort, mediaPortOptions, type MediaPortOptions } from './media-port.ts';
import type { MediaLink, MediaTapSink } from './talk.ts';

const clip = splitAccessUnits(fixture('sub-320x180-25fps-4s.h264'));
const SIM = '013800138000';

/** A viewer that records statuses and decoded media frames; `backlog` fakes a backed-up socket. */
class TestViewer implements Viewer {
  statuses: MediaStatus[] = [];
  frames: WireFrame[] = [];
  bufferedAmount = 0;
  send(data: Uint8Array | string): void {
    if (typeof data === 'string') this.statuses.push(JSON.parse(data) as MediaStatus);
    else this.frames.push(decodeMediaFrame(data));
  }
  get states() {
    return this.statuses.map((s) => (s.reason ? `${s.state}:${s.reason}` : s.state));
  }
}

class TestSignalling implements Signalling {
  opened: ChannelTarget[] = [];
  closed: ChannelTarget[] = [];
  refuse: string | null = null;
  async openLive(t: ChannelTarget) {
    this.opened.push(t);
    if (this.refuse) throw this.refuse;
  }
  async closeLive(t: ChannelTarget) {
    this.closed.push(t);
  }
}

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

/** Every test terminal's JT/T 808 connection comes from this machine, unless a test says otherwise. */
async function setup(options: { now?: () => number; terminalAddress?: MediaPortOptions['terminalAddress']; idleMs?: number } = {}) {
  const signalling = new TestSignalling();
  const hub = new MediaHub(signalling, { now: options.now });
  const port = new MediaPort(hub, { terminalAddress: options.terminalAddress ?? (() => '127.0.0.1'), idleMs: options.idleMs });
  const portNumber = await port.listen(0, '127.0.0.1');
  open.push(port);
  return { signalling, hub, port, portNumber };
}

/** A terminal's media connection streaming clip frames `from`..`to` (exclusive) on `channel`. */
async function terminal(portNumber: number, opts: { channel?: number; sim?: string; simLength?: 6 | 10 } = {}) {
  const socket = net.connect(portNumber, '127.0.0.1');
  await new Promise<void>((r) => socket.once('connect', () => r()));
  socket.setNoDelay(true);
  open.push({ close: () => void socket.destroy() });
  const tx = new Packetizer({ sim: opts.sim ?? SIM, channel: opts.channel ?? 1, simLength: opts.simLength ?? 6 });
  return {
    socket,
    send(from: number, to: number) {
      for (let i = from; i < to; i++) {
        const au = clip[i % clip.length]!;
        socket.write(tx.video(au, i * 40, isIdrAccessUnit(au)));
      }
    },
    raw: (bytes: Uint8Array) => socket.write(bytes),
  };
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
};

const target: ChannelTarget = { vehicleId: 1, sim: SIM, channel: 1, stream: 1 };

describe('live video fan-out', () => {
  it('asks the terminal once for two viewers, keeps playing for one when the other leaves, and stops the terminal only after the last', async () => {
    const s = await setup();
    const a = new TestViewer();
    const b = new TestViewer();
    const leaveA = s.hub.addViewer(target, a);
    const leaveB = s.hub.addViewer(target, b);
    expect(s.signalling.opened).toHaveLength(1);
    const t = await terminal(s.portNumber);
    t.send(0, 10);
    await until(() => a.frames.length === 10 && b.frames.length === 10);
    leaveA();
    expect(s.signalling.closed).toHaveLength(0);
    t.send(10, 20);
    await until(() => b.frames.length === 20);
    expect(a.frames).toHaveLength(10);
    leaveB();
    expect(s.signalling.closed).toEqual([target]);
    expect(b.states).toEqual(['connecting', 'playing']);
  });

  it('starts a viewer who joins mid-stream at the latest key frame, so the picture appears at once', async () => {
    const s = await setup();
    const first = new TestViewer();
    s.hub.addViewer(target, first);
    const t = await terminal(s.portNumber);
    t.send(0, 33); // key frames at 0 and 25: the GOP now holds 25..32
    await until(() => first.frames.length === 33);
    const late = new TestViewer();
    s.hub.addViewer(target, late);
    expect(late.states).toEqual(['playing']);
    expect(late.frames).toHaveLength(8);
    expect(late.frames[0]!.key).toBe(true);
    expect(late.frames[0]!.timestamp).toBe(25 * 40);
    expect(late.frames.slice(1).every((f) => !f.key && f.kind === MEDIA_KIND.H264)).toBe(true);
  });

  it('stops every viewer with the real-time timeout when no frame arrives in time, and releases the terminal', async () => {
    let now = 0;
    const s = await setup({ now: () => now });
    const v = new TestViewer();
    s.hub.addViewer(target, v);
    now = 10_001;
    s.hub.sweep();
    expect(v.states).toEqual(['connecting', 'stopped:timeout']);
    expect(s.signalling.closed).toEqual([target]);
    expect(s.hub.stats.channels).toBe(0);
  });

  it('passes the terminal refusal on to the viewer', async () => {
    const s = await setup();
    s.signalling.refuse = 'deviceOffline';
    const v = new TestViewer();
    s.hub.addViewer(target, v);
    await until(() => v.statuses.length === 2);
    expect(v.states).toEqual(['connecting', 'stopped:deviceOffline']);
  });

  it('lets a backed-up viewer skip delta frames until the next key frame without holding back the others', async () => {
    const s = await setup();
    const slow = new TestViewer();
    const fast = new TestViewer();
    s.hub.addViewer(target, slow);
    s.hub.addViewer(target, fast);
    const t = await terminal(s.portNumber);
    t.send(0, 5);
    await until(() => fast.frames.length === 5);
    slow.bufferedAmount = 2 << 20;
    t.send(5, 10);
    await until(() => fast.frames.length === 10);
    slow.bufferedAmount = 0;
    t.send(10, 30);
    await until(() => fast.frames.length === 30);
    // The slow one resumed exactly at the key frame of frame 25.
    expect(slow.frames.map((f) => f.timestamp / 40)).toEqual([0, 1, 2, 3, 4, 25, 26, 27, 28, 29]);
    expect(s.hub.stats.skipped).toBe(20);
  });

  it('drops malformed packets on one connection and keeps every other channel playing', async () => {
    const s = await setup();
    const one = new TestViewer();
    const two = new TestViewer();
    s.hub.addViewer(target, one);
    s.hub.addViewer({ vehicleId: 2, sim: '013900139000', channel: 2, stream: 1 }, two);
    const bad = await terminal(s.portNumber);
    const good = await terminal(s.portNumber, { sim: '013900139000', channel: 2 });
    bad.send(0, 3);
    bad.raw(new Uint8Array([0x30, 0x31, 0x63, 0x64, 0xff, 0xff, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    bad.raw(new Uint8Array(500).fill(0x7e));
    bad.send(3, 6);
    good.send(0, 10);
    await until(() => two.frames.length === 10);
    await until(() => one.frames.length >= 3);
    expect(s.port.stats.badPackets).toBeGreaterThan(0);
    expect(two.frames.every((f) => f.channel === 2)).toBe(true);
  });

  it('recognises a 2019 terminal that sends a 10-byte SIM', async () => {
    const s = await setup();
    const v = new TestViewer();
    s.hub.addViewer({ vehicleId: 3, sim: '13800138000', channel: 1, stream: 0 }, v);
    const t = await terminal(s.portNumber, { sim: '00000000013800138000', simLength: 10 });
    t.send(0, 3);
    await until(() => v.frames.length === 3);
  });

  it('leaves a video stream with the hub while an intercom of the same SIM and channel waits: only an audio first packet is claimed', async () => {
    const s = await setup();
    const claimed: number[] = [];
    const frames: string[] = [];
    s.port.tap = {
      awaiting: (sim, channel) => (sim === normalizeSim(SIM) && channel === 1 ? 1 : undefined),
      claim: (_sim, channel, _link: MediaLink): MediaTapSink => {
        claimed.push(channel);
        return { onFrame: (f) => frames.push(f.kind), closed: () => undefined };
      },
    };
    const viewer = new TestViewer();
    s.hub.addViewer(target, viewer);
    const video = await terminal(s.portNumber);
    video.send(0, 5);
    await until(() => viewer.frames.length === 5);
    expect(claimed).toEqual([]);
    // The intercom's own connection opens with an audio packet: that one is the tap's.
    const talk = await terminal(s.portNumber);
    const tx = new Packetizer({ sim: SIM, channel: 1, simLength: 6 });
    talk.raw(tx.audio(new Uint8Array(160), 0));
    await until(() => frames.length === 1);
    expect([claimed, frames]).toEqual([[1], ['audio']]);
    expect(viewer.frames).toHaveLength(5);
  });

  it('attack via carrier NAT spoofing: with the address check on, a stream from another address than the terminal\'s 808 connection is refused; MEDIA_ADDRESS_CHECK=off binds it', async () => {
    // The terminal's 808 connection came from 10.20.30.40 (a carrier NAT); its media arrives from this machine.
    const checked = await setup({ terminalAddress: mediaPortOptions({ mediaAddressCheck: true, mediaFirstPacketMs: 5000 }, { authenticatedAddress: () => '10.20.30.40' }).terminalAddress });
    const refusedViewer = new TestViewer();
    checked.hub.addViewer(target, refusedViewer);
    const refused = await terminal(checked.portNumber);
    refused.send(0, 3);
    await new Promise<void>((r) => refused.socket.once('close', () => r()));
    expect(checked.port.stats.wrongAddress).toBe(1);
    expect(refusedViewer.frames).toHaveLength(0);

    const off = mediaPortOptions({ mediaAddressCheck: false, mediaFirstPacketMs: 5000 }, { authenticatedAddress: () => '10.20.30.40' });
    expect(off.terminalAddress).toBe('off');
    const open = await setup({ terminalAddress: off.terminalAddress });
    const viewer = new TestViewer();
    open.hub.addViewer(target, viewer);
    const t = await terminal(open.portNumber);
    t.send(0, 3);
    await until(() => viewer.frames.length === 3);
    expect(open.port.stats.wrongAddress).toBe(0);
  });

  it('attack: a terminal that is not authenticated on the gateway (no 808 address) cannot bind a stream', async () => {
    const s = await setup({ terminalAddress: () => undefined });
    s.hub.addViewer(target, new TestViewer());
    const t = await terminal(s.portNumber);
    t.send(0, 3);
    await new Promise<void>((r) => t.socket.once('close', () => r()));
    expect(s.port.stats.wrongAddress).toBe(1);
  });

  it('a terminal whose link died without a FIN reconnects: the dead socket is closed when idle, and the new connection then binds the channel', async () => {
    const s = await setup({ idleMs: 300 });
    const viewer = new TestViewer();
    s.hub.addViewer(target, viewer);
    const dead = await terminal(s.portNumber);
    dead.send(0, 5);
    await until(() => viewer.frames.length === 5);
    // While the old socket is open, a second connection cannot take the channel over.
    const early = await terminal(s.portNumber);
    early.send(25, 27);
    await new Promise<void>((r) => early.socket.once('close', () => r()));
    expect(s.port.stats.unexpected).toBe(1);
    await new Promise<void>((r) => dead.socket.once('close', () => r()));
    expect(s.port.stats.idle).toBe(1);
    await until(() => viewer.states.length === 3);
    expect(viewer.states).toEqual(['connecting', 'playing', 'connecting']);
    const again = await terminal(s.portNumber);
    again.send(25, 30);
    await until(() => viewer.frames.length === 10);
    expect(viewer.states.at(-1)).toBe('playing');
    expect(viewer.frames[5]!.key).toBe(true);
  });

  it('closes a media connection whose stream nobody asked for', async () => {
    const s = await setup();
    const t = await terminal(s.portNumber, { sim: '019999999999' });
    t.send(0, 3);
    await new Promise<void>((r) => t.socket.once('close', () => r()));
    expect(s.port.stats.unexpected).toBe(1);
  });
});
