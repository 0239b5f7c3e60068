import { describe, expect, it } from 'vitest';
import { emptyUserForm, formToInput, isIpOrCidr, normaliseIps, validateUserForm, type UserFormValues } from './user-form.ts';

const valid = (over: Partial<UserFormValues> = {}): UserFormValues => ({
  ...emptyUserForm(3, 2),
  username: 'op_1',
  password: 'secret1',
  ...over,
});

describe('the user form checks', () => {
  it('accepts a complete new user', () => {
    expect(validateUserForm(valid(), true, 0)).toEqual({});
  });

  it('requires a user name, a company, and a password only when creating', () => {
    const e = validateUserForm(valid({ username: ' ', companyId: null, password: '' }), true, 0);
    expect(e.username?.key).toBe('validation.required');
    expect(e.companyId?.key).toBe('validation.required');
    expect(e.password?.key).toBe('validation.required');
    expect(validateUserForm(valid({ password: '' }), false, 0).password).toBeUndefined();
  });

  it('names the length limits of user name and password', () => {
    expect(validateUserForm(valid({ username: 'ab' }), true, 0).username).toEqual({ key: 'validation.length', params: { min: 3, max: 32 } });
    expect(validateUserForm(valid({ password: '12345' }), false, 0).password?.key).toBe('validation.length');
    expect(validateUserForm(valid({ username: 'bad name' }), true, 0).username?.key).toBe('validation.username');
  });

  it('refuses a level with more rights than the signed-in user', () => {
    expect(validateUserForm(valid({ userLevel: 0 }), true, 1).userLevel?.key).toBe('validation.levelTooHigh');
    expect(validateUserForm(valid({ userLevel: 1 }), true, 1).userLevel).toBeUndefined();
  });

  it('checks phone, email and the allowed IP list', () => {
    const e = validateUserForm(valid({ phone: 'abc', email: 'x@y', allowedIps: '10.0.0.0/8, 300.1.1.1' }), true, 0);
    expect(e.phone?.key).toBe('validation.phone');
    expect(e.email?.key).toBe('validation.email');
    expect(e.allowedIps).toEqual({ key: 'validation.ip', params: { entry: '300.1.1.1' } });
  });
});

describe('allowed IP entries', () => {
  it.each(['10.1.2.3', '192.168.0.0/16', '0.0.0.0/0', '8.8.8.8/32'])('accepts %s', (s) => expect(isIpOrCidr(s)).toBe(true));
  it.each(['10.1.2', '10.1.2.3/33', '10.1.2.3/8/1', '01.2.3.4', 'host'])('rejects %s', (s) => expect(isIpOrCidr(s)).toBe(false));

  it('normalises separators and blanks', () => {
    expect(normaliseIps(' 10.0.0.1,\n 10.0.0.2  ,, ')).toBe('10.0.0.1,10.0.0.2');
  });
});

describe('the body the form sends', () => {
  it('trims text, converts the expiry and leaves out an empty password', () => {
    const input = formToInput(valid({ username: ' op_1 ', password: '', expireTime: '2030-01-02T03:04' }));
    expect(input.username).toBe('op_1');
    expect('password' in input).toBe(false);
    expect(input.expireTime).toBe(new Date('2030-01-02T03:04').getTime());
    expect(formToInput(valid({ expireTime: '' })).expireTime).toBeNull();
  });
});
