/**
 * Signing in: password login (POST /service-priv/login) and passwordless ticket login
 * (POST /service-priv/mmLogin). Both answer `{token, user}`; the session stores them and the
 * console goes to the redirect target when the user may see it, else the root route.
 */
import type { LoginType } from '../../../domain/session/login-type.ts';
import { postLoginTarget } from '../../../domain/session/guard.ts';
import { http } from '../../api/http.ts';
import { rootTarget } from '../../app/guard.ts';
import { navigateHref } from '../../app/navigate.ts';
import { currentAccess, signIn, type SessionUser } from '../../session/store.ts';
import { keepTabs } from '../../shell/tabs.ts';

export interface LoginAnswer {
  token: string;
  user: SessionUser;
}

const QUIET = { silent: true, noCompanyId: true, skipAuthRedirect: true } as const;

export function passwordLogin(username: string, password: string, loginType: LoginType): Promise<LoginAnswer> {
  return http.post<LoginAnswer>('/service-priv/login', { username, password, loginType }, QUIET);
}

export function ticketLogin(ticket: string): Promise<LoginAnswer> {
  return http.post<LoginAnswer>('/service-priv/mmLogin', { ticket }, QUIET);
}

/** Stores the session and navigates to the redirect (if visible) or the root route. */
export async function completeLogin(answer: LoginAnswer, loginType: LoginType, redirect: unknown): Promise<void> {
  signIn(answer.token, answer.user, loginType);
  const access = currentAccess();
  keepTabs((p) => access.canSeeRoute(p));
  await navigateHref(postLoginTarget(redirect, (p) => access.canSeeRoute(p), rootTarget() ?? '/'), true);
}
