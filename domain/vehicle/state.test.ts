import { describe, expect, it } from 'vitest';
import { deriveState, isOnline, OFFLINE_AFTER_MS, VehicleState } from './state.ts';

const now = Date.UTC(2026, 10, 22, 4, 0, 0);

describe('vehicle state derivation', () => {
  it('a terminal never heard from is never online', () => {
    expect(deriveState(NaN, now, 0, 0)).toBe(VehicleState.NeverOnline);
  });

  it('goes offline only after more than three minutes without contact', () => {
    expect(deriveState(now - OFFLINE_AFTER_MS, now, 50, 1)).toBe(VehicleState.Driving);
    expect(deriveState(now - OFFLINE_AFTER_MS - 1, now, 50, 1)).toBe(VehicleState.Offline);
  });

  it('tells driving, idling (ACC on, standing) and parking (ACC off, standing) apart', () => {
    expect(deriveState(now, now, 42, 0)).toBe(VehicleState.Driving);
    expect(deriveState(now, now, 1, 1)).toBe(VehicleState.Idling);
    expect(deriveState(now, now, 0, 0)).toBe(VehicleState.Parking);
  });

  it('counts driving, parking and idling as online', () => {
    expect([0, 1, 2, 3, 4].map((s) => isOnline(s as VehicleState))).toEqual([false, false, true, true, true]);
  });
});
