import { describe, expect, it } from 'vitest';
import { initialValues, toInput, validateDeviceTypeForm } from './device-type-form.ts';

describe('the device-type form checks', () => {
  it('asks for a name within 32 characters', () => {
    expect(validateDeviceTypeForm({ ...initialValues(), devTypeName: '  ' }).devTypeName).toEqual({ key: 'required' });
    expect(validateDeviceTypeForm({ ...initialValues(), devTypeName: 'x'.repeat(33) }).devTypeName).toEqual({ key: 'max', params: { max: 32 } });
    expect(validateDeviceTypeForm({ ...initialValues(), devTypeName: 'x'.repeat(32) })).toEqual({});
  });

  it('holds maker id and model to what the protocol edition registers, in ASCII', () => {
    const v = { ...initialValues(), devTypeName: 'A', makerId: 'ABCDEF', model: 'M' };
    expect(validateDeviceTypeForm(v)).toEqual({});
    expect(validateDeviceTypeForm({ ...v, protocol: 2013 }).makerId).toEqual({ key: 'registration', params: { protocol: 'JT/T 808-2013', max: 5 } });
    expect(validateDeviceTypeForm({ ...v, model: '型号' }).model).toEqual({ key: 'ascii' });
    expect(validateDeviceTypeForm({ ...v, remark: 'r'.repeat(201) }).remark).toEqual({ key: 'max', params: { max: 200 } });
  });

  it('sends trimmed values', () => {
    expect(toInput({ devTypeName: ' A ', protocol: 2013, makerId: ' M1 ', model: ' X ', remark: ' ' })).toEqual({ devTypeName: 'A', protocol: 2013, makerId: 'M1', model: 'X', remark: '' });
  });
});
