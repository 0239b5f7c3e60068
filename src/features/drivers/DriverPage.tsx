import { Badge, Button, Select, Stack, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { DRIVER_LIMITS } from '../../../domain/fleet/limits.ts';
import { useT } from '../../i18n/index.ts';
import { ListPage, useInvalidate } from '../../kit/ListPage.tsx';
import type { KitColumn } from '../../kit/ResourceTable.tsx';
import { useCompanySelection } from '../../session/company-selection.ts';
import { driverApi, type Driver, type DriverExpiryFilter } from './api.ts';
import { expiryBadge } from './driver-form.ts';
import { DriverForm } from './DriverForm.tsx';
import { DriverPhoto } from './DriverPhoto.tsx';
import { DRIVER_NS } from './messages.ts';
import { SignInsDrawer } from './SignInsDrawer.tsx';

const ROUTE = '/information/driver';
const EXPIRY_FILTERS: DriverExpiryFilter[] = ['licenceSoon', 'licenceExpired', 'certSoon', 'certExpired'];

type Dialog = { kind: 'create' } | { kind: 'edit'; driver: Driver } | { kind: 'signIns'; driver: Driver } | undefined;

/** A dated document in the list: the date, orange within the warning days, red once expired. */
function Expiry({ value, now }: { value: number | null; now: number }) {
  const t = useT(DRIVER_NS);
  const b = expiryBadge(value, now);
  if (b.state === 'none') return <Text size="sm" c="dimmed">—</Text>;
  if (b.state === 'ok') return <Text size="sm">{b.date}</Text>;
  return (
    <Tooltip label={t(b.state === 'soon' ? 'expSoon' : 'expExpired', { date: b.date })}>
      <Badge color={b.color} variant="light" size="sm" data-expiry={b.state}>{b.date}</Badge>
    </Tooltip>
  );
}

/**
 * /information/driver: the drivers of the company picked in the tree (and below it) with their photo,
 * licence and qualification certificate (expiry badges and filters), vehicles driven and the vehicle
 * they are signed in on now (0x0702); create, edit, delete, sign-in history, .xlsx import and export.
 */
export function DriverPage() {
  const t = useT(DRIVER_NS);
  const { companyId, rootCompanyId } = useCompanySelection();
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const [status, setStatus] = useState<0 | 1 | undefined>(undefined);
  const [expiry, setExpiry] = useState<DriverExpiryFilter | undefined>(undefined);
  const invalidate = useInvalidate(ROUTE);
  // Expiry badges compare with the day the page opened (a reload moves it on).
  const [now] = useState(() => Date.now());

  const columns: KitColumn<Driver>[] = [
    { key: 'photo', title: t('photo'), minWidth: 56, maxWidth: 64, render: (d) => <DriverPhoto id={d.id} name={d.name} photoTime={d.photoTime} /> },
    {
      key: 'name', title: t('name'), minWidth: 110, maxWidth: 200,
      render: (d) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>{d.name}</Text>
          <Text size="xs" c="dimmed">{d.companyName}</Text>
        </Stack>
      ),
    },
    { key: 'licenceNo', title: t('licenceNo'), minWidth: 160, maxWidth: 200, render: (d) => d.licenceNo || '—' },
    { key: 'licenceClass', title: t('licenceClass'), minWidth: 80, maxWidth: 90, render: (d) => (d.licenceClass ? <Badge variant="outline" size="sm">{d.licenceClass}</Badge> : '—') },
    { key: 'licenceExpire', title: t('licenceExpire'), minWidth: 120, maxWidth: 140, render: (d) => <Expiry value={d.licenceExpire} now={now} /> },
    { key: 'certNo', title: t('certNo'), minWidth: 160, maxWidth: 220, render: (d) => d.certNo || '—' },
    { key: 'certExpire', title: t('certExpire'), minWidth: 120, maxWidth: 140, render: (d) => <Expiry value={d.certExpire} now={now} /> },
    { key: 'phone', title: t('phone'), minWidth: 110, maxWidth: 150, render: (d) => d.phone },
    {
      key: 'vehicles', title: t('vehicles'), minWidth: 140, maxWidth: 260,
      render: (d) => {
        if (d.vehicles.length === 0) return <Text size="sm" c="dimmed">—</Text>;
        const shown = d.vehicles.slice(0, 3).map((v) => v.vehiidno).join(t('sep'));
        return <Text size="sm">{d.vehicles.length > 3 ? t('more', { shown, count: d.vehicles.length, rest: d.vehicles.length - 3 }) : shown}</Text>;
      },
    },
    {
      key: 'signedIn', title: t('signedIn'), minWidth: 110, maxWidth: 150,
      render: (d) => (d.signedIn
        ? <Tooltip label={t('signInTime')}><Badge color="green" variant="light" size="sm" data-signed-in={d.signedIn.vehicleId}>{d.signedIn.vehiidno}</Badge></Tooltip>
        : <Text size="xs" c="dimmed">{t('notSignedIn')}</Text>),
    },
    {
      key: 'status', title: t('status'), minWidth: 70, maxWidth: 90,
      render: (d) => <Badge color={d.status === 1 ? 'green' : 'gray'} variant="light" size="sm">{t(d.status === 1 ? 'active' : 'disabled')}</Badge>,
    },
  ];

  const filters = (
    <>
      <Select
        size="sm"
        w={120}
        aria-label={t('status')}
        placeholder={t('allStatus')}
        clearable
        data={[{ value: '1', label: t('active') }, { value: '0', label: t('disabled') }]}
        value={status === undefined ? null : String(status)}
        onChange={(v) => setStatus(v === null ? undefined : v === '1' ? 1 : 0)}
      />
      <Select
        size="sm"
        w={170}
        aria-label={t('anyExpiry')}
        placeholder={t('anyExpiry')}
        clearable
        data-testid="driver-expiry-filter"
        data={EXPIRY_FILTERS.map((e) => ({ value: e, label: t(e) }))}
        value={expiry ?? null}
        onChange={(v) => setExpiry((v as DriverExpiryFilter | null) ?? undefined)}
      />
    </>
  );

  return (
    <ListPage<Driver>
      route={ROUTE}
      pageId="information-driver"
      title={t('title')}
      tree={{}}
      searchPlaceholder={t('keywordPlaceholder')}
      filters={filters}
      fetchPage={(q) => driverApi.page({ ...q, keyword: q.keyword || undefined, status, expiry })}
      scope={{ companyId, status, expiry }}
      exportJob={(q) => driverApi.exportJob({ keyword: q.keyword || undefined, status, expiry })}
      importCall={{ job: driverApi.importJob, template: driverApi.template, maxRows: DRIVER_LIMITS.importRowsMax }}
      columns={columns}
      onCreate={() => setDialog({ kind: 'create' })}
      onEdit={(driver) => setDialog({ kind: 'edit', driver })}
      rowActions={(driver) => (
        <Button size="compact-xs" variant="light" color="gray" onClick={() => setDialog({ kind: 'signIns', driver })} data-testid="driver-signins-open">
          {t('signIns')}
        </Button>
      )}
      actionsWidth={270}
      remove={{ name: (d) => d.name, message: (d) => t('deleteConfirm', { name: d.name }), call: (d) => driverApi.remove([d.id]) }}
    >
      {(dialog?.kind === 'create' || dialog?.kind === 'edit') && (
        <DriverForm
          driver={dialog.kind === 'edit' ? dialog.driver : undefined}
          companyId={companyId ?? rootCompanyId}
          onClose={() => setDialog(undefined)}
          onSaved={() => {
            setDialog(undefined);
            void invalidate();
          }}
        />
      )}
      {dialog?.kind === 'signIns' && <SignInsDrawer driver={dialog.driver} onClose={() => setDialog(undefined)} />}
    </ListPage>
  );
}
