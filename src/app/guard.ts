/**
 * The route guard (spec §2), run in `beforeLoad` of every signed-in route. The decisions are pure
 * (domain/session/guard.ts); this file performs them: restore the user from the stored token via
 * GET /service-priv/user/current, or redirect to the stored login type's page with ?redirect=.
 */
import { redirect } from '@tanstack/react-router';
import { afterRestore, guardDecision, restoreFailureEndsSession } from '../../domain/session/guard.ts';
import { rootTargetFor } from '../../domain/session/root.ts';
import { http, isApiError } from '../api/http.ts';
import { clearSession, currentAccess, session, setUser, storedToken, type SessionUser } from '../session/store.ts';
import { companySelection } from '../session/company-selection.ts';
import { splitHref } from './href.ts';
import { isBuiltRoute, MENU_ORDER } from './route-table.ts';
import { ROUTER_VARIANT } from './variant.ts';

let restoring: Promise<boolean> | null = null;

async function restoreUser(token: string): Promise<boolean> {
  session.token = token;
  try {
    const data = await http.get<{ user: SessionUser }>('/service-priv/user/current', undefined, {
      silent: true,
      skipAuthRedirect: true,
      noCompanyId: true,
    });
    setUser(data.user);
    if (companySelection.rootCompanyId === null) companySelection.rootCompanyId = data.user.companyId;
    return true;
  } catch (e) {
    // only a refused token ends the session; an unreachable server shows the route's error with a retry
    if (isApiError(e) && !restoreFailureEndsSession(e.code)) throw e;
    clearSession();
    return false;
  }
}

function toLogin(href: string): never {
  const { to, search } = splitHref(href);
  throw redirect({ to, search });
}

/** Ensures a user is loaded for `path` (inside the base, with search) or throws a redirect. */
export async function ensureSession(path: string): Promise<void> {
  const input = { path, userLoaded: session.user !== null, storedToken: storedToken(), loginType: session.loginType };
  const decision = guardDecision(input);
  if (decision.kind === 'proceed' || decision.kind === 'signOut') return;
  if (decision.kind === 'toLogin') toLogin(decision.to);
  restoring ??= restoreUser(decision.token).finally(() => {
    restoring = null;
  });
  const after = afterRestore(await restoring, input);
  if (after.kind === 'toLogin') toLogin(after.to);
}

/**
 * Where `/` and a successful login without a usable redirect go: the first built page the user may
 * see (domain/session/root.ts); null when there is none (`/` then shows what is coming).
 */
export function rootTarget(): string | null {
  const access = currentAccess();
  return rootTargetFor(ROUTER_VARIANT, (p) => access.canSeeRoute(p), MENU_ORDER, isBuiltRoute);
}
