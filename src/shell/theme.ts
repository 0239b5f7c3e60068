/**
 * Theme (spec §1): purple (default), green or blue, read from and stored in sessionStorage 'theme'.
 * Each maps to a Mantine primary colour; <html data-app-theme> names it for styles and tests.
 */
import { proxy, useSnapshot } from 'valtio';
import { readSession, writeSession } from '../session/storage.ts';

export type ThemeName = 'purple' | 'green' | 'blue';
export const THEMES: readonly ThemeName[] = ['purple', 'green', 'blue'];
export const PRIMARY_COLOR: Readonly<Record<ThemeName, string>> = { purple: 'violet', green: 'green', blue: 'blue' };
const KEY = 'theme';

function isTheme(v: unknown): v is ThemeName {
  return v === 'purple' || v === 'green' || v === 'blue';
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
