import { describe, expect, it } from 'vitest';
import { decodeMediaFrame, type MediaFrame as ViewerFrame } from '../../proto/media-frame.ts';
import type { ResourceItem } from '../gateway/jt808/media-signalling.ts';
import { DATA_TYPE, PAYLOAD_TYPE, type MediaFrame } from './jt1078/index.ts';
import { PlaybackHub, type PlaybackSignalling, type PlaybackTarget } from './playback-hub.ts';

const T0 = Date.UTC(2026, 10, 20, 2, 0);
const target: PlaybackTarget = { vehicleId: 7, sim: '013800000007', channel: 1, startTime: T0, endTime: T0 + 600_000 };
const item: ResourceItem = { channel: 1, startTime: T0, endTime: T0 + 600_000, alarmFlags: 0n, mediaType: 0, streamType: 1, storageType: 1, fileSize: 1 };

function setup(open: () => Promise<ResourceItem[]> = () => Promise.resolve([item])) {
  let now = 1_000_000;
  const calls: string[] = [];
  const signalling: PlaybackSignalling = {
    open: () => {
      calls.push('open');
      return open();
    },
    control: (_t, r) => {
      calls.push(`control:${r.action}`);
      return Promise.resolve();
    },
    stop: () => {
      calls.push('stop');
      return Promise.resolve();
    },
  };
  const hub = new PlaybackHub(signalling, { now: () => now, startTimeoutMs: 10_000 });
  const frames: ViewerFrame[] = [];
  const texts: { type: string; state?: string; reason?: string; action?: string; ok?: boolean }[] = [];
  const viewer = {
    send(d: Uint8Array | string) {
      if (typeof d === 'string') texts.push(JSON.parse(d) as (typeof texts)[number]);
      else frames.push(decodeMediaFrame(d));
    },
    bufferedAmount: 0,
  };
  const states = () => texts.filter((t) => t.type === 'status').map((t) => (t.reason ? `${t.state}:${t.reason}` : t.state));
  return { hub, calls, frames, texts, viewer, states, advance: (ms: number) => (now += ms), now: () => now };
}

const frame = (timestamp: number, key: boolean): MediaFrame => ({
  sim: target.sim, channel: 1, kind: 'video', dataType: key ? DATA_TYPE.I_FRAME : DATA_TYPE.P_FRAME, payloadType: PAYLOAD_TYPE.H264,
  timestamp, lastIFrameInterval: 0, lastFrameInterval: 40, data: new Uint8Array([0, 0, 0, 1, key ? 0x65 : 0x41]), serial: 0, packets: 1, discontinuity: false,
});
const flush = () => new Promise((r) => setTimeout(r, 0));
/** A terminal connection accepted once the sessions of a test are open (`openedAt` far in the future of setup's clock start). */
const UP = { id: 1, openedAt: Number.MAX_SAFE_INTEGER };
/** The playback port binding a connection to the awaiting session (media-port.ts does this at its first packet). */
function bind(hub: PlaybackHub, up: { id: number; openedAt: number }) {
  expect(hub.awaiting(target.sim, 1, up)).toBe(target.vehicleId);
  hub.bind(target.sim, 1, up);
}

describe('PlaybackHub', () => {
  it('times out a terminal that never streams and tells it to stop', async () => {
    const h = setup();
    h.hub.open(target, h.viewer);
    await flush();
    h.advance(10_001);
    h.hub.sweep();
    expect(h.states()).toEqual(['connecting', 'stopped:timeout']);
    expect(h.calls).toEqual(['open', 'stop']);
    expect(h.hub.stats.sessions).toBe(0);
  });

  it('passes the terminal\'s refusal and an empty answer on as reasons', async () => {
    const refused = setup(() => Promise.reject(new Error('x')).catch(() => Promise.reject('noResponse')));
    refused.hub.open(target, refused.viewer);
    await flush();
    await flush();
    expect(refused.states()).toEqual(['connecting', 'stopped:noResponse']);
    const empty = setup(() => Promise.resolve([]));
    empty.hub.open(target, empty.viewer);
    await flush();
    expect(empty.states()).toEqual(['connecting', 'stopped:noRecording']);
  });

  it('refuses a second playback of the channel', () => {
    const h = setup();
    h.hub.open(target, h.viewer);
    const other = setup();
    expect(h.hub.open(target, other.viewer)).toBeUndefined();
    expect(other.states()).toEqual(['stopped:busy']);
  });

  it('drops frames from before a seek until a key frame at the new position arrives', async () => {
    const h = setup();
    const handle = h.hub.open(target, h.viewer)!;
    await flush();
    bind(h.hub, UP);
    h.hub.onFrame(frame(T0, true), h.now(), UP);
    h.hub.onFrame(frame(T0 + 40, false), h.now(), UP);
    const seek = handle.control({ type: 'control', action: 'seek', time: T0 + 300_000 });
    h.hub.onFrame(frame(T0 + 80, false), h.now(), UP);
    h.hub.onFrame(frame(T0 + 1000, true), h.now(), UP);
    h.hub.onFrame(frame(T0 + 300_000, true), h.now(), UP);
    h.hub.onFrame(frame(T0 + 300_040, false), h.now(), UP);
    await seek;
    expect(h.frames.map((f) => f.timestamp - T0)).toEqual([0, 40, 300_000, 300_040]);
    expect(h.hub.stats.staleAfterSeek).toBe(2);
    expect(h.texts.find((t) => t.type === 'control')).toMatchObject({ action: 'seek', ok: true });
    expect(h.calls).toContain('control:seek');
  });

  it('ends at the end of the recording without a stop, but a broken stream mid-way is a failed connection', async () => {
    const h = setup();
    h.hub.open(target, h.viewer);
    await flush();
    bind(h.hub, UP);
    h.hub.onFrame(frame(T0 + 599_960, false), h.now(), UP);
    h.hub.upstreamClosed(target.sim, 1, UP);
    expect(h.states().at(-1)).toBe('stopped:ended');
    expect(h.calls).toEqual(['open']);
    const b = setup();
    b.hub.open(target, b.viewer);
    await flush();
    bind(b.hub, UP);
    b.hub.onFrame(frame(T0 + 60_000, true), b.now(), UP);
    b.hub.upstreamClosed(target.sim, 1, UP);
    expect(b.states().at(-1)).toBe('stopped:connectFailed');
    expect(b.calls).toEqual(['open', 'stop']);
  });

  it('the viewer leaving sends stop once', async () => {
    const h = setup();
    const handle = h.hub.open(target, h.viewer)!;
    await flush();
    handle.leave();
    handle.leave();
    expect(h.calls).toEqual(['open', 'stop']);
    expect(h.hub.isPlaying(target.sim, 1)).toBe(false);
  });

  it('ignores the connection of the channel\'s previous session: it neither feeds the new one nor ends it when it closes', async () => {
    const h = setup();
    const first = h.hub.open(target, h.viewer)!;
    await flush();
    const old = { id: 1, openedAt: h.now() };
    bind(h.hub, old);
    h.advance(5);
    h.hub.onFrame(frame(T0, true), h.now(), old);
    first.leave();
    h.advance(5);
    const next = setup();
    const again = h.hub.open({ ...target, startTime: T0 + 300_000 }, next.viewer)!;
    expect(again).toBeDefined();
    await flush();
    h.advance(5);
    // the old socket still drains frames of the old position, then closes
    h.hub.onFrame(frame(T0 + 40, false), h.now(), old);
    h.hub.onFrame(frame(T0 + 80, true), h.now(), old);
    h.hub.upstreamClosed(target.sim, 1, old);
    expect(next.frames).toEqual([]);
    expect(next.states()).toEqual(['connecting']);
    // the old connection cannot be bound to the new session (accepted before its 0x9201); the new one is
    expect(h.hub.awaiting(target.sim, 1, old)).toBeUndefined();
    const fresh = { id: 2, openedAt: h.now() };
    bind(h.hub, fresh);
    expect(h.hub.awaiting(target.sim, 1, { id: 3, openedAt: h.now() })).toBeUndefined();
    h.hub.onFrame(frame(T0 + 300_000, true), h.now(), fresh);
    expect(next.frames.map((f) => f.timestamp - T0)).toEqual([300_000]);
    expect(next.states()).toEqual(['connecting', 'playing']);
    expect(h.hub.stats.staleUpstream).toBe(2);
    h.hub.upstreamClosed(target.sim, 1, fresh);
    expect(next.states().at(-1)).toBe('stopped:connectFailed');
  });

  it('a channel whose viewer is gone is taken over at once, and the terminal is told to stop before the new request', async () => {
    const h = setup();
    const gone = { ...h.viewer, gone: false };
    h.hub.open(target, gone);
    await flush();
    expect(h.hub.isHeld(target.sim, 1)).toBe(true);
    gone.gone = true;
    expect(h.hub.isHeld(target.sim, 1)).toBe(false);
    const next = setup();
    expect(h.hub.open(target, next.viewer)).toBeDefined();
    expect(h.calls).toEqual(['open', 'stop', 'open']);
    expect(next.states()).toEqual(['connecting']);
  });
});
