/**
 * The first-time guide (spec §2, §3 guide record, §9 version 3.2.1): a short tour in a strip under the
 * dashboard's header, with the enter-system and ignore buttons, shown until the user enters the system
 * (there or with the header's button) or ignores it; every step reached is stored for the user on the
 * server (`/service-priv/guide/add`), so it shows once per user, not per browser. A strip in the layout,
 * not a popover or a dialog: it covers no panel and does not block the shell on a first sign-in.
 */
import { Button, Group, Paper, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { GUIDE_MODULE } from '../../../domain/dashboard/rules.ts';
import { useT } from '../../i18n/index.ts';
import { addGuideStep, dashboardQueries } from './api.ts';
import { DASHBOARD_NS } from './messages.ts';

const STEPS = 4;

/** The guide's state: whether it shows, and the enter action that also closes it for good. */
export function useGuide(onEnter: () => void) {
  const client = useQueryClient();
  const q = useQuery(dashboardQueries.guide(GUIDE_MODULE));
  const [step, setStep] = useState(0);
  const [closed, setClosed] = useState(false);
  // Open only once the server said this user has not finished the guide (a failed read shows nothing).
  const open = !closed && q.data !== undefined && !q.data.done;
  const finish = (stepName: 'enter' | 'ignore') => {
    setClosed(true);
    void addGuideStep(GUIDE_MODULE, 99, stepName).then((state) => client.setQueryData(dashboardQueries.guide(GUIDE_MODULE).queryKey, state)).catch(() => undefined);
    if (stepName === 'enter') onEnter();
  };
  const go = (next: number) => {
    setStep(next);
    void addGuideStep(GUIDE_MODULE, next + 1, `step${next + 1}`).catch(() => undefined);
  };
  return { open, step, setStep, go, finish, enter: () => (open ? finish('enter') : onEnter()) };
}

export function GuideStrip({ guide }: { guide: ReturnType<typeof useGuide> }) {
  const t = useT(DASHBOARD_NS);
  if (!guide.open) return null;
  const { step } = guide;
  return (
    <Paper withBorder radius={0} px="sm" py={6} bg="var(--mantine-primary-color-light)" data-testid="dashboard-guide" data-step={step + 1}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text size="sm" style={{ minWidth: 0 }}>
          <Text span fw={600}>{t('guide.title', { step: step + 1, total: STEPS })}</Text> {t(`guide.steps.${step}`)}
        </Text>
        <Group gap={4} wrap="nowrap">
          <Button size="compact-sm" variant="subtle" onClick={() => guide.finish('ignore')} data-testid="guide-ignore">{t('guide.ignore')}</Button>
          {step > 0 ? <Button size="compact-sm" variant="default" onClick={() => guide.setStep(step - 1)}>{t('guide.prev')}</Button> : null}
          {step < STEPS - 1
            ? <Button size="compact-sm" onClick={() => guide.go(step + 1)} data-testid="guide-next">{t('guide.next')}</Button>
            : <Button size="compact-sm" onClick={() => guide.finish('enter')} data-testid="guide-enter">{t('guide.enter')}</Button>}
        </Group>
      </Group>
    </Paper>
  );
}
