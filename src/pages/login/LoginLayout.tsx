import { Box, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { LoginType } from '../../../domain/session/login-type.ts';
import { useT } from '../../i18n/index.ts';
import { LanguageSwitch, ThemeSwitch } from '../../shell/HeaderActions.tsx';

/** The frame shared by every login variant: branding title per variant, language and theme switches. */
export function LoginLayout({ loginType, children }: { loginType: LoginType; children: ReactNode }) {
  const t = useT();
  return (
    <Box
      mih="100dvh"
      data-testid="login-page"
      data-login-type={loginType}
      style={{ background: 'linear-gradient(135deg, var(--mantine-primary-color-light) 0%, var(--mantine-color-body) 60%)' }}
    >
      <Group justify="flex-end" p="md" gap="xs">
        <LanguageSwitch />
        <ThemeSwitch />
      </Group>
      <Center mih="calc(100dvh - 80px)">
        <Paper withBorder shadow="md" radius="md" p="xl" w={380}>
          <Stack gap="md">
            <Stack gap={4}>
              <Title order={3} c="var(--mantine-primary-color-filled)" data-testid="login-title">
                {t(`login.title.${loginType}`)}
              </Title>
              <Text size="sm" c="dimmed">
                {t('login.subtitle')}
              </Text>
            </Stack>
            {children}
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
