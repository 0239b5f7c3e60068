import { DateInput, DatesProvider } from '@mantine/dates';
import '@mantine/dates/styles.css';
import 'dayjs/locale/zh-cn';
import { useState, type ReactNode } from 'react';
import { parseTyped, type PeriodMode } from '../../../domain/period/period.ts';
import { useLang } from '../../i18n/index.ts';

// Mantine's own value strings: `YYYY-MM-DD HH:mm:ss` with time, `YYYY-MM-DD` without.
const toMantine = (value: string, mode: PeriodMode): string | null => {
  const v = parseTyped(value, mode);
  if (v === null) return null;
  return mode === 'date' ? v : `${v.replace('T', ' ')}:00`;
};

export interface DateTimeFieldProps {
  /** `2026-11-25T08:05` (datetime) or `2026-11-25` (date); '' for none. */
  value: string;
  onChange: (value: string) => void;
  /** @default 'datetime' */
  mode?: PeriodMode;
  label?: ReactNode;
  error?: ReactNode;
  size?: 'xs' | 'sm' | 'md';
  withAsterisk?: boolean;
  /** On the text input, so e2e can type a value as an operator would. */
  'data-testid'?: string;
  w?: number | string;
}

/**
 * One date or date-time in the UI language: a typed field (`2026-11-25 08:05`, 24-hour, in both
 * languages: unambiguous and what a fleet's logs print) with a calendar whose month and weekday names
 * follow the language. Replaces `<input type="datetime-local">`, whose text is the browser's locale
 * ("11/25/2026, 12:00 AM" inside the Chinese console).
 */
export function DateTimeField({ value, onChange, mode = 'datetime', label, error, size = 'sm', withAsterisk, w, ...rest }: DateTimeFieldProps) {
  const lang = useLang();
  // The calendar opens on a click only and closes once a date is typed or picked: left open while
  // typing (Mantine's default) it covers the buttons beside and below, and the click meant for 查询
  // lands on a day of the calendar.
  const [open, setOpen] = useState(false);
  return (
    <DatesProvider settings={{ locale: lang === 'zh' ? 'zh-cn' : 'en', firstDayOfWeek: 1 }}>
      <DateInput
        label={label}
        error={error}
        size={size}
        w={w ?? (mode === 'date' ? 140 : 170)}
        withAsterisk={withAsterisk}
        withTime={mode === 'datetime'}
        valueFormat={mode === 'datetime' ? 'YYYY-MM-DD HH:mm' : 'YYYY-MM-DD'}
        placeholder={mode === 'datetime' ? 'YYYY-MM-DD HH:mm' : 'YYYY-MM-DD'}
        dateParser={(text) => toMantine(text, mode)}
        value={value ? toMantine(value, mode) : null}
        onChange={(v) => {
          setOpen(false);
          onChange(v ? (parseTyped(v, mode) ?? '') : '');
        }}
        onClick={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
        popoverProps={{ withinPortal: true, opened: open }}
        data-testid={rest['data-testid']}
      />
    </DatesProvider>
  );
}
