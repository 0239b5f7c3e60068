import { describe, expect, it } from 'vitest';
import { encodeMediaFrame, MEDIA_KIND } from '../../../proto/media-frame.ts';
import { decodeG711, encodeG711A, g711Linear, linearToAlaw } from './g711.ts';
import { MicFramer } from './talk-encoder.ts';
import { TalkSession, type MicCapture, type TalkEnvironment, type TalkSocket } from './talk-session.ts';

describe('G.711 A-law encoding', () => {
  it('matches the ITU-T reference bytes at silence, full scale and a mid value', () => {
    expect(linearToAlaw(0)).toBe(0xd5);
    expect(linearToAlaw(-1)).toBe(0x55);
    expect(linearToAlaw(32767)).toBe(0xaa);
    expect(linearToAlaw(-32768)).toBe(0x2a);
    expect(linearToAlaw(1000)).toBe(0xfa);
    expect(linearToAlaw(-1000)).toBe(0x7a);
    // Beyond 16 bits clips instead of wrapping.
    expect(linearToAlaw(90_000)).toBe(0xaa);
  });

  it('decodes every 16-bit value back within half a quantisation step', () => {
    let worst = 0;
    for (let x = -32768; x <= 32767; x++) {
      const err = Math.abs(g711Linear.alaw(linearToAlaw(x)) - x);
      const allowed = Math.max(8, Math.abs(x) / 32) + 8;
      worst = Math.max(worst, err / allowed);
    }
    expect(worst).toBeLessThanOrEqual(1);
  });

  it('keeps a tone’s signal-to-noise ratio above 30 dB through encode and decode', () => {
    const pcm = new Float32Array(8000).map((_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / 8000));
    const back = decodeG711(encodeG711A(pcm), 'alaw');
    let signal = 0;
    let noise = 0;
    for (let i = 0; i < pcm.length; i++) {
      signal += pcm[i]! ** 2;
      noise += (pcm[i]! - back[i]!) ** 2;
    }
    expect(10 * Math.log10(signal / noise)).toBeGreaterThan(30);
  });
});

/** Frequency of a PCM tone from its zero crossings. */
function hz(pcm: Float32Array, rate: number): number {
  let crossings = 0;
  for (let i = 1; i < pcm.length; i++) if ((pcm[i - 1]! < 0) !== (pcm[i]! < 0)) crossings++;
  return crossings / 2 / (pcm.length / rate);
}

describe('the microphone framer (resample to 8 kHz, 20 ms G.711A frames)', () => {
  for (const rate of [48_000, 44_100, 16_000]) {
    it(`turns ${rate / 1000} kHz input pushed in 128-sample blocks into 160-byte frames of the same tone`, () => {
      const framer = new MicFramer(rate);
      const input = new Float32Array(rate / 2).map((_, i) => 0.6 * Math.sin((2 * Math.PI * 1000 * i) / rate));
      const frames: Uint8Array[] = [];
      for (let at = 0; at < input.length; at += 128) framer.push(input.subarray(at, at + 128), (f) => frames.push(f));
      // 0.5 s = 4000 samples at 8 kHz = 25 frames of 160.
      expect(frames.length).toBe(25);
      expect(frames.every((f) => f.length === 160)).toBe(true);
      const pcm = decodeG711(Uint8Array.from(frames.flatMap((f) => [...f])), 'alaw');
      expect(hz(pcm, 8000)).toBeGreaterThan(980);
      expect(hz(pcm, 8000)).toBeLessThan(1020);
      // The box filter keeps a 1 kHz tone's level (≈ 0.6 peak, minus < 10 %).
      expect(Math.max(...pcm)).toBeGreaterThan(0.5);
    });
  }
});

class FakeSocket implements TalkSocket {
  binaryType: BinaryType = 'blob';
  readyState = 1;
  onopen: TalkSocket['onopen'] = null;
  onmessage: TalkSocket['onmessage'] = null;
  onclose: TalkSocket['onclose'] = null;
  onerror: TalkSocket['onerror'] = null;
  readonly sent: (string | Uint8Array)[] = [];
  closed = false;
  constructor(readonly url: string) {}
  send(data: string | ArrayBufferLike | ArrayBufferView<ArrayBuffer>): void {
    this.sent.push(typeof data === 'string' ? data : new Uint8Array(data as ArrayBuffer));
  }
  close(): void {
    this.closed = true;
    this.readyState = 3;
  }
  server(data: string | ArrayBuffer): void {
    this.onmessage?.call(this as unknown as WebSocket, { data } as MessageEvent);
  }
}

function fakeEnv(micRefused = false) {
  const state = { socket: null as FakeSocket | null, mic: null as ((f: Uint8Array) => void) | null, micStopped: false, played: [] as Float32Array[], audioClosed: false };
  const env: TalkEnvironment = {
    startMic(onFrame) {
      if (micRefused) return Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
      state.mic = onFrame;
      return Promise.resolve<MicCapture>({ stop: () => (state.micStopped = true) });
    },
    openSocket(url) {
      state.socket = new FakeSocket(url);
      return state.socket;
    },
    play: (pcm) => state.played.push(pcm.slice()),
    closeAudio: () => (state.audioClosed = true),
  };
  return { env, state };
}

const status = (s: object) => JSON.stringify({ type: 'status', ...s });

describe('an intercom session', () => {
  it('asks for the microphone first, talks once the server says so, sends the microphone’s frames and plays the terminal’s audio', async () => {
    const { env, state } = fakeEnv();
    const session = new TalkSession('ws://x/ws-service/talk?vehicleId=1', env);
    await session.start();
    const ws = state.socket!;
    expect(ws.url).toBe('ws://x/ws-service/talk?vehicleId=1');
    expect(ws.binaryType).toBe('arraybuffer');
    ws.server(status({ state: 'connecting' }));
    // Not talking yet: microphone frames are not sent.
    state.mic!(new Uint8Array(160).fill(1));
    expect(ws.sent).toEqual([]);
    ws.server(status({ state: 'talking' }));
    expect(session.snapshot.state).toBe('talking');
    state.mic!(new Uint8Array(160).fill(2));
    expect(ws.sent).toEqual([new Uint8Array(160).fill(2)]);
    const frame = encodeMediaFrame({ kind: MEDIA_KIND.G711A, key: false, discontinuity: false, channel: 1, timestamp: 0, arrival: 0, payload: new Uint8Array(320).fill(0xaa) });
    ws.server(frame.buffer as ArrayBuffer);
    expect(state.played).toHaveLength(1);
    expect(state.played[0]!.length).toBe(320);
    expect(state.played[0]![0]).toBeCloseTo(32256 / 32768);
    expect(session.snapshot).toMatchObject({ framesSent: 1, framesReceived: 1 });

    session.stop();
    expect(ws.sent.at(-1)).toBe(JSON.stringify({ type: 'stop' }));
    expect(ws.closed).toBe(true);
    expect(state.micStopped).toBe(true);
    expect(state.audioClosed).toBe(true);
    expect(session.snapshot).toMatchObject({ state: 'stopped', reason: undefined });
  });

  it('stops with the intercom message without a microphone, and never opens the socket', async () => {
    const { env, state } = fakeEnv(true);
    const session = new TalkSession('ws://x', env);
    await session.start();
    expect(state.socket).toBeNull();
    expect(session.snapshot).toMatchObject({ state: 'stopped', reason: 'intercomFailed', detail: 'noMicrophone' });
  });

  it('takes the server’s failure (reason and detail) and releases the microphone; a dropped socket is a failure too', async () => {
    const a = fakeEnv();
    const refused = new TalkSession('ws://x', a.env);
    await refused.start();
    a.state.socket!.server(status({ state: 'stopped', reason: 'intercomFailed', detail: 'busy' }));
    expect(refused.snapshot).toMatchObject({ state: 'stopped', reason: 'intercomFailed', detail: 'busy' });
    expect(a.state.micStopped).toBe(true);

    const b = fakeEnv();
    const dropped = new TalkSession('ws://x', b.env);
    await dropped.start();
    b.state.socket!.server(status({ state: 'talking' }));
    b.state.socket!.onclose?.call(b.state.socket as unknown as WebSocket, {} as CloseEvent);
    expect(dropped.snapshot).toMatchObject({ state: 'stopped', reason: 'intercomFailed', detail: 'connectionClosed' });
  });
});

describe('an intercom session restarted (a remount)', () => {
  it('opens one socket only when stopped during the microphone prompt and started again', async () => {
    const { env, state } = fakeEnv();
    const sockets: TalkSocket[] = [];
    const open = env.openSocket;
    env.openSocket = (url) => {
      const s = open(url);
      sockets.push(s);
      return s;
    };
    const session = new TalkSession('ws://x', env);
    const first = session.start();
    session.stop();
    const second = session.start();
    await Promise.all([first, second]);
    expect(sockets).toHaveLength(1);
    expect(session.snapshot.state).toBe('connecting');
    state.socket!.server(status({ state: 'talking' }));
    expect(session.snapshot.state).toBe('talking');
  });
});
