import { Badge, Group, Select, Stack, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { useT } from '../../i18n/index.ts';
import { ListPage } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { formatTime } from '../system/ui/format.ts';
import { FACE_STATES, faceWarehouseApi, type FaceSample, type FaceState } from './api.ts';
import { FaceThumb } from './FaceThumb.tsx';
import { FACE_NS } from './messages.ts';

const ROUTE = '/operation/faceRecognitionManagement/faceWarehouse';
const STATE_KEY: Record<FaceState, string> = { enrolled: 'stateEnrolled', partial: 'statePartial', stale: 'stateStale', photoRemoved: 'statePhotoRemoved' };
const STATE_COLOR: Record<FaceState, string> = { enrolled: 'green', partial: 'yellow', stale: 'orange', photoRemoved: 'red' };

/**
 * /operation/faceRecognitionManagement/faceWarehouse: the faces the company's terminals recognise
 * drivers by (enrolled from /information/vehicle's 同步人脸库), under the company picked in the tree:
 * thumbnail, driver, company, the vehicles it is enrolled on, when and by whom, and its state
 * (a driver photo changed after the enrolment reads 照片已更新待同步). Search only: no buttons.
 */
export function FaceWarehousePage() {
  const t = useT(FACE_NS);
  const { companyId } = useCompanySelection();
  const [state, setState] = useState<FaceState | undefined>(undefined);

  const columns: KitColumn<FaceSample>[] = [
    { key: 'face', title: t('face'), minWidth: 60, maxWidth: 64, render: (s) => <FaceThumb driverId={s.driverId} name={s.name} photoTime={s.photoTime} /> },
    {
      key: 'driver', title: t('driver'), minWidth: 120, maxWidth: 200,
      render: (s) => (
        <Stack gap={0}>
          <Text size="sm" fw={500} data-testid="face-driver">{s.name}</Text>
          {s.licenceNo && <Text size="xs" c="dimmed">{s.licenceNo}</Text>}
        </Stack>
      ),
    },
    { key: 'certNo', title: t('certNo'), minWidth: 150, maxWidth: 210, render: (s) => s.certNo || '—' },
    { key: 'company', title: t('company'), minWidth: 120, maxWidth: 200, render: (s) => s.companyName },
    {
      key: 'vehicles', title: t('vehicles'), minWidth: 150, maxWidth: 300,
      render: (s) => (s.vehicles.length === 0 ? <Text size="sm" c="dimmed">—</Text> : (
        <Group gap={4} wrap="wrap" data-testid="face-vehicles">
          {s.vehicles.map((v) => (v.current
            ? <Badge key={v.vehicleId} variant="light" size="sm">{v.vehiidno}</Badge>
            : <Tooltip key={v.vehicleId} label={t('vehicleOld', { plate: v.vehiidno })}><Badge variant="outline" color="orange" size="sm">{v.vehiidno}</Badge></Tooltip>))}
        </Group>
      )),
    },
    { key: 'enrolTime', title: t('enrolTime'), minWidth: 150, maxWidth: 170, render: (s) => formatTime(s.enrolTime) },
    { key: 'enrolBy', title: t('enrolBy'), minWidth: 90, maxWidth: 140, render: (s) => s.enrolUserName || t('system') },
    {
      key: 'state', title: t('state'), minWidth: 120, maxWidth: 160,
      render: (s) => <Badge color={STATE_COLOR[s.state]} variant="light" size="sm" data-state={s.state}>{t(STATE_KEY[s.state])}</Badge>,
    },
  ];

  const filters = (
    <Select
      size="sm"
      w={170}
      aria-label={t('state')}
      placeholder={t('anyState')}
      clearable
      data-testid="face-state-filter"
      data={FACE_STATES.map((s) => ({ value: s, label: t(STATE_KEY[s]) }))}
      value={state ?? null}
      onChange={(v) => setState((v as FaceState | null) ?? undefined)}
    />
  );

  return (
    <ListPage<FaceSample>
      route={ROUTE}
      pageId="operation-face-warehouse"
      title={t('title')}
      tree={{}}
      searchPlaceholder={t('keywordPlaceholder')}
      filters={filters}
      fetchPage={(q) => faceWarehouseApi.page({ ...q, keyword: q.keyword || undefined, state })}
      scope={{ companyId, state }}
      columns={columns}
    />
  );
}
