import { describe, expect, it } from 'vitest';
import { ALARM_TYPES } from '../alarms/catalogue.ts';
import { chinaDayStartMs } from '../track/days.ts';
import {
  categoryOf, categoryScore, checkMonth, DEFAULT_APPRAISAL_SETTINGS, emptyCounts, fewRunningDaysMessage, monthDays, monthProblemMessage,
  normalRunningDays, per100Km, rankByScore, scoreVehicle, settingsProblemMessage, validateSettings, type AppraisalSettings,
} from './rules.ts';

const settings = (patch: { weights?: Partial<AppraisalSettings['weights']>; thresholds?: Partial<AppraisalSettings['thresholds']> }): AppraisalSettings => ({
  weights: { ...DEFAULT_APPRAISAL_SETTINGS.weights, ...patch.weights },
  thresholds: { ...DEFAULT_APPRAISAL_SETTINGS.thresholds, ...patch.thresholds },
});

describe('alarm categories', () => {
  it('maps the catalogue groups to the five appraisal categories', () => {
    expect(categoryOf(18001)).toBe('drivingSkill'); // harsh acceleration
    expect(categoryOf(10001)).toBe('drivingBehaviour'); // DMS fatigue
    expect(categoryOf(10006)).toBe('drivingBehaviour'); // ADAS forward collision warning
    expect(categoryOf(12001)).toBe('trafficViolation'); // overspeed
    expect(categoryOf(90001)).toBe('trafficViolation'); // red light
    expect(categoryOf(18005)).toBe('trafficAccident'); // collision (808 bit 29)
    expect(categoryOf(17007)).toBe('trafficAccident');
    expect(categoryOf(11004)).toBe('vehicleOperation'); // offline
    expect(categoryOf(15001)).toBe('vehicleOperation'); // GNSS fault
  });

  it('leaves headings, capture events, the emergency button and business groups out', () => {
    for (const code of [10, 12, 10014, 10015, 10018, 10019, 17001, 59001, 60001, 70001, 80001, 81001, 82006]) expect(categoryOf(code)).toBeUndefined();
  });

  it('puts every 10xxx alarm (DMS in group 10, ADAS in group 19) that is not an event into driving behaviour', () => {
    const dmsAndAdas = ALARM_TYPES.filter((t) => Math.floor(t.code / 1000) === 10);
    expect(new Set(dmsAndAdas.map((t) => t.group))).toEqual(new Set([10, 19]));
    expect(dmsAndAdas.filter((t) => categoryOf(t.code) === undefined).map((t) => t.code)).toEqual([10014, 10015, 10018, 10019]);
  });
});

describe('settings validation', () => {
  it('accepts the defaults', () => {
    expect(validateSettings(DEFAULT_APPRAISAL_SETTINGS)).toEqual([]);
    const sum = Object.values(DEFAULT_APPRAISAL_SETTINGS.weights).reduce((a, b) => a + b, 0);
    expect(sum).toBe(100);
  });

  it('refuses weights that do not add up to 100 and says the sum in both languages', () => {
    const problems = validateSettings(settings({ weights: { drivingSkill: 30 } }));
    expect(problems).toEqual([{ kind: 'weightSum', field: 'weights', sum: 110 }]);
    expect(settingsProblemMessage(problems[0]!, 'zh')).toBe('各项权重之和须为100%，当前为110%');
    expect(settingsProblemMessage(problems[0]!, 'en')).toBe('The weights must add up to 100%; they add up to 110%');
  });

  it('refuses fractional or negative weights and negative or over-precise thresholds, naming the field', () => {
    const problems = validateSettings(settings({ weights: { drivingSkill: 19.5, trafficAccident: -1 }, thresholds: { trafficViolation: -2, vehicleOperation: 0.125 } }));
    expect(problems.map((p) => p.field)).toEqual(['weights.drivingSkill', 'weights.trafficAccident', 'thresholds.trafficViolation', 'thresholds.vehicleOperation']);
    expect(settingsProblemMessage(problems[0]!, 'zh')).toContain('驾驶技能权重（weights.drivingSkill）');
    expect(settingsProblemMessage(problems[2]!, 'en')).toContain('Traffic violation threshold (thresholds.trafficViolation)');
  });

  it('accepts a zero threshold (no tolerance) and a zero weight', () => {
    expect(validateSettings(settings({ weights: { drivingSkill: 0, drivingBehaviour: 50 }, thresholds: { trafficAccident: 0 } }))).toEqual([]);
  });
});

describe('scores', () => {
  it('scores a category linearly from 100 (no alarms) to 0 at the threshold', () => {
    expect(categoryScore(0, 200, 5)).toBe(100);
    expect(categoryScore(5, 200, 5)).toBe(50); // 2.5 per 100 km against 5
    expect(categoryScore(10, 200, 5)).toBe(0);
    expect(categoryScore(30, 200, 5)).toBe(0);
    expect(categoryScore(1, 200, 0)).toBe(0);
    expect(per100Km(3, 150)).toBe(2);
    expect(per100Km(3, 0)).toBeNull();
  });

  it('weights the category scores into a total with one decimal (hand-checked)', () => {
    // 300 km: skill 3 → 1/100 km vs 10 → 90; behaviour 9 → 3 vs 10 → 70; violation 6 → 2 vs 5 → 60;
    // accident 0 → 100; operation 1 → 0.333 vs 5 → 93.333. Total = .2×90 + .3×70 + .2×60 + .2×100 + .1×93.333 = 80.3
    const counts = { ...emptyCounts(), drivingSkill: 3, drivingBehaviour: 9, trafficViolation: 6, vehicleOperation: 1 };
    const s = scoreVehicle(counts, 300, 20, DEFAULT_APPRAISAL_SETTINGS);
    expect(s).toEqual({ scores: { drivingSkill: 90, drivingBehaviour: 70, trafficViolation: 60, trafficAccident: 100, vehicleOperation: 93.3 }, totalScore: 80.3 });
  });

  it('does not score a vehicle that drove no km, or on fewer than 3 normal running days', () => {
    expect(scoreVehicle({ ...emptyCounts(), trafficViolation: 2 }, 0, 20, DEFAULT_APPRAISAL_SETTINGS)).toBeNull();
    // two short days without an alarm are not a perfect month: not assessed; three are
    expect(scoreVehicle(emptyCounts(), 2.5, 2, DEFAULT_APPRAISAL_SETTINGS)).toBeNull();
    expect(scoreVehicle(emptyCounts(), 3.5, 3, DEFAULT_APPRAISAL_SETTINGS)).toMatchObject({ totalScore: 100 });
  });

  it('ranks by total, ties share a rank, unscored rows last', () => {
    const rows = [{ id: 'a', totalScore: 80 }, { id: 'b', totalScore: null }, { id: 'c', totalScore: 95.5 }, { id: 'd', totalScore: 80 }, { id: 'e', totalScore: 60 }];
    expect(rankByScore(rows).map((r) => [r.id, r.rank])).toEqual([['c', 1], ['a', 2], ['d', 2], ['e', 4], ['b', null]]);
  });
});

describe('normal running days', () => {
  it('counts days that were online and operated (≥ 1 km)', () => {
    expect(normalRunningDays([{ online: true, operation: true }, { online: true, operation: false }, { online: false, operation: false }, { online: true, operation: true }])).toBe(2);
  });

  it('says how many days there were and how many are needed', () => {
    expect(fewRunningDaysMessage(1, 'zh')).toBe('该车辆正常运行天数过少（所选月份1天，至少需要3天），无法生成单车报告');
    expect(fewRunningDaysMessage(0, 'en')).toContain('too few normal running days (0 in the chosen month, at least 3 needed)');
  });
});

describe('assessment month', () => {
  const now = chinaDayStartMs(Date.UTC(2026, 10, 22) / 86_400_000) + 3_600_000; // 2026-11-22 01:00 China time

  it('is required, with the spec’s message', () => {
    expect(checkMonth(undefined, now)).toBe('missing');
    expect(checkMonth('', now)).toBe('missing');
    expect(monthProblemMessage('missing', 'zh')).toBe('请选择考核月份');
    expect(monthProblemMessage('missing', 'en')).toBe('Please choose an assessment month');
  });

  it('accepts the current month and the six before it, refuses later and older ones', () => {
    expect(checkMonth('2026-11', now)).toBeNull();
    expect(checkMonth('2026-05', now)).toBeNull();
    expect(checkMonth('2026-04', now)).toBe('tooOld');
    expect(checkMonth('2026-12', now)).toBe('future');
    expect(checkMonth('2026-13', now)).toBe('invalid');
    expect(checkMonth('2026-1', now)).toBe('invalid');
  });

  it('uses China time: 16:30 UTC on the last day of a month is already the next month', () => {
    expect(checkMonth('2026-12', Date.UTC(2026, 10, 30, 16, 30))).toBeNull();
  });

  it('gives the China days of a month', () => {
    const d = monthDays('2026-02')!;
    expect(d.lastDay - d.firstDay + 1).toBe(28);
    expect(new Date(d.firstDay * 86_400_000).toISOString().slice(0, 10)).toBe('2026-02-01');
  });
});
