/**
 * Plays the PCM of the one tile whose sound is on: 8 kHz G.711 decoded by the video worker, queued
 * back to back on an AudioContext. A 60 ms lead absorbs arrival jitter (1.5 audio frames of 40 ms);
 * a late chunk starts now instead of queueing behind, so sound never drifts behind the picture.
 */
const LEAD_S = 0.06;

export class AudioOutput {
  private ctx: AudioContext | null = null;
  private next = 0;

  play(samples: Float32Array, sampleRate: number): void {
    const ctx = (this.ctx ??= new AudioContext());
    const buffer = ctx.createBuffer(1, samples.length, sampleRate);
    buffer.copyToChannel(samples as Float32Array<ArrayBuffer>, 0);
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(ctx.destination);
    const now = ctx.currentTime;
    if (this.next < now) this.next = now + LEAD_S;
    source.start(this.next);
    this.next += buffer.duration;
  }

  close(): void {
    void this.ctx?.close();
    this.ctx = null;
  }
}
