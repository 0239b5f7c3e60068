import { describe, expect, it } from 'vitest';
import { splitAccessUnits } from '../../proto/h264.ts';
import { seekPosition } from './playback.ts';
import { chinaDayStart, RECORDING_FILE_CAP_MS, RECORDING_RETENTION_DAYS, simRecordingFile, simRecordings } from './recordings.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 20, 9, 30); // 17:30 China time

describe('simulated recordings', () => {
  it('are the same for the same device whenever asked, and differ between devices', () => {
    const a = simRecordings('013800000001', 0, NOW - 3 * DAY, NOW, NOW);
    expect(simRecordings('013800000001', 0, NOW - 3 * DAY, NOW, NOW)).toEqual(a);
    // Asked later, the same past files are still listed.
    expect(simRecordings('013800000001', 0, NOW - 3 * DAY, NOW, NOW + 3_600_000).slice(0, a.length)).toEqual(a);
    const b = simRecordings('013800000002', 0, NOW - 3 * DAY, NOW, NOW);
    expect(b.map((r) => r.startTime)).not.toEqual(a.map((r) => r.startTime));
  });

  it('holds 10–30 minute segments on whole seconds between 06:00 and 22:00, only in the past, on channels 1–4', () => {
    const all = simRecordings('013800000001', 0, NOW - 2 * DAY, NOW, NOW);
    expect(all.length).toBeGreaterThan(20);
    for (const r of all) {
      expect(r.endTime).toBeLessThanOrEqual(NOW);
      expect(r.endTime - r.startTime).toBeGreaterThanOrEqual(10 * 60_000);
      expect(r.endTime - r.startTime).toBeLessThan(31 * 60_000);
      expect(r.startTime % 1000).toBe(0);
      const hour = (r.startTime - chinaDayStart(r.startTime)) / 3_600_000;
      expect(hour).toBeGreaterThanOrEqual(6);
      expect(hour).toBeLessThan(22);
      expect([1, 2, 3, 4]).toContain(r.channel);
      expect(r.fileSize).toBeGreaterThan(0);
    }
    expect(all.some((r) => r.alarmFlags !== 0n)).toBe(true);
    expect(all.some((r) => r.alarmFlags === 0n)).toBe(true);
    // One channel is a subset of every channel.
    const ch2 = simRecordings('013800000001', 2, NOW - 2 * DAY, NOW, NOW);
    expect(ch2).toEqual(all.filter((r) => r.channel === 2));
    expect(simRecordings('013800000001', 5, NOW - 2 * DAY, NOW, NOW)).toEqual([]);
  });

  it('lists only files overlapping the period and none older than the retention', () => {
    const from = NOW - DAY;
    const to = NOW - DAY / 2;
    const some = simRecordings('013800000001', 1, from, to, NOW);
    expect(some.every((r) => r.endTime >= from && r.startTime <= to)).toBe(true);
    const old = simRecordings('013800000001', 1, NOW - (RECORDING_RETENTION_DAYS + 3) * DAY, NOW - (RECORDING_RETENTION_DAYS + 1) * DAY, NOW);
    expect(old).toEqual([]);
    expect(simRecordings('013800000001', 1, NOW + 1000, NOW + DAY, NOW)).toEqual([]);
  });

  it('file bytes are the looped clip, capped', () => {
    const [r] = simRecordings('013800000001', 1, NOW - DAY, NOW, NOW);
    const file = simRecordingFile(r!);
    // 25 frames a second for the capped minute.
    expect(splitAccessUnits(file).length).toBe((RECORDING_FILE_CAP_MS / 1000) * 25);
    expect(simRecordingFile({ ...r!, endTime: r!.startTime + 6000 }).length).toBe((file.length / 15) * 2);
  });
});

describe('playback seek position', () => {
  const segs = [{ start: 10_000, end: 70_000 }, { start: 100_000, end: 160_000 }];
  it('lands on the key frame at or before the time, skips gaps, and ends after the last recording', () => {
    expect(seekPosition(segs, 25_500)).toEqual({ segment: 0, pos: 25_000 });
    expect(seekPosition(segs, 80_000)).toEqual({ segment: 1, pos: 100_000 });
    expect(seekPosition(segs, 0)).toEqual({ segment: 0, pos: 10_000 });
    expect(seekPosition(segs, 160_000)).toBeUndefined();
  });
});
