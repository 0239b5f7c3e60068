/**
 * The console shell (Mantine AppShell): header (product title, display name, language, theme,
 * sign-out), side navigation from the registry, open tabs, and the page. Pages that want the
 * company tree render the panel themselves (the shell stays free of feature imports, except the
 * global alarm area: spec §2 `/global/alarm` belongs to every page of a signed-in console, and the
 * notice bell and menu favourites of issue 19, which belong to every page as well).
 */
import { AppShell, Burger, Group, ScrollArea, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { appRouteFor } from '../app/route-table.ts';
import { GlobalAlarm } from '../features/alarms/GlobalAlarm.tsx';
import { FavouritesMenu } from '../features/notices/FavouritesMenu.tsx';
import { NoticeBell } from '../features/notices/NoticeBell.tsx';
import { menuTitle, useLang, useT } from '../i18n/index.ts';
import { useAccess, useSession } from '../session/store.ts';
import { HeaderActions } from './HeaderActions.tsx';
import { SideNav } from './SideNav.tsx';
import { TabsBar } from './TabsBar.tsx';
import { keepTabs, openTab } from './tabs.ts';
import { DOCK_WIDTH, type DockMode } from './layers.ts';

/** The live map: the alarm pop-up docks compact there (src/shell/layers.ts DOCK_WIDTH). */
const MAP_PAGE = '/monitor/index';

export default function Shell() {
  const t = useT();
  const [navOpened, { toggle }] = useDisclosure(true);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const access = useAccess();
  const lang = useLang();
  // The alarm area puts its counter into the header slot and docks its pop-up in the aside column (src/shell/layers.ts);
  // on the live map the pop-up is compact, so the map keeps as much width as it can.
  const [alarmSlot, setAlarmSlot] = useState<HTMLDivElement | null>(null);
  const [dock, setDock] = useState<DockMode>('off');
  const onMap = pathname === MAP_PAGE;

  const signedIn = useSession().user !== null;
  // Restored tabs (sessionStorage) keep only routes this user may still see: permissions can change between visits.
  useEffect(() => {
    if (signedIn) keepTabs((p) => appRouteFor(p) !== undefined && access.canSeeRoute(p));
  }, [access, signedIn]);

  useEffect(() => {
    if (appRouteFor(pathname) && access.canSeeRoute(pathname)) openTab(pathname);
  }, [pathname, access]);

  useEffect(() => {
    document.title = `${menuTitle(pathname, lang)} · ${t('product')}`;
  }, [pathname, lang, t]);

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 248, breakpoint: 'sm', collapsed: { mobile: !navOpened, desktop: !navOpened } }}
      aside={{ width: dock === 'compact' ? DOCK_WIDTH.compact : DOCK_WIDTH.full, breakpoint: 'sm', collapsed: { mobile: dock === 'off', desktop: dock === 'off' } }}
      padding={0}
    >
      <GlobalAlarm headerSlot={alarmSlot} compact={onMap} onDockedChange={setDock} />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={navOpened} onClick={toggle} size="sm" aria-label={t('shell.toggleNav')} data-testid="nav-toggle" />
            <Title order={4} c="var(--mantine-primary-color-filled)" data-testid="product-title">
              {t('product')}
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <div ref={setAlarmSlot} style={{ display: 'contents' }} data-testid="header-alarm-slot" />
            <FavouritesMenu activePath={pathname} />
            <NoticeBell />
            <HeaderActions />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar aria-label={t('shell.menu')}>
        <AppShell.Section grow component={ScrollArea} p="xs">
          <SideNav activePath={pathname} />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main style={{ display: 'flex', flexDirection: 'column', height: '100dvh' }}>
        <TabsBar activePath={pathname} />
        <div style={{ flex: 1, minHeight: 0, overflow: 'auto', padding: 'var(--mantine-spacing-sm) var(--mantine-spacing-md)' }} data-testid="page-content">
          <Outlet />
        </div>
      </AppShell.Main>
    </AppShell>
  );
}
