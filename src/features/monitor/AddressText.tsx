/** One line "地址: …" for a position (the alarm pop-up); nothing when the user turned reverse geocoding off. */
import { Text } from '@mantine/core';
import { useT } from '../../i18n/index.ts';
import { useAddress } from './address.ts';
import { MONITOR_NS } from './messages.ts';

export function AddressText({ lng, lat, testId }: { lng: number | null | undefined; lat: number | null | undefined; testId?: string }) {
  const t = useT(MONITOR_NS);
  const address = useAddress(lng, lat);
  if (address === null) return null;
  return (
    <Text size="sm" data-testid={testId}>
      {t('address')}: {address ?? t('loading')}
    </Text>
  );
}
