/**
 * The side navigation from the permission registry: groups in menuIndex order, only routes the user
 * may see, hidden groups (/global) left out, buttons never listed. Screens whose page is not built
 * yet stay in the menu (operators should see what is coming) and are marked `notBuilt`.
 */
import { PERMISSION_REGISTRY, type RegistryEntry } from '../../domain/permissions/registry.ts';
import { isBuiltRoute, MENU_GROUPS } from '../app/route-table.ts';

export interface MenuNode {
  readonly entry: RegistryEntry;
  readonly children: readonly MenuNode[];
  /**
   * A page without its page file (it opens the "not built" notice), or a group of only such pages.
   * External entries jump to another system and are never marked.
   */
  readonly notBuilt: boolean;
}

const routeChildren = new Map<number, RegistryEntry[]>();
for (const e of PERMISSION_REGISTRY) {
  if (e.type !== 1 || e.pid === 0) continue;
  const list = routeChildren.get(e.pid) ?? [];
  list.push(e);
  routeChildren.set(e.pid, list);
}

function node(entry: RegistryEntry, canSee: (path: string) => boolean): MenuNode | null {
  if (entry.flags?.includes('hidden') || !canSee(entry.key)) return null;
  const kids = routeChildren.get(entry.id);
  if (!kids) return { entry, children: [], notBuilt: !entry.flags?.includes('external') && !isBuiltRoute(entry.key) };
  const children = kids.map((k) => node(k, canSee)).filter((n): n is MenuNode => n !== null);
  // a group whose pages are all hidden is not shown either
  return children.length ? { entry, children, notBuilt: children.every((c) => c.notBuilt) } : null;
}

export function buildMenu(canSee: (path: string) => boolean): MenuNode[] {
  return MENU_GROUPS.map((g) => node(g, canSee)).filter((n): n is MenuNode => n !== null);
}

/** The pages of a menu (leaves), depth first in menu order. */
export function menuLeaves(nodes: readonly MenuNode[]): MenuNode[] {
  return nodes.flatMap((n) => (n.children.length ? menuLeaves(n.children) : [n]));
}

/** Keys of the groups on the way to `path` (to open them when the page is active). */
export function groupsOf(path: string): Set<string> {
  const out = new Set<string>();
  let e = PERMISSION_REGISTRY.find((x) => x.key === path);
  while (e && e.pid) {
    const pid: number = e.pid;
    e = PERMISSION_REGISTRY.find((x) => x.id === pid);
    if (e) out.add(e.key);
  }
  return out;
}
