/**
 * The answer envelope `{code, msg, data}` and the error type handlers throw. HTTP status equals
 * `code` for the HTTP-like codes; business codes (1001–1006) travel with HTTP 200 (server/API.md).
 */
import { ErrorCode, messageFor, OK, type Lang } from '../../domain/errors/catalogue.ts';
import { fieldProblemMessage, fieldRuleText, type FieldErrors, type FieldProblem } from '../../domain/errors/field-problem.ts';
import type { Message } from './messages.ts';

export interface Envelope<T> {
  readonly code: number;
  readonly msg: string;
  readonly data: T;
}

export function ok<T>(data: T, lang: Lang): Envelope<T> {
  return { code: OK, msg: lang === 'zh' ? '成功' : 'Success', data };
}

export class AppError extends Error {
  constructor(
    readonly code: number,
    /** A specific message; the catalogue message for `code` when absent. */
    readonly detail?: Message,
    /** The answer's `data` (null when absent), e.g. the seconds left of a login wait. */
    readonly data: unknown = null,
    /** The input fields the failure is about, as codes (domain/errors/field-problem.ts): sent as `errors` so the console can word them in its own language. */
    readonly fields?: Readonly<Record<string, FieldProblem>>,
  ) {
    super(`AppError ${code}`);
  }

  get httpStatus(): number {
    return this.code >= 1000 ? 200 : this.code;
  }

  localized(lang: Lang): string {
    return this.detail?.(lang) ?? messageFor(this.code, lang) ?? messageFor(ErrorCode.Internal, lang) ?? '';
  }
}

export const fail = {
  badRequest: (detail?: Message) => new AppError(ErrorCode.BadRequest, detail),
  unauthorized: () => new AppError(ErrorCode.Unauthorized),
  forbidden: (detail?: Message) => new AppError(ErrorCode.Forbidden, detail),
  notFound: (detail?: Message) => new AppError(ErrorCode.NotFound, detail),
  conflict: (detail?: Message) => new AppError(ErrorCode.Conflict, detail),
  business: (code: number) => new AppError(code),
  /** A 400 about one input field: the sentence names the field, `errors` carries its code and params. */
  field: (field: string, problem: FieldProblem) =>
    new AppError(ErrorCode.BadRequest, (lang) => fieldProblemMessage(field, problem, lang) ?? messageFor(ErrorCode.BadRequest, lang) ?? '', null, { [field]: problem }),
};

/** A 400 about one field with the service's own sentence, "field: sentence" (the field's code travels in `errors`). */
export function badField(field: string, message: Message, code = 'rule'): AppError {
  return new AppError(ErrorCode.BadRequest, (lang) => `${field}: ${message(lang)}`, null, { [field]: { code } });
}

/** The `errors` of an answer: each field's problem with its text in `lang` (the whole message when the code has no words of its own). */
export function fieldErrors(fields: Readonly<Record<string, FieldProblem>>, lang: Lang, whole: string): FieldErrors {
  return Object.fromEntries(Object.entries(fields).map(([field, p]) => [field, { ...p, msg: fieldRuleText(p, lang) ?? whole }]));
}
