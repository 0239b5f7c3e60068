import { maskLookup, type PermissionMask } from './bits.ts';
import { PERMISSION_REGISTRY, type RegistryEntry } from './registry.ts';

/** userLevel 0 is an administrator: no permission filtering (spec §6). */
export const ADMIN_LEVEL = 0;

const byKey = new Map<string, RegistryEntry>(PERMISSION_REGISTRY.map((e) => [e.key, e]));
const byId = new Map<number, RegistryEntry>(PERMISSION_REGISTRY.map((e) => [e.id, e]));

export function entryByKey(key: string): RegistryEntry | undefined {
  return byKey.get(key);
}

export function entryById(id: number): RegistryEntry | undefined {
  return byId.get(id);
}

/** Key of a button record: `/system/user` + `delete` → `/system/user:delete`. */
export function buttonKey(routePath: string, button: string): string {
  return `${routePath}:${button}`;
}

export interface AccessSubject {
  readonly userLevel: number;
  readonly permissions: readonly PermissionMask[];
}

/**
 * What one user may see and do. Rules of spec §6:
 * - administrators see everything;
 * - a route or button shows when its bit is set; a route with no permission record shows;
 * - a route also needs its parent group to show (a hidden group hides its pages).
 */
export class Access {
  private readonly has: (id: number) => boolean;
  readonly isAdmin: boolean;

  constructor(subject: AccessSubject) {
    this.isAdmin = subject.userLevel === ADMIN_LEVEL;
    this.has = maskLookup(subject.permissions);
  }

  /** True when the bit of this permission id is set (administrators: always). */
  hasId(id: number): boolean {
    return this.isAdmin || this.has(id);
  }

  /** Route visibility by path; unknown paths (no record) show. */
  canSeeRoute(path: string): boolean {
    let entry = byKey.get(path);
    if (!entry) return true;
    while (entry) {
      if (!this.hasId(entry.id)) return false;
      entry = entry.pid ? byId.get(entry.pid) : undefined;
    }
    return true;
  }

  /** Button bit by route path and button name; a button with no record is allowed. */
  hasButton(routePath: string, button: string): boolean {
    const entry = byKey.get(buttonKey(routePath, button));
    return entry ? this.hasId(entry.id) && this.canSeeRoute(routePath) : true;
  }

  /** Every permitted route path (type 1), for navigation checks such as the dashboard's. */
  permittedRoutes(): Set<string> {
    const out = new Set<string>();
    for (const e of PERMISSION_REGISTRY) if (e.type === 1 && this.canSeeRoute(e.key)) out.add(e.key);
    return out;
  }
}

/**
 * The three button behaviours of spec §6:
 * - `removeIfMissing`: remove the element when the bit is missing (the usual case);
 * - `removeIfSet`: remove it when the bit is set (elements that a right replaces);
 * - `globalArea`: the global alarm pop-up and right menu: missing rights remove the pop-up or hide
 *   the right menu entirely (the caller decides which from the area).
 */
export type ButtonBehaviour = 'removeIfMissing' | 'removeIfSet' | 'globalArea';

export function buttonShows(access: Access, routePath: string, button: string, behaviour: ButtonBehaviour): boolean {
  const has = access.hasButton(routePath, button);
  return behaviour === 'removeIfSet' ? !has : has;
}

/** A global area (the /global/alarm pop-up or /global/rightMenu) shows when any of its buttons is granted. */
export function globalAreaShows(access: Access, areaPath: '/global/alarm' | '/global/rightMenu'): boolean {
  const area = byKey.get(areaPath);
  if (!area) return true;
  if (!access.hasId(area.id) && !access.isAdmin) {
    const buttons = PERMISSION_REGISTRY.filter((e) => e.pid === area.id);
    return buttons.some((b) => access.hasId(b.id));
  }
  return true;
}
