/**
 * Random request parts derived from a route's JSON schema, for the fuzz test: mostly valid-ish
 * values (so handlers run, not just validation), boundary values, wrong types and hostile values
 * (huge and fractional numbers, unicode, lone surrogates, long strings, arrays and objects where a
 * scalar belongs). Deterministic for a seed (domain/random.ts), so a failure reproduces.
 */
import { prng } from '../../domain/random.ts';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  default?: unknown;
}

export type Rng = () => number;
export const seededRng = prng;

const HOSTILE: readonly unknown[] = [
  1e12, -1, 1.5, 'x', 0, -0.0001, 1e308, -1e308, 2 ** 53 + 2, -(2 ** 63), 2 ** 31, 2 ** 32 + 1,
  '', ' ', '\u0000', 'NaN', 'Infinity', '-1', '1e12', '0x10', '١٢٣', '１２', 'true', 'null',
  '🚗'.repeat(64), '車輛\u202e监控', 'a'.repeat(10_001), '\ud800', '<script>alert(1)</script>',
  "' OR 1=1 --", '../../../etc/passwd', 'javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd',
  true, false, null, [], [1, 2, 3], [[1]], {}, { a: 1 }, { $gt: 0 }, ['x'], [1e12], [-1],
];

const ALPHABET = 'abcXYZ019_-.@ 车辆监控测试😀';

function pick<T>(rng: Rng, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)]!;
}

function int(rng: Rng, lo: number, hi: number): number {
  return lo + Math.floor(rng() * (hi - lo + 1));
}

function types(s: JsonSchema): string[] {
  if (s.type === undefined) return [];
  return Array.isArray(s.type) ? s.type : [s.type];
}

function lowerBound(s: JsonSchema): number | undefined {
  if (s.minimum !== undefined) return s.minimum;
  if (s.exclusiveMinimum !== undefined) return s.exclusiveMinimum + 1;
  return undefined;
}

function upperBound(s: JsonSchema): number | undefined {
  if (s.maximum !== undefined) return s.maximum;
  if (s.exclusiveMaximum !== undefined) return s.exclusiveMaximum - 1;
  return undefined;
}

function randomString(rng: Rng, min: number, max: number, alphabet = ALPHABET): string {
  const chars = [...alphabet];
  const n = int(rng, min, Math.max(min, Math.min(max, min + 16)));
  let out = '';
  for (let i = 0; i < n; i++) out += pick(rng, chars);
  return out;
}

function patternString(rng: Rng, s: JsonSchema): string {
  const re = new RegExp(s.pattern!, 'u');
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 32;
  if (/\\d\{4\}-\\d\{2\}-\\d\{2\}/.test(s.pattern!)) {
    const d = new Date(Date.UTC(2020, 0, 1) + int(rng, 0, 3000) * 86_400_000);
    return d.toISOString().slice(0, 10);
  }
  for (const alphabet of [ALPHABET, '0123456789', 'abcdefghijXYZ0123456789_.@-', 'CVL_123456789']) {
    for (let i = 0; i < 8; i++) {
      const candidate = randomString(rng, Math.max(min, 1), max, alphabet);
      if (re.test(candidate)) return candidate;
    }
  }
  return randomString(rng, min, max);
}

/** A value that the schema accepts (or very nearly: patterns are tried, not solved). */
export function validValue(rng: Rng, s: JsonSchema, depth = 0): unknown {
  if (s.const !== undefined) return s.const;
  if (s.enum) return pick(rng, s.enum);
  if (s.anyOf) return validValue(rng, pick(rng, s.anyOf), depth);
  const type = pick(rng, types(s).length ? types(s) : ['string']);
  switch (type) {
    case 'integer':
    case 'number': {
      const lo = lowerBound(s) ?? 0;
      const hi = upperBound(s) ?? lo + 100;
      // Small values most of the time: ids and indexes that exist in a small fixture.
      const v = rng() < 0.7 ? int(rng, lo, Math.min(hi, lo + 20)) : int(rng, lo, Math.min(hi, Number.MAX_SAFE_INTEGER));
      return type === 'number' && rng() < 0.3 && v < hi ? v + 0.5 : v;
    }
    case 'string':
      return s.pattern ? patternString(rng, s) : randomString(rng, s.minLength ?? 0, s.maxLength ?? 24);
    case 'boolean':
      return rng() < 0.5;
    case 'null':
      return null;
    case 'array': {
      const n = int(rng, s.minItems ?? 0, Math.min(s.maxItems ?? 4, (s.minItems ?? 0) + 4));
      return Array.from({ length: n }, () => (s.items ? validValue(rng, s.items, depth + 1) : 1));
    }
    case 'object':
      return objectValue(rng, s, depth + 1, 0);
    default:
      return null;
  }
}

/** A value at or just past one of the schema's limits. */
function boundaryValue(rng: Rng, s: JsonSchema, depth: number): unknown {
  if (s.anyOf) return boundaryValue(rng, pick(rng, s.anyOf), depth);
  const type = types(s)[0];
  if (type === 'integer' || type === 'number') {
    const lo = lowerBound(s);
    const hi = upperBound(s);
    const options = [0, -1, 1];
    if (lo !== undefined) options.push(lo, lo - 1);
    if (hi !== undefined) options.push(hi, hi + 1);
    // No upper limit: the numbers that overflow an OFFSET, a Date or a 64-bit column.
    else options.push(1e12, 1e20, 2 ** 63, 1e308, Number.MAX_SAFE_INTEGER + 2);
    return pick(rng, options);
  }
  if (type === 'string') {
    const max = s.maxLength ?? 64;
    const lengths = [0, max, max + 1, s.minLength ?? 0, Math.max(0, (s.minLength ?? 0) - 1)];
    return 'é'.repeat(pick(rng, lengths));
  }
  if (type === 'array') {
    const max = s.maxItems ?? 8;
    const n = pick(rng, [0, max, max + 1, s.minItems ?? 0]);
    return Array.from({ length: n }, (_, i) => (s.items && types(s.items)[0] === 'integer' ? i + 1 : s.items ? validValue(rng, s.items, depth + 1) : i));
  }
  return validValue(rng, s, depth);
}

/** Anything: a valid value most of the time, else a boundary, a wrong type or a hostile value. */
export function fuzzValue(rng: Rng, s: JsonSchema, depth = 0): unknown {
  const r = rng();
  if (r < 0.5 || depth > 3) return validValue(rng, s, depth);
  if (r < 0.75) return boundaryValue(rng, s, depth);
  return pick(rng, HOSTILE);
}

/** An object for an object schema: required fields mostly present, optional ones half the time, sometimes an unknown one. */
export function objectValue(rng: Rng, s: JsonSchema, depth = 0, wildness = 1): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const required = new Set(s.required ?? []);
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    const present = required.has(name) ? rng() > 0.05 * wildness : rng() < 0.5;
    if (!present) continue;
    out[name] = wildness > 0 ? fuzzValue(rng, prop, depth) : validValue(rng, prop, depth);
  }
  if (wildness > 0 && rng() < 0.05) out[pick(rng, ['unknownField', '__proto__', 'constructor', 'id '])] = 1;
  return out;
}

/** `?a=1&b=x&b=y` for a query object: arrays repeat the key, objects go as JSON, lone surrogates as raw bytes. */
export function toQueryString(query: Record<string, unknown>): string {
  const enc = (v: string) => {
    try {
      return encodeURIComponent(v);
    } catch {
      // A lone surrogate has no UTF-8 form: send the bytes of one (invalid UTF-8), the rest encoded.
      return [...v].map((c) => (/[\ud800-\udfff]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c))).join('');
    }
  };
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    const values = Array.isArray(v) ? v : [v];
    for (const one of values) parts.push(`${enc(k)}=${enc(one === null ? '' : typeof one === 'object' ? JSON.stringify(one) : String(one))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}
