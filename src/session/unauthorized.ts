/**
 * What happens on code 401 (spec §8): the session is cleared and the console goes to
 * `/login?redirect=<current path>`. The router registers the navigation at start-up; this module
 * keeps the request client free of router imports (which would create an import cycle).
 */
import { clearSession } from './store.ts';

type Navigate = (href: string) => void;

const BASE = import.meta.env.BASE_URL.replace(/\/$/, '');

let navigate: Navigate = (href) => {
  window.location.assign(BASE + href);
};

export function registerUnauthorizedNavigation(fn: Navigate): void {
  navigate = fn;
}

/** The current path inside the base, with its search string: `/system/user?current=2`. */
export function currentAppPath(): string {
  const { pathname, search } = window.location;
  const inside = pathname.startsWith(BASE) ? pathname.slice(BASE.length) || '/' : pathname;
  return inside + search;
}

let redirecting = false;

export function handleUnauthorized(): void {
  clearSession();
  const path = currentAppPath();
  if (path.startsWith('/login')) return;
  // several calls may fail at once with 401: navigate once
  if (redirecting) return;
  redirecting = true;
  queueMicrotask(() => {
    redirecting = false;
  });
  navigate(`/login?redirect=${encodeURIComponent(path)}`);
}
