import { Alert, Badge, Button, Center, Group, List, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { menuTitle, useT } from '../i18n/index.ts';
import { useAccess } from '../session/store.ts';
import { confirmSignOut } from './HeaderActions.tsx';
import { buildMenu, menuLeaves } from './menu-model.ts';

/**
 * `/` for a user who may see no built page (domain/session/root.ts answers null): rather than land
 * on a "not built" placeholder, say so, list what is coming for this account, and offer sign-out.
 */
export default function NothingBuiltPage() {
  const t = useT();
  const access = useAccess();
  const coming = useMemo(() => menuLeaves(buildMenu((p) => access.canSeeRoute(p))), [access]);
  return (
    <Center p="xl" mih="100dvh" data-testid="nothing-built">
      <Stack maw={640}>
        <Alert color="gray" title={t('notBuilt.nothingTitle')}>
          {t('notBuilt.nothingMessage')}
        </Alert>
        {coming.length > 0 && (
          <List size="sm" spacing={4}>
            {coming.map((n) => (
              <List.Item key={n.entry.key}>
                <Group gap="xs">
                  {menuTitle(n.entry.key)}
                  <Badge size="xs" variant="light" color="gray">{t('notBuilt.mark')}</Badge>
                </Group>
              </List.Item>
            ))}
          </List>
        )}
        <Group>
          <Button variant="light" onClick={() => confirmSignOut(t)} data-testid="nothing-built-sign-out">
            {t('shell.signOut')}
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
