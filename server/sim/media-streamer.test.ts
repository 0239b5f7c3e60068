import { afterEach, describe, expect, it } from 'vitest';
import { describeAvc } from '../../proto/h264.ts';
import { decodeMediaFrame, MEDIA_KIND, type MediaFrame, type MediaStatus } from '../../proto/media-frame.ts';
import { MediaHub, type ChannelTarget, type Signalling, type Viewer } from '../media/media-hub.ts';
import { MediaPort } from '../media/media-port.ts';
import { MediaStreamer } from './media-streamer.ts';

class TestViewer implements Viewer {
  bufferedAmount = 0;
  frames: MediaFrame[] = [];
  states: string[] = [];
  send(data: Uint8Array | string) {
    if (typeof data === 'string') this.states.push((JSON.parse(data) as MediaStatus).state);
    else this.frames.push(decodeMediaFrame(data));
  }
}

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 300 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
};

async function rig(streamType: 0 | 1, withAudio: boolean) {
  const streamer = new MediaStreamer();
  const sim = '013800000001';
  const target: ChannelTarget = { vehicleId: 1, sim, channel: 1, stream: streamType };
  // The simulated terminal answers the live request by connecting and streaming, as after a 0x9101.
  const signalling: Signalling = {
    openLive: (t) => streamer.start({ host: '127.0.0.1', port, sim: t.sim, simLength: 6, channel: t.channel, streamType: t.stream, withAudio }),
    closeLive: async (t) => streamer.stop(t.sim, t.channel),
  };
  const hub = new MediaHub(signalling);
  // No gateway here: the simulated terminal's 808 connection would come from this machine too.
  const mediaPort = new MediaPort(hub, { terminalAddress: () => '127.0.0.1' });
  const port = await mediaPort.listen(0, '127.0.0.1');
  cleanup.push(() => mediaPort.close(), () => streamer.close());
  return { streamer, hub, target, sim };
}

describe('a simulated terminal streaming video', () => {
  it('streams the sub-stream clip from a key frame with advancing timestamps and stops when the last viewer leaves', async () => {
    const { streamer, hub, target, sim } = await rig(1, false);
    const v = new TestViewer();
    const leave = hub.addViewer(target, v);
    await until(() => v.frames.length >= 30);
    expect(v.states).toEqual(['connecting', 'playing']);
    const first = v.frames[0]!;
    expect(first.key).toBe(true);
    expect(describeAvc(first.payload)).toMatchObject({ width: 320, height: 180 });
    const ts = v.frames.map((f) => f.timestamp);
    expect(ts.every((t, i) => i === 0 || t - ts[i - 1]! === 40)).toBe(true);
    // Frame 25 of the clip is its second IDR: the loop keeps the GOP structure.
    expect(v.frames[25]!.key).toBe(true);
    leave();
    expect(streamer.isStreaming(sim, 1)).toBe(false);
  });

  it('interleaves G.711A audio with the main stream when audio was asked for', async () => {
    const { hub, target } = await rig(0, true);
    const v = new TestViewer();
    hub.addViewer(target, v);
    await until(() => v.frames.filter((f) => f.kind === MEDIA_KIND.G711A).length >= 5);
    const video = v.frames.find((f) => f.kind === MEDIA_KIND.H264)!;
    expect(describeAvc(video.payload)).toMatchObject({ width: 640, height: 360 });
    expect(v.frames.find((f) => f.kind === MEDIA_KIND.G711A)!.payload).toHaveLength(320);
  });

  it('reports a refusal to the viewer when the media port cannot be reached', async () => {
    const streamer = new MediaStreamer();
    cleanup.push(() => streamer.close());
    const hub = new MediaHub({
      openLive: (t) => streamer.start({ host: '127.0.0.1', port: 1, sim: t.sim, simLength: 6, channel: t.channel, streamType: t.stream, withAudio: false }).catch(() => Promise.reject('connectFailed')),
      closeLive: async () => undefined,
    });
    const v = new TestViewer();
    hub.addViewer({ vehicleId: 2, sim: '013800000002', channel: 1, stream: 1 }, v);
    await until(() => v.states.length === 2);
    expect(v.states).toEqual(['connecting', 'stopped']);
    expect(streamer.stats.connectFailures).toBe(1);
  });
});
