import { describe, expect, it } from 'vitest';
import { dayMs, dayText, initialValues, normaliseDeviceNo, toInput, validateDeviceForm } from './device-form.ts';

const base = () => initialValues(undefined, { deviceNo: '013800138000' });

describe('device form rules (the server\'s limits)', () => {
  it('accepts a complete, valid device', () => {
    expect(validateDeviceForm({ ...base(), terminalId: 'T1', model: 'JT-808', simIccid: '89860012345678901234', channelCount: 37 })).toEqual({});
  });

  it('requires a 12-digit number; shorter digits are zero-padded like 808 headers', () => {
    expect(validateDeviceForm({ ...base(), deviceNo: '' }).deviceNo).toEqual({ key: 'required' });
    expect(validateDeviceForm({ ...base(), deviceNo: '0138a0138000' }).deviceNo).toEqual({ key: 'deviceNoRule' });
    expect(validateDeviceForm({ ...base(), deviceNo: '1234567890123' }).deviceNo).toEqual({ key: 'deviceNoRule' });
    expect(normaliseDeviceNo('13800138000')).toBe('013800138000');
    expect(validateDeviceForm({ ...base(), deviceNo: '13800138000' })).toEqual({});
    expect(toInput({ ...base(), deviceNo: ' 13800138000 ' }).deviceNo).toBe('013800138000');
  });

  it('refuses non-ASCII or over-long terminal id and model, channels outside 0–37, a malformed ICCID', () => {
    expect(validateDeviceForm({ ...base(), model: '型号' }).model).toEqual({ key: 'ascii' });
    expect(validateDeviceForm({ ...base(), terminalId: 'x'.repeat(31) }).terminalId).toEqual({ key: 'max', params: { max: 30 } });
    expect(validateDeviceForm({ ...base(), channelCount: 38 }).channelCount?.key).toBe('channelRule');
    expect(validateDeviceForm({ ...base(), channelCount: -1 }).channelCount?.key).toBe('channelRule');
    expect(validateDeviceForm({ ...base(), simIccid: '1234' }).simIccid).toEqual({ key: 'iccidRule' });
    expect(validateDeviceForm({ ...base(), simIccid: '8986001234567890123X' })).toEqual({});
  });

  it('keeps the install date as the China day', () => {
    const ms = dayMs('2026-01-05')!;
    expect(dayText(ms)).toBe('2026-01-05');
    expect(ms).toBe(Date.UTC(2026, 0, 4, 16));
    expect(dayMs('')).toBeNull();
    expect(toInput({ ...base(), installDate: '', deviceTypeId: '7' })).toMatchObject({ installDate: null, deviceTypeId: 7 });
  });
});
