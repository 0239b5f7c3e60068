import { beforeEach, describe, expect, it } from 'vitest';
import { closeTab, keepTabs, openTab, resetTabs, tabs } from './tabs.ts';

describe('open tabs', () => {
  beforeEach(() => resetTabs());

  it('adds a tab per opened route and activates it', () => {
    openTab('/system/user');
    openTab('/system/role');
    expect(tabs.paths).toEqual(['/system/user', '/system/role']);
    expect(tabs.active).toBe(1);
  });

  it('activates an existing tab instead of opening it twice', () => {
    openTab('/a');
    openTab('/b');
    openTab('/a');
    expect(tabs.paths).toEqual(['/a', '/b']);
    expect(tabs.active).toBe(0);
  });

  it('closing the active tab activates its right neighbour, or the left one at the end', () => {
    ['/a', '/b', '/c'].forEach(openTab);
    openTab('/b');
    expect(closeTab('/b')).toBe('/c');
    expect(closeTab('/c')).toBe('/a');
    expect(closeTab('/a')).toBeNull();
    expect(tabs.active).toBe(-1);
  });

  it('closing a tab left of the active one keeps the same page active', () => {
    ['/a', '/b', '/c'].forEach(openTab);
    expect(closeTab('/a')).toBe('/c');
    expect(tabs.paths[tabs.active]).toBe('/c');
  });

  it('drops tabs the new user may not see', () => {
    ['/a', '/secret', '/c'].forEach(openTab);
    keepTabs((p) => p !== '/secret');
    expect(tabs.paths).toEqual(['/a', '/c']);
    expect(tabs.paths[tabs.active]).toBe('/c');
  });
});
