import { useState } from 'react';
import { Tabs } from '@mantine/core';
import { useT } from '../../../i18n/index.ts';
import { onlineControlApi, type DetailKind, type PeriodSums } from './api.ts';
import { DetailList, driftColumns, gapColumns, invalidColumns, SummaryList } from './lists.tsx';
import { ONLINE_CONTROL_NS } from './messages.ts';
import { ReportFrame } from './ReportFrame.tsx';

const QUALIFIED_KEYS: readonly (keyof PeriodSums)[] = [
  'totalGps', 'pass', 'undetermined', 'error', 'drift', 'qualifiedRate', 'lossTimes', 'lossHours', 'lossKm', 'continuousKm',
  'onlineDays', 'onlineRate', 'operationDays',
];
const DRIFT_KEYS: readonly (keyof PeriodSums)[] = ['totalGps', 'drift', 'driftRate', 'mileageKm'];
const GAP_KEYS: readonly (keyof PeriodSums)[] = ['totalGps', 'lossTimes', 'lossHours', 'lossKm', 'continuousKm', 'mileageKm'];

/** A report page: a per-vehicle tab of period sums and a detail tab; export saves the open tab's list. */
function OnlineControlPage({
  page,
  titleKey,
  noteKey,
  sumKeys,
  detail,
  detailTab,
  detailFirst,
}: {
  page: string;
  titleKey: string;
  noteKey: string;
  sumKeys: readonly (keyof PeriodSums)[];
  detail: DetailKind;
  detailTab: string;
  detailFirst: boolean;
}) {
  const t = useT(ONLINE_CONTROL_NS);
  const [tab, setTab] = useState<string>(detailFirst ? 'detail' : 'vehicles');
  const title = t(titleKey);
  const tabs = [
    <Tabs.Tab key="vehicles" value="vehicles">
      {t('tabs.vehicles')}
    </Tabs.Tab>,
    <Tabs.Tab key="detail" value="detail">
      {t(detailTab)}
    </Tabs.Tab>,
  ];
  return (
    <ReportFrame
      title={title}
      note={t(noteKey)}
      page={page}
      onExport={(q) => (tab === 'vehicles' ? onlineControlApi.exportSummary(q) : onlineControlApi.exportDetail(detail, q))}
    >
      {(query) => (
        <Tabs value={tab} onChange={(v) => v && setTab(v)} keepMounted={false} style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
          <Tabs.List>{detailFirst ? tabs.reverse() : tabs}</Tabs.List>
          <Tabs.Panel value="vehicles" pt="xs" style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', gap: 8 }}>
            <SummaryList query={query} keys={sumKeys} label={title} />
          </Tabs.Panel>
          <Tabs.Panel value="detail" pt="xs" style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', gap: 8 }}>
            {detail === 'illegalDatas' && <DetailList kind="illegalDatas" query={query} columns={invalidColumns(t)} label={t(detailTab)} />}
            {detail === 'driftDatas' && <DetailList kind="driftDatas" query={query} columns={driftColumns(t)} label={t(detailTab)} />}
            {detail === 'discontinuousDatas' && <DetailList kind="discontinuousDatas" query={query} columns={gapColumns(t)} label={t(detailTab)} />}
          </Tabs.Panel>
        </Tabs>
      )}
    </ReportFrame>
  );
}

/** /report/onlineControl/dataQualifiedRate: per-vehicle positioning quality with totals; invalid points. */
export function DataQualifiedRatePage() {
  return (
    <OnlineControlPage page="report-data-qualified-rate" titleKey="title.dataQualifiedRate" noteKey="note.dataQualifiedRate"
      sumKeys={QUALIFIED_KEYS} detail="illegalDatas" detailTab="tabs.invalid" detailFirst={false} />
  );
}

/** /report/onlineControl/driftRateDetail: drift points with their implied speeds; drift rate per vehicle. */
export function DriftRateDetailPage() {
  return (
    <OnlineControlPage page="report-drift-rate-detail" titleKey="title.driftRateDetail" noteKey="note.drift"
      sumKeys={DRIFT_KEYS} detail="driftDatas" detailTab="tabs.drift" detailFirst />
  );
}

/** /report/onlineControl/discontinuityRateDetail: discontinuous gaps; loss per vehicle. */
export function DiscontinuityRateDetailPage() {
  return (
    <OnlineControlPage page="report-discontinuity-rate-detail" titleKey="title.discontinuityRateDetail" noteKey="note.gaps"
      sumKeys={GAP_KEYS} detail="discontinuousDatas" detailTab="tabs.gaps" detailFirst />
  );
}
