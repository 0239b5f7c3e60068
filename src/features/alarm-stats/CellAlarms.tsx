/** The alarms behind one chart cell (aggregate/alarms), pages of 100 up to the 5,000 cap, with their .xlsx. */
import { Alert, Badge, Button, Group, Pagination, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { alarmName } from '../../../domain/alarms/catalogue.ts';
import { isApiError, saveBlob } from '../../api/http.ts';
import { useLang, useT } from '../../i18n/index.ts';
import type { Alarm } from '../alarms/api.ts';
import { formatTime, riskColor } from '../alarms/format.ts';
import { ALARMS_NS } from '../alarms/messages.ts';
import { exportCellAlarms, fetchCellAlarms, type StatsCell, type StatsFilter } from './api.ts';
import { ALARM_STATS_NS } from './messages.ts';
import { RowsTable } from '../../kit/RowsTable.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';

const SIZE = 100;

export function CellAlarms({ filter, cell }: { filter: StatsFilter; cell: StatsCell }) {
  const t = useT(ALARM_STATS_NS);
  const ta = useT(ALARMS_NS);
  const lang = useLang();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ records: (Alarm & { driverName: string })[]; total: number; capped: boolean; matched: number } | null>(null);
  const [exporting, setExporting] = useState(false);
  // The failure of the page asked for (shown in the table with 重试, which asks again).
  const [failure, setFailure] = useState<{ key: string; error: unknown } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const key = `${page}#${attempt}`;

  useEffect(() => {
    let live = true;
    fetchCellAlarms(filter, cell, page, SIZE).then(
      (d) => {
        if (!live) return;
        setData(d);
        setFailure(null);
      },
      (error: unknown) => live && setFailure({ key, error }),
    );
    return () => {
      live = false;
    };
  }, [filter, cell, page, key]);
  const error = failure?.key === key ? failure.error : undefined;

  // Widths (px) in the 56rem drawer: plate, alarm name, a badge, `2026-11-25 08:05:00`, a count, a name, a state.
  const columns: KitColumn<Alarm & { driverName: string }>[] = [
    { key: 'plate', title: ta('field.plate'), render: (a) => a.vehiidno, minWidth: 100, maxWidth: 120 },
    { key: 'type', title: ta('field.alarmName'), render: (a) => alarmName(a.alarmType, lang), minWidth: 130, maxWidth: 220 },
    { key: 'risk', title: ta('field.risk'), render: (a) => <Badge size="xs" color={riskColor(a.riskLevel)}>{ta(`risk.${a.riskLevel}`)}</Badge>, minWidth: 80, maxWidth: 100 },
    { key: 'time', title: ta('field.time'), render: (a) => formatTime(a.startTime), minWidth: 160, maxWidth: 170 },
    { key: 'count', title: ta('field.count'), render: (a) => a.count, minWidth: 60, maxWidth: 80, align: 'right' },
    { key: 'driver', title: t('col.driver'), render: (a) => a.driverName || '—', minWidth: 90, maxWidth: 140 },
    { key: 'status', title: ta('field.status'), render: (a) => ta(`status.${a.dealStatus}`), minWidth: 90, maxWidth: 120 },
  ];

  const exportIt = async () => {
    setExporting(true);
    try {
      saveBlob(await exportCellAlarms(filter, cell));
    } catch (e) {
      if (!isApiError(e)) notifications.show({ color: 'red', autoClose: 2000, message: t('exportFailed') });
    } finally {
      setExporting(false);
    }
  };

  return (
    <Stack gap="xs" h="100%" data-testid="cell-alarms" data-total={data?.total ?? ''}>
      <Group justify="space-between">
        <Text size="sm">{data ? ta('page.total', { total: data.total }) : ''}</Text>
        <Button size="xs" variant="default" loading={exporting} onClick={() => void exportIt()} data-testid="cell-export">{t('exportDetails')}</Button>
      </Group>
      {data?.capped && <Alert color="yellow">{t('capped', { matched: data.matched })}</Alert>}
      <RowsTable
        rows={data?.records ?? []}
        columns={columns}
        rowKey={(a) => a.id}
        label={t('exportDetails')}
        loading={data === null && error === undefined}
        error={error}
        onRetry={() => setAttempt((n) => n + 1)}
        height={420}
        testId="cell-table"
        rowAttributes={(a) => ({ 'data-testid': 'cell-table-row', 'data-key': a.id })}
      />
      {data && data.total > SIZE && <Pagination size="sm" total={Math.ceil(data.total / SIZE)} value={page} onChange={setPage} />}
    </Stack>
  );
}
