import { describe, expect, it, vi } from 'vitest';
import { chinaDayStartMs, chinaDayIndex } from '../../domain/track/days.ts';
import type { PassengerFlowUpload, BodyTemperatureUpload } from '../gateway/jt808/passenger.ts';
import { hasTemperatureTerminal, registerBus, simPassengerUploads } from './passengers.ts';

const day = chinaDayStartMs(chinaDayIndex(Date.UTC(2026, 10, 27)));

/** A bus driving a day: 3 minutes between stops, one report moving and one standing at each stop. */
function drive(deviceNo: string, fromHour: number, toHour: number) {
  const out = [];
  for (let t = day + fromHour * 3_600_000; t < day + toHour * 3_600_000; t += 180_000) {
    simPassengerUploads(deviceNo, { status: 3, speed: 30, time: t });
    out.push(...simPassengerUploads(deviceNo, { status: 3, speed: 0, time: t + 60_000 }));
  }
  return out;
}

describe('simulated bus passenger counters', () => {
  registerBus('000000000101', 5);
  registerBus('000000000102', 5);
  registerBus('000000000103', 5);

  it('counts at every stop: front door boards, rear door alights, never more off than on board, empty at the terminus', () => {
    const ups = drive('000000000101', 6, 10).filter((m): m is PassengerFlowUpload => m.msgId === 0x1005);
    expect(ups.length).toBe(2 * 80);
    let onboard = 0;
    for (let i = 0; i < ups.length; i += 2) {
      const [front, rear] = [ups[i]!, ups[i + 1]!];
      expect(front.line).toMatchObject({ door: 1, stationSeq: rear.line!.stationSeq, direction: rear.line!.direction });
      expect(rear.alighting).toBeLessThanOrEqual(onboard);
      onboard += front.boarding - rear.alighting;
      expect(rear.line!.onboard).toBe(onboard);
      if (rear.line!.stationSeq === 5) expect(onboard).toBe(0);
    }
    // The morning peak boards more per stop than the hour before it.
    const perStop = (h: number) => ups.filter((u) => u.line!.door === 1 && Math.floor((u.end - day) / 3_600_000) === h).reduce((s, u) => s + u.boarding, 0);
    expect(perStop(8)).toBeGreaterThan(perStop(6));
  });

  it('is repeatable: a fresh simulator with the same device and times sends the same uploads', async () => {
    const run = async () => {
      vi.resetModules();
      const m = await import('./passengers.ts');
      m.registerBus('000000000301', 8);
      const out = [];
      for (let t = day + 7 * 3_600_000; t < day + 8 * 3_600_000; t += 180_000) {
        m.simPassengerUploads('000000000301', { status: 3, speed: 30, time: t });
        out.push(...m.simPassengerUploads('000000000301', { status: 3, speed: 0, time: t + 60_000 }));
      }
      return out;
    };
    const first = await run();
    expect(first.length).toBeGreaterThan(0);
    expect(await run()).toEqual(first);
  });

  it('temperature terminals measure boarders with plausible temperatures', () => {
    const device = ['000000000101', '000000000102', '000000000103', '000000000104', '000000000105', '000000000106'].find((d) => {
      registerBus(d, 5);
      return hasTemperatureTerminal(d);
    })!;
    const temps = drive(device, 7, 9).filter((m): m is BodyTemperatureUpload => m.msgId === 0x0e30);
    expect(temps.length).toBeGreaterThan(20);
    for (const m of temps) {
      expect(m.celsius).toBeGreaterThanOrEqual(36.2);
      expect(m.celsius).toBeLessThan(38.5);
    }
  });
});
