/**
 * The per-user allowed address check (login code 1004): `allowedIps` is a comma-separated list of
 * IPv4 addresses or CIDR ranges; '' allows anywhere.
 */

function ipv4ToInt(ip: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return parts.reduce((acc, p) => acc * 256 + p, 0);
}

/** The IPv4 form of a request address ('::ffff:10.0.0.1' → '10.0.0.1'; '::1' → '127.0.0.1'). */
export function normaliseIp(ip: string): string {
  if (ip === '::1') return '127.0.0.1';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

/** Validates one allowed-address entry; answers an error detail or undefined when valid. */
export function allowedIpEntryError(entry: string): string | undefined {
  const [addr, bits, extra] = entry.split('/');
  if (extra !== undefined || addr === undefined || ipv4ToInt(addr) === undefined) return entry;
  if (bits !== undefined && !(/^\d{1,2}$/.test(bits) && Number(bits) <= 32)) return entry;
  return undefined;
}

export function parseAllowedIps(list: string): string[] {
  return list.split(',').map((s) => s.trim()).filter(Boolean);
}

export function ipAllowed(allowedIps: string, requestIp: string): boolean {
  const entries = parseAllowedIps(allowedIps);
  if (entries.length === 0) return true;
  const ip = ipv4ToInt(normaliseIp(requestIp));
  if (ip === undefined) return false;
  return entries.some((entry) => {
    const [addr = '', bitsRaw] = entry.split('/');
    const base = ipv4ToInt(addr);
    if (base === undefined) return false;
    const bits = bitsRaw === undefined ? 32 : Number(bitsRaw);
    if (bits === 0) return true;
    const mask = (0xffffffff << (32 - bits)) >>> 0;
    return ((ip & mask) >>> 0) === ((base & mask) >>> 0);
  });
}
