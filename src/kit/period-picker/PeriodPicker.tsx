import { Button, Group, Menu, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { periodProblem, quickRange, type Period, type PeriodLimits, type PeriodMode, type QuickRange } from '../../../domain/period/period.ts';
import { useT } from '../../i18n/index.ts';
import { DateTimeField } from './DateTimeField.tsx';
import { PERIOD_NS } from './messages.ts';

export interface PeriodPickerProps {
  value: Period;
  onChange: (value: Period) => void;
  /** @default 'datetime' */
  mode?: PeriodMode;
  /** The quick ranges this screen offers, in this order; none hides the menu. */
  quick?: readonly QuickRange[];
  /** The screen's limits (spec): the problem shows under the fields in the UI language. */
  limits?: PeriodLimits;
  /** Show the limits' problem (e.g. only after a first search). @default true */
  showProblem?: boolean;
  labels?: { start?: ReactNode; end?: ReactNode };
  size?: 'xs' | 'sm' | 'md';
  /** Test ids of the start and end fields and the quick menu. */
  testIds?: { start?: string; end?: string; quick?: string };
  /** Fields one under the other at full width (narrow side panels). @default false */
  vertical?: boolean;
  /** The clock of the quick ranges (tests). @default () => new Date() */
  now?: () => Date;
}

/**
 * A period: start and end fields in the UI language, quick ranges the screen picks (today, yesterday,
 * last 3 / 7 days, this / last month) and the screen's limits (order, maximum span). Values stay the
 * strings screens kept with native inputs (`2026-11-25T08:05`, `2026-11-25`).
 */
export function PeriodPicker({ value, onChange, mode = 'datetime', quick = [], limits, showProblem = true, labels, size = 'sm', testIds, vertical = false, now = () => new Date() }: PeriodPickerProps) {
  const t = useT(PERIOD_NS);
  const problem = showProblem && (value.start || value.end) ? periodProblem(value, mode, limits) : null;
  const message = problem === null ? null : problem.kind === 'span' ? t('problem.span', { days: problem.maxDays }) : t(`problem.${problem.kind}`);
  return (
    <Stack gap={2}>
      <Group gap="xs" align="flex-end" wrap="nowrap" style={vertical ? { flexDirection: 'column', alignItems: 'stretch' } : undefined}>
        <DateTimeField mode={mode} size={size} label={labels?.start ?? t('start')} value={value.start} error={problem !== null} w={vertical ? '100%' : undefined}
          onChange={(start) => onChange({ ...value, start })} data-testid={testIds?.start} />
        <DateTimeField mode={mode} size={size} label={labels?.end ?? t('end')} value={value.end} error={problem !== null} w={vertical ? '100%' : undefined}
          onChange={(end) => onChange({ ...value, end })} data-testid={testIds?.end} />
        {quick.length > 0 && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="default" size={size} data-testid={testIds?.quick}>
                {t('quick')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {quick.map((kind) => (
                <Menu.Item key={kind} data-testid={testIds?.quick ? `${testIds.quick}-${kind}` : undefined} onClick={() => onChange(quickRange(kind, now(), mode))}>
                  {t(`range.${kind}`)}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      {message && (
        <Text size="xs" c="red" role="alert" data-testid={testIds?.start ? `${testIds.start}-problem` : undefined}>
          {message}
        </Text>
      )}
    </Stack>
  );
}
