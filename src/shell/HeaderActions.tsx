import { ActionIcon, Button, ColorSwatch, Group, Menu, Text, useMantineTheme, type MantineTheme } from '@mantine/core';
import { modals } from '@mantine/modals';
import { loginPathFor } from '../../domain/session/login-type.ts';
import { http } from '../api/http.ts';
import { navigateHref } from '../app/navigate.ts';
import { setLanguage, useLang, useT } from '../i18n/index.ts';
import { clearSignOutState, displayName, session, useSession } from '../session/store.ts';
import { currentAppPath } from '../session/unauthorized.ts';
import { resetTabs } from './tabs.ts';
import { PRIMARY_COLOR, setTheme, THEMES, useThemeName, type ThemeName } from './theme.ts';

function swatch(theme: MantineTheme, name: ThemeName): string {
  return (name === 'dark' ? theme.colors.dark[7] : theme.colors[PRIMARY_COLOR[name]]?.[6]) ?? '';
}

/** Language toggle: Chinese ↔ English, stored in localStorage 'lang'. */
export function LanguageSwitch() {
  const t = useT();
  const lang = useLang();
  return (
    <Button
      variant="subtle"
      size="compact-sm"
      data-testid="lang-switch"
      data-lang={lang}
      aria-label={t('shell.language')}
      onClick={() => setLanguage(lang === 'zh' ? 'en' : 'zh')}
    >
      {t('shell.switchToOther')}
    </Button>
  );
}

/** Theme menu: purple (default), green, blue, dark; stored in sessionStorage 'theme'. */
export function ThemeSwitch() {
  const t = useT();
  const theme = useMantineTheme();
  const current = useThemeName();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" size="lg" aria-label={t('shell.theme')} title={t('shell.theme')} data-testid="theme-switch" data-theme={current}>
          <ColorSwatch color={swatch(theme, current)} size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {THEMES.map((name) => (
          <Menu.Item
            key={name}
            data-testid={`theme-option-${name}`}
            leftSection={<ColorSwatch color={swatch(theme, name)} size={14} />}
            onClick={() => setTheme(name)}
            fw={name === current ? 700 : undefined}
          >
            {t(`shell.themes.${name}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * Sign-out (spec §4): asks first, then revokes the session on the server, clears token, user,
 * remember-me and the stored playback types, and lands on the login page of the stored login type.
 */
export async function signOut(): Promise<void> {
  const loginType = session.loginType;
  const path = currentAppPath();
  await http.post('/service-priv/logout', undefined, { silent: true, skipAuthRedirect: true, noCompanyId: true }).catch(() => undefined);
  clearSignOutState();
  resetTabs();
  await navigateHref(loginPathFor(loginType, path), true);
}

export function confirmSignOut(t: (key: string) => string): void {
  modals.openConfirmModal({
    title: t('shell.signOutTitle'),
    children: <Text size="sm">{t('shell.signOutConfirm')}</Text>,
    labels: { confirm: t('ok'), cancel: t('cancel') },
    confirmProps: { 'data-testid': 'sign-out-confirm' } as Record<string, string>,
    cancelProps: { 'data-testid': 'sign-out-cancel' } as Record<string, string>,
    onConfirm: () => void signOut(),
  });
}

export function HeaderActions() {
  const t = useT();
  const { user } = useSession();
  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" fw={500} data-testid="user-display-name">
        {displayName(user)}
      </Text>
      <LanguageSwitch />
      <ThemeSwitch />
      <Button variant="light" size="compact-sm" data-testid="sign-out" onClick={() => confirmSignOut(t)}>
        {t('shell.signOut')}
      </Button>
    </Group>
  );
}
