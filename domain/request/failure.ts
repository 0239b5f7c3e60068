import { ErrorCode, messageFor, type Lang } from '../errors/catalogue.ts';

/**
 * Which message a failed call shows (spec §8). The server's own `msg` wins when the answer carried
 * a JSON envelope; an HTTP failure without one gets the status table; anything else a generic text.
 */
export interface Envelope {
  readonly code: number;
  readonly msg?: string | undefined;
  readonly data?: unknown;
}

export function isEnvelope(body: unknown): body is Envelope {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'number';
}

/** Text for an HTTP status without a usable body: the spec's table, else "connection error (status)". */
export function statusMessage(status: number, lang: Lang): string {
  return messageFor(status, lang) ?? (lang === 'zh' ? `连接错误（${status}）` : `Connection error (${status})`);
}

/** Text for an envelope whose code is not 200: its msg, else the catalogue entry for the code. */
export function envelopeMessage(body: Envelope, lang: Lang): string {
  if (body.msg && body.msg.trim()) return body.msg;
  return messageFor(body.code, lang) ?? (lang === 'zh' ? `请求失败（${body.code}）` : `Request failed (${body.code})`);
}

export function networkMessage(lang: Lang): string {
  return messageFor(ErrorCode.Network, lang) ?? 'Network error';
}

export interface Failure {
  readonly code: number;
  readonly msg: string;
  readonly body: unknown;
}

/**
 * Classifies a finished HTTP exchange. Returns null on success (HTTP 2xx with code 200), else the
 * failure to reject with. `body` is the parsed JSON body or undefined when there was none.
 */
export function classifyAnswer(status: number, body: unknown, lang: Lang): Failure | null {
  if (isEnvelope(body)) {
    if (body.code === 200 && status >= 200 && status < 300) return null;
    if (body.code === 200) return { code: status, msg: statusMessage(status, lang), body };
    return { code: body.code, msg: envelopeMessage(body, lang), body };
  }
  if (status >= 200 && status < 300) {
    return { code: ErrorCode.Internal, msg: lang === 'zh' ? '服务器返回了无法识别的数据' : 'The server answered with unreadable data', body };
  }
  return { code: status, msg: statusMessage(status, lang), body };
}

/** `attachment; filename*=UTF-8''%E6%8A%A5.xlsx` or `filename="a.xlsx"` → the file name. */
export function filenameFromDisposition(header: string | null | undefined, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      return star[1].trim();
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain?.[1]?.trim() || fallback;
}
