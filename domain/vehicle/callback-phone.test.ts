import { describe, expect, it } from 'vitest';
import { isCallbackPhone } from './callback-phone.ts';

describe('the call-back number (0x8400, 20 characters)', () => {
  it('takes 3–20 digits, or + and 3–19 digits', () => {
    for (const ok of ['110', '13800138000', '+8613800138000', '12345678901234567890', '+1234567890123456789']) expect(isCallbackPhone(ok), ok).toBe(true);
  });
  it('refuses what the terminal cannot dial or store', () => {
    for (const bad of ['', '12', '+12', '123456789012345678901', '+12345678901234567890', '138-0013', '1380013800a', '++123']) expect(isCallbackPhone(bad), bad).toBe(false);
  });
});
