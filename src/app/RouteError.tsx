import { Alert, Button, Center, Stack, Text } from '@mantine/core';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useT } from '../i18n/index.ts';
import { forgetFailedLoads, isLoadError } from './lazy.tsx';
import { loadError } from './load-error.ts';

let retriedInPlace = false;

/**
 * A route's error boundary. A failed chunk or stylesheet shows the load error with a retry that
 * imports again (and reloads the page if that fails too); other errors show their message.
 */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const chunk = isLoadError(error);
  useEffect(() => {
    if (!chunk) return;
    // this boundary shows the failure: the global banner stays away
    loadError.shownByRoutes += 1;
    return () => {
      loadError.shownByRoutes -= 1;
    };
  }, [chunk]);
  const retry = () => {
    setBusy(true);
    // the browser may keep a failed module in its module map: the second retry reloads the page
    if (retriedInPlace) {
      window.location.reload();
      return;
    }
    retriedInPlace = true;
    loadError.message = null;
    forgetFailedLoads();
    reset();
  };
  return (
    <Center p="xl" data-testid={chunk ? 'load-error' : 'route-error'}>
      <Alert color="red" title={chunk ? t('loadError.title') : t('errors.unexpected')} maw={560}>
        <Stack gap="sm">
          <Text size="sm">{chunk ? t('loadError.message') : error instanceof Error ? error.message : String(error)}</Text>
          <Text size="xs" c="dimmed">
            {chunk && error instanceof Error ? error.message : null}
          </Text>
          <Button size="xs" color="red" loading={busy} onClick={chunk ? retry : () => window.location.reload()} w="fit-content">
            {t('loadError.retry')}
          </Button>
        </Stack>
      </Alert>
    </Center>
  );
}
