import { describe, expect, it } from 'vitest';
import { companyFormToInput, validateCompanyForm, type CompanyFormValues } from './company-form.ts';

const v = (over: Partial<CompanyFormValues> = {}): CompanyFormValues => ({ pid: 1, name: 'East fleet', contact: '', phone: '', address: '', remark: '', ...over });

describe('the company form checks', () => {
  it('accepts a named company under a parent', () => {
    expect(validateCompanyForm(v(), false)).toEqual({});
  });

  it('requires a name and a parent; a top-level company only for administrators', () => {
    const e = validateCompanyForm(v({ name: '  ', pid: null }), true);
    expect(e.name?.key).toBe('required');
    expect(e.pid?.key).toBe('required');
    expect(validateCompanyForm(v({ pid: 0 }), false).pid?.key).toBe('required');
    expect(validateCompanyForm(v({ pid: 0 }), true).pid).toBeUndefined();
  });

  it('names the length limit and a bad phone', () => {
    expect(validateCompanyForm(v({ name: 'x'.repeat(65) }), false).name).toEqual({ key: 'max', params: { max: 64 } });
    expect(validateCompanyForm(v({ phone: 'call me' }), false).phone?.key).toBe('phoneInvalid');
  });

  it('sends trimmed text', () => {
    expect(companyFormToInput(v({ name: ' A ', contact: ' Li ' }))).toMatchObject({ name: 'A', contact: 'Li', pid: 1 });
  });
});
