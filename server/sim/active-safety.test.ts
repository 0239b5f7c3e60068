/**
 * A simulated terminal's ADAS/DMS alarms follow the active-safety block it holds (0xF364 / 0xF365):
 * the alarm speed threshold, the per-level enable bits and the level speed thresholds.
 */
import { describe, expect, it } from 'vitest';
import { ADAS_PARAMS, blockDefaults, DSM_PARAMS } from '../../domain/terminal-params/active-safety.ts';
import type { AdasAlarm, DmsAlarm, LocationInput } from '../gateway/jt808/index.ts';
import { activeSafetyOf, applyActiveSafety, simDefaultParameters, type ParameterStore } from './parameters.ts';

const ident = { terminalId: '1234567', time: 0, seq: 1, attachments: 0, reserved: 0 };
const adasAlarm = (type: number, speed: number): AdasAlarm => ({
  alarmId: 1, flag: 0, type, level: 1, frontSpeed: 0, frontDistance: 10, deviationType: 0, roadSignType: 0, roadSignValue: 0,
  speed, altitude: 0, lat: 31, lng: 121, time: 0, vehicleStatus: 0x401, identification: ident,
});
const dmsAlarm = (type: number, speed: number): DmsAlarm => ({
  alarmId: 2, flag: 0, type, level: 1, fatigue: 0, reserved: 0, speed, altitude: 0, lat: 31, lng: 121, time: 0, vehicleStatus: 0x401, identification: ident,
});
const report = (speed: number, adas?: AdasAlarm, dms?: DmsAlarm): LocationInput => ({ alarm: 0, status: 3, lat: 31, lng: 121, altitude: 0, speed, direction: 0, time: 0, adas, dms });

describe('simulated active-safety settings', () => {
  it('ships the standard defaults for both blocks', () => {
    const factory = simDefaultParameters({ plate: '苏A12345', heartbeatMs: 30_000 });
    expect(factory.get(0xf364)).toEqual(blockDefaults(ADAS_PARAMS));
    expect(factory.get(0xf365)).toEqual(blockDefaults(DSM_PARAMS));
    expect(activeSafetyOf(new Map(), ADAS_PARAMS).alarmSpeedThreshold).toBe(30);
  });

  it('raises no lane departure below the alarm speed threshold the platform set, and one above it', () => {
    const store: ParameterStore = new Map([[0xf364, { ...blockDefaults(ADAS_PARAMS), alarmSpeedThreshold: 60 }]]);
    expect(applyActiveSafety(store, report(45, adasAlarm(2, 45))).adas).toBeUndefined();
    expect(applyActiveSafety(store, report(70, adasAlarm(2, 70))).adas).toMatchObject({ type: 2, level: 2 });
    // With the defaults (30 km/h) the same 45 km/h departure is an alarm, level one (level speed 50).
    expect(applyActiveSafety(new Map(), report(45, adasAlarm(2, 45))).adas).toMatchObject({ type: 2, level: 1 });
  });

  it('follows the level speed threshold and the enable bits per level', () => {
    const block = { ...blockDefaults(ADAS_PARAMS), forwardCollisionLevelSpeed: 90, alarmEnable: 0x00010fff & ~(1 << 4) };
    const store: ParameterStore = new Map([[0xf364, block]]);
    expect(applyActiveSafety(store, report(80, adasAlarm(1, 80))).adas?.level).toBe(1);
    expect(applyActiveSafety(store, report(95, adasAlarm(1, 95))).adas?.level).toBe(2);
    // Lane departure level one disabled (bit 4): none at 45 km/h, level two (bit 5) still raised at 60.
    expect(applyActiveSafety(store, report(45, adasAlarm(2, 45))).adas).toBeUndefined();
    expect(applyActiveSafety(store, report(60, adasAlarm(2, 60))).adas?.level).toBe(2);
  });

  it('gates DMS alarms by the DSM block: threshold and fatigue enable', () => {
    const store: ParameterStore = new Map([[0xf365, { ...blockDefaults(DSM_PARAMS), alarmSpeedThreshold: 50, alarmEnable: 0x3fc }]]);
    expect(applyActiveSafety(store, report(40, undefined, dmsAlarm(2, 40))).dms).toBeUndefined();
    expect(applyActiveSafety(store, report(55, undefined, dmsAlarm(2, 55))).dms).toMatchObject({ type: 2, level: 2 });
    expect(applyActiveSafety(store, report(55, undefined, dmsAlarm(1, 55))).dms).toBeUndefined(); // fatigue bits 0/1 off
    expect(applyActiveSafety(store, report(55)).adas).toBeUndefined();
  });
});
