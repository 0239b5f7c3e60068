import { ErrorCode } from '../errors/catalogue.ts';
import { isLoginPath, loginUrlFor, type LoginType } from './login-type.ts';

/**
 * The route guard of spec §2 as a pure decision:
 * - a login path signs the user out and shows the form;
 * - with a loaded user, the route proceeds (visibility is checked separately: a hidden route is a 404);
 * - without one, a stored token means "restore the user from it"; no token means "go to the login
 *   page of the stored login type with ?redirect=".
 */
export type GuardDecision =
  | { readonly kind: 'signOut' }
  | { readonly kind: 'proceed' }
  | { readonly kind: 'restore'; readonly token: string }
  | { readonly kind: 'toLogin'; readonly to: string };

export interface GuardInput {
  /** Path inside the base, with its search string (e.g. `/system/user?page=2`). */
  readonly path: string;
  readonly userLoaded: boolean;
  readonly storedToken: string | null;
  readonly loginType: LoginType | null;
}

export function guardDecision(input: GuardInput): GuardDecision {
  if (isLoginPath(input.path)) return { kind: 'signOut' };
  if (input.userLoaded) return { kind: 'proceed' };
  if (input.storedToken) return { kind: 'restore', token: input.storedToken };
  return { kind: 'toLogin', to: loginUrlFor(input.loginType, input.path) };
}

/**
 * Whether a failed restore call means the stored token is no good (sign out) or only that the server
 * was not reached (keep the token and show the error): a reload interrupted by another navigation, a
 * dropped connection or a restarting server must not sign the operator out.
 */
export function restoreFailureEndsSession(code: number): boolean {
  const transient = code === ErrorCode.Network || code === ErrorCode.Timeout || code === ErrorCode.TooManyRequests || (code >= 500 && code < 600);
  return !transient;
}

/** After a restore attempt: proceed on success, else the stored login type's page with ?redirect=. */
export function afterRestore(ok: boolean, input: Pick<GuardInput, 'path' | 'loginType'>): GuardDecision {
  return ok ? { kind: 'proceed' } : { kind: 'toLogin', to: loginUrlFor(input.loginType, input.path) };
}

/**
 * Where to go after a successful login: the `redirect` query when it is an in-app path the user may
 * see, else the root route. Absolute or protocol-relative URLs are refused (no open redirect).
 */
export function postLoginTarget(redirect: unknown, canSee: (path: string) => boolean, root: string): string {
  if (typeof redirect !== 'string' || !redirect.startsWith('/') || redirect.startsWith('//')) return root;
  if (isLoginPath(redirect)) return root;
  const pathOnly = redirect.split(/[?#]/)[0] ?? '';
  if (pathOnly === '/' || !canSee(pathOnly)) return root;
  return redirect;
}
