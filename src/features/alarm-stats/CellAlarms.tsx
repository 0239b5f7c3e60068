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
import { StatsTable, type StatsColumn } from './StatsTable.tsx';

const SIZE = 100;

export function CellAlarms({ filter, cell }: { filter: StatsFilter; cell: StatsCell }) {
  const t = useT(ALARM_STATS_NS);
  const ta = useT(ALARMS_NS);
  const lang = useLang();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ records: (Alarm & { driverName: string })[]; total: number; capped: boolean; matched: number } | null>(null);
  const [exporting, setExporting] = useState(false);

  useEffect(() => {
    let live = true;
    void fetchCellAlarms(filter, cell, page, SIZE).then((d) => live && setData(d)).catch(() => undefined);
    return () => {
      live = false;
    };
  }, [filter, cell, page]);

  const columns: StatsColumn<Alarm & { driverName: string }>[] = [
    { key: 'plate', title: ta('field.plate'), render: (a) => a.vehiidno, width: '96px' },
    { key: 'type', title: ta('field.alarmName'), render: (a) => alarmName(a.alarmType, lang), width: 'minmax(100px, 1fr)' },
    { key: 'risk', title: ta('field.risk'), render: (a) => <Badge size="xs" color={riskColor(a.riskLevel)}>{ta(`risk.${a.riskLevel}`)}</Badge>, width: '64px' },
    { key: 'time', title: ta('field.time'), render: (a) => formatTime(a.startTime), width: '148px' },
    { key: 'count', title: ta('field.count'), render: (a) => a.count, width: '44px', align: 'right' },
    { key: 'driver', title: t('col.driver'), render: (a) => a.driverName || '—', width: '80px' },
    { key: 'status', title: ta('field.status'), render: (a) => ta(`status.${a.dealStatus}`), width: '96px' },
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
      <div style={{ height: 420, display: 'flex' }}>
        <StatsTable rows={data?.records ?? []} columns={columns} rowKey={(a) => String(a.id)} testId="cell-table" />
      </div>
      {data && data.total > SIZE && <Pagination size="sm" total={Math.ceil(data.total / SIZE)} value={page} onChange={setPage} />}
    </Stack>
  );
}
