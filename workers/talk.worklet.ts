/**
 * The intercom's capture worklet (AudioWorkletGlobalScope): the microphone's PCM → 20 ms G.711A
 * frames (src/live/video/talk-encoder.ts), posted to the main thread with their buffers transferred.
 */
import { MicFramer } from '../src/live/video/talk-encoder.ts';

// The worklet scope's globals (TypeScript's DOM lib does not describe AudioWorkletGlobalScope).
declare const sampleRate: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(name: string, processor: new () => AudioWorkletProcessor): void;

class TalkCapture extends AudioWorkletProcessor {
  private readonly framer = new MicFramer(sampleRate);

  process(inputs: Float32Array[][]): boolean {
    const mono = inputs[0]?.[0];
    if (mono) this.framer.push(mono, (frame) => this.port.postMessage(frame, [frame.buffer]));
    return true;
  }
}

registerProcessor('talk-capture', TalkCapture);
