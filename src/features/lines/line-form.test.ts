import { describe, expect, it } from 'vitest';
import { LINE_LIMITS } from '../../../domain/fleet/limits.ts';
import { initialValues, toInput, validateLineForm } from './line-form.ts';

describe('line form', () => {
  it('refuses what the server would: a blank name, fields over their limits', () => {
    expect(validateLineForm({ name: '  ', code: '', remark: '' })).toEqual({ name: { key: 'required' } });
    expect(validateLineForm({ name: 'x'.repeat(LINE_LIMITS.nameMax + 1), code: 'c'.repeat(LINE_LIMITS.codeMax + 1), remark: 'r'.repeat(LINE_LIMITS.remarkMax + 1) })).toEqual({
      name: { key: 'max', params: { max: LINE_LIMITS.nameMax } },
      code: { key: 'max', params: { max: LINE_LIMITS.codeMax } },
      remark: { key: 'max', params: { max: LINE_LIMITS.remarkMax } },
    });
    expect(validateLineForm({ name: ' 1路 ', code: ` ${'c'.repeat(LINE_LIMITS.codeMax)} `, remark: '' })).toEqual({});
  });

  it('sends trimmed values; an edit starts from the line', () => {
    expect(toInput({ name: ' 1路 ', code: ' SZ001 ', remark: ' 环线 ' })).toEqual({ name: '1路', code: 'SZ001', remark: '环线' });
    expect(initialValues()).toEqual({ name: '', code: '', remark: '' });
  });
});
