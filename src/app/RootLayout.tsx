import { Alert, Button, Group } from '@mantine/core';
import { Outlet } from '@tanstack/react-router';
import { useSnapshot } from 'valtio';
import { useT } from '../i18n/index.ts';
import { loadError } from './load-error.ts';
import { LAYERS } from '../shell/layers.ts';

/** The root: the matched route, plus a banner when a preloaded chunk or stylesheet failed. */
export function RootLayout() {
  const t = useT();
  const { message, shownByRoutes } = useSnapshot(loadError);
  return (
    <>
      {message && shownByRoutes === 0 && (
        <Alert
          data-testid="load-error-banner"
          color="red"
          title={t('loadError.title')}
          style={{ position: 'fixed', top: 8, left: '50%', transform: 'translateX(-50%)', zIndex: LAYERS.notification, maxWidth: 560 }}
        >
          <Group justify="space-between" wrap="nowrap" gap="md">
            <span>{t('loadError.message')}</span>
            <Button size="xs" color="red" onClick={() => window.location.reload()}>
              {t('loadError.retry')}
            </Button>
          </Group>
        </Alert>
      )}
      <Outlet />
    </>
  );
}
