import { describe, expect, it } from 'vitest';
import { allowedIpEntryError, ipAllowed, normaliseIp } from './ip.ts';

describe('the allowed address check', () => {
  it('allows anywhere when the list is empty', () => {
    expect(ipAllowed('', '203.0.113.9')).toBe(true);
    expect(ipAllowed(' , ', '203.0.113.9')).toBe(true);
  });

  it('matches single addresses and CIDR ranges', () => {
    expect(ipAllowed('10.0.0.0/8', '10.200.3.4')).toBe(true);
    expect(ipAllowed('10.0.0.0/8', '11.0.0.1')).toBe(false);
    expect(ipAllowed('192.168.1.7', '192.168.1.7')).toBe(true);
    expect(ipAllowed('192.168.1.7', '192.168.1.8')).toBe(false);
    expect(ipAllowed('172.16.0.0/12, 127.0.0.1', '172.31.255.255')).toBe(true);
    expect(ipAllowed('172.16.0.0/12', '172.32.0.0')).toBe(false);
    expect(ipAllowed('0.0.0.0/0', '8.8.8.8')).toBe(true);
  });

  it('reads IPv4-mapped and loopback IPv6 request addresses as IPv4', () => {
    expect(normaliseIp('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(ipAllowed('127.0.0.1', '::1')).toBe(true);
    expect(ipAllowed('10.0.0.0/8', '2001:db8::1')).toBe(false);
  });

  it('names entries that are not IPv4 addresses or ranges', () => {
    expect(allowedIpEntryError('10.0.0.0/8')).toBeUndefined();
    expect(allowedIpEntryError('10.0.0.256')).toBe('10.0.0.256');
    expect(allowedIpEntryError('10.0.0.0/33')).toBe('10.0.0.0/33');
    expect(allowedIpEntryError('example.com')).toBe('example.com');
  });
});
