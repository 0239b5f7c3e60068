import { Alert, Button, Checkbox, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useRouterState } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import type { LoginType } from '../../../domain/session/login-type.ts';
import { isApiError } from '../../api/http.ts';
import { completeLogin, passwordLogin } from '../../features/login/login.ts';
import { useT } from '../../i18n/index.ts';
import { rememberedUsername, setRememberedUsername } from '../../session/store.ts';
import { LoginLayout } from './LoginLayout.tsx';

/**
 * The login form shared by every login route; the variant only changes the title and the stored
 * login type. Server failures (用户名或密码错误, account expired…) show inline in the caller's
 * language (the server localises by x-lang). Remember-me stores the user name only.
 */
export default function LoginPage({ loginType }: { loginType: LoginType }) {
  const t = useT();
  const search = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const [remembered] = useState(() => rememberedUsername());
  const [username, setUsername] = useState(remembered ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(remembered !== null);
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const userMissing = touched && !username.trim();
  const passwordMissing = touched && !password;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    setError(null);
    if (!username.trim() || !password) return;
    setBusy(true);
    try {
      const answer = await passwordLogin(username.trim(), password, loginType);
      setRememberedUsername(remember ? username.trim() : null);
      await completeLogin(answer, loginType, search['redirect']);
    } catch (err) {
      setError(isApiError(err) ? err.msg : err instanceof Error ? err.message : String(err));
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
          <Button type="submit" loading={busy} fullWidth data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </Stack>
      </form>
    </LoginLayout>
  );
}
