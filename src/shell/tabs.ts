/**
 * Open tabs with an active index, kept in sessionStorage 'tabs' so a reload keeps them.
 * Opening a route adds a tab (or activates its tab); closing the active tab activates a neighbour.
 * At most MAX_TABS stay open: opening one more closes the least recently used tab (never the active
 * one). What a reload restores is bounded the same way, and the shell prunes routes the signed-in
 * user may no longer see (keepTabs).
 */
import { proxy, subscribe, useSnapshot } from 'valtio';
import { readSession, writeSession } from '../session/storage.ts';

/** An operator switches between a handful of screens; past 20 the oldest is closed instead of the strip growing. */
export const MAX_TABS = 20;

export interface TabsState {
  paths: string[];
  active: number;
  /** The open paths from least to most recently used (the order LRU closing follows). */
  used: string[];
}

const KEY = 'tabs';

/** Bounds a stored (or any) state: unique string paths, at most MAX_TABS, the active one kept. */
export function boundTabs(paths: readonly string[], active: number, used: readonly string[] = []): TabsState {
  const unique = [...new Set(paths)];
  const activePath = unique[active];
  let order = [...new Set([...used.filter((p) => unique.includes(p)), ...unique.filter((p) => !used.includes(p))])];
  // keep the active tab as the most recent one, then drop the least recently used past the cap
  if (activePath !== undefined) order = [...order.filter((p) => p !== activePath), activePath];
  const kept = new Set(order.slice(-MAX_TABS));
  const nextPaths = unique.filter((p) => kept.has(p));
  return {
    paths: nextPaths,
    active: activePath !== undefined ? nextPaths.indexOf(activePath) : nextPaths.length ? 0 : -1,
    used: order.filter((p) => kept.has(p)),
  };
}

function load(): TabsState {
  try {
    const raw = JSON.parse(readSession(KEY) ?? 'null') as unknown;
    if (raw && typeof raw === 'object') {
      const { paths, active, used } = raw as { paths?: unknown; active?: unknown; used?: unknown };
      if (Array.isArray(paths) && paths.every((p) => typeof p === 'string') && typeof active === 'number') {
        const order = Array.isArray(used) ? used.filter((p): p is string => typeof p === 'string') : [];
        return boundTabs(paths as string[], Math.min(Math.max(active, -1), paths.length - 1), order);
      }
    }
  } catch {
    // unreadable state starts empty
  }
  return { paths: [], active: -1, used: [] };
}

export const tabs = proxy<TabsState>(load());
subscribe(tabs, () => writeSession(KEY, JSON.stringify({ paths: tabs.paths, active: tabs.active, used: tabs.used })));

function touch(path: string): void {
  const i = tabs.used.indexOf(path);
  if (i === tabs.used.length - 1 && i >= 0) return;
  if (i >= 0) tabs.used.splice(i, 1);
  tabs.used.push(path);
}

/** Adds `path` (or activates its tab); past MAX_TABS the least recently used tab closes. */
export function openTab(path: string): void {
  const i = tabs.paths.indexOf(path);
  if (i >= 0) {
    if (tabs.active !== i) tabs.active = i;
    touch(path);
    return;
  }
  while (tabs.paths.length >= MAX_TABS) {
    const oldest = tabs.used.find((p) => p !== tabs.paths[tabs.active]) ?? tabs.paths[0];
    if (oldest === undefined) break;
    closeTab(oldest);
  }
  tabs.paths.push(path);
  tabs.active = tabs.paths.length - 1;
  touch(path);
}

/** Closes `path`; returns the path that becomes active (or null when no tab is left). */
export function closeTab(path: string): string | null {
  const i = tabs.paths.indexOf(path);
  if (i < 0) return tabs.paths[tabs.active] ?? null;
  tabs.paths.splice(i, 1);
  tabs.used = tabs.used.filter((p) => p !== path);
  if (tabs.paths.length === 0) {
    tabs.active = -1;
    return null;
  }
  if (i < tabs.active || tabs.active >= tabs.paths.length) tabs.active = Math.max(0, tabs.active - 1);
  else if (i === tabs.active) tabs.active = Math.min(i, tabs.paths.length - 1);
  return tabs.paths[tabs.active] ?? null;
}

/** Keeps only the tabs `keep` accepts; the active page stays active when kept, else the nearest kept one. */
function retain(keep: (path: string, index: number) => boolean, preferred: string | undefined): string | null {
  const kept = tabs.paths.filter(keep);
  if (kept.length === tabs.paths.length) return tabs.paths[tabs.active] ?? null;
  const current = tabs.paths[tabs.active];
  const target = current !== undefined && kept.includes(current) ? current : preferred !== undefined && kept.includes(preferred) ? preferred : kept[kept.length - 1];
  tabs.paths = kept;
  tabs.used = tabs.used.filter((p) => kept.includes(p));
  tabs.active = target !== undefined ? kept.indexOf(target) : -1;
  return target ?? null;
}

/** Context menu: close every tab but `path` (which becomes active). Returns the active path. */
export function closeOtherTabs(path: string): string | null {
  return retain((p) => p === path, path);
}

/** Context menu: close the tabs right of `path`. Returns the active path. */
export function closeTabsToRight(path: string): string | null {
  const i = tabs.paths.indexOf(path);
  if (i < 0) return tabs.paths[tabs.active] ?? null;
  return retain((_, j) => j <= i, path);
}

/** Context menu: close every tab. Returns null (no tab left). */
export function closeAllTabs(): null {
  resetTabs();
  return null;
}

/** Drops tabs the user may no longer see (e.g. after another user signs in in this browser tab). */
export function keepTabs(visible: (path: string) => boolean): void {
  const current = tabs.paths[tabs.active];
  const kept = tabs.paths.filter(visible);
  if (kept.length === tabs.paths.length) return;
  tabs.paths = kept;
  tabs.used = tabs.used.filter((p) => kept.includes(p));
  tabs.active = current ? kept.indexOf(current) : -1;
}

export function resetTabs(): void {
  tabs.paths = [];
  tabs.active = -1;
  tabs.used = [];
}

export function useTabs(): Readonly<TabsState> {
  return useSnapshot(tabs) as Readonly<TabsState>;
}
