/**
 * A short alarm tone from a WebAudio oscillator (no audio asset to ship or load), and whether the
 * browser is holding sound back. Browsers keep an AudioContext suspended until the page has had a
 * click or key press (after every reload): `soundState.blocked` says so, and the header shows an
 * "enable sound" control (SoundUnlock) instead of the tone failing silently.
 */
import { proxy, useSnapshot } from 'valtio';

let ctx: AudioContext | null = null;

export const soundState = proxy({ blocked: false });

function context(): AudioContext | null {
  if (ctx) return ctx;
  if (typeof AudioContext === 'undefined') return null;
  try {
    const c = new AudioContext();
    const track = () => {
      // 'running' means tones are heard; 'suspended' without a user gesture means the autoplay policy holds them.
      soundState.blocked = c.state !== 'running';
    };
    c.addEventListener('statechange', track);
    track();
    ctx = c;
    return c;
  } catch {
    // No audio device: nothing the user could unlock.
    return null;
  }
}

/** Checks once (without sounding) whether the browser would hold tones back now. */
export function probeSound(): void {
  const c = context();
  if (c && c.state === 'suspended') void c.resume().catch(() => undefined);
}

/** Called from a click: the gesture lets the context run; a short tone confirms that sound works. */
export async function unlockSound(): Promise<boolean> {
  const c = context();
  if (!c) return false;
  await c.resume().catch(() => undefined);
  soundState.blocked = c.state !== 'running';
  if (!soundState.blocked) playAlarmTone();
  return !soundState.blocked;
}

/** Two 880 Hz beeps of 150 ms. Where sound is held back, `soundState.blocked` turns true instead. */
export function playAlarmTone(): void {
  const c = context();
  if (!c) return;
  try {
    if (c.state === 'suspended') void c.resume().catch(() => undefined);
    soundState.blocked = c.state !== 'running';
    const t0 = c.currentTime;
    for (const offset of [0, 0.25]) {
      const osc = c.createOscillator();
      const gain = c.createGain();
      osc.type = 'sine';
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.2, t0 + offset);
      gain.gain.exponentialRampToValueAtTime(0.001, t0 + offset + 0.15);
      osc.connect(gain).connect(c.destination);
      osc.start(t0 + offset);
      osc.stop(t0 + offset + 0.16);
    }
  } catch {
    // The pop-up and the counter still show the alarm.
  }
}

export function useSoundBlocked(): boolean {
  return useSnapshot(soundState).blocked;
}
