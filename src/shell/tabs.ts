/**
 * Open tabs with an active index, kept in sessionStorage 'tabs' so a reload keeps them.
 * Opening a route adds a tab (or activates its tab); closing the active tab activates a neighbour.
 */
import { proxy, subscribe, useSnapshot } from 'valtio';
import { readSession, writeSession } from '../session/storage.ts';

export interface TabsState {
  paths: string[];
  active: number;
}

const KEY = 'tabs';

function load(): TabsState {
  try {
    const raw = JSON.parse(readSession(KEY) ?? 'null') as unknown;
    if (raw && typeof raw === 'object') {
      const { paths, active } = raw as { paths?: unknown; active?: unknown };
      if (Array.isArray(paths) && paths.every((p) => typeof p === 'string') && typeof active === 'number') {
        return { paths: paths as string[], active: Math.min(Math.max(active, -1), paths.length - 1) };
      }
    }
  } catch {
    // unreadable state starts empty
  }
  return { paths: [], active: -1 };
}

export const tabs = proxy<TabsState>(load());
subscribe(tabs, () => writeSession(KEY, JSON.stringify({ paths: tabs.paths, active: tabs.active })));

/** Adds `path` (or activates its tab). */
export function openTab(path: string): void {
  const i = tabs.paths.indexOf(path);
  if (i >= 0) {
    if (tabs.active !== i) tabs.active = i;
    return;
  }
  tabs.paths.push(path);
  tabs.active = tabs.paths.length - 1;
}

/** Closes `path`; returns the path that becomes active (or null when no tab is left). */
export function closeTab(path: string): string | null {
  const i = tabs.paths.indexOf(path);
  if (i < 0) return tabs.paths[tabs.active] ?? null;
  tabs.paths.splice(i, 1);
  if (tabs.paths.length === 0) {
    tabs.active = -1;
    return null;
  }
  if (i < tabs.active || tabs.active >= tabs.paths.length) tabs.active = Math.max(0, tabs.active - 1);
  else if (i === tabs.active) tabs.active = Math.min(i, tabs.paths.length - 1);
  return tabs.paths[tabs.active] ?? null;
}

/** Drops tabs the user may no longer see (e.g. after another user signs in in this browser tab). */
export function keepTabs(visible: (path: string) => boolean): void {
  const current = tabs.paths[tabs.active];
  const kept = tabs.paths.filter(visible);
  if (kept.length === tabs.paths.length) return;
  tabs.paths = kept;
  tabs.active = current ? kept.indexOf(current) : -1;
}

export function resetTabs(): void {
  tabs.paths = [];
  tabs.active = -1;
}

export function useTabs(): Readonly<TabsState> {
  return useSnapshot(tabs) as Readonly<TabsState>;
}
