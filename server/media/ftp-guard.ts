/**
 * Rules the recording FTP receiver (recording-ftp.ts) applies before ftp-srv sees a command
 * (issue 12 §3): failed logins throttled per address, active mode only back to the client itself.
 */
import { remainingWait, type BackoffRule } from '../../domain/session/backoff.ts';
import { normaliseIp } from '../auth/ip.ts';

export interface ThrottleRule {
  /** Failures counted within this window (THROTTLE_WINDOW_MS, the HTTP login's). */
  readonly windowMs: number;
  /** This many failures within the window start the waits for the address (THROTTLE_MAX_FAILURES). */
  readonly maxFailures: number;
  /** The first wait (THROTTLE_BASE_MS, default 30 s); each further failure doubles it. */
  readonly baseMs?: number;
  /** The longest wait (THROTTLE_MAX_MS, default 15 min). */
  readonly maxMs?: number;
}

/**
 * The HTTP login's progressive back-off (domain/session/backoff.ts) applied per remote address: FTP user
 * names are random and one-time per upload task, so the HTTP key (user name + address) would let a
 * guesser start afresh with every name. Kept in memory: the credentials it protects die with the
 * process too. As over HTTP, a blocked address is refused before the password is looked at, so it
 * cannot learn whether a guess was right, and a successful login clears its failures.
 */
export class FailedLoginThrottle {
  private readonly failures = new Map<string, number[]>();
  private readonly rule: BackoffRule;

  constructor(
    rule: ThrottleRule,
    /** Addresses tracked at most (a spray from many addresses must not grow memory without bound). */
    private readonly maxAddresses = 10_000,
  ) {
    this.rule = { windowMs: rule.windowMs, freeFailures: rule.maxFailures, baseMs: rule.baseMs ?? 30_000, maxMs: rule.maxMs ?? 15 * 60_000 };
  }

  /** Milliseconds the address must still wait before its next login is looked at (0: go ahead). */
  wait(ip: string, now: number): number {
    return remainingWait(this.recent(normaliseIp(ip), now), now, this.rule);
  }

  blocked(ip: string, now: number): boolean {
    return this.wait(ip, now) > 0;
  }

  fail(ip: string, now: number): void {
    const key = normaliseIp(ip);
    const list = this.recent(key, now);
    list.push(now);
    // Re-inserted last: the Map's first key is then the least recently failing address.
    this.failures.delete(key);
    this.failures.set(key, list);
    if (this.failures.size > this.maxAddresses) this.failures.delete(this.failures.keys().next().value!);
  }

  clear(ip: string): void {
    this.failures.delete(normaliseIp(ip));
  }

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((at) => now - at < this.rule.windowMs);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }
}

const OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/**
 * Why an active-mode command (PORT / EPRT) is refused, or undefined when it may go ahead. Active mode
 * makes the server connect out: to any address it would be a port scanner and a bounce relay (FTP
 * bounce), to the client's low ports an attack on its services. So only the control connection's own
 * address is allowed, and only ports ≥ 1024.
 */
export function activeModeRefusal(directive: 'PORT' | 'EPRT', arg: string | null, controlIp: string | undefined): string | undefined {
  let host: string;
  let port: number;
  if (directive === 'PORT') {
    const parts = (arg ?? '').split(',');
    if (parts.length !== 6 || !parts.every((p) => OCTET.test(p))) return 'Syntax: PORT h1,h2,h3,h4,p1,p2';
    host = parts.slice(0, 4).join('.');
    port = Number(parts[4]) * 256 + Number(parts[5]);
  } else {
    // |protocol|address|port| with any delimiter character (RFC 2428); ftp-srv only knows "|".
    const m = /^\|([12])\|([0-9a-fA-F:.]+)\|(\d{1,5})\|$/.exec(arg ?? '');
    if (!m) return 'Syntax: EPRT |1|address|port| or |2|address|port|';
    host = m[2]!;
    port = Number(m[3]);
  }
  if (controlIp === undefined || normaliseIp(host.toLowerCase()) !== normaliseIp(controlIp.toLowerCase())) return 'Active mode connects only to your own address';
  if (port < 1024 || port > 65535) return 'Active mode connects only to ports 1024-65535';
  return undefined;
}
