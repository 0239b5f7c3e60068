import { ActionIcon, CloseButton, Group, Menu, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { navigateHref } from '../app/navigate.ts';
import { menuTitle, useLang, useT } from '../i18n/index.ts';
import { closeAllTabs, closeOtherTabs, closeTab, closeTabsToRight, tabs as tabsState, useTabs } from './tabs.ts';

/** A tab label is cut at this width (the full title shows in its tooltip), so 20 tabs stay one line. */
const LABEL_MAX_PX = 140;
/** One arrow click scrolls about two tabs. */
const SCROLL_STEP_PX = 320;

/**
 * The open tabs on one line: the strip scrolls sideways (wheel, arrow buttons, the active tab is
 * scrolled into view); labels are truncated with a tooltip; a right click offers close / close
 * others / close to the right / close all. The active one matches the current page; closing the
 * active tab opens a neighbour.
 */
export function TabsBar({ activePath }: { activePath: string }) {
  const t = useT();
  useLang();
  const { paths, active } = useTabs();
  const viewport = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ left: false, right: false });
  const [menuFor, setMenuFor] = useState<string | null>(null);
  const hasTabs = paths.length > 0;

  const measure = useCallback(() => {
    const el = viewport.current;
    if (!el) return;
    const left = el.scrollLeft > 1;
    const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setEdges((e) => (e.left === left && e.right === right ? e : { left, right }));
  }, []);

  useLayoutEffect(() => {
    const el = viewport.current;
    if (!el) return;
    el.querySelector('[data-active]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    measure();
  }, [paths, active, activePath, measure]);

  useEffect(() => {
    const el = viewport.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [measure, hasTabs]);

  if (!hasTabs) return null;

  /** Navigates when the active page changed (a closed active tab, or a context menu action). */
  const go = (next: string | null, before: string | undefined) => {
    if (next && next !== before) void navigateHref(next);
  };
  const close = (path: string) => {
    const before = tabsState.paths[tabsState.active];
    const wasActive = before === path;
    const next = closeTab(path);
    if (wasActive) go(next, before);
  };
  const scroll = (dx: number) => viewport.current?.scrollBy({ left: dx, behavior: 'smooth' });

  return (
    <Group gap={0} wrap="nowrap" data-testid="tabs-bar" style={{ borderBottom: '1px solid var(--mantine-color-default-border)', flex: 'none' }}>
      {edges.left || edges.right ? (
        <ActionIcon variant="subtle" size="sm" mx={2} disabled={!edges.left} aria-label={t('shell.tabsLeft')} data-testid="tabs-scroll-left" onClick={() => scroll(-SCROLL_STEP_PX)}>
          ‹
        </ActionIcon>
      ) : null}
      <div
        ref={viewport}
        onScroll={measure}
        // A vertical wheel scrolls the strip sideways: the strip has nothing to scroll vertically.
        onWheel={(e) => {
          if (viewport.current && Math.abs(e.deltaY) > Math.abs(e.deltaX)) viewport.current.scrollLeft += e.deltaY;
        }}
        style={{ flex: 1, minWidth: 0, overflowX: 'auto', overflowY: 'hidden', scrollbarWidth: 'none' }}
        data-testid="tabs-viewport"
      >
        <Group gap={4} px="xs" py={4} wrap="nowrap" role="tablist" style={{ width: 'max-content' }}>
          {paths.map((path, i) => {
            const isActive = i === active && path === activePath;
            const title = menuTitle(path);
            return (
              <Menu
                key={path}
                opened={menuFor === path}
                onChange={(o) => {
                  // Only the right click opens this menu; a left click on the tab navigates.
                  if (!o) setMenuFor(null);
                }}
                position="bottom-start"
                withinPortal
              >
                <Menu.Target>
                  <Group
                    gap={2}
                    wrap="nowrap"
                    px={8}
                    py={2}
                    data-testid={`tab-${path}`}
                    data-active={isActive || undefined}
                    onContextMenu={(e) => {
                      e.preventDefault();
                      setMenuFor(path);
                    }}
                    style={{
                      flex: 'none',
                      borderRadius: 4,
                      background: isActive ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-default)',
                      border: '1px solid var(--mantine-color-default-border)',
                    }}
                  >
                    <Tooltip label={title} openDelay={400} withinPortal>
                      <UnstyledButton role="tab" aria-selected={isActive} aria-label={title} onClick={() => void navigateHref(path)} c={isActive ? 'var(--mantine-primary-color-filled)' : undefined}>
                        <Text fz="sm" truncate="end" maw={LABEL_MAX_PX} inherit>
                          {title}
                        </Text>
                      </UnstyledButton>
                    </Tooltip>
                    <CloseButton size="xs" aria-label={t('shell.closeTab')} data-testid={`tab-close-${path}`} onClick={() => close(path)} />
                  </Group>
                </Menu.Target>
                <Menu.Dropdown data-testid="tab-menu">
                  <Menu.Item data-testid="tab-menu-close" onClick={() => close(path)}>
                    {t('shell.closeTab')}
                  </Menu.Item>
                  <Menu.Item data-testid="tab-menu-close-others" disabled={paths.length < 2} onClick={() => go(closeOtherTabs(path), activePath)}>
                    {t('shell.closeOtherTabs')}
                  </Menu.Item>
                  <Menu.Item data-testid="tab-menu-close-right" disabled={i === paths.length - 1} onClick={() => go(closeTabsToRight(path), activePath)}>
                    {t('shell.closeTabsToRight')}
                  </Menu.Item>
                  <Menu.Item
                    data-testid="tab-menu-close-all"
                    onClick={() => {
                      closeAllTabs();
                      // With no tab left the start page opens (and becomes the one tab).
                      void navigateHref('/');
                    }}
                  >
                    {t('shell.closeAllTabs')}
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            );
          })}
        </Group>
      </div>
      {edges.left || edges.right ? (
        <ActionIcon variant="subtle" size="sm" mx={2} disabled={!edges.right} aria-label={t('shell.tabsRight')} data-testid="tabs-scroll-right" onClick={() => scroll(SCROLL_STEP_PX)}>
          ›
        </ActionIcon>
      ) : null}
    </Group>
  );
}
