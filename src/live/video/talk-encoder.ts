/**
 * The operator's microphone for the intercom: PCM at the AudioContext's rate (44.1 / 48 kHz) →
 * 8 kHz → G.711A frames of 20 ms (160 bytes), what JT/T 1078 terminals play (payload type 6).
 * Runs in the capture worklet (workers/talk.worklet.ts); pure, so unit tests drive it directly.
 *
 * Downsampling averages the input samples of each output period (a box filter): at 48 kHz that is
 * 6 samples, whose first null sits at 8 kHz — enough for speech on a 3.4 kHz telephone-band speaker,
 * and cheap (one add per input sample) on the audio thread.
 */
import { encodeG711A } from './g711.ts';

export const TALK_RATE = 8000;
/** 20 ms at 8 kHz: the terminal plays each as it comes, so short frames keep the delay low. */
export const TALK_FRAME_SAMPLES = 160;

export class MicFramer {
  /** Input samples consumed and output samples made in the current second: exact integer arithmetic, no drift. */
  private consumed = 0;
  private produced = 0;
  private acc = 0;
  private count = 0;
  private last = 0;
  private frame: Float32Array;
  private filled = 0;

  constructor(private readonly inputRate: number, private readonly frameSamples = TALK_FRAME_SAMPLES) {
    if (!(inputRate >= 3000) || !Number.isInteger(inputRate)) throw new RangeError(`input rate ${inputRate} must be a whole number ≥ 3000`);
    this.frame = new Float32Array(frameSamples);
  }

  /** Feeds input samples; `emit` gets each finished frame (a fresh buffer: it may be transferred). */
  push(input: Float32Array, emit: (alaw: Uint8Array) => void): void {
    for (let i = 0; i < input.length; i++) {
      this.acc += input[i]!;
      this.count++;
      this.consumed++;
      // Output sample k covers the input up to (k + 1) × inputRate / 8000.
      while (this.consumed * TALK_RATE >= (this.produced + 1) * this.inputRate) {
        // Below 8 kHz input an output period may hold no new sample: repeat the last one.
        const v = this.count > 0 ? this.acc / this.count : this.last;
        this.last = v;
        this.acc = 0;
        this.count = 0;
        this.produced++;
        if (this.produced === TALK_RATE) {
          this.produced = 0;
          this.consumed -= this.inputRate;
        }
        this.frame[this.filled++] = v;
        if (this.filled === this.frameSamples) {
          emit(encodeG711A(this.frame, new Uint8Array(this.frameSamples)));
          this.filled = 0;
        }
      }
    }
  }
}
