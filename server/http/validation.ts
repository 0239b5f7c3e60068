/**
 * Request validation with Ajv. Bodies are validated strictly (no type coercion, unknown fields
 * rejected through `additionalProperties: false`); query strings and path params coerce strings to
 * the declared types and single values to arrays (`?ids=1`).
 */
import { Ajv, type ErrorObject } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { FieldMessage, type Lang } from '../../domain/errors/catalogue.ts';
import { fieldProblemMessage, HTTP_URL_FORMAT, type FieldProblem } from '../../domain/errors/field-problem.ts';
import { isHttpOrRelativeUrl } from '../../domain/request/url.ts';

const common = { allErrors: false, useDefaults: true, removeAdditional: false, strict: false, verbose: true } as const;

/** The string format of URL fields a user stores (see `UrlText` in route.ts); field-problem.ts words its failure. */
export { HTTP_URL_FORMAT };

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

/** The most telling Ajv error as the field it names ('' for the body itself) and its problem (code + params). */
export function validationProblem(errors: readonly ErrorObject[]): { field: string; problem: FieldProblem } | undefined {
  // Inside anyOf, Ajv reports each failed branch before the anyOf itself; the anyOf reads best.
  const err = errors.find((e) => e.keyword === 'anyOf') ?? errors[0];
  if (!err) return undefined;
  const p = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'required': return { field: fieldName(err.instancePath, String(p.missingProperty)), problem: { code: 'required' } };
    case 'additionalProperties': return { field: fieldName(err.instancePath, String(p.additionalProperty)), problem: { code: 'unknown' } };
    default: break;
  }
  const field = fieldName(err.instancePath);
  const code = err.keyword;
  switch (code) {
    case 'type': return { field, problem: { code, params: { type: p.type } } };
    case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum':
    case 'minLength': case 'maxLength': case 'minItems': case 'maxItems':
      return { field, problem: { code, params: { limit: p.limit } } };
    case 'format': return { field, problem: { code, params: { format: p.format } } };
    case 'enum': return { field, problem: { code, params: { allowedValues: p.allowedValues } } };
    case 'const': return { field, problem: { code, params: { allowedValue: p.allowedValue } } };
    case 'anyOf': {
      const branches = Array.isArray(err.schema)
        ? err.schema.map((b: { const?: unknown; enum?: unknown[]; type?: unknown }) => (b.const !== undefined ? { const: b.const } : b.enum ? { enum: b.enum } : { type: b.type }))
        : [];
      return { field, problem: { code, params: { branches } } };
    }
    case 'uniqueItems': case 'pattern': return { field, problem: { code } };
    // A keyword the catalogue has no words for: Ajv's own text.
    default: return { field, problem: { code, params: { message: err.message ?? err.keyword } } };
  }
}

/** The FieldMessage for the most telling Ajv error (the sentence a 400's `msg` carries). */
export function validationMessage(errors: readonly ErrorObject[], lang: Lang): string {
  const v = validationProblem(errors);
  if (!v) return FieldMessage.malformedBody(lang);
  const field = v.field || (lang === 'zh' ? '请求体' : 'body');
  return fieldProblemMessage(field, v.problem, lang) ?? FieldMessage.invalid(field, String(v.problem.params?.message ?? v.problem.code), lang);
}
