/**
 * The assessment month (required, spec §5): the kit's month field (typed or picked, UI language). The problem text comes from the
 * same domain rule the server applies, so the page refuses a missing month before asking.
 */
import { checkMonth, chinaMonth, monthProblemMessage } from '../../../domain/appraisal/rules.ts';
import { useLang } from '../../i18n/index.ts';
import { MonthField as KitMonthField } from '../../kit/period-picker/index.ts';

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
    <KitMonthField size="sm" withAsterisk label={label} value={value} onChange={onChange} error={error} data-testid="month" w={180} />
  );
}
