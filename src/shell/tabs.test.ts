import { beforeEach, describe, expect, it } from 'vitest';
import { boundTabs, closeAllTabs, closeOtherTabs, closeTab, closeTabsToRight, keepTabs, MAX_TABS, openTab, resetTabs, tabs } from './tabs.ts';

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

describe('tab cap, restore bounds and the context menu', () => {
  beforeEach(() => resetTabs());
  const many = (n: number) => Array.from({ length: n }, (_, i) => `/p${i}`);

  it(`keeps at most ${MAX_TABS} tabs, closing the least recently used one`, () => {
    many(MAX_TABS).forEach(openTab);
    openTab('/p0'); // p0 used again: p1 is now the least recently used
    openTab('/new');
    expect(tabs.paths).toHaveLength(MAX_TABS);
    expect(tabs.paths).not.toContain('/p1');
    expect(tabs.paths).toContain('/p0');
    expect(tabs.paths[tabs.active]).toBe('/new');
  });

  it('never closes the active tab to make room, even when it is the least recently used', () => {
    many(MAX_TABS).forEach(openTab);
    tabs.used = ['/p5', ...tabs.used.filter((p) => p !== '/p5')];
    tabs.active = tabs.paths.indexOf('/p5');
    openTab('/x');
    expect(tabs.paths).toContain('/p5');
    expect(tabs.paths).not.toContain('/p0');
    expect(tabs.paths).toHaveLength(MAX_TABS);
  });

  it('bounds a restored list: duplicates dropped, the least recently used past the cap dropped, the active kept', () => {
    const stored = [...many(30), '/p3'];
    const used = [...many(30)].reverse(); // p29 least recent ... p0 most recent
    const s = boundTabs(stored, 29, used);
    expect(s.paths).toHaveLength(MAX_TABS);
    expect(new Set(s.paths).size).toBe(s.paths.length);
    expect(s.paths[s.active]).toBe('/p29');
    expect(s.paths).toContain('/p0');
    expect(s.paths).not.toContain('/p28');
  });

  it('close others keeps only the chosen tab and activates it', () => {
    ['/a', '/b', '/c'].forEach(openTab);
    expect(closeOtherTabs('/b')).toBe('/b');
    expect(tabs.paths).toEqual(['/b']);
    expect(tabs.active).toBe(0);
  });

  it('close to the right keeps the active page when it stays, else activates the chosen tab', () => {
    ['/a', '/b', '/c', '/d'].forEach(openTab);
    openTab('/a');
    expect(closeTabsToRight('/b')).toBe('/a');
    expect(tabs.paths).toEqual(['/a', '/b']);
    openTab('/c');
    openTab('/d');
    expect(closeTabsToRight('/a')).toBe('/a');
    expect(tabs.paths).toEqual(['/a']);
  });

  it('close all leaves no tab', () => {
    ['/a', '/b'].forEach(openTab);
    expect(closeAllTabs()).toBeNull();
    expect(tabs.paths).toEqual([]);
    expect(tabs.active).toBe(-1);
  });
});
