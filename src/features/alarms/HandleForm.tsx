/**
 * Confirming an alarm with a handling action (confirmAlarmAndReplyDevice): names the vehicle and the
 * alarm, asks for the action and a note, and on success says in plain words what happened (a
 * notification, `handledOutcome`) and hands back to the caller, which closes the form (issue 13).
 * Used by the pop-up's quick "handle" and the processing page.
 */
import { Alert, Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { alarmName } from '../../../domain/alarms/catalogue.ts';
import { DealType } from '../../../domain/alarms/engine.ts';
import { isApiError } from '../../api/http.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { confirmAlarm, type TerminalAnswer } from './api.ts';
import { DealFields, type DealValue } from './DealFields.tsx';
import { handledOutcome } from './format.ts';
import { ALARMS_NS } from './messages.ts';

export interface HandleFormProps {
  alarm: { id: number; vehiidno: string; alarmType: number };
  /** Called once the server answered (the alarm is handled whatever the terminal said): close the form. */
  onDone?: (answer: TerminalAnswer) => void;
}

export function HandleForm({ alarm, onDone }: HandleFormProps) {
  const t = useT(ALARMS_NS);
  const lang = useLang();
  const alarmId = alarm.id;
  const [deal, setDeal] = useState<DealValue>({ dealType: String(DealType.RiskRelease), content: '' });
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);

  const submit = async () => {
    setBusy(true);
    setFailed(null);
    try {
      const a = await confirmAlarm(alarmId, Number(deal.dealType), deal.content);
      const subject = t('handle.subject', { plate: alarm.vehiidno, alarm: alarmName(alarm.alarmType, lang) });
      notifications.show({
        color: 'green', title: subject,
        message: <span data-testid="handle-result">{t(`handle.outcome.${handledOutcome(a.terminalResult)}`, { result: a.terminalResultText })}</span>,
      });
      onDone?.(a);
    } catch (e) {
      setFailed(isApiError(e) ? e.msg : t('page.processFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm" data-testid="handle-form">
      <Text fw={600} data-testid="handle-subject">
        {t('handle.subject', { plate: alarm.vehiidno, alarm: alarmName(alarm.alarmType, lang) })}
      </Text>
      <DealFields value={deal} onChange={setDeal} testIds={{ action: 'handle-action', content: 'handle-content' }} />
      <Button onClick={() => void submit()} loading={busy} data-testid="handle-submit">
        {t('handle.submit')}
      </Button>
      {failed && (
        <Alert color="red" data-testid="handle-error">
          {failed}
        </Alert>
      )}
    </Stack>
  );
}
