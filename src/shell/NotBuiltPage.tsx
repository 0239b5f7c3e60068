import { Alert, Center } from '@mantine/core';
import { menuTitle, useT } from '../i18n/index.ts';

/** The honest placeholder for a registered route whose page arrives in a later issue. */
export default function NotBuiltPage({ route }: { route: string }) {
  const t = useT();
  return (
    <Center p="xl" data-testid="not-built" data-route={route}>
      <Alert color="gray" title={t('notBuilt.title')} maw={640}>
        {t('notBuilt.message', { route, name: menuTitle(route) })}
      </Alert>
    </Center>
  );
}
