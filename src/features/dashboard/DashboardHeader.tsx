/**
 * The dashboard's header (spec §2): clock ticking each second, weekday and date, weather (Chinese only,
 * hidden without a configured source), the enter-system button with the first-time guide, full screen,
 * the user's name and sign-out (confirmed, back to the login page of the stored login type).
 */
import { useEffect, useState } from 'react';
import { ActionIcon, Button, Group, Text, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { navigateHref } from '../../app/navigate.ts';
import { isBuiltRoute, MENU_ORDER } from '../../app/route-table.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { currentAccess, displayName, useSession } from '../../session/store.ts';
import { confirmSignOut } from '../../shell/HeaderActions.tsx';
import { dashboardQueries } from './api.ts';
import { GuideStrip, useGuide } from './Guide.tsx';
import { DASHBOARD_NS } from './messages.ts';

/** Where "enter the system" goes: the first built page after the dashboard the user may see, in menu order. */
export function enterTarget(): string | null {
  const access = currentAccess();
  return MENU_ORDER.find((p) => p !== '/home/index' && isBuiltRoute(p) && access.canSeeRoute(p)) ?? null;
}

export function enterSystem(): void {
  const to = enterTarget();
  if (to) void navigateHref(to);
}

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    // Tick on the second boundary so the shown seconds change together with the wall clock.
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      setNow(Date.now());
      timer = setTimeout(tick, 1000 - (Date.now() % 1000));
    };
    timer = setTimeout(tick, 1000 - (Date.now() % 1000));
    return () => clearTimeout(timer);
  }, []);
  return now;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function DashboardHeader({ fullscreen, onFullscreen }: { fullscreen: boolean; onFullscreen: () => void }) {
  const t = useT(DASHBOARD_NS);
  const tc = useT();
  const lang = useLang();
  const { user } = useSession();
  const now = new Date(useNow());
  const weather = useQuery(dashboardQueries.weather());
  const w = weather.data;
  const guide = useGuide(enterSystem);
  const weekdays = t('weekdays', { returnObjects: true }) as unknown as string[];
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return (
    <>
    <Group justify="space-between" wrap="nowrap" px="sm" py={6} data-testid="dashboard-header" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <Group gap="md" wrap="nowrap">
        <Text fw={700} style={{ fontSize: 'clamp(18px, 1.4vw, 36px)', fontVariantNumeric: 'tabular-nums' }} data-testid="dashboard-clock">
          {pad(now.getHours())}:{pad(now.getMinutes())}:{pad(now.getSeconds())}
        </Text>
        <div>
          <Text size="sm" data-testid="dashboard-weekday">{weekdays[now.getDay()]}</Text>
          <Text size="xs" c="dimmed" data-testid="dashboard-date">{date}</Text>
        </div>
        {/* Weather is Chinese only (spec §2) and shown only from a configured, answering source. */}
        {lang === 'zh' && w && w.configured && w.available ? (
          <Text size="sm" data-testid="dashboard-weather">{w.city} {w.text}{w.temperature !== null ? ` ${w.temperature}℃` : ''}</Text>
        ) : null}
      </Group>
      <Text fw={700} size="lg" visibleFrom="md">{t('title')}</Text>
      <Group gap="xs" wrap="nowrap">
        <Button size="compact-sm" onClick={guide.enter} disabled={enterTarget() === null} data-testid="enter-system">{t('enterSystem')}</Button>
        <Tooltip label={fullscreen ? t('exitFullscreen') : t('fullscreen')}>
          <ActionIcon variant="default" onClick={onFullscreen} aria-label={fullscreen ? t('exitFullscreen') : t('fullscreen')} data-testid="dashboard-fullscreen">
            {fullscreen ? '⤡' : '⤢'}
          </ActionIcon>
        </Tooltip>
        <Text size="sm" data-testid="dashboard-user">{displayName(user)}</Text>
        <Button variant="light" size="compact-sm" onClick={() => confirmSignOut(tc)} data-testid="dashboard-sign-out">{tc('shell.signOut')}</Button>
      </Group>
    </Group>
    <GuideStrip guide={guide} />
    </>
  );
}
