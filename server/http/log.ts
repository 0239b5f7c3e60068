/**
 * Logger options that keep secrets out of the log. Websocket URLs carry the session token in
 * `?token=` (browsers cannot set headers on an upgrade) and Fastify logs every request's URL at the
 * default level, so every logged URL has its secret-looking query values replaced, and the headers
 * that carry credentials (`x-jwt`, `authorization`, `cookie`, the refreshed `jwt` answer header) are
 * censored wherever a request, a reply or a headers object is logged.
 */
import type { FastifyServerOptions } from 'fastify';

export const REDACTED = '[REDACTED]';

/** Query parameter names whose values are credentials (case-insensitive, whole name or a part of it). */
const SECRET_PARAM = /token|jwt|passw|pwd|secret|ticket|auth|credential|session|signature|api[-_]?key|^key$|^sign$|^code$/i;

/** Header names whose values are credentials, request or answer. */
const SECRET_HEADERS = ['x-jwt', 'authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'jwt'] as const;

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** The URL with the value of every secret-looking query parameter replaced; path and order kept. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return SECRET_PARAM.test(decodeName(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, q + 1)}${redacted}${hash < 0 ? '' : url.slice(hash)}`;
}

/** A copy of a headers object with the credential headers censored. */
export function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = (SECRET_HEADERS as readonly string[]).includes(name.toLowerCase()) ? REDACTED : value;
  }
  return out;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remoteAddress?: string; remotePort?: number };
}

/** What Fastify's default `req` serializer logs, with the URL redacted; also for a raw Node request. */
function serializeRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url: request.url === undefined ? undefined : redactUrl(request.url),
    host: request.host ?? request.headers?.host,
    remoteAddress: request.ip ?? request.socket?.remoteAddress,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The `logger` options of `buildApp`. The serializer redacts the request URL; `redact` censors
 * credential headers in anything else a handler might log (`{ req: { headers } }`, `{ headers }`).
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  const paths = SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `res.headers["${h}"]`, `headers["${h}"]`, `*.headers["${h}"]`]);
  return {
    level,
    serializers: { req: serializeRequest as (req: unknown) => unknown },
    redact: { paths, censor: REDACTED },
    ...(stream ? { stream } : {}),
  } as FastifyServerOptions['logger'];
}
