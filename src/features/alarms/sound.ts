/** A short alarm tone from a WebAudio oscillator (no audio asset to ship or load). */
let ctx: AudioContext | null = null;

/** Two 880 Hz beeps of 150 ms. Silently does nothing where audio is unavailable or not yet allowed. */
export function playAlarmTone(): void {
  try {
    ctx ??= new AudioContext();
    if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
    const t0 = ctx.currentTime;
    for (const offset of [0, 0.25]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.2, t0 + offset);
      gain.gain.exponentialRampToValueAtTime(0.001, t0 + offset + 0.15);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0 + offset);
      osc.stop(t0 + offset + 0.16);
    }
  } catch {
    // Autoplay policy or no audio device: the pop-up and the counter still show the alarm.
  }
}
