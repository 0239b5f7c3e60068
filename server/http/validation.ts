/**
 * Request validation with Ajv. Bodies are validated strictly (no type coercion, unknown fields
 * rejected through `additionalProperties: false`); query strings and path params coerce strings to
 * the declared types and single values to arrays (`?ids=1`).
 */
import { Ajv, type ErrorObject } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { FieldMessage, type Lang } from '../../domain/errors/catalogue.ts';
import { isHttpOrRelativeUrl } from '../../domain/request/url.ts';

const common = { allErrors: false, useDefaults: true, removeAdditional: false, strict: false, verbose: true } as const;

/** The string format of URL fields a user stores (see `UrlText` in route.ts). */
export const HTTP_URL_FORMAT = 'http-url';

/** One compiler per app, so compiled schemas are released with the app. */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodyAjv = new Ajv({ ...common, coerceTypes: false });
  const paramAjv = new Ajv({ ...common, coerceTypes: 'array' });
  for (const ajv of [bodyAjv, paramAjv]) {
    // Stored links, sounds and map sources: http(s) or relative only (domain/request/url.ts; `UrlText` in route.ts).
    ajv.addFormat(HTTP_URL_FORMAT, isHttpOrRelativeUrl);
  }
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : paramAjv).compile(schema as object);
}

/** `/roleIds/0` → `roleIds[0]`. */
function fieldName(instancePath: string, child?: string): string {
  const segments = instancePath.split('/').filter(Boolean);
  if (child !== undefined) segments.push(child);
  return segments.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
}

const TYPE_NAMES: Record<string, readonly [string, string]> = {
  integer: ['整数', 'an integer'],
  number: ['数字', 'a number'],
  string: ['字符串', 'a string'],
  boolean: ['布尔值', 'a boolean'],
  array: ['数组', 'an array'],
  object: ['对象', 'an object'],
  null: ['空值', 'null'],
};

function typeName(type: unknown, lang: Lang): string {
  const names = (Array.isArray(type) ? type : [type]).map((t) => TYPE_NAMES[String(t)]?.[lang === 'zh' ? 0 : 1] ?? String(t));
  return names.join(lang === 'zh' ? '或' : ' or ');
}

function describeBranch(schema: unknown, lang: Lang): string {
  const s = schema as { const?: unknown; enum?: unknown[]; type?: unknown };
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(', ');
  return typeName(s.type, lang);
}

function detail(err: ErrorObject, lang: Lang): string {
  const zh = lang === 'zh';
  const p = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'type': return zh ? `应为${typeName(p.type, lang)}` : `must be ${typeName(p.type, lang)}`;
    case 'minimum': return zh ? `不能小于 ${String(p.limit)}` : `must be at least ${String(p.limit)}`;
    case 'maximum': return zh ? `不能大于 ${String(p.limit)}` : `must be at most ${String(p.limit)}`;
    case 'exclusiveMinimum': return zh ? `必须大于 ${String(p.limit)}` : `must be greater than ${String(p.limit)}`;
    case 'exclusiveMaximum': return zh ? `必须小于 ${String(p.limit)}` : `must be less than ${String(p.limit)}`;
    case 'minLength': return zh ? `长度不能少于 ${String(p.limit)}` : `must have at least ${String(p.limit)} characters`;
    case 'maxLength': return zh ? `长度不能超过 ${String(p.limit)}` : `must have at most ${String(p.limit)} characters`;
    case 'minItems': return zh ? `至少需要 ${String(p.limit)} 项` : `must have at least ${String(p.limit)} items`;
    case 'maxItems': return zh ? `最多 ${String(p.limit)} 项` : `must have at most ${String(p.limit)} items`;
    case 'uniqueItems': return zh ? '不能有重复项' : 'must not contain duplicates';
    case 'pattern': return zh ? '格式不正确' : 'has the wrong format';
    case 'format':
      if (p.format === HTTP_URL_FORMAT) return zh ? '只能是 http(s) 地址或相对地址' : 'must be an http(s) or relative URL';
      return zh ? '格式不正确' : 'has the wrong format';
    case 'enum': return zh ? `应为 ${(p.allowedValues as unknown[]).join(', ')} 之一` : `must be one of ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'const': return zh ? `应为 ${JSON.stringify(p.allowedValue)}` : `must be ${JSON.stringify(p.allowedValue)}`;
    case 'anyOf': {
      const branches = Array.isArray(err.schema) ? err.schema.map((b) => describeBranch(b, lang)).join(zh ? '或' : ' or ') : '';
      return zh ? `应为${branches}` : `must be ${branches}`;
    }
    default: return err.message ?? err.keyword;
  }
}

/** The FieldMessage for the most telling Ajv error; `context` is body, querystring or params. */
export function validationMessage(errors: readonly ErrorObject[], lang: Lang): string {
  // Inside anyOf, Ajv reports each failed branch before the anyOf itself; the anyOf reads best.
  const err = errors.find((e) => e.keyword === 'anyOf') ?? errors[0];
  if (!err) return FieldMessage.malformedBody(lang);
  const p = err.params as Record<string, unknown>;
  if (err.keyword === 'required') return FieldMessage.required(fieldName(err.instancePath, String(p.missingProperty)), lang);
  if (err.keyword === 'additionalProperties') return FieldMessage.unknown(fieldName(err.instancePath, String(p.additionalProperty)), lang);
  const field = fieldName(err.instancePath) || (lang === 'zh' ? '请求体' : 'body');
  return FieldMessage.invalid(field, detail(err, lang), lang);
}
