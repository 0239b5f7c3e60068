import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Drawer, Group, Stack } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { isApiError } from '../api/http.ts';
import { fieldProblemMessage, fieldRuleText, readFieldErrors, topField, type FieldProblem } from '../../domain/errors/field-problem.ts';
import type { Lang } from '../../domain/errors/catalogue.ts';
import { currentLang, i18n, useLang, useT } from '../i18n/index.ts';
import { problemOf, problemText, type Problem } from '../i18n/problem.ts';
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

/** A refused save: what the server said, kept as meaning (codes) so it can be worded again in another language. */
interface Refusal {
  readonly problem: Problem;
  /** The language the server wrote `msg` in (the UI language when the save was sent). */
  readonly lang: Lang;
  /** Form fields the refusal names, with the server's code (when it sent one) and text. */
  readonly fields: Readonly<Record<string, { readonly field: string; readonly problem?: FieldProblem; readonly msg: string }>>;
}

/**
 * The form fields a refused save names: `errors: {field: {code, params, msg}}` (or older `{field: 'text'}`)
 * in the body, keyed to the form field (`roleIds[0]` → `roleIds`); else the one form field the message
 * names as a word (a schema 400 reads "Field name is invalid: …").
 */
function refusalOf(e: unknown, formFields: readonly string[], lang: Lang): Refusal {
  const fields: Record<string, { field: string; problem?: FieldProblem; msg: string }> = {};
  if (isApiError(e)) {
    const raw = typeof e.body === 'object' && e.body !== null ? (e.body as { errors?: unknown }).errors : undefined;
    for (const [field, v] of Object.entries(readFieldErrors(raw))) {
      const key = topField(field);
      if (formFields.includes(key) && !fields[key]) fields[key] = { field, ...v };
    }
    if (Object.keys(fields).length === 0) {
      const named = formFields.find((f) => new RegExp(`\\b${f}\\b`).test(e.msg));
      if (named) fields[named] = { field: named, msg: e.msg };
    }
  }
  return { problem: problemOf(e), lang, fields };
}

/** Under each named field, what is wrong in `lang`: a known code is worded here, anything else keeps the server's text. */
function fieldTexts(r: Refusal, lang: Lang): Record<string, string> {
  return Object.fromEntries(Object.entries(r.fields).map(([key, f]) => [key, (f.problem && fieldRuleText(f.problem, lang)) ?? f.msg]));
}

/** The refusal's sentence in `lang`: the server's own while the language is the one it wrote in, else worded again from the codes. */
function refusalText(r: Refusal, lang: Lang): string {
  if (lang !== r.lang) {
    // Codes this console knows; a field with an unknown code keeps the server's words under it.
    const again = Object.values(r.fields).flatMap((f) => (f.problem ? [fieldProblemMessage(f.field, f.problem, lang)] : [])).filter((x) => x !== undefined);
    if (again.length > 0) return again.join(lang === 'zh' ? '；' : '; ');
  }
  return problemText(r.problem, lang);
}

/**
 * The kit's create/edit form: a right-hand drawer with the fields, Cancel and Save. Validation runs
 * on submit with the form's own messages; a refused save keeps the drawer open with the server's
 * message, under the fields it names, and both follow a language switch (issue 13: the server's
 * field codes are worded by domain/errors/field-problem.ts). A busy drawer does not close.
 */
export function FormDrawer<V extends Record<string, unknown>>({ title, form, submit, onClose, onSaved, testId, size = 'md', children }: FormDrawerProps<V>) {
  const t = useT(KIT_NS);
  const lang = useLang();
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const serverError = refusal ? refusalText(refusal, lang) : undefined;
  // After a language switch, the server's field messages still shown are worded again (a field the user
  // has since edited has lost its message and stays clear). The errors live in the form's state, so the
  // switch is followed as an event rather than derived at render.
  useEffect(() => {
    if (!refusal) return;
    const reword = (lng: string) => {
      const texts = fieldTexts(refusal, lng === 'en' ? 'en' : 'zh');
      for (const [key, text] of Object.entries(texts)) if (form.errors[key] !== undefined) form.setFieldError(key, text);
    };
    i18n.on('languageChanged', reword);
    return () => i18n.off('languageChanged', reword);
  }, [refusal, form]);
  const save = async (values: V) => {
    setSaving(true);
    setRefusal(null);
    try {
      await submit(values);
      notifications.show({ color: 'green', message: t('saved'), autoClose: 2000 });
      onSaved();
    } catch (e) {
      const r = refusalOf(e, Object.keys(form.getValues()), currentLang());
      const texts = fieldTexts(r, r.lang);
      if (Object.keys(texts).length > 0) form.setErrors(texts);
      setRefusal(r);
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
