/**
 * Page visits (/system/user_action/detail): the router reports each page the user lands on with
 * `pageview/add`, once the page has stayed for `VISIT_SETTLE_MS` (a redirect chain or a fast click
 * through the menu records only where the user stopped) and not again for the same page while the
 * user stays on it (a change of the list's query string is no new visit). Only registry routes the
 * signed-in user may see are reported; a wall on a display key is nobody's visit.
 */
import { entryByKey } from '../../../domain/permissions/access.ts';
import { auditApi } from './api.ts';

export const VISIT_SETTLE_MS = 1_000;

export interface VisitDeps {
  /** Whether a user is signed in and may see this route. */
  readonly canSee: (route: string) => boolean;
  readonly send?: (page: string) => Promise<unknown>;
}

/** Answers the listener the router calls with each resolved pathname (without the base path). */
export function pageVisitTracker(deps: VisitDeps): (pathname: string) => void {
  const send = deps.send ?? auditApi.visit;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last: string | undefined;
  return (pathname) => {
    const route = pathname.replace(/\/+$/, '') || '/';
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (route === last) return;
    const entry = entryByKey(route);
    if (!entry || entry.type !== 1 || !deps.canSee(route)) {
      last = undefined;
      return;
    }
    timer = setTimeout(() => {
      timer = undefined;
      last = route;
      send(route).catch(() => undefined);
    }, VISIT_SETTLE_MS);
  };
}
