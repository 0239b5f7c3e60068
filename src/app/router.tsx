/**
 * The route tree (TanStack Router, code-based), built from the permission registry and the page
 * files (src/app/route-table.ts):
 *
 *   __root__ (404 for unknown paths, load-error banner)
 *   ├─ login routes (/login … /mmLogin, /parkLogin in the park variant): visiting one signs out
 *   ├─ /            → guard, then the first built page the user may see (the variant's root once built)
 *   ├─ _app (guard + shell)        → every page route
 *   └─ _standalone (guard, no shell) → large screens opened in a blank window
 *
 * Every page is lazily loaded. Routes are not added or removed per user: a route the user may not
 * see answers the 404 page from its beforeLoad (spec: a forbidden URL shows 404), and the menu
 * lists only visible routes. That keeps one static tree however many screens are added.
 */
import { Center, Loader } from '@mantine/core';
import { createRootRoute, createRoute, createRouter, notFound, redirect, type AnyRoute } from '@tanstack/react-router';
import { loginRoutesFor } from '../../domain/session/login-type.ts';
import { http } from '../api/http.ts';
import { clearSession, currentAccess, session } from '../session/store.ts';
import { registerUnauthorizedNavigation } from '../session/unauthorized.ts';
import { ensureSession, rootTarget } from './guard.ts';
import { lazyComponent, type LazyComponent } from './lazy.tsx';
import { BASEPATH, navigateHref, registerRouterNavigation } from './navigate.ts';
import { RouteError } from './RouteError.tsx';
import { RootLayout } from './RootLayout.tsx';
import { APP_ROUTES, type AppRoute } from './route-table.ts';
import { ROUTER_VARIANT } from './variant.ts';
import { wallDisplayKey } from '../features/walls/display-key.ts';
import { pageVisitTracker } from '../features/audit/visits.ts';

const NotFoundPage = lazyComponent(() => import('../shell/NotFoundPage.tsx'), 'NotFoundPage');
const NotBuiltPage = lazyComponent(() => import('../shell/NotBuiltPage.tsx'), 'NotBuiltPage');
const LoginPage = lazyComponent(() => import('../pages/login/LoginPage.tsx'), 'LoginPage');
const MmLoginPage = lazyComponent(() => import('../pages/login/MmLoginPage.tsx'), 'MmLoginPage');
const Shell = lazyComponent(() => import('../shell/Shell.tsx'), 'Shell');
const StandaloneLayout = lazyComponent(() => import('../shell/StandaloneLayout.tsx'), 'StandaloneLayout');
const NothingBuiltPage = lazyComponent(() => import('../shell/NothingBuiltPage.tsx'), 'NothingBuiltPage');

/** A route component that carries `preload`, so the router loads the chunk before rendering. */
function withPreload<P extends object>(Lazy: LazyComponent<P>, props: P): LazyComponent<Record<string, never>> {
  const C = (() => <Lazy {...props} />) as unknown as LazyComponent<Record<string, never>>;
  C.preload = Lazy.preload;
  return C;
}

function PendingPage() {
  return (
    <Center p="xl" mih={200}>
      <Loader size="sm" />
    </Center>
  );
}

const rootRoute = createRootRoute({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: RouteError,
});

function signOutOnLoginPath({ preload }: { preload: boolean }): void {
  // hovering a link to a login page preloads it: that must not sign anyone out
  if (preload) return;
  // spec §2: visiting a login path signs the user out (and revokes the session on the server)
  if (session.token) void http.post('/service-priv/logout', undefined, { silent: true, skipAuthRedirect: true, noCompanyId: true }).catch(() => undefined);
  clearSession();
}

const loginRoutes = loginRoutesFor(ROUTER_VARIANT).map((r) =>
  createRoute({
    getParentRoute: () => rootRoute,
    path: r.path,
    beforeLoad: signOutOnLoginPath,
    component: r.loginType === 'mm' ? MmLoginPage : withPreload(LoginPage, { loginType: r.loginType }),
  }),
);

const pathOf = (location: { pathname: string; searchStr: string }) => location.pathname + location.searchStr;

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: async ({ location }) => {
    await ensureSession(pathOf(location));
    const target = rootTarget();
    if (target) throw redirect({ to: target });
  },
  // only when the user may see no built page: say so rather than land on a placeholder
  component: NothingBuiltPage,
});

const appLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: '_app',
  beforeLoad: ({ location }) => ensureSession(pathOf(location)),
  component: Shell,
});

const standaloneLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: '_standalone',
  // A wall opened with a display key (`?key=wd.…`) runs on that key, never on a user session (src/features/walls).
  beforeLoad: ({ location }) => (wallDisplayKey(location.pathname, location.search) ? undefined : ensureSession(pathOf(location))),
  component: StandaloneLayout,
});

function pageRoute(route: AppRoute, parent: AnyRoute): AnyRoute {
  const Page = route.loader ? lazyComponent(route.loader, route.path) : undefined;
  return createRoute({
    getParentRoute: () => parent,
    path: route.path,
    beforeLoad: ({ location }) => {
      if (wallDisplayKey(location.pathname, location.search)) return;
      if (!currentAccess().canSeeRoute(route.path)) throw notFound();
    },
    component: Page ?? withPreload(NotBuiltPage, { route: route.path }),
    errorComponent: RouteError,
  });
}

const shellRoutes = APP_ROUTES.filter((r) => !r.flags.includes('standalone')).map((r) => pageRoute(r, appLayout));
const standaloneRoutes = APP_ROUTES.filter((r) => r.flags.includes('standalone')).map((r) => pageRoute(r, standaloneLayout));

const routeTree = rootRoute.addChildren([
  ...loginRoutes,
  indexRoute,
  appLayout.addChildren(shellRoutes),
  standaloneLayout.addChildren(standaloneRoutes),
]);

export const router = createRouter({
  routeTree,
  basepath: BASEPATH,
  defaultNotFoundComponent: NotFoundPage,
  defaultPendingComponent: PendingPage,
  defaultPendingMs: 300,
  defaultPreload: 'intent',
  // Search values stay plain strings (a ticket such as "12e3" must not turn into a number).
  parseSearch: (searchStr) => Object.fromEntries(new URLSearchParams(searchStr)),
  stringifySearch: (search) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(search)) if (v !== undefined && v !== null) q.append(k, String(v));
    const str = q.toString();
    return str ? `?${str}` : '';
  },
  scrollRestoration: true,
});

// screens navigate through ./navigate.ts (they must not import this module: it imports them)
registerRouterNavigation((to) => router.navigate(to));

// Issue 19: the page the user stops on is reported (pageview/add) for /system/user_action/detail.
const trackVisit = pageVisitTracker({ canSee: (route) => session.user !== null && currentAccess().canSeeRoute(route) });
router.subscribe('onResolved', (e) => {
  const path = e.toLocation.pathname;
  trackVisit(BASEPATH && path.startsWith(BASEPATH) ? path.slice(BASEPATH.length) : path);
});

registerUnauthorizedNavigation((href) => {
  void navigateHref(href, true);
});
