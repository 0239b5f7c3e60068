import { describe, expect, it } from 'vitest';
import { fieldRuleText } from '../errors/field-problem.ts';
import { BUILTIN_PARAMS, builtinParam, checkParamValue, displayValue, ParamKeys } from './params.ts';

describe('system parameter values', () => {
  it('bounds the auto-stop duration to 0..120 minutes and says why in either language', () => {
    const rule = builtinParam(ParamKeys.videoAutoStopMinutes)!;
    expect(checkParamValue(rule, ' 0 ')).toEqual({ ok: true, value: '0' });
    const over = checkParamValue(rule, '121');
    expect(over.ok).toBe(false);
    if (!over.ok) {
      expect(fieldRuleText(over.problem, 'zh')).toBe('不能大于 120');
      expect(fieldRuleText(over.problem, 'en')).toBe('must be at most 120');
    }
    expect(checkParamValue(rule, '2.5')).toMatchObject({ ok: false, problem: { code: 'type' } });
    expect(checkParamValue(rule, '')).toMatchObject({ ok: false, problem: { code: 'required' } });
  });

  it('takes a time of day as HH:mm, stores the minute of day and shows it back as HH:mm', () => {
    const rule = builtinParam('operation.nightStartMinute')!;
    expect(checkParamValue(rule, '22:30')).toEqual({ ok: true, value: '1350' });
    expect(checkParamValue(rule, '24:00')).toMatchObject({ ok: false, problem: { code: 'pattern' } });
    expect(displayValue(rule, '1350')).toBe('22:30');
  });

  it('accepts only listed enum values, and fuel thresholds within the fuel rules\' limits', () => {
    const e = { kind: 'enum' as const, options: [{ value: 'a', zh: '甲', en: 'A' }] };
    expect(checkParamValue(e, 'a')).toEqual({ ok: true, value: 'a' });
    expect(checkParamValue(e, 'b')).toMatchObject({ ok: false, problem: { code: 'enum', params: { allowedValues: ['a'] } } });
    const refuel = builtinParam('fuel.refuelMinL')!;
    expect(checkParamValue(refuel, '12.5')).toEqual({ ok: true, value: '12.5' });
    expect(checkParamValue(refuel, '0.5')).toMatchObject({ ok: false, problem: { code: 'minimum', params: { limit: 1 } } });
  });

  it('keeps every built-in parameter under an existing group with a default inside its own bounds', () => {
    const groups = new Set(BUILTIN_PARAMS.filter((p) => p.kind === 'group').map((p) => p.key));
    for (const p of BUILTIN_PARAMS) {
      if (p.parent !== undefined) expect(groups.has(p.parent)).toBe(true);
      if (p.kind !== 'group') expect(checkParamValue(p, p.defaultValue ?? '')).toMatchObject({ ok: true });
    }
  });
});
