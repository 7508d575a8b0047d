import { Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { INVALID_LOGIN, logIn } from '../api/session.js';
import { SERVER_ERROR_TEXT } from './ServerErrorPage.js';

type LoginState = 'idle' | 'logging-in' | 'invalid' | 'server-error';

/**
 * The login form (spec 000 §4): on success the credentials are stored and the page reloads; 403
 * shows "Invalid login/password"; anything else "Server error" with Retry.
 */
export function LoginPage() {
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [state, setState] = useState<LoginState>('idle');

  const submit = async () => {
    setState('logging-in');
    try {
      const result = await logIn({ login, password });
      if (result === 'ok') window.location.reload();
      else setState('invalid');
    } catch {
      setState('server-error');
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };

  return (
    <Center mih="80vh">
      <Paper
        withBorder
        shadow="sm"
        p="xl"
        w={360}
        component="form"
        onSubmit={onSubmit}
        aria-label="Log in to Sluice"
      >
        <Stack>
          <Title order={2}>Sluice</Title>
          <TextInput
            label="Login"
            autoComplete="username"
            value={login}
            onChange={(e) => setLogin(e.currentTarget.value)}
            required
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            required
          />
          {state === 'invalid' && (
            <Text c="red" size="sm" role="alert">
              {INVALID_LOGIN}
            </Text>
          )}
          {state === 'server-error' && (
            <Stack gap={4} align="flex-start">
              <Text c="red" size="sm" role="alert">
                {SERVER_ERROR_TEXT}
              </Text>
              <Button variant="light" size="xs" onClick={() => void submit()}>
                Retry
              </Button>
            </Stack>
          )}
          <Button type="submit" loading={state === 'logging-in'}>
            Log in
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
