import { describe, expect, it } from 'vitest';
import { videoAlarmWord } from '../../domain/alarms/video.ts';
import { generatedDeviceNo } from './simulator.ts';
import { VehicleProgram, type SimRates } from './vehicle.ts';

const START = Date.UTC(2026, 10, 20, 0, 0, 0);
const HOUR = 3_600_000;

function storageRuns(i: number, rates: Partial<SimRates>, hours: number) {
  const p = new VehicleProgram({ seed: 42, deviceNo: generatedDeviceNo(i), startMs: START, intervalMs: 10_000, parkedIntervalMs: 60_000, rates: { neverOnlineShare: 0, ...rates } });
  const runs: [number, number][] = [];
  let open: [number, number] | null = null;
  const adas: number[] = [];
  while (p.nextAt < START + hours * HOUR) {
    const l = p.step().location;
    if (!l) continue;
    if (l.adas) adas.push(l.time);
    const word = videoAlarmWord(l.extras);
    if (word !== undefined && (word & 4) !== 0) {
      if (open) open[1] = l.time;
      else open = [l.time, l.time];
    } else if (open) {
      expect(word).toBe(0); // the fault's end is reported (0x14 = 0), so the held alarm ends
      runs.push(open);
      open = null;
    }
  }
  return { runs, adas };
}

describe('simulated storage unit faults (1078 item 0x14 bit 2, issue 18)', () => {
  it('come at their own rate for 1–6 hours, deterministic, without changing the other events', () => {
    const runs = Array.from({ length: 6 }, (_, i) => storageRuns(i, { storageFaultPerDay: 3 }, 48).runs).flat();
    expect(runs.length).toBeGreaterThan(4);
    for (const [from, to] of runs) expect(to - from).toBeLessThanOrEqual(6 * HOUR);
    expect(storageRuns(2, { storageFaultPerDay: 3 }, 48)).toEqual(storageRuns(2, { storageFaultPerDay: 3 }, 48));
    expect(storageRuns(2, { storageFaultPerDay: 0 }, 48).runs).toEqual([]);
    expect(storageRuns(2, { storageFaultPerDay: 3 }, 24).adas).toEqual(storageRuns(2, { storageFaultPerDay: 0 }, 24).adas);
  });
});
