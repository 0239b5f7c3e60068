/**
 * The browser side of the intercom (TalkEnvironment): getUserMedia → AudioContext → the capture
 * worklet (workers/talk.worklet.ts, bundled by Vite as its own module) → 20 ms G.711A frames; the
 * terminal's audio plays through AudioOutput.
 */
import workletUrl from '../../../workers/talk.worklet.ts?worker&url';
import { AudioOutput } from './audio-output.ts';
import type { MicCapture, TalkEnvironment, TalkSocket } from './talk-session.ts';

async function startMic(onFrame: (alaw: Uint8Array) => void): Promise<MicCapture> {
  // Absent outside secure contexts (plain http on a LAN address): that is "no microphone" too.
  if (!navigator.mediaDevices?.getUserMedia) throw new Error('no microphone API');
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true } });
  const ctx = new AudioContext();
  try {
    await ctx.audioWorklet.addModule(workletUrl);
    const source = ctx.createMediaStreamSource(stream);
    const node = new AudioWorkletNode(ctx, 'talk-capture', { numberOfInputs: 1, numberOfOutputs: 0, channelCount: 1, channelCountMode: 'explicit' });
    node.port.onmessage = (ev: MessageEvent<Uint8Array>) => onFrame(ev.data);
    source.connect(node);
    if (ctx.state === 'suspended') await ctx.resume();
    return {
      stop() {
        node.port.onmessage = null;
        source.disconnect();
        for (const t of stream.getTracks()) t.stop();
        void ctx.close();
      },
    };
  } catch (e) {
    for (const t of stream.getTracks()) t.stop();
    void ctx.close();
    throw e;
  }
}

export function browserTalkEnvironment(): TalkEnvironment {
  let out: AudioOutput | null = null;
  return {
    startMic,
    openSocket: (url) => new WebSocket(url) as TalkSocket,
    play(pcm, rate) {
      (out ??= new AudioOutput()).play(pcm, rate);
    },
    closeAudio() {
      out?.close();
      out = null;
    },
  };
}
