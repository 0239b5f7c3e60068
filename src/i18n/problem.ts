/**
 * A message shown on screen that must follow a language switch (issue 13): keep what it means (an i18n
 * key + params, or the server answer's code + data), never the rendered string, and render it at each
 * render in the current language. `useProblemText(problem)` does that.
 */
import { messageFor, type Lang } from '../../domain/errors/catalogue.ts';
import { ErrorCode } from '../../domain/errors/catalogue.ts';
import { throttledMessage } from '../../domain/session/backoff.ts';
import { isApiError } from '../api/http.ts';
import { i18n, useLang } from './index.ts';

export type Problem =
  /** A console message: key in a registered namespace (default 'common'), with interpolation params. */
  | { readonly key: string; readonly ns?: string; readonly params?: Record<string, unknown> }
  /** A server (or request client) answer: its code, the text as received, and its data. */
  | { readonly code: number; readonly msg: string; readonly data?: unknown };

/** The problem of a console message key. */
export function keyProblem(key: string, ns?: string, params?: Record<string, unknown>): Problem {
  return { key, ...(ns ? { ns } : {}), ...(params ? { params } : {}) };
}

/** The problem of a caught error: a server answer keeps its code and data; anything else its text. */
export function problemOf(err: unknown): Problem {
  if (isApiError(err)) {
    const body = err.body as { data?: unknown } | undefined;
    return { code: err.code, msg: err.msg, data: body?.data };
  }
  return { code: 0, msg: err instanceof Error ? err.message : String(err) };
}

function retryAfter(data: unknown): number | undefined {
  const s = (data as { retryAfterSeconds?: unknown } | null | undefined)?.retryAfterSeconds;
  return typeof s === 'number' && Number.isFinite(s) ? s : undefined;
}

/**
 * The problem in `lang`. A server answer carrying the catalogue's text for its code (in either language)
 * is rendered from the catalogue; a login wait from its seconds. A specific server text (e.g. a field
 * named by validation) has no key to render from and stays as the server wrote it.
 */
export function problemText(problem: Problem, lang: Lang): string {
  if ('key' in problem) return i18n.t(problem.key, { ns: problem.ns ?? 'common', lng: lang, ...problem.params });
  const seconds = retryAfter(problem.data);
  if (problem.code === ErrorCode.LoginThrottled && seconds !== undefined) return throttledMessage(seconds, lang);
  const generic = problem.msg === messageFor(problem.code, 'zh') || problem.msg === messageFor(problem.code, 'en');
  return generic ? (messageFor(problem.code, lang) ?? problem.msg) : problem.msg;
}

/** The problem's text in the current language (null for none); re-renders on a language switch. */
export function useProblemText(problem: Problem | null): string | null {
  const lang = useLang();
  return problem ? problemText(problem, lang) : null;
}
