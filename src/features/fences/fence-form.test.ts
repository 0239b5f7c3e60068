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

describe('the fence form\'s messages', () => {
  it('word every problem in Chinese and English with the limit filled in', async () => {
    const { i18n } = await import('../../i18n/index.ts');
    const { FENCES_NS } = await import('./messages.ts');
    const v: FenceFormValues = { ...base(), name: '', geometry: { shape: 'polygon', points: [[1, 1]] }, alarmIn: false, alarmOut: false, maxSpeed: 0, overspeedSeconds: 300, startTime: '8点', endTime: '', remark: 'x'.repeat(201) };
    const problems = Object.values(validateFenceForm(v)).filter((p) => p !== undefined);
    expect(problems.map((p) => p.key).sort()).toEqual(['points', 'remarkMax', 'required', 'seconds', 'speed', 'time'].sort());
    for (const lng of ['zh', 'en'] as const) {
      for (const p of problems) {
        const text = i18n.t(`err.${p.key}`, { ns: FENCES_NS, lng, ...(p.params ?? {}) });
        expect(text).not.toContain('err.');
        expect(text).not.toContain('{{');
      }
    }
    expect(i18n.t('err.points', { ns: FENCES_NS, lng: 'zh', min: 3, max: 125 })).toBe('多边形须有 3 到 125 个顶点');
    expect(i18n.t('err.points', { ns: FENCES_NS, lng: 'en', min: 3, max: 125 })).toBe('A polygon needs 3 to 125 vertices');
  });
});
