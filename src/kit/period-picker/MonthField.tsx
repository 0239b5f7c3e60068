import { DateInput, DatesProvider } from '@mantine/dates';
import '@mantine/dates/styles.css';
import 'dayjs/locale/zh-cn';
import { useState, type ReactNode } from 'react';
import { useLang } from '../../i18n/index.ts';

const MONTH = /^\s*(\d{4})-(\d{1,2})\s*$/;

/** `2026-11` of typed text, or null when it is no month. */
export function parseMonth(text: string): string | null {
  const m = MONTH.exec(text);
  if (!m) return null;
  const month = Number(m[2]);
  return month >= 1 && month <= 12 ? `${m[1]}-${String(month).padStart(2, '0')}` : null;
}

export interface MonthFieldProps {
  /** `2026-11`; '' for none. */
  value: string;
  onChange: (value: string) => void;
  label?: ReactNode;
  error?: ReactNode;
  withAsterisk?: boolean;
  size?: 'xs' | 'sm' | 'md';
  w?: number | string;
  /** On the text input, so e2e can type a month as an operator would. */
  'data-testid'?: string;
}

/**
 * A month in the UI language: typed `2026-11`, or picked from a year of month names (zh-cn / en).
 * Replaces `<input type="month">`, whose text and picker follow the browser's locale.
 */
export function MonthField({ value, onChange, label, error, withAsterisk, size = 'sm', w = 180, ...rest }: MonthFieldProps) {
  const lang = useLang();
  // Opens on a click, closes once a month is typed or picked (see DateTimeField).
  const [open, setOpen] = useState(false);
  // DateInput rewrites its text from the value only while its own dropdown flag is down, which a
  // click on the month list leaves up: a new key remounts it with the picked month's text.
  const [picks, setPicks] = useState(0);
  const pick = (month: string) => {
    setOpen(false);
    onChange(month);
  };
  return (
    <DatesProvider settings={{ locale: lang === 'zh' ? 'zh-cn' : 'en' }}>
      <DateInput
        key={picks}
        label={label}
        error={error}
        size={size}
        w={w}
        withAsterisk={withAsterisk}
        valueFormat="YYYY-MM"
        placeholder="YYYY-MM"
        // DateInput's types leave out the calendar's level props, but it hands them to its Calendar
        // (pickCalendarProps): a year of month names, and a month click picks it. MonthField.test.tsx
        // holds this, so a Mantine upgrade that drops it fails there.
        {...({ defaultLevel: 'year', minLevel: 'year', onMonthSelect: (d: string) => { pick(d.slice(0, 7)); setPicks((n) => n + 1); } } as object)}
        allowDeselect
        dateParser={(text) => {
          const m = parseMonth(text);
          return m ? `${m}-01` : null;
        }}
        value={value ? `${value}-01` : null}
        onChange={(v) => pick(v ? v.slice(0, 7) : '')}
        onClick={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
        popoverProps={{ withinPortal: true, opened: open }}
        data-testid={rest['data-testid']}
      />
    </DatesProvider>
  );
}
