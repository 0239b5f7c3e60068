/**
 * The sign-in throttle both doors use (the console's /service-priv/login and the drivers' app's
 * /service-app/api/login): failures per account and per client address within a window, each with its backoff.
 * Checked before the password, so a waiting caller cannot learn whether a guess was right. App accounts are
 * kept apart from console accounts by their `app:` prefix in the failure log.
 */
import { ErrorCode } from '../../domain/errors/catalogue.ts';
import { remainingWait, throttledMessage, waitSeconds, type BackoffRule } from '../../domain/session/backoff.ts';
import type { Config } from '../config.ts';
import type { Storage } from '../db/repositories.ts';
import { AppError } from '../http/envelope.ts';

export interface LoginThrottle {
  /** Throws the throttled answer (with retryAfterSeconds) while the account or address must wait. */
  check(account: string, ip: string, now: number): Promise<void>;
  failed(account: string, ip: string, now: number): Promise<void>;
  succeeded(account: string, ip: string): Promise<void>;
}

export function loginThrottle(storage: Storage, config: Pick<Config, 'throttleWindowMs' | 'throttleMaxFailures' | 'throttleBaseMs' | 'throttleMaxMs' | 'throttleAddressMaxFailures'>): LoginThrottle {
  const account: BackoffRule = { windowMs: config.throttleWindowMs, freeFailures: config.throttleMaxFailures, baseMs: config.throttleBaseMs, maxMs: config.throttleMaxMs };
  const address: BackoffRule = { ...account, freeFailures: config.throttleAddressMaxFailures };
  return {
    async check(name, ip, now) {
      const since = now - config.throttleWindowMs;
      const wait = Math.max(
        remainingWait(await storage.loginGuard.accountFailures(name, since), now, account),
        remainingWait(await storage.loginGuard.addressFailures(ip, since), now, address),
      );
      if (wait > 0) {
        const retryAfterSeconds = waitSeconds(wait);
        throw new AppError(ErrorCode.LoginThrottled, (lang) => throttledMessage(retryAfterSeconds, lang), { retryAfterSeconds });
      }
    },
    failed: (name, ip, now) => storage.loginGuard.recordFailure(name, ip, now, now - config.throttleWindowMs),
    succeeded: (name, ip) => storage.loginGuard.clearFailures(name, ip),
  };
}
