import { Badge, Drawer, Text } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import { ResourceTable, type KitColumn } from '../../kit/ResourceTable.tsx';
import { useResourceList } from '../../kit/useResourceList.ts';
import { formatTime } from '../system/ui/format.ts';
import { driverApi, type Driver, type DriverSignIn } from './api.ts';
import { DRIVER_NS } from './messages.ts';

const ROUTE = '/information/driver';

/** A driver's 0x0702 sign-ins, newest first, server-paged: vehicle, name on the card, time in and out. */
export function SignInsDrawer({ driver, onClose }: { driver: Driver; onClose: () => void }) {
  const t = useT(DRIVER_NS);
  const list = useResourceList<DriverSignIn>(ROUTE, (q) => driverApi.signIns(driver.id, q.current, q.size), { signIns: driver.id });
  const columns: KitColumn<DriverSignIn>[] = [
    {
      key: 'vehiidno', title: t('vehicle'), minWidth: 110, maxWidth: 160,
      render: (r) => (r.vehicleId === null ? <Text size="sm" c="dimmed">{t('otherCompanyVehicle')}</Text> : <Text size="sm" fw={500}>{r.vehiidno}</Text>),
    },
    { key: 'driverName', title: t('cardName'), minWidth: 90, maxWidth: 140, render: (r) => r.driverName },
    { key: 'signInTime', title: t('signInTime'), minWidth: 130, maxWidth: 160, render: (r) => formatTime(r.signInTime) },
    {
      key: 'signOutTime', title: t('signOutTime'), minWidth: 130, maxWidth: 160,
      render: (r) => (r.signOutTime === null ? <Badge color="green" variant="light" size="sm">{t('stillSignedIn')}</Badge> : formatTime(r.signOutTime)),
    },
  ];
  return (
    <Drawer opened onClose={onClose} position="right" size="lg" title={t('signInsTitle', { name: driver.name })} data-testid="driver-signins">
      {list.total === 0 && !list.fetching && !list.error ? (
        <Text size="sm" c="dimmed">{t('noSignIns')}</Text>
      ) : (
        <ResourceTable list={list} columns={columns} label={t('signIns')} />
      )}
    </Drawer>
  );
}
