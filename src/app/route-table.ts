/**
 * The console's page routes: every route leaf of the permission registry (a type-1 entry without
 * route children) plus every page file without a registry record (spec §6: a route without a
 * permission record shows). Group entries (/monitor, /safeManagement/alarmSettings…) are menu
 * folders, not pages.
 */
import { PERMISSION_REGISTRY, type RegistryEntry, type RouteFlag } from '../../domain/permissions/registry.ts';
import { isLoginPath } from '../../domain/session/login-type.ts';
import { PAGE_LOADERS, type PageLoader } from './pages.ts';

export interface AppRoute {
  readonly path: string;
  readonly entry: RegistryEntry | undefined;
  readonly loader: PageLoader | undefined;
  readonly flags: readonly RouteFlag[];
}

const routeEntries = PERMISSION_REGISTRY.filter((e) => e.type === 1);
const hasRouteChildren = new Set(routeEntries.filter((e) => e.pid !== 0).map((e) => e.pid));

/** Top-level groups in menu order (menuIndex, then registry order). */
export const MENU_GROUPS: readonly RegistryEntry[] = routeEntries
  .filter((e) => e.pid === 0)
  .map((e, i) => ({ e, i }))
  .sort((a, b) => (a.e.menuIndex ?? 1000 + a.i) - (b.e.menuIndex ?? 1000 + b.i))
  .map(({ e }) => e);

function inheritedFlags(entry: RegistryEntry): RouteFlag[] {
  const flags = new Set<RouteFlag>(entry.flags ?? []);
  let parent = PERMISSION_REGISTRY.find((p) => p.id === entry.pid);
  while (parent) {
    if (parent.flags?.includes('hidden')) flags.add('hidden');
    const pid = parent.pid;
    parent = pid ? PERMISSION_REGISTRY.find((p) => p.id === pid) : undefined;
  }
  return [...flags];
}

function buildRoutes(): AppRoute[] {
  const out: AppRoute[] = [];
  const seen = new Set<string>();
  for (const e of routeEntries) {
    if (hasRouteChildren.has(e.id)) continue;
    const flags = inheritedFlags(e);
    // /global holds permissions only (spec §2): no page
    if (flags.includes('hidden')) continue;
    out.push({ path: e.key, entry: e, loader: PAGE_LOADERS.get(e.key), flags });
    seen.add(e.key);
  }
  for (const [path, loader] of PAGE_LOADERS) {
    if (seen.has(path) || isLoginPath(path)) continue;
    out.push({ path, entry: undefined, loader, flags: [] });
  }
  return out;
}

export const APP_ROUTES: readonly AppRoute[] = buildRoutes();

/** Page routes in menu order (groups by menuIndex, registry order inside), for root fallbacks. */
export const MENU_ORDER: readonly string[] = (() => {
  const rank = new Map(MENU_GROUPS.map((g, i) => [g.id, i]));
  const topOf = (e: RegistryEntry): number => {
    let cur: RegistryEntry | undefined = e;
    while (cur && cur.pid !== 0) {
      const pid: number = cur.pid;
      cur = PERMISSION_REGISTRY.find((p) => p.id === pid);
    }
    return cur ? (rank.get(cur.id) ?? 999) : 999;
  };
  return APP_ROUTES.filter((r) => r.entry && !r.flags.includes('standalone') && !r.flags.includes('external'))
    .map((r, i) => ({ r, i, top: topOf(r.entry as RegistryEntry) }))
    .sort((a, b) => a.top - b.top || a.i - b.i)
    .map(({ r }) => r.path);
})();

export function appRouteFor(path: string): AppRoute | undefined {
  return APP_ROUTES.find((r) => r.path === path);
}

const BUILT = new Set(APP_ROUTES.filter((r) => r.loader).map((r) => r.path));

/** Whether a route has its page (src/pages/…page.tsx); the others render the "not built" placeholder. */
export function isBuiltRoute(path: string): boolean {
  return BUILT.has(path);
}
