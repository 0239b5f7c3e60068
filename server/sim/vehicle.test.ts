import { describe, expect, it } from 'vitest';
import { analyzeTrack } from '../../domain/track/analyze.ts';
import { columnsFromPoints } from '../../domain/track/columns.ts';
import { chinaTimeOfDayMs } from '../../domain/track/days.ts';
import { haversineKm } from '../../domain/track/geo.ts';
import { CITIES } from './cities.ts';
import { generatedDeviceNo } from './simulator.ts';
import { ALARM_CAMERA_FAULT, STATUS_ACC, VehicleProgram, type Emission, type SimRates, type VehicleSpec } from './vehicle.ts';

/** 2026-11-20 08:00 China time. */
const START = Date.UTC(2026, 10, 20, 0, 0, 0);
const HOUR = 3_600_000;

function program(i: number, extra: Partial<VehicleSpec> = {}, rates: Partial<SimRates> = {}): VehicleProgram {
  return new VehicleProgram({
    seed: 42, deviceNo: generatedDeviceNo(i), startMs: START, intervalMs: 10_000, parkedIntervalMs: 60_000,
    rates: { neverOnlineShare: 0, ...rates }, ...extra,
  });
}

function run(p: VehicleProgram, hours: number): Emission[] {
  const out: Emission[] = [];
  while (p.nextAt < START + hours * HOUR) out.push(p.step());
  return out;
}

function implied(a: { lng: number; lat: number; time: number }, b: { lng: number; lat: number; time: number }): number {
  return haversineKm(a.lng, a.lat, b.lng, b.lat) / ((b.time - a.time) / HOUR);
}

describe('VehicleProgram', () => {
  it('gives the same reports for the same seed and start time, and different ones for another seed', () => {
    for (let i = 0; i < 5; i++) {
      const a = run(program(i), 24);
      const b = run(program(i), 24);
      expect(a.length).toBeGreaterThan(1400);
      expect(JSON.stringify(b)).toBe(JSON.stringify(a));
      const other = run(program(i, { seed: 43 }), 24);
      expect(JSON.stringify(other)).not.toBe(JSON.stringify(a));
    }
  });

  it('drives the same path whatever the report rate', () => {
    const quiet = { driftPerDay: 0, offlinePerDay: 0, blindPerDrivingDay: 0 };
    const slow = run(program(2, {}, quiet), 10);
    const fast = run(program(2, { intervalMs: 5_000 }, quiet), 10);
    const byTime = new Map(fast.map((e) => [e.at, e.location]));
    let compared = 0;
    for (const e of slow) {
      const other = byTime.get(e.at);
      if (!other || !e.location) continue;
      expect([other.lng, other.lat]).toEqual([e.location.lng, e.location.lat]);
      compared++;
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('drives a plausible day: realistic speeds, stops, idling and overnight parking in a city; drift only where injected', () => {
    let drivenKm = 0;
    let injected = 0;
    let idleReports = 0;
    let maxSpeed = 0;
    let maxImplied = 0;
    let nightReports = 0;
    const nightViolations: string[] = [];
    let nightShift = 0;
    for (let i = 0; i < 20; i++) {
      const p0 = program(i, {}, { driftPerDay: 4 });
      const shift = p0.shiftHours;
      nightShift += shift > 0 ? 1 : 0;
      const emissions = run(p0, 24);
      const points = emissions.filter((e) => e.location).map((e) => ({ ...e.location!, drift: e.drift }));
      const analysis = analyzeTrack(columnsFromPoints(points));
      drivenKm += analysis.mileageKm;
      expect(analysis.stops.length).toBeGreaterThan(0);

      // Every injected jump is drift by the track rules (both legs over 160 km/h), and nothing else is.
      const flagged = [...analysis.drift];
      const expected = points.flatMap((p, k) => (p.drift && k > 0 && k < points.length - 1 ? [k] : []));
      expect(flagged).toEqual(expected);
      injected += expected.length;
      for (const k of expected) {
        expect(implied(points[k - 1]!, points[k]!)).toBeGreaterThan(160);
        expect(implied(points[k]!, points[k + 1]!)).toBeGreaterThan(160);
      }

      let previous: (typeof points)[number] | undefined;
      for (let k = 0; k < points.length; k++) {
        const p = points[k]!;
        maxSpeed = Math.max(maxSpeed, p.speed);
        if (analysis.driftFlags[k] === 1) continue;
        // Consecutive genuine points never imply more than a truck can do.
        if (previous) maxImplied = Math.max(maxImplied, implied(previous, p));
        previous = p;
        if ((p.status & STATUS_ACC) !== 0 && p.speed === 0) idleReports++;
        // 01:00–05:00 of the vehicle's working day (China time, or 12 h later on the night shift): parked, engine off, in a city.
        const hour = chinaTimeOfDayMs(p.time + shift * HOUR) / HOUR;
        if (hour >= 1 && hour < 5) {
          nightReports++;
          const inCity = CITIES.some((c) => haversineKm(c.lng, c.lat, p.lng, p.lat) < c.radiusKm * 1.2);
          if ((p.status & STATUS_ACC) !== 0 || p.speed !== 0 || !inCity) nightViolations.push(`${generatedDeviceNo(i)} at ${new Date(p.time).toISOString()}`);
        }
      }
    }
    expect(maxSpeed).toBeLessThanOrEqual(110);
    expect(maxImplied).toBeLessThan(115);
    expect(nightReports).toBeGreaterThan(20 * 60);
    expect(nightViolations).toEqual([]);
    expect(nightShift).toBeGreaterThan(0);
    expect(nightShift).toBeLessThan(10);
    expect(injected).toBeGreaterThan(20);
    expect(idleReports).toBeGreaterThan(100);
    // Trucks in a day: a few hundred km each on average.
    expect(drivenKm / 20).toBeGreaterThan(100);
    expect(drivenKm / 20).toBeLessThan(900);
  });

  it('keeps urban speeds at 20–50 km/h and highway speeds at 70–100 km/h when cruising', () => {
    const speeds: number[] = [];
    for (let i = 0; i < 30; i++) {
      for (const e of run(program(i, {}, { driftPerDay: 0 }), 14)) if (e.location && e.location.speed > 3) speeds.push(e.location.speed);
    }
    const share = (lo: number, hi: number) => speeds.filter((v) => v >= lo && v < hi).length / speeds.length;
    expect(share(0, 110)).toBe(1);
    expect(share(20, 55)).toBeGreaterThan(0.15);
    expect(share(70, 106)).toBeGreaterThan(0.15);
    expect(share(55, 70)).toBeLessThan(0.2);
  });

  it('leaves about 3% of terminals never online', () => {
    let never = 0;
    const n = 5000;
    for (let i = 0; i < n; i++) {
      const p = new VehicleProgram({ seed: 7, deviceNo: generatedDeviceNo(i), startMs: START, intervalMs: 10_000, parkedIntervalMs: 60_000 });
      if (p.link === 'never') {
        never++;
        expect(p.nextAt).toBe(Infinity);
      }
    }
    expect(never / n).toBeGreaterThan(0.02);
    expect(never / n).toBeLessThan(0.04);
  });

  it('records positions through a blind area at the normal interval, then comes back up', () => {
    const emissions = run(program(3, {}, { blindPerDrivingDay: 40, offlinePerDay: 0 }), 24);
    const start = emissions.findIndex((e) => e.link === 'blind');
    expect(start).toBeGreaterThan(0);
    let end = start;
    while (emissions[end]!.link === 'blind') end++;
    expect(end - start).toBeGreaterThanOrEqual(2);
    for (let k = start; k < end; k++) {
      expect(emissions[k]!.location).not.toBeNull();
      expect(emissions[k]!.at - emissions[k - 1]!.at).toBeLessThanOrEqual(60_000);
    }
    expect(emissions[end]!.link).toBe('up');
  });

  it('goes offline for a while without recording anything, then reports again', () => {
    const emissions = run(program(4, {}, { offlinePerDay: 30 }), 24);
    const k = emissions.findIndex((e) => e.link === 'off');
    expect(k).toBeGreaterThan(0);
    expect(emissions[k]!.location).toBeNull();
    const back = emissions[k + 1]!;
    expect(back.at - emissions[k]!.at).toBeGreaterThanOrEqual(3 * 60_000);
    expect(back.location).not.toBeNull();
  });

  it('raises ADAS and DMS alarms at low realistic rates while driving', () => {
    let adas = 0;
    let dms = 0;
    let drivingHours = 0;
    for (let i = 0; i < 40; i++) {
      for (const e of run(program(i), 24)) {
        const l = e.location;
        if (!l) continue;
        if (l.speed > 30) drivingHours += 10 / 3600;
        if (l.adas) {
          adas++;
          expect(l.adas.identification.terminalId).toBe(generatedDeviceNo(i).slice(-7));
        }
        if (l.dms) dms++;
      }
    }
    expect(drivingHours).toBeGreaterThan(40);
    expect(adas / drivingHours).toBeGreaterThan(0.15);
    expect(adas / drivingHours).toBeLessThan(1);
    expect(dms / drivingHours).toBeGreaterThan(0.05);
    expect(dms / drivingHours).toBeLessThan(0.6);
  });

  it('raises camera faults (alarm bit 11) for 10–120 minutes at their own rate, without changing the other events', () => {
    /** Time from the first to the last report of each fault (the reports it shows in). */
    const faultRuns = (rate: number) => {
      const runs: number[] = [];
      for (let i = 0; i < 10; i++) {
        let since = -1;
        let last = -1;
        for (const e of run(program(i, {}, { cameraFaultPerDay: rate }), 48)) {
          const l = e.location;
          if (!l) continue;
          const on = (l.alarm & ALARM_CAMERA_FAULT) !== 0;
          if (on) {
            if (since < 0) since = l.time;
            last = l.time;
          } else if (since >= 0) {
            runs.push(last - since);
            since = -1;
          }
        }
      }
      return runs;
    };
    const runs = faultRuns(2);
    expect(runs.length).toBeGreaterThan(10);
    expect(Math.max(...runs)).toBeLessThanOrEqual(120 * 60_000);
    expect(runs.reduce((a, b) => a + b, 0) / runs.length).toBeGreaterThan(20 * 60_000);
    expect(faultRuns(0)).toEqual([]);
    // Their own random stream: ADAS alarms come at the same times with or without camera faults.
    const adasAt = (rate: number) => run(program(3, {}, { cameraFaultPerDay: rate }), 24).filter((e) => e.location?.adas).map((e) => e.location!.time);
    expect(adasAt(2)).toEqual(adasAt(0));
  });

  it('takes its home city from the plate and keeps the plate it was given', () => {
    const p = program(5, { plate: '川A12345' });
    expect(p.plate).toBe('川A12345');
    expect(p.home.name).toBe('成都');
    expect(program(6).plate).toMatch(/^[\u4e00-\u9fff][A-Z][0-9A-Z]{5}$/);
  });
});
