import { Alert, Anchor, Loader, Stack, Text } from '@mantine/core';
import { useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { navigateHref } from '../../app/navigate.ts';
import { completeLogin, ticketLogin } from '../../features/login/login.ts';
import { useT } from '../../i18n/index.ts';
import { problemOf, useProblemText, type Problem } from '../../i18n/problem.ts';
import { LoginLayout } from './LoginLayout.tsx';

/**
 * Passwordless login (/mmLogin?ticket=…): the one-time ticket an administrator issued is exchanged
 * for a session via POST /service-priv/mmLogin. A missing, used or expired ticket says so.
 */
export default function MmLoginPage() {
  const t = useT();
  const search = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const ticket = typeof search['ticket'] === 'string' ? search['ticket'].trim() : '';
  const [problem, setProblem] = useState<Problem | null>(null);
  const error = useProblemText(problem);
  const started = useRef(false);

  useEffect(() => {
    if (!ticket || started.current) return;
    // a ticket is single-use: StrictMode's double effect must not spend it twice
    started.current = true;
    ticketLogin(ticket)
      .then((answer) => completeLogin(answer, 'mm', search['redirect']))
      .catch((err: unknown) => setProblem(problemOf(err)));
  }, [ticket, search]);

  return (
    <LoginLayout loginType="mm">
      <Stack gap="sm" data-testid="mm-login">
        {!ticket && (
          <Alert color="yellow" data-testid="login-error">
            {t('login.ticketMissing')}
          </Alert>
        )}
        {ticket && !error && (
          <Stack align="center" gap="xs">
            <Loader size="sm" />
            <Text size="sm">{t('login.ticketSigningIn')}</Text>
          </Stack>
        )}
        {error && (
          <Alert color="red" data-testid="login-error" role="alert">
            {error}
          </Alert>
        )}
        <Anchor
          href={`${import.meta.env.BASE_URL}login`}
          size="sm"
          onClick={(e) => {
            e.preventDefault();
            void navigateHref('/login');
          }}
        >
          {t('login.toPasswordLogin')}
        </Anchor>
      </Stack>
    </LoginLayout>
  );
}
