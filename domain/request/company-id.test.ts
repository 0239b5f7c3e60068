import { describe, expect, it } from 'vitest';
import { applyCompanyId, shouldInjectCompanyId } from './company-id.ts';

describe('companyId injection (spec §7)', () => {
  it('adds the selected company to a payload without one', () => {
    expect(applyCompanyId({ payload: { keyword: 'a' }, selectedCompanyId: 12 })).toEqual({ keyword: 'a', companyId: 12 });
  });

  it('adds the selected company when there is no payload at all', () => {
    expect(applyCompanyId({ payload: undefined, selectedCompanyId: 12 })).toEqual({ companyId: 12 });
  });

  it('keeps a companyId the payload already names', () => {
    expect(applyCompanyId({ payload: { companyId: 3 }, selectedCompanyId: 12 })).toEqual({ companyId: 3 });
    expect(applyCompanyId({ payload: { companyId: 0 }, selectedCompanyId: 12 })).toEqual({ companyId: 0 });
  });

  it('treats an empty companyId as missing', () => {
    expect(applyCompanyId({ payload: { companyId: null }, selectedCompanyId: 12 })).toEqual({ companyId: 12 });
    expect(applyCompanyId({ payload: { companyId: '' }, selectedCompanyId: 12 })).toEqual({ companyId: 12 });
  });

  it('leaves exports alone', () => {
    expect(applyCompanyId({ payload: { isExport: true, day: '2024-01-01' }, selectedCompanyId: 12 })).toEqual({ isExport: true, day: '2024-01-01' });
  });

  it('honours the noCompanyId option and never sends the flag', () => {
    expect(applyCompanyId({ payload: { a: 1 }, selectedCompanyId: 12, noCompanyId: true })).toEqual({ a: 1 });
    expect(applyCompanyId({ payload: { a: 1, noCompanyId: true }, selectedCompanyId: 12 })).toEqual({ a: 1 });
    expect(applyCompanyId({ payload: undefined, selectedCompanyId: 12, noCompanyId: true })).toBeUndefined();
  });

  it('drops a false noCompanyId flag and still injects', () => {
    expect(applyCompanyId({ payload: { noCompanyId: false }, selectedCompanyId: 7 })).toEqual({ companyId: 7 });
  });

  it('adds nothing while no company is selected', () => {
    expect(shouldInjectCompanyId({ payload: { a: 1 }, selectedCompanyId: null })).toBe(false);
    expect(applyCompanyId({ payload: { a: 1 }, selectedCompanyId: null })).toEqual({ a: 1 });
    expect(applyCompanyId({ payload: undefined, selectedCompanyId: null })).toBeUndefined();
  });

  it('passes non-object payloads through untouched', () => {
    const list = [1, 2];
    expect(applyCompanyId({ payload: list, selectedCompanyId: 12 })).toBe(list);
    expect(applyCompanyId({ payload: 'raw', selectedCompanyId: 12 })).toBe('raw');
  });

  it('does not change the caller\'s object', () => {
    const payload = { a: 1, noCompanyId: true };
    applyCompanyId({ payload, selectedCompanyId: 12 });
    expect(payload).toEqual({ a: 1, noCompanyId: true });
  });
});
