import { Alert, Button, Checkbox, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useRouterState } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { ErrorCode } from '../../../domain/errors/catalogue.ts';
import type { LoginType } from '../../../domain/session/login-type.ts';
import { useCountdown } from '../../features/login/countdown.ts';
import { completeLogin, passwordLogin } from '../../features/login/login.ts';
import { useT } from '../../i18n/index.ts';
import { problemOf, useProblemText, type Problem } from '../../i18n/problem.ts';
import { rememberedUsername, setRememberedUsername } from '../../session/store.ts';
import { LoginLayout } from './LoginLayout.tsx';

/**
 * The login form shared by every login route; the variant only changes the title and the stored
 * login type. Server failures (用户名或密码错误, account expired…) show inline and follow a language
 * switch (kept as code + data, see i18n/problem.ts). A back-off wait (1005) counts down and keeps the
 * submit button disabled until it is over. Remember-me stores the user name only.
 */
export default function LoginPage({ loginType }: { loginType: LoginType }) {
  const t = useT();
  const search = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const [remembered] = useState(() => rememberedUsername());
  const [username, setUsername] = useState(remembered ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(remembered !== null);
  const [touched, setTouched] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const wait = useCountdown();
  const waiting = wait.left > 0;
  // The wait is stated as it counts down; once over, its message has nothing left to say.
  const throttled = problem !== null && 'code' in problem && problem.code === ErrorCode.LoginThrottled
    && typeof (problem.data as { retryAfterSeconds?: unknown } | null | undefined)?.retryAfterSeconds === 'number';
  const shown = throttled ? (waiting ? { ...problem, data: { retryAfterSeconds: wait.left } } : null) : problem;
  const error = useProblemText(shown);

  const userMissing = touched && !username.trim();
  const passwordMissing = touched && !password;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    setProblem(null);
    if (!username.trim() || !password) return;
    setBusy(true);
    try {
      const answer = await passwordLogin(username.trim(), password, loginType);
      setRememberedUsername(remember ? username.trim() : null);
      await completeLogin(answer, loginType, search['redirect']);
    } catch (err) {
      const p = problemOf(err);
      const seconds = 'data' in p ? (p.data as { retryAfterSeconds?: unknown } | null | undefined)?.retryAfterSeconds : undefined;
      wait.start(typeof seconds === 'number' ? seconds : 0);
      setProblem(p);
      setBusy(false);
    }
  };

  return (
    <LoginLayout loginType={loginType}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          {error && (
            <Alert color="red" variant="light" data-testid="login-error" role="alert">
              {error}
            </Alert>
          )}
          <TextInput
            label={t('login.username')}
            name="username"
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.currentTarget.value)}
            error={userMissing ? t('login.usernameRequired') : undefined}
            data-testid="login-username"
            autoFocus={!remembered}
          />
          <PasswordInput
            label={t('login.password')}
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={passwordMissing ? t('login.passwordRequired') : undefined}
            data-testid="login-password"
            autoFocus={remembered !== null}
          />
          <Checkbox
            label={t('login.rememberMe')}
            checked={remember}
            onChange={(e) => setRemember(e.currentTarget.checked)}
            data-testid="login-remember"
          />
          <Button type="submit" loading={busy} disabled={waiting} fullWidth data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </Stack>
      </form>
    </LoginLayout>
  );
}
