/** The pop-up's phone reminder: the terminal calls a number back (0x8400), normal or listen-only. */
import { Alert, Button, Checkbox, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { isCallbackPhone } from '../../../domain/vehicle/callback-phone.ts';
import { isApiError } from '../../api/http.ts';
import { useT } from '../../i18n/index.ts';
import { useSession } from '../../session/store.ts';
import { callBack } from './voice-api.ts';
import { VOICE_NS } from './voice-messages.ts';


export function PhoneForm({ vehicleId, alarmId }: { vehicleId: number; alarmId?: number }) {
  const t = useT(VOICE_NS);
  // The operator's own number is the usual one to be called on.
  const own = (useSession().user as { phone?: string } | null)?.phone ?? '';
  const [phone, setPhone] = useState(own);
  const [listen, setListen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  const call = async () => {
    const number = phone.replace(/[\s-]/g, '');
    if (!isCallbackPhone(number)) {
      setResult({ ok: false, text: t('phone.invalid') });
      return;
    }
    setBusy(true);
    try {
      const a = await callBack(vehicleId, number, listen, alarmId);
      setResult({ ok: a.result === 0, text: t('phone.result', { result: a.resultText }) });
    } catch (e) {
      setResult({ ok: false, text: isApiError(e) ? e.msg : String(e) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm" data-testid="phone-form">
      <TextInput label={t('phone.number')} description={t('phone.numberHint')} value={phone} onChange={(e) => setPhone(e.currentTarget.value)} maxLength={24} data-testid="phone-number" />
      <Checkbox label={t('phone.listen')} checked={listen} onChange={(e) => setListen(e.currentTarget.checked)} data-testid="phone-listen" />
      <Button onClick={() => void call()} loading={busy} data-testid="phone-call">{t('phone.call')}</Button>
      {result && <Alert color={result.ok ? 'green' : 'red'} data-testid="phone-result">{result.text}</Alert>}
    </Stack>
  );
}
