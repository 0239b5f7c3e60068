/**
 * The reverse-geocoded address of one position (the server's offline county-level geocoder), for the
 * info card and the alarm pop-up. One AddressCache for the session (the track table's cache class):
 * a vehicle parked for hours is asked for once. Shown only when the user's `geoInverse` setting is on.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { useSession } from '../../session/store.ts';
import { geocode } from '../track/api.ts';
import { AddressCache } from '../track/address-cache.ts';

const cache = new AddressCache(geocode);

/**
 * The address of a WGS-84 position: undefined while it loads, null when not wanted (the user turned
 * reverse geocoding off, or there is no position).
 */
export function useAddress(lng: number | null | undefined, lat: number | null | undefined): string | null | undefined {
  const wanted = useSession().user?.geoInverse === true;
  const has = wanted && typeof lng === 'number' && typeof lat === 'number' && Number.isFinite(lng) && Number.isFinite(lat);
  useSyncExternalStore(cache.subscribe, () => cache.version);
  useEffect(() => {
    if (has) cache.want([{ lng: lng as number, lat: lat as number }]);
  }, [has, lng, lat]);
  if (!has) return null;
  return cache.get(lng as number, lat as number);
}
