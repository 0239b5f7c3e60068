/**
 * Recordings kept on a simulated terminal's storage (JT/T 1078 0x9205/0x1205, 0x9201 playback,
 * 0x9206 file upload). Deterministic from the device number alone: the same query always lists the
 * same files, whatever process answers it.
 *
 * Model: the DVR records while the vehicle works. Each China-time day (GMT+8) of the last
 * RETENTION_DAYS days holds 6–11 segments of 10–30 minutes between 06:00 and 22:00, recorded on every
 * camera channel (1..4) at once; channel 4 (cabin) skips about one segment in four. About one segment
 * in five was triggered or marked by an alarm (flags below). Only segments that ended before `now`
 * exist; older days have been overwritten (loop recording).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RecordingSelection } from '../../domain/video/playback.ts';
import { Rng } from './rng.ts';

/** A simulated recording: main stream (1) on main storage (1), audio + video (0), whole-second times. */
export interface SimRecording extends RecordingSelection {
  /** Bytes (≈ the main stream's 83 KB/s). */
  fileSize: number;
}

/** Camera channels a simulated terminal records (the same as its live cameras). */
export const RECORDING_CHANNELS = 4;
/** Days of loop recording a terminal keeps (older files are overwritten). */
export const RECORDING_RETENTION_DAYS = 7;
/** simRecordingFile holds at most this much video (≈ 5 MB): enough to prove an upload, cheap to move. */
export const RECORDING_FILE_CAP_MS = 60_000;

const DAY_MS = 86_400_000;
const CHINA_OFFSET_MS = 8 * 3_600_000;
/** Bytes per second of the committed main clip (331,262 bytes / 4 s). */
const BYTES_PER_SECOND = 82_816;

/** Alarm marks a segment may carry (JT/T 808 bit 0 SOS, 1 over-speed, 2 fatigue; 1078 bit 32+0 video loss, 32+4 abnormal driving). */
const ALARM_CHOICES: readonly bigint[] = [1n << 1n, 1n << 2n, 1n << 0n, 1n << 32n, 1n << 36n, (1n << 1n) | (1n << 36n)];

/** The segments of one China-time day (start of the day in epoch ms), shared by all channels. */
function daySegments(deviceNo: string, dayStart: number): { start: number; end: number; alarm: bigint; skipCabin: boolean }[] {
  const rng = Rng.of('recordings', deviceNo, dayStart);
  const count = 6 + Math.floor(rng.next() * 6);
  const out: { start: number; end: number; alarm: bigint; skipCabin: boolean }[] = [];
  // Spread the segments over 06:00–22:00: one slot each, a random start within the slot.
  const from = dayStart + 6 * 3_600_000;
  const slot = (16 * 3_600_000) / count;
  for (let i = 0; i < count; i++) {
    const minutes = 10 + Math.floor(rng.next() * 21);
    const length = minutes * 60_000 + Math.floor(rng.next() * 60) * 1000;
    const room = Math.max(0, slot - length);
    const start = from + i * slot + Math.floor((rng.next() * room) / 1000) * 1000;
    const alarm = rng.next() < 0.2 ? ALARM_CHOICES[Math.floor(rng.next() * ALARM_CHOICES.length)]! : 0n;
    out.push({ start: Math.floor(start / 1000) * 1000, end: Math.floor(start / 1000) * 1000 + length, alarm, skipCabin: rng.next() < 0.25 });
  }
  return out;
}

/**
 * The terminal's recordings overlapping [from, to] on `channel` (0 = every channel), deterministic per
 * device; recordings exist only in the past (before `now`). Sorted by start time, then channel.
 */
export function simRecordings(deviceNo: string, channel: number, from: number, to: number, now: number): SimRecording[] {
  if (!(to >= from) || channel < 0) return [];
  const oldest = chinaDayStart(now) - (RECORDING_RETENTION_DAYS - 1) * DAY_MS;
  const channels = channel === 0 ? [1, 2, 3, 4] : channel <= RECORDING_CHANNELS ? [channel] : [];
  const out: SimRecording[] = [];
  for (let day = Math.max(oldest, chinaDayStart(from)); day <= chinaDayStart(Math.min(to, now)); day += DAY_MS) {
    for (const s of daySegments(deviceNo, day)) {
      if (s.end > now || s.end < from || s.start > to) continue;
      for (const ch of channels) {
        if (ch === 4 && s.skipCabin) continue;
        out.push({
          channel: ch,
          startTime: s.start,
          endTime: s.end,
          alarmFlags: s.alarm,
          mediaType: 0,
          streamType: 1,
          storageType: 1,
          fileSize: Math.round(((s.end - s.start) / 1000) * BYTES_PER_SECOND),
        });
      }
    }
  }
  return out;
}

/** Epoch ms of 00:00 China time on the day holding `t`. */
export function chinaDayStart(t: number): number {
  return Math.floor((t + CHINA_OFFSET_MS) / DAY_MS) * DAY_MS - CHINA_OFFSET_MS;
}

let mainClip: Uint8Array | undefined;

function loadMainClip(): Uint8Array {
  mainClip ??= new Uint8Array(
    readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/video/main-640x360-25fps-4s.h264')),
  );
  return mainClip;
}

/**
 * The bytes a recording's file holds (what 0x9206 uploads): H.264 Annex B of the committed 4 s main
 * clip, looped to the recording's duration and capped at RECORDING_FILE_CAP_MS (15 loops, ≈ 5 MB).
 * The clip starts with SPS + PPS + IDR and ends before one, so the loops join cleanly.
 */
export function simRecordingFile(recording: SimRecording): Uint8Array {
  const clip = loadMainClip();
  const ms = Math.min(RECORDING_FILE_CAP_MS, Math.max(0, recording.endTime - recording.startTime));
  const loops = Math.max(1, Math.ceil(ms / 4000));
  const out = new Uint8Array(clip.length * loops);
  for (let i = 0; i < loops; i++) out.set(clip, i * clip.length);
  return out;
}
