import { describe, expect, it } from 'vitest';
import { checkPhoto, parseChinaDate } from '../../../domain/fleet/driver.ts';
import { DRIVER_LIMITS } from '../../../domain/fleet/limits.ts';
import type { Driver } from './api.ts';
import { expiryBadge, formProblems, initialValues, toInput } from './driver-form.ts';

const base = initialValues(undefined, 7);
const DAY = 86_400_000;

describe('driver form rules (the server schema\'s limits and patterns)', () => {
  it('a new form starts on the given company, active, with nothing else', () => {
    expect(base).toMatchObject({ companyId: 7, name: '', status: 1, licenceClass: '', vehicleIds: [] });
    expect(formProblems(base)).toEqual({ name: { key: 'required' } });
  });

  it('refuses what the server refuses', () => {
    expect(formProblems({ ...base, companyId: null, name: '王' })).toEqual({ companyId: { key: 'required' } });
    expect(formProblems({ ...base, name: 'x'.repeat(DRIVER_LIMITS.nameMax + 1) })).toEqual({ name: { key: 'max', params: { max: DRIVER_LIMITS.nameMax } } });
    const bad = formProblems({
      ...base, name: '王', licenceNo: '3301 06', certNo: 'QC-01', phone: 'abc', licenceClass: 'Z1', licenceExpire: '2027-02-30', certExpire: '2027/01/01',
      vehicleIds: Array.from({ length: DRIVER_LIMITS.vehiclesMax + 1 }, (_, i) => i + 1),
    });
    expect(bad).toEqual({
      licenceNo: { key: 'pattern' }, certNo: { key: 'pattern' }, phone: { key: 'pattern' }, licenceClass: { key: 'pattern' },
      licenceExpire: { key: 'date' }, certExpire: { key: 'date' }, vehicleIds: { key: 'vehiclesMax', params: { max: DRIVER_LIMITS.vehiclesMax } },
    });
    expect(formProblems({ ...base, name: '王', certNo: '1'.repeat(DRIVER_LIMITS.certNoMax + 1) })).toEqual({ certNo: { key: 'max', params: { max: DRIVER_LIMITS.certNoMax } } });
    expect(formProblems({ ...base, name: '王', phone: '+86 138-0000-0000', licenceNo: '33010619800101123x', licenceClass: 'A2', licenceExpire: '2028-02-29' })).toEqual({});
  });

  it('sends trimmed values, numbers upper-cased and dates as the start of their China day (null when empty)', () => {
    const input = toInput({ ...base, name: ' 王师傅 ', licenceNo: '33010619800101123x', certNo: ' qc01 ', licenceExpire: '2028-03-31', certExpire: '', vehicleIds: [3, 5] });
    expect(input).toEqual({
      companyId: 7, name: '王师傅', licenceNo: '33010619800101123X', licenceClass: '', licenceExpire: Date.UTC(2028, 2, 30, 16), certNo: 'QC01',
      certAuthority: '', certExpire: null, phone: '', status: 1, remark: '', vehicleIds: [3, 5],
    });
  });

  it('an edit starts from the driver, dates back as YYYY-MM-DD', () => {
    const d = {
      id: 1, companyId: 4, companyName: '', name: '李', licenceNo: 'L', licenceClass: 'B2', licenceExpire: parseChinaDate('2027-01-15')!, certNo: 'C', certAuthority: 'A',
      certExpire: null, phone: '', status: 0, remark: 'r', vehicles: [{ id: 9, vehiidno: '浙A1' }], photoTime: null, signedIn: null, createTime: 0, updateTime: 0,
    } satisfies Driver;
    expect(initialValues(d, 99)).toMatchObject({ companyId: 4, licenceClass: 'B2', licenceExpire: '2027-01-15', certExpire: '', status: 0, vehicleIds: [9] });
  });

  it('expiry badges: red once expired, orange within the warning days, plain otherwise', () => {
    const now = parseChinaDate('2026-11-25')! + 10 * 3_600_000;
    expect(expiryBadge(null, now).state).toBe('none');
    expect(expiryBadge(parseChinaDate('2026-11-24')!, now)).toEqual({ state: 'expired', color: 'red', date: '2026-11-24' });
    expect(expiryBadge(parseChinaDate('2026-11-25')!, now).state).toBe('soon');
    expect(expiryBadge(now + 30 * DAY, now).state).toBe('soon');
    expect(expiryBadge(now + 31 * DAY, now)).toMatchObject({ state: 'ok', color: 'gray' });
  });

  it('a photo is a JPEG or PNG by its bytes, at most 2 MiB', () => {
    expect(checkPhoto(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1]))).toBeUndefined();
    expect(checkPhoto(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBeUndefined();
    expect(checkPhoto(new TextEncoder().encode('GIF89a'))).toEqual({ key: 'photoType' });
    expect(checkPhoto(new Uint8Array(0))).toEqual({ key: 'photoEmpty' });
    const big = new Uint8Array(DRIVER_LIMITS.photoMaxBytes + 1);
    big.set([0xff, 0xd8, 0xff]);
    expect(checkPhoto(big)).toEqual({ key: 'photoTooLarge', max: DRIVER_LIMITS.photoMaxBytes });
  });
});
