import { useState } from 'react';
import { Alert, Button, CopyButton, Group, Modal, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import { userApi } from './api.ts';
import { SYSTEM_NS } from './messages.ts';
import type { LoginTicket, User } from './types.ts';
import { errorMessage, formatTime } from './ui/format.ts';

/** The absolute link of a ticket: the server's `path` (under the base) on this console's origin. */
export function ticketLink(ticket: LoginTicket, origin: string, base: string): string {
  if (/^https?:\/\//.test(ticket.path)) return ticket.path;
  const path = ticket.path.startsWith(base) || ticket.path.startsWith('/bcmp-web/') ? ticket.path : `${base.replace(/\/$/, '')}${ticket.path}`;
  return new URL(path, origin).toString();
}

/** Issue a one-time passwordless login link for a user (POST /service-priv/loginTicket). */
export function LoginTicketModal({ user, onClose }: { user: User; onClose: () => void }) {
  const t = useT(SYSTEM_NS);
  const [minutes, setMinutes] = useState<number>(10);
  const [ticket, setTicket] = useState<LoginTicket | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const issue = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setTicket(await userApi.loginTicket(user.id, minutes));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const link = ticket ? ticketLink(ticket, window.location.origin, import.meta.env.BASE_URL) : '';
  return (
    <Modal opened onClose={onClose} title={t('user.ticketTitle', { name: user.username })} centered size="lg">
      <Stack gap="sm">
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group align="flex-end">
          <NumberInput
            label={t('user.ticketMinutes')}
            min={1}
            max={1440}
            clampBehavior="strict"
            allowDecimal={false}
            value={minutes}
            onChange={(v) => setMinutes(typeof v === 'number' ? v : 10)}
            w={180}
          />
          <Button onClick={() => void issue()} loading={busy} data-testid="ticket-issue">
            {t('user.ticketIssue')}
          </Button>
        </Group>
        {ticket && (
          <>
            <TextInput
              label={t('user.ticketLink')}
              readOnly
              value={link}
              data-testid="ticket-link"
              onFocus={(e) => e.currentTarget.select()}
              rightSectionWidth={80}
              rightSection={
                <CopyButton value={link}>
                  {({ copied, copy }) => (
                    <Button size="compact-xs" color={copied ? 'teal' : undefined} onClick={copy}>
                      {copied ? t('user.copied') : t('user.copy')}
                    </Button>
                  )}
                </CopyButton>
              }
            />
            <Text size="xs" c="dimmed">
              {t('user.ticketExpires', { time: formatTime(ticket.expireTime) })}
            </Text>
          </>
        )}
      </Stack>
    </Modal>
  );
}
