import { describe, expect, it } from 'vitest';
import { ALARM_TYPES, byCode, isClassification, PLATFORM_GENERATED_CODES } from './catalogue.ts';
import {
  ABNORMAL_DRIVING_BITS,
  ADAS_TYPES,
  ALARM_FLAGS,
  ALARM_WINDOW_MS,
  alarmFlag,
  alarmFlagEdges,
  BSD_TYPES,
  codesForBits,
  defaultRiskLevel,
  DMS_TYPES,
  DRIVER_FATIGUE_SET,
  manualConfirmMask,
  PLATFORM_RULES,
  RISK_LEVEL_EXCEPTIONS,
  RISK_LEVELS,
  safetyItemPhase,
  SUBORDINATE_WARN_TYPES,
  TPMS_BITS,
  VEHICLE_RISK_SET,
  VIDEO_ALARM_BITS,
} from './sources.ts';

function bits(...list: number[]): number {
  return list.reduce((m, b) => (m | (1 << b)) >>> 0, 0);
}

function expectAlarmCode(code: number, what: string): void {
  expect(byCode(code), what).toBeDefined();
  expect(isClassification(code), what).toBe(false);
}

describe('JT/T 808 0x0200 alarm flags', () => {
  it('maps every bit 0–31 the standard defines to a catalogue code', () => {
    expect(ALARM_FLAGS.map((r) => r.bit)).toEqual(Array.from({ length: 32 }, (_, i) => i));
    for (const r of ALARM_FLAGS) expectAlarmCode(r.code, `bit ${r.bit}`);
    expect(new Set(ALARM_FLAGS.map((r) => r.code)).size).toBe(32);
  });

  it('follows the edition: bits 15–17 exist from 2019, bit 31 only in 2013', () => {
    for (const bit of [15, 16, 17]) {
      expect(alarmFlag(bit, 2013)).toBeUndefined();
      expect(alarmFlag(bit, 2019)).toBeDefined();
    }
    expect(alarmFlag(31, 2013)?.code).toBe(11003);
    expect(alarmFlag(31, 2019)).toBeUndefined();
    expect(alarmFlag(32, 2019)).toBeUndefined();
  });

  it('names the well-known bits as the standard does', () => {
    const zh = (bit: number) => byCode(alarmFlag(bit, 2019)!.code)!.zh;
    expect(zh(0)).toBe('紧急报警');
    expect(zh(1)).toBe('超速报警');
    expect(zh(4)).toBe('GNSS模块故障');
    expect(zh(8)).toBe('终端主电源掉电');
    expect(zh(13)).toBe('超速预警');
    expect(zh(19)).toBe('超时停车报警');
    expect(zh(23)).toBe('路线偏离报警');
    expect(zh(27)).toBe('车辆非法点火报警');
    expect(zh(30)).toBe('侧翻预警');
  });

  it('treats the answer-cleared bits as pulses and the rest as states', () => {
    const pulses = ALARM_FLAGS.filter((r) => r.kind === 'pulse').map((r) => r.bit);
    expect(pulses).toEqual([0, 3, 20, 21, 22, 27, 28, 31]);
  });

  it('starts an alarm when a bit rises and ends a state alarm when it falls', () => {
    const start = alarmFlagEdges(0, bits(1, 4), 2013);
    expect(start.raised.map((r) => r.code)).toEqual([12001, 15001]);
    expect(start.ended).toEqual([]);

    const held = alarmFlagEdges(bits(1, 4), bits(1, 4), 2013);
    expect(held).toEqual({ raised: [], ended: [] });

    const end = alarmFlagEdges(bits(1, 4), bits(4), 2013);
    expect(end.raised).toEqual([]);
    expect(end.ended.map((r) => r.code)).toEqual([12001]);
  });

  it('does not end anything when an answered pulse bit falls, and counts its next rise again', () => {
    expect(alarmFlagEdges(bits(0), 0, 2019)).toEqual({ raised: [], ended: [] });
    expect(alarmFlagEdges(0, bits(0), 2019).raised.map((r) => r.code)).toEqual([17001]);
  });

  it('handles bit 31 as an unsigned flag and ignores bits the edition reserves', () => {
    const all = 0xffffffff;
    expect(alarmFlagEdges(0, all, 2013).raised.map((r) => r.bit)).toEqual(Array.from({ length: 32 }, (_, i) => i).filter((b) => b < 15 || b > 17));
    expect(alarmFlagEdges(0, all, 2019).raised.map((r) => r.bit)).toEqual(Array.from({ length: 31 }, (_, i) => i));
    expect(alarmFlagEdges(0, bits(31) | 0, 2013).raised.map((r) => r.code)).toEqual([11003]);
  });

  it('gives the 0x8203 confirmation mask only for the confirmable alarms', () => {
    expect(manualConfirmMask(17001)).toBe(bits(0));
    expect(manualConfirmMask(13001)).toBe(bits(20));
    expect(manualConfirmMask(17006)).toBe(bits(28));
    expect(manualConfirmMask(12001)).toBe(0);
    expect(manualConfirmMask(11003)).toBe(0);
    const all = ALARM_FLAGS.reduce((m, r) => (m | manualConfirmMask(r.code)) >>> 0, 0);
    expect(all).toBe(bits(0, 3, 20, 21, 22, 27, 28));
  });
});

describe('active-safety and other items', () => {
  it('maps every ADAS type the codec decodes (1–7, 0x10, 0x11) to an ADAS-group code', () => {
    for (const type of [1, 2, 3, 4, 5, 6, 7, 0x10, 0x11]) {
      const code = ADAS_TYPES.get(type);
      expect(code, `ADAS ${type}`).toBeDefined();
      expectAlarmCode(code!, `ADAS ${type}`);
      expect(byCode(code!)!.group).toBe(19);
    }
    expect(ADAS_TYPES.get(0x08)).toBeUndefined();
  });

  it('maps every DMS type the codec decodes (1–5, 0x10, 0x11) to a driver-status code', () => {
    for (const type of [1, 2, 3, 4, 5, 0x10, 0x11]) {
      const code = DMS_TYPES.get(type);
      expect(code, `DMS ${type}`).toBeDefined();
      expectAlarmCode(code!, `DMS ${type}`);
      expect(byCode(code!)!.group).toBe(10);
    }
  });

  it('names the ADAS and DMS codes as the Jiangsu standard does', () => {
    expect(byCode(ADAS_TYPES.get(1)!)!.zh).toBe('前向碰撞报警');
    expect(byCode(ADAS_TYPES.get(3)!)!.zh).toBe('车距过近报警');
    expect(byCode(DMS_TYPES.get(2)!)!.zh).toBe('接打手持电话报警');
    expect(byCode(DMS_TYPES.get(0x11)!)!.zh).toBe('驾驶员变更事件');
  });

  it('maps blind-area, tire-pressure, video, abnormal-driving and JT/T 809 signals to catalogue codes of the right group', () => {
    const cases: [ReadonlyMap<number, number>, number[]][] = [
      [BSD_TYPES, [14]],
      [TPMS_BITS, [16]],
      [VIDEO_ALARM_BITS, [15, 11]],
      [ABNORMAL_DRIVING_BITS, [10]],
      [SUBORDINATE_WARN_TYPES, [81]],
    ];
    for (const [table, groups] of cases) {
      for (const [key, code] of table) {
        expectAlarmCode(code, `${key}`);
        expect(groups).toContain(byCode(code)!.group);
      }
    }
    expect([...TPMS_BITS.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('turns a TPMS word into codes and skips the periodic report bit', () => {
    expect(codesForBits(TPMS_BITS, bits(0))).toEqual([]);
    expect(codesForBits(TPMS_BITS, bits(0, 2, 6))).toEqual([16002, 16006]);
    expect(codesForBits(VIDEO_ALARM_BITS, bits(0, 5))).toEqual([15011]);
  });

  it('reads the item flag as start, end, or an instant event', () => {
    expect(safetyItemPhase(1)).toBe('start');
    expect(safetyItemPhase(2)).toBe('end');
    expect(safetyItemPhase(0)).toBe('instant');
  });
});

describe('platform rules and dashboard sets', () => {
  it('raise exactly the specially treated platform-generated codes', () => {
    const codes = Object.values(PLATFORM_RULES);
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(codes)).toEqual(PLATFORM_GENERATED_CODES);
    expect(PLATFORM_RULES.offline).toBe(11004);
    expect(PLATFORM_RULES.overspeed).toBe(12003);
  });

  it('never raise a platform-generated code from a terminal signal', () => {
    const fromTerminal = [
      ...ALARM_FLAGS.map((r) => r.code),
      ...ADAS_TYPES.values(),
      ...DMS_TYPES.values(),
      ...BSD_TYPES.values(),
      ...TPMS_BITS.values(),
      ...VIDEO_ALARM_BITS.values(),
    ];
    for (const code of fromTerminal) expect(PLATFORM_GENERATED_CODES.has(code), String(code)).toBe(false);
  });

  it('list the dashboard sets exactly as the spec does', () => {
    expect(DRIVER_FATIGUE_SET).toEqual([10001, 10002, 10003, 10013, 10004, 10005, 10034, 10032]);
    expect(VEHICLE_RISK_SET).toEqual([10006, 10007, 10017, 10016, 10012, 10008, 10009, 10010]);
    for (const code of DRIVER_FATIGUE_SET) expect(byCode(code)!.group).toBe(10);
    for (const code of VEHICLE_RISK_SET) expect(byCode(code)!.group).toBe(19);
  });

  it('put fatigue and driver-behaviour types in the fatigue set and ADAS types in the risk set', () => {
    const dms = new Set(DMS_TYPES.values());
    const adas = new Set(ADAS_TYPES.values());
    for (const type of [1, 2, 3, 4, 5]) expect(DRIVER_FATIGUE_SET).toContain(DMS_TYPES.get(type));
    for (const type of [1, 2, 3, 4, 5, 7]) expect(VEHICLE_RISK_SET).toContain(ADAS_TYPES.get(type));
    for (const code of VEHICLE_RISK_SET) expect(dms.has(code)).toBe(false);
    for (const code of DRIVER_FATIGUE_SET) expect(adas.has(code)).toBe(false);
  });

  it('merge repeats within the 30-minute alarm window', () => {
    expect(ALARM_WINDOW_MS).toBe(1_800_000);
  });
});

describe('default risk levels', () => {
  it('give every alarm type one of the four levels, and headings none', () => {
    for (const t of ALARM_TYPES) {
      const level = defaultRiskLevel(t.code);
      if (t.group === 1) expect(level, String(t.code)).toBeUndefined();
      else expect(RISK_LEVELS, String(t.code)).toContain(level);
    }
    expect(defaultRiskLevel(19001)).toBeUndefined();
  });

  it('rate crashes and incapacity high, warnings low and events ordinary', () => {
    expect(defaultRiskLevel(17001)).toBe('high'); // emergency
    expect(defaultRiskLevel(10006)).toBe('high'); // forward collision
    expect(defaultRiskLevel(10001)).toBe('high'); // fatigue
    expect(defaultRiskLevel(10002)).toBe('medium'); // phone call
    expect(defaultRiskLevel(12001)).toBe('medium'); // overspeed
    expect(defaultRiskLevel(12002)).toBe('low'); // overspeed warning
    expect(defaultRiskLevel(15001)).toBe('low'); // GNSS fault
    expect(defaultRiskLevel(10015)).toBe('ordinary'); // capture event
    expect(defaultRiskLevel(11004)).toBe('ordinary'); // offline
    expect(defaultRiskLevel(82003)).toBe('high'); // AEB emergency braking
    expect(defaultRiskLevel(82007)).toBe('low'); // AEB system fault
  });

  it('only makes exceptions for codes in the catalogue', () => {
    for (const code of RISK_LEVEL_EXCEPTIONS.keys()) expectAlarmCode(code, String(code));
  });

  it('uses every level somewhere', () => {
    const used = new Set(ALARM_TYPES.map((t) => defaultRiskLevel(t.code)));
    for (const level of RISK_LEVELS) expect(used.has(level)).toBe(true);
  });
});
