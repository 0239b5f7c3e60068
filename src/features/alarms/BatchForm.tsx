/**
 * Batch handling of the selected alarms (handle_status, 1–500 ids a call): one action and note for
 * all; alarms someone else handled meanwhile keep that handling and are counted as skipped.
 */
import { Alert, Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { DealType } from '../../../domain/alarms/engine.ts';
import { isApiError } from '../../api/http.ts';
import { useT } from '../../i18n/index.ts';
import { handleAlarms } from './api.ts';
import { DealFields, type DealValue } from './DealFields.tsx';
import { ALARMS_NS } from './messages.ts';

export function BatchForm({ ids, onDone }: { ids: number[]; onDone: (updated: number, skipped: number) => void }) {
  const t = useT(ALARMS_NS);
  const [deal, setDeal] = useState<DealValue>({ dealType: String(DealType.RiskRelease), content: '' });
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const submit = async () => {
    setBusy(true);
    setFailed(null);
    try {
      // The server takes 1–500 ids per call.
      // Alarms someone else handled meanwhile keep that handling: counted as skipped, not failed.
      let updated = 0;
      let skipped = 0;
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        try {
          const r = await handleAlarms(chunk, Number(deal.dealType), deal.content);
          updated += r.updated;
          skipped += r.skipped;
        } catch (e) {
          if (isApiError(e) && e.code === 409) {
            skipped += chunk.length;
            continue;
          }
          const msg = isApiError(e) ? e.msg : t('page.processFailed');
          // Earlier chunks were handled: say so (and refresh the list) rather than only the failure.
          if (updated + skipped > 0) {
            notifications.show({ color: 'red', message: msg });
            onDone(updated, skipped);
          } else setFailed(msg);
          return;
        }
      }
      onDone(updated, skipped);
    } catch (e) {
      setFailed(isApiError(e) ? e.msg : t('page.processFailed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="sm" data-testid="batch-form">
      <Text size="sm">{t('page.selected', { count: ids.length })}</Text>
      <DealFields value={deal} onChange={setDeal} />
      <Button onClick={() => void submit()} loading={busy} data-testid="batch-submit">{t('handle.submit')}</Button>
      {failed && <Alert color="red">{failed}</Alert>}
    </Stack>
  );
}
