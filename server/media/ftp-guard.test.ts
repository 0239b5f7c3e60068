import { describe, expect, it } from 'vitest';
import { activeModeRefusal, FailedLoginThrottle } from './ftp-guard.ts';

describe('FailedLoginThrottle (the HTTP login back-off, per address)', () => {
  it('attack: password spraying: makes an address wait after the allowed failures, whatever user names it tries', () => {
    const t = new FailedLoginThrottle({ windowMs: 60_000, maxFailures: 3 });
    for (let i = 0; i < 3; i++) {
      expect(t.blocked('203.0.113.9', 1000 + i)).toBe(false);
      t.fail('203.0.113.9', 1000 + i);
    }
    expect(t.blocked('203.0.113.9', 2000)).toBe(true);
    // The IPv4-mapped spelling of the same address is the same address.
    expect(t.blocked('::ffff:203.0.113.9', 2000)).toBe(true);
    expect(t.blocked('203.0.113.10', 2000)).toBe(false);
    // The first wait is 30 s from the newest failure, and it is stated.
    expect(t.wait('203.0.113.9', 1002)).toBe(30_000);
    expect(t.blocked('203.0.113.9', 1002 + 30_000)).toBe(false);
    // One more failure doubles the wait.
    t.fail('203.0.113.9', 40_000);
    expect(t.wait('203.0.113.9', 40_000)).toBe(60_000);
    // A quiet window forgets them all.
    expect(t.blocked('203.0.113.9', 40_000 + 60_000)).toBe(false);
  });

  it('a successful login clears the address, and memory stays bounded under a spray from many addresses', () => {
    const t = new FailedLoginThrottle({ windowMs: 60_000, maxFailures: 2 }, 100);
    t.fail('198.51.100.1', 0);
    t.fail('198.51.100.1', 1);
    expect(t.blocked('198.51.100.1', 2)).toBe(true);
    t.clear('198.51.100.1');
    expect(t.blocked('198.51.100.1', 3)).toBe(false);
    for (let i = 0; i < 1000; i++) t.fail(`10.0.${i >> 8}.${i & 255}`, 10);
    expect((t as unknown as { failures: Map<string, number[]> }).failures.size).toBe(100);
  });
});

describe('activeModeRefusal', () => {
  it('attack: FTP bounce and port scanning: only the control connection\'s own address and ports 1024-65535 are allowed', () => {
    const me = '::ffff:192.0.2.7';
    expect(activeModeRefusal('PORT', '192,0,2,7,4,0', me)).toBeUndefined();
    expect(activeModeRefusal('EPRT', '|1|192.0.2.7|1024|', me)).toBeUndefined();
    expect(activeModeRefusal('PORT', '192,0,2,8,4,0', me)).toMatch(/own address/);
    expect(activeModeRefusal('PORT', '192,0,2,7,3,255', me)).toMatch(/1024/);
    expect(activeModeRefusal('EPRT', '|1|192.0.2.7|80|', me)).toMatch(/1024/);
    expect(activeModeRefusal('EPRT', '|1|192.0.2.7|70000|', me)).toMatch(/1024/);
    expect(activeModeRefusal('EPRT', '|2|::1|2000|', me)).toMatch(/own address/);
    // ftp-srv parses leniently (parseInt): "7x" would be 7, "-1" a negative byte; we refuse what is not a byte.
    for (const bad of ['192,0,2,7x,4,0', '192,0,2,7,-1,0', '192,0,2,7,256,0', '192,0,2,7,4', '', null]) expect(activeModeRefusal('PORT', bad, me)).toMatch(/Syntax/);
    expect(activeModeRefusal('EPRT', '|3|192.0.2.7|2000|', me)).toMatch(/Syntax/);
    expect(activeModeRefusal('PORT', '192,0,2,7,4,0', undefined)).toMatch(/own address/);
  });
});
