import { useState, type ReactNode } from 'react';
import { Alert, Button, Group, Modal, Text, type ButtonProps } from '@mantine/core';
import { useT } from '../i18n/index.ts';
import { KIT_NS } from './messages.ts';
import { errorText } from './errors.ts';

export interface ConfirmDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The question shown before anything happens. */
  message: ReactNode;
  /** Runs after the user confirms; the dialog stays open (and busy) until it settles. */
  onConfirm: () => Promise<unknown>;
  color?: string;
}

/**
 * Asks before a destructive action (delete, session revocation). A failure stays in the dialog with
 * the server's message (e.g. 409 "the company still has vehicles"), so call the API `silent`.
 */
export function ConfirmDialog({ opened, onClose, message, onConfirm, color = 'red' }: ConfirmDialogProps) {
  const t = useT(KIT_NS);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
      onClose();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const close = () => {
    if (busy) return;
    setError(undefined);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={t('confirmTitle')} centered size="sm">
      <Text size="sm">{message}</Text>
      {error && (
        <Alert color="red" mt="sm" role="alert" data-testid="confirm-error">
          {error}
        </Alert>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={close} disabled={busy}>
          {t('cancel')}
        </Button>
        <Button color={color} loading={busy} onClick={() => void run()} data-testid="confirm-ok">
          {t('confirm')}
        </Button>
      </Group>
    </Modal>
  );
}

export interface ConfirmButtonProps extends Omit<ButtonProps, 'children' | 'onClick'> {
  children: ReactNode;
  message: ReactNode;
  onConfirm: () => Promise<unknown>;
  'data-perm'?: string;
  'data-testid'?: string;
}

/** A button that opens a ConfirmDialog. */
export function ConfirmButton({ children, message, onConfirm, color = 'red', ...rest }: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button color={color} {...rest} onClick={() => setOpen(true)}>
        {children}
      </Button>
      <ConfirmDialog opened={open} onClose={() => setOpen(false)} message={message} onConfirm={onConfirm} color={color} />
    </>
  );
}
