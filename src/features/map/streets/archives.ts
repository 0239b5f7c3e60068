/**
 * The street-map archives the server has (`GET /tiles/archives`, server/services/tiles) and the map
 * source each becomes in the basemap picker. No archive: the picker shows no street map and the
 * bundled outline stays the default.
 */
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../api/http.ts';
import type { MapSourceSettings, UserMapSource } from '../map-sources.ts';

export interface StreetArchive {
  readonly name: string;
  readonly url: string;
  readonly bytes: number;
  readonly minZoom: number;
  readonly maxZoom: number;
  readonly bounds: readonly [number, number, number, number];
  readonly center: readonly [number, number, number];
}

/** Ids of street-map sources: one per archive name. */
export const STREETS_PREFIX = 'streets:';

/** The archive paths the server serves; a stored source pointing anywhere else is dropped. */
export const ARCHIVE_PATH = /^\/tiles\/[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.pmtiles$/;

export function streetSource(archive: Pick<StreetArchive, 'name' | 'url'>): UserMapSource {
  // Protomaps builds are OpenStreetMap data in WGS-84.
  return { id: `${STREETS_PREFIX}${archive.name}`, name: archive.name, kind: 'pmtiles', url: archive.url, crs: 'wgs84' };
}

/** Settings with a street archive chosen: added once (kept for the next visit) and made active. */
export function withStreetArchive(settings: MapSourceSettings, archive: Pick<StreetArchive, 'name' | 'url'>): MapSourceSettings {
  const source = streetSource(archive);
  const sources = settings.sources.some((s) => s.id === source.id) ? settings.sources.map((s) => (s.id === source.id ? source : s)) : [...settings.sources, source];
  return { activeId: source.id, sources };
}

/** "1.2 GB" style sizes for the picker. */
export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(1)} ${units[u]}`;
}

export function fetchStreetArchives(): Promise<StreetArchive[]> {
  return http.get<StreetArchive[]>('/tiles/archives', undefined, { noCompanyId: true, silent: true });
}

/** The archives, asked once a minute while the picker is open (an operator may just have copied one in). */
export function useStreetArchives(): StreetArchive[] {
  const q = useQuery({ queryKey: ['tiles', 'archives'], queryFn: fetchStreetArchives, staleTime: 60_000, retry: false });
  return q.data ?? [];
}
