/**
 * Confirming an alarm with a handling action (confirmAlarmAndReplyDevice): the action, a note, and
 * the terminal's answer once sent. Used by the pop-up's quick "handle" and the processing page.
 */
import { Alert, Button, Select, Stack, Textarea } from '@mantine/core';
import { useState } from 'react';
import { DEAL_TYPES, DealType } from '../../../domain/alarms/engine.ts';
import { isApiError } from '../../api/http.ts';
import { useT } from '../../i18n/index.ts';
import { confirmAlarm, type TerminalAnswer } from './api.ts';
import { ALARMS_NS } from './messages.ts';

export interface HandleFormProps {
  alarmId: number;
  /** Called once the server answered (the alarm is handled whatever the terminal said). */
  onDone?: (answer: TerminalAnswer) => void;
}

export function HandleForm({ alarmId, onDone }: HandleFormProps) {
  const t = useT(ALARMS_NS);
  const [dealType, setDealType] = useState<string>(String(DealType.RiskRelease));
  const [content, setContent] = useState('');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<TerminalAnswer | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  const submit = async () => {
    setBusy(true);
    setFailed(null);
    try {
      const a = await confirmAlarm(alarmId, Number(dealType), content);
      setAnswer(a);
      onDone?.(a);
    } catch (e) {
      setFailed(isApiError(e) ? e.msg : t('page.processFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm" data-testid="handle-form">
      <Select
        label={t('handle.action')}
        data={DEAL_TYPES.map((d) => ({ value: String(d), label: t(`dealType.${d}`) }))}
        value={dealType}
        onChange={(v) => v && setDealType(v)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: false }}
        data-testid="handle-action"
      />
      <Textarea label={t('handle.content')} value={content} onChange={(e) => setContent(e.currentTarget.value)} maxLength={500} data-testid="handle-content" />
      <Button onClick={() => void submit()} loading={busy} disabled={answer !== null} data-testid="handle-submit">
        {t('handle.submit')}
      </Button>
      {answer && (
        <Alert color="green" data-testid="handle-result">
          {answer.terminalResultText ? t('handle.done', { result: answer.terminalResultText }) : t('handle.noTerminal')}
        </Alert>
      )}
      {failed && (
        <Alert color="red" data-testid="handle-error">
          {failed}
        </Alert>
      )}
    </Stack>
  );
}
