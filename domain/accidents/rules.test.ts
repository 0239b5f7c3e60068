import { describe, expect, it } from 'vitest';
import { alarmWindow, canMove, canPublish, checkAccident, impliedLevel, problemText, type AccidentDraft } from './rules.ts';

const NOW = Date.UTC(2026, 10, 28, 6, 0);
const draft = (over: Partial<AccidentDraft> = {}): AccidentDraft => ({
  time: NOW - 3_600_000, type: 'collision', level: 'minor', responsibility: 'pending', state: 'reported',
  lng: 116.4, lat: 39.9, place: '京港澳高速 K12', lightInjuries: 0, seriousInjuries: 0, deaths: 0, propertyLoss: 500, ...over,
});

describe('accident grading', () => {
  it('grades by the counts: light injuries and small losses are minor, a death is at least major', () => {
    expect(impliedLevel({ lightInjuries: 2, seriousInjuries: 0, deaths: 0, propertyLoss: 999 })).toBe('minor');
    expect(impliedLevel({ lightInjuries: 3, seriousInjuries: 0, deaths: 0, propertyLoss: 0 })).toBe('ordinary');
    expect(impliedLevel({ lightInjuries: 0, seriousInjuries: 1, deaths: 0, propertyLoss: 0 })).toBe('ordinary');
    expect(impliedLevel({ lightInjuries: 0, seriousInjuries: 0, deaths: 0, propertyLoss: 1_000 })).toBe('ordinary');
    expect(impliedLevel({ lightInjuries: 0, seriousInjuries: 0, deaths: 1, propertyLoss: 0 })).toBe('major');
    expect(impliedLevel({ lightInjuries: 0, seriousInjuries: 10, deaths: 0, propertyLoss: 0 })).toBe('major');
    expect(impliedLevel({ lightInjuries: 0, seriousInjuries: 0, deaths: 0, propertyLoss: 59_999 })).toBe('major');
  });

  it('grades extra serious at 3 deaths, 11 serious injuries, 1 death with 8 or 2 deaths with 5 serious injuries, or 60,000 yuan', () => {
    expect(impliedLevel({ lightInjuries: 0, seriousInjuries: 0, deaths: 3, propertyLoss: 0 })).toBe('extraSerious');
    expect(impliedLevel({ lightInjuries: 0, seriousInjuries: 11, deaths: 0, propertyLoss: 0 })).toBe('extraSerious');
    expect(impliedLevel({ lightInjuries: 0, seriousInjuries: 8, deaths: 1, propertyLoss: 0 })).toBe('extraSerious');
    expect(impliedLevel({ lightInjuries: 0, seriousInjuries: 7, deaths: 1, propertyLoss: 0 })).toBe('major');
    expect(impliedLevel({ lightInjuries: 0, seriousInjuries: 5, deaths: 2, propertyLoss: 0 })).toBe('extraSerious');
    expect(impliedLevel({ lightInjuries: 0, seriousInjuries: 0, deaths: 0, propertyLoss: 60_000 })).toBe('extraSerious');
  });

  it('refuses a level below what the counts imply, in Chinese, and accepts a higher one', () => {
    const problems = checkAccident(draft({ deaths: 1, level: 'ordinary' }), NOW);
    expect(problems).toEqual([{ field: 'level', code: 'belowCounts', implied: 'major' }]);
    expect(problemText(problems[0]!, 'zh')).toBe('按伤亡和财产损失，事故等级至少为重大事故');
    expect(checkAccident(draft({ deaths: 1, level: 'extraSerious' }), NOW)).toEqual([]);
  });
});

describe('accident handling', () => {
  it('moves reported → investigating → closed one step at a time and reopens a closed one to investigating', () => {
    expect(canMove('reported', 'investigating')).toBe(true);
    expect(canMove('reported', 'closed')).toBe(false);
    expect(canMove('investigating', 'closed')).toBe(true);
    expect(canMove('closed', 'investigating')).toBe(true);
    expect(canMove('closed', 'reported')).toBe(false);
    expect(checkAccident(draft({ state: 'investigating' }), NOW, 'closed')).toEqual([]);
    expect(checkAccident(draft({ state: 'closed', responsibility: 'main' }), NOW, 'reported')[0]).toMatchObject({ field: 'state', code: 'transition' });
  });

  it('refuses to create an accident already closed', () => {
    expect(checkAccident(draft({ state: 'closed', responsibility: 'full' }), NOW).map((p) => p.field)).toEqual(['state']);
  });

  it('needs the responsibility determined before closing', () => {
    const problems = checkAccident(draft({ state: 'closed' }), NOW, 'investigating');
    expect(problems.map((p) => p.field)).toEqual(['responsibility']);
    expect(problemText(problems[0]!, 'zh')).toBe('结案前须认定事故责任');
    expect(checkAccident(draft({ state: 'closed', responsibility: 'none' }), NOW, 'investigating')).toEqual([]);
  });

  it('refuses a future time, a point outside China, an empty place and negative counts', () => {
    const problems = checkAccident(draft({ time: NOW + 10 * 60_000, lng: 0, lat: 0, place: ' ', lightInjuries: -1, propertyLoss: 1.5 }), NOW);
    expect(problems.map((p) => p.field).sort()).toEqual(['lat', 'lightInjuries', 'lng', 'place', 'propertyLoss', 'time']);
    expect(problemText(problems.find((p) => p.field === 'time')!, 'zh')).toBe('事故时间不能晚于当前时间');
    // A console clock a minute ahead is not "the future".
    expect(checkAccident(draft({ time: NOW + 60_000 }), NOW)).toEqual([]);
  });

  it('publishes closed accidents only', () => {
    expect(canPublish('closed')).toBe(true);
    expect(canPublish('investigating')).toBe(false);
  });

  it('opens the alarm window ±10 minutes by default and clamps the officer’s choice to 1–60', () => {
    expect(alarmWindow(NOW)).toEqual({ from: NOW - 600_000, to: NOW + 600_000 });
    expect(alarmWindow(NOW, 500)).toEqual({ from: NOW - 3_600_000, to: NOW + 3_600_000 });
    expect(alarmWindow(NOW, 0)).toEqual({ from: NOW - 60_000, to: NOW + 60_000 });
  });
});
