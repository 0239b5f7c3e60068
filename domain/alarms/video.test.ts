import { describe, expect, it } from 'vitest';
import { AlarmEngine } from './engine.ts';
import { videoAlarmItem, videoAlarmWord } from './video.ts';

const report = (time: number, videoAlarm?: number) => ({ vehicleId: 7, time, alarmWord: 0, status: 3, edition: 2019 as const, speed: 0, lng: 116.4, lat: 39.9, videoAlarm });

describe('1078 video alarm item 0x14', () => {
  it('reads the DWORD from the raw items and round-trips', () => {
    expect(videoAlarmWord(undefined)).toBeUndefined();
    expect(videoAlarmWord([{ id: 0x14, data: Uint8Array.of(1, 2) }])).toBeUndefined();
    expect(videoAlarmWord([{ id: 0x15, data: Uint8Array.of(0, 0, 0, 4) }, videoAlarmItem(0x8000_0044)])).toBe(0x8000_0044);
  });

  it('a storage unit fault bit (2) starts a held 15013 on its rise and ends it on its fall; an absent item changes nothing', () => {
    const engine = new AlarmEngine();
    expect(engine.report(report(1000, 0))).toEqual([]);
    const start = engine.report(report(2000, 1 << 2));
    expect(start).toMatchObject([{ kind: 'start', code: 15013, source: 'bit', time: 2000 }]);
    expect(engine.report(report(3000, 1 << 2))).toEqual([]);
    expect(engine.report(report(4000))).toEqual([]); // report without the item: the word holds
    expect(engine.isActive(7, 15013)).toBe(true);
    expect(engine.report(report(5000, (1 << 3) | (1 << 6)))).toMatchObject([
      { kind: 'end', code: 15013, time: 5000 }, { kind: 'start', code: 15014 }, { kind: 'start', code: 15015 },
    ]);
  });
});
