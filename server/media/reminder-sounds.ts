/**
 * The sounds the alarm pop-up's reminder buttons play on a terminal's speaker by centre broadcast
 * (0x9101 data type 4), synthesized once at 8 kHz and encoded to G.711A:
 * - `music` (musicReminder, 铃声提醒): a four-note chime (C5 E5 G5 C6, 250 ms each with a bell decay),
 *   three times — a ring the driver notices without alarm;
 * - `audio` (audioReminder, 音频提醒): an urgent two-tone alert (960 / 770 Hz, 200 ms each) for 3 s.
 * No voice clips: the platform has no audio library yet (service-ops/audioManage is not built), so the
 * spoken reminder is the TTS button (0x8300); these two are tones by design.
 */
import { encodeAlaw } from '../../proto/g711.ts';

export type ReminderSound = 'music' | 'audio';

const RATE = 8000;

function chime(): Float32Array {
  const notes = [523.25, 659.25, 783.99, 1046.5];
  const noteS = 0.25;
  const pcm = new Float32Array(Math.round(3 * notes.length * noteS * RATE));
  for (let i = 0; i < pcm.length; i++) {
    const t = i / RATE;
    const k = Math.floor(t / noteS);
    const local = t - k * noteS;
    const f = notes[k % notes.length]!;
    pcm[i] = 0.5 * Math.exp(-6 * local) * Math.sin(2 * Math.PI * f * local);
  }
  return pcm;
}

function alert(): Float32Array {
  const pcm = new Float32Array(3 * RATE);
  for (let i = 0; i < pcm.length; i++) {
    const t = i / RATE;
    const f = Math.floor(t / 0.2) % 2 === 0 ? 960 : 770;
    pcm[i] = 0.6 * Math.sin(2 * Math.PI * f * t);
  }
  return pcm;
}

const cache = new Map<ReminderSound, Uint8Array>();

/** The sound as G.711A bytes (8 kHz mono), built on first use. */
export function reminderSound(kind: ReminderSound): Uint8Array {
  let bytes = cache.get(kind);
  if (!bytes) {
    bytes = encodeAlaw(kind === 'music' ? chime() : alert());
    cache.set(kind, bytes);
  }
  return bytes;
}
