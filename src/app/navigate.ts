/**
 * In-app navigation for every screen, below the router: pages, the shell and the login screens
 * import this module, never `router.tsx`. The router imports those screens (lazily) to build its
 * tree, so importing `navigateHref` from it closed a 12-file import circle (router → shell and
 * login pages → router). The router registers its `navigate` here when it is created.
 */
import { splitHref } from './href.ts';

/** The console's base path without the trailing slash (`/bcmp-web`). */
export const BASEPATH: string = import.meta.env.BASE_URL.replace(/\/$/, '');

export type RouterNavigate = (to: { to: string; search: Record<string, string>; replace: boolean }) => Promise<void>;

let routerNavigate: RouterNavigate | null = null;

/** Called once by the router module; the last registration wins (hot reload re-creates the router). */
export function registerRouterNavigation(navigate: RouterNavigate): void {
  routerNavigate = navigate;
}

/** Navigates to an in-app href such as `/login?redirect=%2Fsystem%2Fuser`. */
export function navigateHref(href: string, replace = false): Promise<void> {
  // App.tsx imports the router before anything can render, so this only fails in a misbuilt entry
  if (!routerNavigate) return Promise.reject(new Error(`navigateHref(${href}) before the router was created`));
  const { to, search } = splitHref(href);
  return routerNavigate({ to, search, replace });
}
