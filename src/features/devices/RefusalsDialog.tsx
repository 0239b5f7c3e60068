import { Alert, Badge, Button, Group, Modal, Pagination, Select, Stack, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorCode } from '../../../domain/errors/catalogue.ts';
import { isApiError } from '../../api/http.ts';
import { Perm } from '../../app/Perm.tsx';
import { useT } from '../../i18n/index.ts';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { RowsTable } from '../../kit/RowsTable.tsx';
import { formatTime } from '../system/ui/format.ts';
import { deviceApi, type RegisterRefusal } from './api.ts';
import { DEVICE_NS } from './messages.ts';

const ROUTE = '/information/device';
const SIZE = 50;

/**
 * 注册拒绝: the registrations the gateway refused (`GET /service-priv/device/error`), newest first, one
 * row per number. A number not entered yet can be added as a device from its row (the form is
 * prefilled with what the terminal sent). Only administrators and root-company creators read them:
 * anyone else sees the server's refusal in words.
 */
export function RefusalsDialog({ onClose, onAdd }: { onClose: () => void; onAdd: (r: RegisterRefusal) => void }) {
  const t = useT(DEVICE_NS);
  const [page, setPage] = useState(1);
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const q = useQuery({
    queryKey: [ROUTE, 'refusals', { page, keyword, result }],
    queryFn: () => deviceApi.refusals({ current: page, size: SIZE, keyword: keyword || undefined, result: result ? Number(result) : undefined }),
    placeholderData: keepPreviousData,
  });
  const forbidden = isApiError(q.error) && q.error.code === ErrorCode.Forbidden;

  const columns: KitColumn<RegisterRefusal>[] = [
    { key: 'deviceNo', title: t('deviceNo'), minWidth: 120, maxWidth: 140, render: (r) => <Text size="sm" ff="monospace">{r.deviceNo}</Text> },
    { key: 'result', title: t('refusalResult'), minWidth: 110, maxWidth: 140, render: (r) => <Badge variant="light" color={r.result === 4 ? 'red' : 'orange'} size="sm">{r.result === 4 ? t('result4') : t('result2')}</Badge> },
    { key: 'count', title: t('refusalCount'), minWidth: 60, maxWidth: 80, align: 'right', render: (r) => r.count },
    { key: 'lastTime', title: t('lastTime'), minWidth: 140, maxWidth: 160, render: (r) => formatTime(r.lastTime) },
    { key: 'firstTime', title: t('firstTime'), minWidth: 140, maxWidth: 160, render: (r) => formatTime(r.firstTime) },
    { key: 'remoteAddress', title: t('remoteAddress'), minWidth: 130, maxWidth: 200, render: (r) => r.remoteAddress },
    { key: 'plate', title: t('sentPlate'), minWidth: 90, maxWidth: 120, render: (r) => r.plate },
    { key: 'maker', title: t('sentMaker'), minWidth: 80, maxWidth: 120, render: (r) => r.makerId },
    { key: 'model', title: t('model'), minWidth: 90, maxWidth: 160, render: (r) => r.model },
  ];

  const total = q.data?.total ?? 0;
  return (
    <Modal opened onClose={onClose} title={t('refusals')} size="90%" data-testid="device-refusals">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">{t('refusalsHint')}</Text>
        <Group gap="xs">
          <TextInput
            size="xs"
            w={240}
            placeholder={t('refusalsSearch')}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                setKeyword(typed.trim());
                setPage(1);
              }
            }}
            data-testid="device-refusals-keyword"
          />
          <Select
            size="xs"
            w={160}
            clearable
            placeholder={t('anyResult')}
            data={[{ value: '4', label: t('result4') }, { value: '2', label: t('result2') }]}
            value={result}
            onChange={(r) => {
              setResult(r);
              setPage(1);
            }}
          />
          <Button size="xs" onClick={() => { setKeyword(typed.trim()); setPage(1); }}>{t('search')}</Button>
        </Group>
        {forbidden ? (
          <Alert color="yellow" data-testid="device-refusals-forbidden">{t('refusalsForbidden')}</Alert>
        ) : (
          <RowsTable<RegisterRefusal>
            rows={q.data?.records ?? []}
            columns={columns}
            rowKey={(r) => r.deviceNo}
            label={t('refusals')}
            loading={q.isFetching}
            error={q.error ?? undefined}
            onRetry={() => void q.refetch()}
            emptyText={t('refusalsEmpty')}
            height={420}
            testId="device-refusals-table"
            rowAttributes={(r) => ({ 'data-device-no': r.deviceNo })}
            actions={{
              width: 120,
              render: (r) => (r.entered ? <Text size="xs" c="dimmed">{t('entered')}</Text> : (
                <Perm route={ROUTE} button="create">
                  <Button size="compact-xs" variant="light" onClick={() => onAdd(r)} data-testid="device-refusal-add">{t('addAsDevice')}</Button>
                </Perm>
              )),
            }}
          />
        )}
        {total > SIZE && <Pagination size="sm" total={Math.ceil(total / SIZE)} value={page} onChange={setPage} />}
      </Stack>
    </Modal>
  );
}
