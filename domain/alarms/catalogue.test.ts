import { describe, expect, it } from 'vitest';
import { ADAS_TYPES, DMS_TYPES } from './sources.ts';
import {
  ADAS_GROUP,
  ALARM_GROUPS,
  ALARM_TYPES,
  alarmName,
  byCode,
  groupCodes,
  groupOf,
  isClassification,
  PLATFORM_GENERATED_CODES,
  typesOfGroup,
} from './catalogue.ts';

const alarms = ALARM_TYPES.filter((t) => t.group !== 1);

describe('the alarm type catalogue (spec §3)', () => {
  it('has about 200 codes, each exactly once', () => {
    const codes = ALARM_TYPES.map((t) => t.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.length).toBeGreaterThanOrEqual(190);
    expect(codes.length).toBeLessThanOrEqual(230);
  });

  it('files every type under the group its code starts with, except the ADAS codes under group 19', () => {
    for (const t of alarms) {
      expect(t.code, `${t.code} ${t.zh}`).toBeGreaterThanOrEqual(10_000);
      expect(t.code, `${t.code} ${t.zh}`).toBeLessThan(100_000);
      expect(t.group === ADAS_GROUP ? 10 : t.group, `${t.code} ${t.zh}`).toBe(Math.floor(t.code / 1000));
      expect(groupOf(t.code)).toBe(t.group);
    }
  });

  it('files every ADAS (0x64) code under the ADAS group and every DMS (0x65) code under driver status', () => {
    expect(ADAS_TYPES.size).toBeGreaterThan(0);
    for (const code of ADAS_TYPES.values()) expect(groupOf(code), `ADAS ${code}`).toBe(ADAS_GROUP);
    for (const code of DMS_TYPES.values()) expect(groupOf(code), `DMS ${code}`).toBe(10);
    // The spec's dashboard sets: the vehicle risk set is ADAS, the driver fatigue set driver status.
    for (const code of [10006, 10007, 10017, 10016, 10012, 10008, 10009, 10010]) expect(groupOf(code), String(code)).toBe(ADAS_GROUP);
    for (const code of [10001, 10002, 10003, 10013, 10004, 10005, 10034, 10032]) expect(groupOf(code), String(code)).toBe(10);
    expect(alarmName(ADAS_GROUP, 'en')).toContain('ADAS');
  });

  it('matches a group filter to exactly the codes filed under the group', () => {
    const matches = (group: number, code: number) => {
      const c = groupCodes(group);
      return (code >= c.from && code < c.to && !c.except.includes(code)) || c.plus.includes(code);
    };
    for (const group of ALARM_GROUPS.filter((g) => g !== 1)) {
      const filed = alarms.filter((t) => matches(group, t.code)).map((t) => t.code);
      expect(filed, `group ${group}`).toEqual(typesOfGroup(group).map((t) => t.code));
    }
    expect(matches(10, 10006)).toBe(false);
    expect(matches(ADAS_GROUP, 10006)).toBe(true);
    expect(matches(10, 10040)).toBe(true); // a code added later falls in its range
  });

  it('has one heading per group in group 1, whose code is the group number, in the spec order', () => {
    const headings = typesOfGroup(1);
    expect(headings.map((t) => t.code)).toEqual(ALARM_GROUPS.filter((g) => g !== 1));
    for (const h of headings) expect(isClassification(h.code)).toBe(true);
    expect(isClassification(10001)).toBe(false);
    expect(isClassification(1)).toBe(false);
  });

  it('gives every group of the spec at least three types', () => {
    for (const group of ALARM_GROUPS.filter((g) => g !== 1)) {
      expect(typesOfGroup(group).length, `group ${group}`).toBeGreaterThanOrEqual(3);
    }
  });

  it('leaves exactly 82 and 82001 to 82011 without an English name', () => {
    const chineseOnly = ALARM_TYPES.filter((t) => t.en === null).map((t) => t.code);
    expect(chineseOnly).toEqual([82, ...Array.from({ length: 11 }, (_, i) => 82001 + i)]);
  });

  it('has non-empty, trimmed names, Chinese ones containing Chinese characters', () => {
    for (const t of ALARM_TYPES) {
      expect(t.zh.trim()).toBe(t.zh);
      expect(t.zh, String(t.code)).toMatch(/\p{Script=Han}/u);
      if (t.en !== null) {
        expect(t.en.trim(), String(t.code)).toBe(t.en);
        expect(t.en, String(t.code)).toMatch(/^[A-Z0-9]/);
        expect(t.en, String(t.code)).not.toMatch(/\p{Script=Han}/u);
      }
    }
  });

  it('does not repeat a Chinese name within a group', () => {
    for (const group of ALARM_GROUPS) {
      const names = typesOfGroup(group).map((t) => t.zh);
      expect(new Set(names).size, `group ${group}`).toBe(names.length);
    }
  });

  it('has every code the spec names as a dashboard or statistics key', () => {
    const keys = [10001, 10002, 10003, 10004, 10005, 10006, 10007, 10008, 10009, 10010, 10012, 10013, 10016, 10032, 10034, 10047, 10011, 10033, 10017];
    for (const code of keys) expect(byCode(code), String(code)).toBeDefined();
  });

  it('keeps the platform-generated (specially treated) codes inside the catalogue and out of the headings', () => {
    for (const code of PLATFORM_GENERATED_CODES) {
      expect(byCode(code), String(code)).toBeDefined();
      expect(isClassification(code)).toBe(false);
    }
  });

  it('cannot be changed by a caller', () => {
    const first = ALARM_TYPES[0]!;
    expect(() => {
      (first as { zh: string }).zh = 'x';
    }).toThrow(TypeError);
  });
});

describe('catalogue lookups', () => {
  it('finds a type by code', () => {
    expect(byCode(10001)).toEqual({ code: 10001, group: 10, zh: '疲劳驾驶报警', en: 'Fatigue driving alarm' });
    expect(byCode(99999)).toBeUndefined();
  });

  it('names a type in the asked language', () => {
    expect(alarmName(17001, 'zh')).toBe('紧急报警');
    expect(alarmName(17001, 'en')).toBe('Emergency alarm');
  });

  it('falls back to the Chinese name where a type has no English one', () => {
    expect(alarmName(82003, 'en')).toBe('AEB紧急制动');
    expect(alarmName(82, 'en')).toBe(alarmName(82, 'zh'));
  });

  it('labels an unknown code with the code instead of leaving it blank', () => {
    expect(alarmName(12345, 'en')).toBe('Alarm 12345');
    expect(alarmName(12345, 'zh')).toBe('报警12345');
  });

  it('derives the group of codes added later from the code design, and refuses others', () => {
    expect(groupOf(59999)).toBe(59);
    expect(groupOf(82)).toBe(1);
    expect(groupOf(19001)).toBeUndefined();
    expect(groupOf(5)).toBeUndefined();
    expect(groupOf(1)).toBeUndefined();
    expect(groupOf(100_001)).toBeUndefined();
    expect(groupOf(10001.5)).toBeUndefined();
    expect(groupOf(-10001)).toBeUndefined();
  });
});
