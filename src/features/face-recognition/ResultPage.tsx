import { Badge, Button, Group, Modal, NumberInput, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { quickRange, valueTime, type Period } from '../../../domain/period/period.ts';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import { PeriodPicker } from '../../kit/period-picker/index.ts';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { formatTime } from '../system/ui/format.ts';
import { faceRecognitionApi, RESULT_KINDS, type RecognitionResult, type ResultFilter, type ResultKind } from './api.ts';
import { CapturedPhoto, LibraryPhoto } from './FacePhoto.tsx';
import { FACE_REC_NS } from './messages.ts';

export const RESULT_ROUTE = '/operation/faceRecognitionManagement/faceRecognitionResult';
const RESULT_COLOR: Record<ResultKind, string> = { pass: 'green', mismatch: 'red', noFace: 'gray' };

/**
 * /operation/faceRecognitionManagement/faceRecognitionResult: what the terminals' face comparison
 * reported (the comparison runs on the terminal), the photo it took beside the driver's library photo,
 * searchable by plate, driver, period, result, similarity range and the 误报 mark; 误报 marks a result as
 * misrecognised (who and when are kept and shown) or takes the mark back.
 */
export function FaceResultPage() {
  const t = useT(FACE_REC_NS);
  const { companyId } = useCompanySelection();
  const invalidate = useInvalidate(RESULT_ROUTE);
  const [period, setPeriod] = useState<Period>(() => quickRange('last7Days', new Date(), 'datetime'));
  const [draft, setDraft] = useState<ResultFilter>({});
  const [applied, setApplied] = useState<ResultFilter>({});
  const [marking, setMarking] = useState<RecognitionResult | null>(null);
  const [remark, setRemark] = useState('');
  const [busy, setBusy] = useState(false);

  const bounds = period.start && period.end ? { startTime: valueTime(period.start), endTime: valueTime(period.end) + 59_999 } : {};
  const search: ResultFilter = { ...applied, ...bounds };

  const unmark = async (r: RecognitionResult) => {
    await faceRecognitionApi.mistake(r.id, false);
    notifications.show({ message: t('unmarked') });
    await invalidate();
  };
  const mark = async () => {
    if (!marking) return;
    setBusy(true);
    try {
      await faceRecognitionApi.mistake(marking.id, true, remark.trim() || undefined);
      notifications.show({ message: t('marked') });
      setMarking(null);
      await invalidate();
    } finally {
      setBusy(false);
    }
  };

  const columns: KitColumn<RecognitionResult>[] = [
    { key: 'time', title: t('time'), minWidth: 150, maxWidth: 170, render: (r) => formatTime(r.time) },
    { key: 'plate', title: t('plate'), minWidth: 100, maxWidth: 150, render: (r) => <Stack gap={0}><Text size="sm" fw={500} data-testid="face-result-plate">{r.plate}</Text><Text size="xs" c="dimmed">{r.deviceNo}</Text></Stack> },
    { key: 'captured', title: t('captured'), minWidth: 70, maxWidth: 76, render: (r) => <CapturedPhoto id={r.id} /> },
    { key: 'warehouse', title: t('warehouse'), minWidth: 70, maxWidth: 76, render: (r) => <LibraryPhoto driverId={r.driverId} name={r.driverName || r.reportedName} photoTime={r.driverPhotoTime} /> },
    {
      key: 'driver', title: t('driver'), minWidth: 120, maxWidth: 200,
      render: (r) => <Stack gap={0}><Text size="sm" data-testid="face-result-driver">{r.driverName || r.reportedName || t('unknownDriver')}</Text>{r.faceId && <Text size="xs" c="dimmed">{r.faceId}</Text>}</Stack>,
    },
    {
      key: 'result', title: t('result'), minWidth: 110, maxWidth: 150,
      render: (r) => (
        <Group gap={4}>
          <Badge color={RESULT_COLOR[r.result]} variant="light" size="sm" data-testid="face-result-kind" data-result={r.result}>{t(r.result)}</Badge>
          {r.mistake && <Badge color="orange" variant="filled" size="sm" data-testid="face-result-mistake">{t('mistake')}</Badge>}
        </Group>
      ),
    },
    { key: 'score', title: t('score'), minWidth: 80, maxWidth: 100, render: (r) => <Text size="sm" data-testid="face-result-score">{r.similarity} / {r.threshold}</Text> },
    { key: 'trigger', title: t('trigger'), minWidth: 90, maxWidth: 120, render: (r) => (r.trigger >= 0 && r.trigger <= 3 ? t(`trigger${r.trigger}`) : String(r.trigger)) },
    {
      key: 'mistakeBy', title: t('mistakeFilter'), minWidth: 150, maxWidth: 260,
      render: (r) => (r.mistake ? <Stack gap={0}><Text size="xs" data-testid="face-result-mistake-by">{t('mistakeBy', { user: r.mistakeUserName, time: formatTime(r.mistakeTime) })}</Text>{r.mistakeRemark && <Text size="xs" c="dimmed">{r.mistakeRemark}</Text>}</Stack> : <Text size="xs" c="dimmed">—</Text>),
    },
    { key: 'company', title: t('company'), minWidth: 110, maxWidth: 200, render: (r) => r.companyName },
  ];

  const num = (v: string | number) => (typeof v === 'number' ? v : undefined);
  const filters = (
    <Group gap="xs" wrap="nowrap">
      <TextInput size="sm" w={150} placeholder={t('driverPlaceholder')} aria-label={t('driver')} data-testid="face-result-driver-filter"
        value={draft.driver ?? ''} onChange={(e) => setDraft({ ...draft, driver: e.currentTarget.value || undefined })} />
      <Select size="sm" w={120} clearable placeholder={t('anyResult')} aria-label={t('result')} data-testid="face-result-filter"
        data={RESULT_KINDS.map((k) => ({ value: k, label: t(k) }))} value={draft.result ?? null} onChange={(v) => setDraft({ ...draft, result: (v as ResultKind | null) ?? undefined })} />
      <NumberInput size="sm" w={84} min={0} max={100} placeholder={t('minScore')} aria-label={t('minScore')} data-testid="face-result-min"
        value={draft.minScore ?? ''} onChange={(v) => setDraft({ ...draft, minScore: num(v) })} />
      <NumberInput size="sm" w={84} min={0} max={100} placeholder={t('maxScore')} aria-label={t('maxScore')} data-testid="face-result-max"
        value={draft.maxScore ?? ''} onChange={(v) => setDraft({ ...draft, maxScore: num(v) })} />
      <Select size="sm" w={110} placeholder={t('anyMistake')} aria-label={t('mistakeFilter')} data-testid="face-result-mistake-filter" clearable
        data={[{ value: '1', label: t('onlyMistake') }, { value: '0', label: t('noMistake') }]}
        value={draft.mistake === undefined ? null : String(draft.mistake)} onChange={(v) => setDraft({ ...draft, mistake: v === '1' ? 1 : v === '0' ? 0 : undefined })} />
      <Perm route={RESULT_ROUTE} button="search">
        <Button size="sm" data-testid="face-result-search" onClick={() => setApplied({ ...draft })}>{t('search')}</Button>
      </Perm>
    </Group>
  );

  return (
    <ListPage<RecognitionResult>
      route={RESULT_ROUTE}
      pageId="operation-face-result"
      title={t('resultTitle')}
      tree={{}}
      header={<PeriodPicker size="sm" value={period} labels={{ start: '', end: '' }} quick={['today', 'yesterday', 'last7Days', 'thisMonth']} testIds={{ start: 'face-from', end: 'face-to', quick: 'face-quick' }} onChange={setPeriod} />}
      searchPlaceholder={t('platePlaceholder')}
      filters={filters}
      fetchPage={(q) => faceRecognitionApi.results({ current: q.current, size: q.size, ...search, plate: q.keyword || undefined })}
      scope={{ companyId, ...search }}
      columns={columns}
      rowActions={(r) => (
        <Perm route={RESULT_ROUTE} button="mistake">
          {r.mistake
            ? <Button size="compact-xs" variant="subtle" color="gray" data-testid="face-result-unmark" onClick={() => void unmark(r)}>{t('unmistake')}</Button>
            : <Button size="compact-xs" variant="light" color="orange" data-testid="face-result-mark" onClick={() => { setRemark(''); setMarking(r); }}>{t('mistake')}</Button>}
        </Perm>
      )}
      actionsWidth={90}
    >
      {marking && (
        <Modal opened onClose={() => setMarking(null)} title={t('mistakeTitle', { plate: marking.plate, time: formatTime(marking.time) })}>
          <Stack>
            <Group align="flex-start">
              <CapturedPhoto id={marking.id} size={120} />
              <LibraryPhoto driverId={marking.driverId} name={marking.driverName || marking.reportedName} photoTime={marking.driverPhotoTime} size={120} />
            </Group>
            <Textarea label={t('mistakeRemark')} maxLength={200} value={remark} onChange={(e) => setRemark(e.currentTarget.value)} data-testid="face-mistake-remark" />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setMarking(null)}>{t('cancel')}</Button>
              <Button color="orange" loading={busy} onClick={() => void mark()} data-testid="face-mistake-confirm">{t('confirm')}</Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </ListPage>
  );
}
