/**
 * Who may scrape `/metrics` (the `'metrics'` route policy, applied by the auth hook in server/http/auth.ts
 * to the route the router matched, never to the raw URL). A scraper has no user session, so it carries
 * its own credential:
 * - METRICS_TOKEN set: `Authorization: Bearer <token>`, compared in constant time; anything else is 401.
 *   Never from the query string: URLs end up in logs and proxies' access logs.
 * - METRICS_TOKEN unset: only a loopback peer (the TCP peer address, not `request.ip`, which a trusted
 *   proxy's X-Forwarded-For decides) whose request carries no forwarding header. A reverse proxy on the
 *   same host connects from loopback too, and would otherwise hand the metrics to anyone behind it;
 *   the proxies in use add X-Forwarded-For / Forwarded / X-Real-IP, and such a request is refused (403).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '../../domain/errors/catalogue.ts';
import { AppError } from '../http/envelope.ts';
import type { Message } from '../http/messages.ts';

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host'] as const;

const needsToken: Message = (lang) => lang === 'zh'
  ? '读取监控指标需要请求头 Authorization: Bearer <METRICS_TOKEN>'
  : 'Metrics need the header Authorization: Bearer <METRICS_TOKEN>';
const wrongToken: Message = (lang) => lang === 'zh' ? '监控指标令牌不正确' : 'The metrics token is not valid';
const loopbackOnly: Message = (lang) => lang === 'zh'
  ? '未配置 METRICS_TOKEN 时，只有本机（不经代理）可以读取监控指标'
  : 'Without METRICS_TOKEN configured, metrics are served to this machine only (not through a proxy)';

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Equal strings, in time independent of where they differ (both hashed first: equal lengths for timingSafeEqual). */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Throws 401/403 (the envelope, in the caller's language) unless the request may read the metrics. */
export function checkMetricsAccess(request: FastifyRequest, token: string | undefined): void {
  if (token !== undefined) {
    const given = bearerOf(request);
    if (given === undefined) throw new AppError(ErrorCode.Unauthorized, needsToken);
    if (!sameSecret(given, token)) throw new AppError(ErrorCode.Unauthorized, wrongToken);
    return;
  }
  const forwarded = FORWARDING_HEADERS.some((h) => request.headers[h] !== undefined);
  if (forwarded || !isLoopback(request.socket.remoteAddress)) throw new AppError(ErrorCode.Forbidden, loopbackOnly);
}
