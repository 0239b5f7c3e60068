/**
 * Query strings as the server reads them (spec §7, server/API.md): arrays are repeated parameters
 * (`ids=1&ids=2`), `undefined` and `null` are left out, dates travel as epoch milliseconds.
 */
export type QueryValue = string | number | boolean | Date | null | undefined;
export type QueryParams = Record<string, QueryValue | readonly QueryValue[]>;

function encodeValue(v: Exclude<QueryValue, null | undefined>): string {
  return v instanceof Date ? String(v.getTime()) : String(v);
}

/** `{a: 1, ids: [1, 2]}` → `a=1&ids=1&ids=2` (no leading `?`; '' when nothing is sent). */
export function buildQuery(params: Readonly<Record<string, unknown>> | undefined): string {
  if (!params) return '';
  const parts: string[] = [];
  for (const [key, raw] of Object.entries(params)) {
    const values: readonly unknown[] = Array.isArray(raw) ? raw : [raw];
    for (const v of values) {
      if (v === undefined || v === null) continue;
      const text = typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : encodeValue(v as Exclude<QueryValue, null | undefined>);
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
    }
  }
  return parts.join('&');
}

/** Appends a query to a URL that may already carry one. */
export function withQuery(url: string, params: Readonly<Record<string, unknown>> | undefined): string {
  const q = buildQuery(params);
  if (!q) return url;
  return url + (url.includes('?') ? '&' : '?') + q;
}
