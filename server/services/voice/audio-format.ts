/**
 * An audio file's type read from its first bytes, never from its name or the browser's content type
 * (a renamed .exe is not a sound): the three formats every browser's <audio> plays.
 * - wav: RIFF container with the WAVE form type ("RIFF" size "WAVE");
 * - ogg: the Ogg page capture pattern "OggS" (Vorbis or Opus inside);
 * - mp3: an ID3v2 tag ("ID3" + version < 0xff), or an MPEG audio frame header: 11 sync bits, a valid
 *   version (not 01) and layer (not 00), bitrate index not 1111 and sample-rate index not 11.
 */
export type AudioFormat = 'mp3' | 'wav' | 'ogg';

export const AUDIO_MIME: Record<AudioFormat, string> = { mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg' };

/** Bytes needed to decide (RIFF header is 12). */
export const AUDIO_SNIFF_BYTES = 12;

const ascii = (b: Uint8Array, at: number, text: string) => [...text].every((c, i) => b[at + i] === c.charCodeAt(0));

export function sniffAudio(head: Uint8Array): AudioFormat | null {
  if (head.length >= 12 && ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')) return 'wav';
  if (head.length >= 4 && ascii(head, 0, 'OggS')) return 'ogg';
  if (head.length >= 5 && ascii(head, 0, 'ID3') && head[3]! < 0xff && head[4]! < 0xff) return 'mp3';
  if (head.length >= 3 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0) {
    const version = (head[1]! >> 3) & 3;
    const layer = (head[1]! >> 1) & 3;
    const bitrate = head[2]! >> 4;
    const rate = (head[2]! >> 2) & 3;
    if (version !== 1 && layer !== 0 && bitrate !== 15 && rate !== 3) return 'mp3';
  }
  return null;
}
