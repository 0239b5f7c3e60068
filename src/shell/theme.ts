/**
 * Theme (spec §1): purple (default), green or blue, plus dark (issue 13: night shifts and video
 * walls), read from and stored in sessionStorage 'theme' like the others. Each maps to a Mantine
 * primary colour and colour scheme (dark also repaints the bundled basemap, see MapView);
 * <html data-app-theme> names it for styles and tests.
 */
import { proxy, useSnapshot } from 'valtio';
import { readSession, writeSession } from '../session/storage.ts';

export type ThemeName = 'purple' | 'green' | 'blue' | 'dark';
export const THEMES: readonly ThemeName[] = ['purple', 'green', 'blue', 'dark'];
export const PRIMARY_COLOR: Readonly<Record<ThemeName, string>> = { purple: 'violet', green: 'green', blue: 'blue', dark: 'blue' };

/** Mantine colour scheme of a theme. */
export function colorSchemeOf(name: ThemeName): 'light' | 'dark' {
  return name === 'dark' ? 'dark' : 'light';
}
const KEY = 'theme';

function isTheme(v: unknown): v is ThemeName {
  return v === 'purple' || v === 'green' || v === 'blue' || v === 'dark';
}

export const themeState = proxy<{ name: ThemeName }>({ name: (() => {
  const v = readSession(KEY);
  return isTheme(v) ? v : 'purple';
})() });

function mark(name: ThemeName): void {
  if (typeof document !== 'undefined') document.documentElement.dataset['appTheme'] = name;
}
mark(themeState.name);

export function setTheme(name: ThemeName): void {
  themeState.name = name;
  writeSession(KEY, name);
  mark(name);
}

export function useThemeName(): ThemeName {
  return useSnapshot(themeState).name;
}
