/**
 * TTS / text to a terminal: text (typed or a preset phrase) and flags → startTts (0x8300), then the
 * terminal's answer. Used by the alarm pop-up (linked to the alarm) and the monitor's vehicle menu (no alarm).
 */
import { Alert, Button, Checkbox, Group, Select, Stack, Textarea } from '@mantine/core';
import { useState } from 'react';
import { isApiError } from '../../api/http.ts';
import { useT } from '../../i18n/index.ts';
import { startTts, type TtsType } from './api.ts';
import { ALARMS_NS } from './messages.ts';

const TYPES: readonly TtsType[] = ['tts', 'urgent', 'display', 'advertising'];
/** Phrases an operator sends most (messages `tts.phrases.*`); picking one fills the text, which stays editable. */
const PHRASES = ['slowDown', 'rest', 'seatbelt', 'phone', 'distance', 'callCentre'] as const;

export function TtsForm({ vehicleId, alarmId }: { vehicleId: number; alarmId?: number }) {
  const t = useT(ALARMS_NS);
  const [text, setText] = useState('');
  const [types, setTypes] = useState<string[]>(['tts']);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  const send = async () => {
    if (!text.trim()) {
      setResult({ ok: false, text: t('tts.textRequired') });
      return;
    }
    setBusy(true);
    try {
      const a = await startTts(vehicleId, text.trim(), types as TtsType[], alarmId);
      setResult({ ok: a.result === 0, text: t('tts.sent', { result: a.resultText }) });
    } catch (e) {
      // 409 offline / 504 no reply carry the server's message in the UI language.
      setResult({ ok: false, text: isApiError(e) ? e.msg : t('page.processFailed') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm" data-testid="tts-form">
      <Select
        label={t('tts.preset')}
        placeholder={t('tts.presetPlaceholder')}
        data={PHRASES.map((k) => ({ value: k, label: t(`tts.phrases.${k}`) }))}
        value={null}
        onChange={(k) => k && setText(t(`tts.phrases.${k}`))}
        comboboxProps={{ withinPortal: false }}
        data-testid="tts-preset"
      />
      <Textarea label={t('tts.text')} value={text} onChange={(e) => setText(e.currentTarget.value)} maxLength={1000} autosize minRows={2} data-testid="tts-text" />
      <Checkbox.Group value={types} onChange={(v) => setTypes(v.length ? v : ['tts'])}>
        <Group gap="md">
          {TYPES.map((k) => (
            <Checkbox key={k} value={k} label={t(`tts.types.${k}`)} />
          ))}
        </Group>
      </Checkbox.Group>
      <Button onClick={() => void send()} loading={busy} data-testid="tts-send">
        {t('tts.send')}
      </Button>
      {result && (
        <Alert color={result.ok ? 'green' : 'red'} data-testid="tts-result">
          {result.text}
        </Alert>
      )}
    </Stack>
  );
}
