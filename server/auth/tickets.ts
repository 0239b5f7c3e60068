/** Passwordless login tickets: random, stored only as a hash, single-use, expiring. */
import { createHash, randomBytes } from 'node:crypto';

export function newTicket(): string {
  return randomBytes(32).toString('base64url');
}

export function hashTicket(ticket: string): string {
  return createHash('sha256').update(ticket).digest('hex');
}
