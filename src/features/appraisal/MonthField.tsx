/**
 * The assessment month (required, spec §5): a native month input. The problem text comes from the
 * same domain rule the server applies, so the page refuses a missing month before asking.
 */
import { TextInput } from '@mantine/core';
import { checkMonth, chinaMonth, monthProblemMessage } from '../../../domain/appraisal/rules.ts';
import { useLang } from '../../i18n/index.ts';

/** The current China month, the default choice. */
export const currentMonth = (): string => chinaMonth(Date.now());

/** The problem with a month in the current language, or null. */
export function monthError(month: string, lang: 'zh' | 'en'): string | null {
  const p = checkMonth(month, Date.now());
  return p === null ? null : monthProblemMessage(p, lang);
}

export function MonthField({ label, value, onChange, showError }: { label: string; value: string; onChange: (month: string) => void; showError: boolean }) {
  const lang = useLang();
  const error = showError ? monthError(value, lang) : null;
  return (
    <TextInput
      type="month"
      size="sm"
      withAsterisk
      label={label}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      data-testid="month"
      w={180}
    />
  );
}
