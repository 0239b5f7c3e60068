import { useState, type ReactNode } from 'react';
import { Alert, Button, Drawer, Group, Stack } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { isApiError } from '../api/http.ts';
import { useT } from '../i18n/index.ts';
import { errorText } from './errors.ts';
import { KIT_NS } from './messages.ts';

export interface FormDrawerProps<V extends Record<string, unknown>> {
  title: string;
  /** A `@mantine/form` form whose `validate` rules take their limits from `domain/`. */
  form: UseFormReturnType<V>;
  /** Sends the values; call the API `silent`: a failure is shown here, under its field when the server names one. */
  submit: (values: V) => Promise<unknown>;
  onClose: () => void;
  /** After a successful save (the screen invalidates its list). */
  onSaved: () => void;
  /** `data-testid` of the form; its submit button gets `<testId>-submit`. */
  testId: string;
  /** Drawer width (Mantine size); two-column forms want 'lg'. @default 'md' */
  size?: string;
  children: ReactNode;
}

/**
 * Field errors of a refused save: `{errors: {name: '…'}}` in the body when the server keys them, else
 * the one form field its message names as a word (a schema 400 reads "body/name must …").
 */
function fieldErrors(e: unknown, fields: readonly string[]): Record<string, string> | undefined {
  if (!isApiError(e)) return undefined;
  const errors = typeof e.body === 'object' && e.body !== null ? (e.body as { errors?: unknown }).errors : undefined;
  if (typeof errors === 'object' && errors !== null) {
    const out = Object.fromEntries(Object.entries(errors).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    if (Object.keys(out).length > 0) return out;
  }
  const named = fields.find((f) => new RegExp(`\\b${f}\\b`).test(e.msg));
  return named ? { [named]: e.msg } : undefined;
}

/**
 * The kit's create/edit form: a right-hand drawer with the fields, Cancel and Save. Validation runs
 * on submit with the form's own messages; a refused save keeps the drawer open with the server's
 * message, under the fields it names. A busy drawer does not close.
 */
export function FormDrawer<V extends Record<string, unknown>>({ title, form, submit, onClose, onSaved, testId, size = 'md', children }: FormDrawerProps<V>) {
  const t = useT(KIT_NS);
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | undefined>(undefined);
  const save = async (values: V) => {
    setSaving(true);
    setServerError(undefined);
    try {
      await submit(values);
      notifications.show({ color: 'green', message: t('saved'), autoClose: 2000 });
      onSaved();
    } catch (e) {
      const fields = fieldErrors(e, Object.keys(form.getValues()));
      if (fields) form.setErrors(fields);
      setServerError(errorText(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Drawer opened onClose={() => !saving && onClose()} position="right" size={size} title={title}>
      <form noValidate data-testid={testId} onSubmit={form.onSubmit((values) => void save(values))}>
        <Stack gap="sm">
          {serverError && (
            <Alert color="red" role="alert" data-testid="server-error">
              {serverError}
            </Alert>
          )}
          {children}
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={onClose} disabled={saving}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={saving} data-testid={`${testId}-submit`}>
              {t('save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Drawer>
  );
}
