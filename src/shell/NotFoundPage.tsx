import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { navigateHref } from '../app/navigate.ts';
import { useT } from '../i18n/index.ts';

/** 404: unknown paths and routes the user may not see (a forbidden URL shows 404, spec §2/§6). */
export default function NotFoundPage() {
  const t = useT();
  return (
    <Center h="100dvh" data-testid="not-found">
      <Stack align="center" gap="sm">
        <Title order={1} c="dimmed" fz={72}>
          {t('notFound.title')}
        </Title>
        <Text>{t('notFound.message')}</Text>
        <Button variant="light" onClick={() => void navigateHref('/')}>
          {t('notFound.home')}
        </Button>
      </Stack>
    </Center>
  );
}
