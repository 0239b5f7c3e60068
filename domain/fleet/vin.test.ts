import { describe, expect, it } from 'vitest';
import { normalizeVin, vinCheckDigit, vinProblem } from './vin.ts';
import { expiryState } from './limits.ts';

describe('VIN check', () => {
  it('accepts real VINs with their check digit', () => {
    // Published examples: a North American VIN and one with X as its check digit.
    expect(vinProblem('1M8GDM9AXKP042788')).toBeUndefined();
    expect(vinProblem('11111111111111111')).toBeUndefined();
    expect(vinCheckDigit('LSVAU2180N2183294')).toBe(vinCheckDigit('LSVAU2180N2183294'));
  });
  it('names what is wrong', () => {
    expect(vinProblem('1M8GDM9AXKP04278')).toBe('length');
    expect(vinProblem('1M8GDM9AXKP0427O8')).toBe('characters');
    expect(vinProblem('1M8GDM9A1KP042788')).toBe('checkDigit');
    expect(vinProblem(normalizeVin(' 1m8gdm9axkp042788 '))).toBeUndefined();
  });
});

describe('expiry', () => {
  const day = 86_400_000;
  const now = Date.UTC(2026, 10, 25, 4); // noon in China
  it('compares whole China days', () => {
    expect(expiryState(null, now)).toBe('none');
    expect(expiryState(now - day, now)).toBe('expired');
    expect(expiryState(now, now)).toBe('soon');
    expect(expiryState(now + 30 * day, now)).toBe('soon');
    expect(expiryState(now + 31 * day, now)).toBe('ok');
  });
});
