import { CloseButton, Group, ScrollArea, UnstyledButton } from '@mantine/core';
import { navigateHref } from '../app/navigate.ts';
import { menuTitle, useLang, useT } from '../i18n/index.ts';
import { closeTab, tabs as tabsState, useTabs } from './tabs.ts';

/** The open tabs; the active one matches the current page. Closing the active tab opens a neighbour. */
export function TabsBar({ activePath }: { activePath: string }) {
  const t = useT();
  useLang();
  const { paths, active } = useTabs();
  if (!paths.length) return null;
  const close = (path: string) => {
    const wasActive = tabsState.paths[tabsState.active] === path;
    const next = closeTab(path);
    if (wasActive && next) void navigateHref(next);
  };
  return (
    <ScrollArea type="never" data-testid="tabs-bar" style={{ borderBottom: '1px solid var(--mantine-color-default-border)', flex: 'none' }}>
      <Group gap={4} px="xs" py={4} wrap="nowrap" role="tablist">
        {paths.map((path, i) => {
          const isActive = i === active && path === activePath;
          return (
            <Group
              key={path}
              gap={2}
              wrap="nowrap"
              px={8}
              py={2}
              data-testid={`tab-${path}`}
              data-active={isActive || undefined}
              style={{
                borderRadius: 4,
                background: isActive ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-default)',
                border: '1px solid var(--mantine-color-default-border)',
              }}
            >
              <UnstyledButton role="tab" aria-selected={isActive} fz="sm" onClick={() => void navigateHref(path)} c={isActive ? 'var(--mantine-primary-color-filled)' : undefined}>
                {menuTitle(path)}
              </UnstyledButton>
              <CloseButton size="xs" aria-label={t('shell.closeTab')} data-testid={`tab-close-${path}`} onClick={() => close(path)} />
            </Group>
          );
        })}
      </Group>
    </ScrollArea>
  );
}
