/**
 * The first-time guide (spec §2, §3 guide record, §9 version 3.2.1): a short tour in a dialog over the
 * dashboard, with the enter-system and ignore buttons, shown until the user enters the system (there or
 * with the header's button) or ignores it; every step reached is stored for the user on the server
 * (`/service-priv/guide/add`), so it shows once per user, not per browser. A modal rather than a popover
 * at the button: a popover would lie over the panels' controls while it is open.
 */
import { useState, type ReactNode } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { GUIDE_MODULE } from '../../../domain/dashboard/rules.ts';
import { useT } from '../../i18n/index.ts';
import { addGuideStep, dashboardQueries } from './api.ts';
import { DASHBOARD_NS } from './messages.ts';

const STEPS = 4;

/** `children` gets the enter action: entering by the button also closes the guide for good. */
export function GuidePopover({ children, onEnter }: { children: (enter: () => void) => ReactNode; onEnter: () => void }) {
  const t = useT(DASHBOARD_NS);
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
  return (
    <>
      {children(() => (open ? finish('enter') : onEnter()))}
      <Modal opened={open} onClose={() => finish('ignore')} withCloseButton={false} closeOnClickOutside={false} closeOnEscape={false} centered size="md"
        title={t('guide.title', { step: step + 1, total: STEPS })}>
        <div data-testid="dashboard-guide" data-step={step + 1}>
          <Text size="sm" mb="md">{t(`guide.steps.${step}`)}</Text>
          <Group justify="space-between" gap="xs">
            <Button size="compact-sm" variant="subtle" onClick={() => finish('ignore')} data-testid="guide-ignore">{t('guide.ignore')}</Button>
            <Group gap={4}>
              {step > 0 ? <Button size="compact-sm" variant="default" onClick={() => setStep(step - 1)}>{t('guide.prev')}</Button> : null}
              {step < STEPS - 1
                ? <Button size="compact-sm" onClick={() => go(step + 1)} data-testid="guide-next">{t('guide.next')}</Button>
                : <Button size="compact-sm" onClick={() => finish('enter')} data-testid="guide-enter">{t('guide.enter')}</Button>}
            </Group>
          </Group>
        </div>
      </Modal>
    </>
  );
}
