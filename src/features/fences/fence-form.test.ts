import { describe, expect, it } from 'vitest';
import { FENCE_LIMITS } from '../../../domain/fence/types.ts';
import { initialValues, toInput, validateFenceForm, type FenceFormValues } from './fence-form.ts';

const base = (): FenceFormValues => ({ ...initialValues(undefined, { shape: 'circle', center: [113.9, 22.5], radius: 300 }), name: '仓库' });

describe('the fence form', () => {
  it('a new fence drawn as a circle with a name passes and becomes the contract\'s input', () => {
    expect(validateFenceForm(base())).toEqual({});
    expect(toInput(base())).toEqual({
      name: '仓库', geometry: { shape: 'circle', center: [113.9, 22.5], radius: 300 },
      rule: { alarmIn: true, alarmOut: true, forbidIn: false, forbidOut: false, maxSpeed: null, overspeedSeconds: 10, startTime: null, endTime: null }, remark: '',
    });
  });

  it('names the fields the operator must fix, with the limits of FENCE_LIMITS', () => {
    const v = { ...base(), name: 'x'.repeat(FENCE_LIMITS.nameMaxLength + 1), geometry: { shape: 'circle' as const, center: [113.9, 22.5] as const, radius: 5 }, maxSpeed: 300 as const, startTime: '25:00' };
    expect(validateFenceForm(v)).toEqual({
      name: { key: 'nameMax', params: { max: 50 } },
      geometry: { key: 'radius', params: { min: 10, max: 100_000 } },
      maxSpeed: { key: 'speed', params: { max: 255 } },
      startTime: { key: 'time' },
    });
  });

  it('asks for a shape, for both ends of a time window, and for at least one rule', () => {
    const v: FenceFormValues = { ...base(), geometry: null, alarmIn: false, alarmOut: false, startTime: '08:00' };
    expect(validateFenceForm(v)).toEqual({ geometry: { key: 'noGeometry' }, endTime: { key: 'timePair' }, alarmIn: { key: 'noRule' } });
  });

  it('refuses a polygon with too few vertices', () => {
    expect(validateFenceForm({ ...base(), geometry: { shape: 'polygon', points: [[1, 1], [2, 2]] } }).geometry).toEqual({ key: 'points', params: { min: 3, max: 125 } });
  });
});
