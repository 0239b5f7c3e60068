import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DATA_TYPE, PAYLOAD_TYPE, type MediaFrame } from './jt1078/index.ts';
import { TalkHub, type MediaLink, type TalkSignalling } from './talk.ts';

const SIM = '013800000001';
const audio = (): MediaFrame => ({
  sim: SIM, channel: 1, kind: 'audio', dataType: DATA_TYPE.AUDIO, payloadType: PAYLOAD_TYPE.G711A, timestamp: Date.now(), lastIFrameInterval: 0,
  lastFrameInterval: 0, data: new Uint8Array(160), serial: 0, packets: 1, discontinuity: false,
});

function setup(mode: 'talk' | 'broadcast') {
  const calls: string[] = [];
  const signalling: TalkSignalling = {
    open: () => Promise.resolve(),
    close: (_t, m) => {
      calls.push(`close:${m}`);
      return Promise.resolve();
    },
  };
  const hub = new TalkHub(signalling, { silenceTimeoutMs: 80 });
  const states: string[] = [];
  const session = hub.open({ vehicleId: 1, sim: SIM, channel: 1 }, mode, {
    send: (d) => {
      if (typeof d === 'string') {
        const s = JSON.parse(d) as { state: string; reason?: string };
        states.push(s.reason ? `${s.state}:${s.reason}` : s.state);
      }
    },
  });
  let closed = false;
  const link: MediaLink = { simLength: 6, write: () => true, queued: 0, close: () => (closed = true) };
  const sink = hub.claim(SIM, 1, link)!;
  return { hub, session, sink, states, calls, linkClosed: () => closed };
}

// Fake timers: the silence limit is measured, not raced against a loaded machine.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('TalkHub', () => {
  it('ends an intercom whose terminal fell silent (a dead link), telling the terminal and closing its socket', async () => {
    const t = setup('talk');
    for (let i = 0; i < 6; i++) {
      t.sink.onFrame(audio(), Date.now());
      await vi.advanceTimersByTimeAsync(30);
    }
    // 180 ms of a talking cab: still on, although longer than the 80 ms silence limit.
    expect(t.states).toEqual(['connecting', 'talking']);
    await vi.advanceTimersByTimeAsync(150);
    expect(t.states).toEqual(['connecting', 'talking', 'stopped:intercomFailed']);
    expect(t.calls).toEqual(['close:talk']);
    expect(t.linkClosed()).toBe(true);
    expect(t.hub.stats.sessions).toBe(0);
  });

  it('keeps a broadcast open although the terminal sends nothing (it only listens)', async () => {
    const t = setup('broadcast');
    await vi.advanceTimersByTimeAsync(150);
    expect(t.states).toEqual(['connecting', 'talking']);
    t.session.close();
  });
});
