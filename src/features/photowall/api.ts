/** The photo wall's calls (server/services/photowall/api.md). */
import { http } from '../../api/http.ts';
import type { MediaItem } from '../media-reports/api.ts';

export const PHOTOWALL_ROUTE = '/monitor/photoWall';
const BASE = '/service-priv/photowall';

export interface PhotoWall {
  id: number; name: string; companyId: number; companyName: string; channels: number[]; refreshSeconds: number; remark: string;
  createdBy: number | null; createdByName: string; createTime: number; updateTime: number; vehicleCount: number;
}
export interface WallVehicle { id: number; vehiidno: string; companyId: number; companyName: string; deviceNo: string; online: boolean; channels: number[] }
export interface WallTile { vehicleId: number; vehiidno: string; companyName: string; online: boolean; channel: number; photo: MediaItem | null }
export interface WallSnaps { wallId: number; refreshSeconds: number; tiles: WallTile[]; hidden: number; time: number }
export interface WallInput { name: string; vehicleIds: number[]; channels: number[]; refreshSeconds: number; remark: string }
export interface RaisedAlarm { alarmId: number; alarmType: number; alarmName: string; vehicleId: number; vehiidno: string; mediaId: number; startTime: number }

export const photoWallApi = {
  page: (q: { current: number; size: number }) => http.get<{ records: PhotoWall[]; total: number }>(BASE, q),
  mine: () => http.get<PhotoWall[]>(`${BASE}/mylist`, undefined, { noCompanyId: true }),
  create: (b: WallInput) => http.post<PhotoWall>(BASE, b, { noCompanyId: true, silent: true }),
  update: (id: number, b: WallInput) => http.put<PhotoWall>(BASE, { id, ...b }, { noCompanyId: true, silent: true }),
  remove: (ids: number[]) => http.delete<{ deleted: number }>(BASE, { ids }, { jsonBody: true, noCompanyId: true, silent: true }),
  vehicles: (wallId: number) => http.get<{ records: WallVehicle[]; hidden: number }>(`${BASE}/vehicles`, { wallId }, { noCompanyId: true }),
  snaps: (wallId: number) => http.get<WallSnaps>(`${BASE}/snaps`, { wallId }, { noCompanyId: true }),
  snapNow: (wallId: number) => http.post<{ asked: number; offline: number; photos: number }>(`${BASE}/snap`, { wallId }, { noCompanyId: true, silent: true }),
  doAlarm: (b: { mediaId: number; alarmType: number; reason: string; wallId: number }) =>
    http.post<RaisedAlarm>(`${BASE}/doAlarm`, b, { noCompanyId: true, silent: true }),
};

/** Alarm types a photo may raise (the server's PHOTO_ALARM_TYPES: traffic violations, illegal driving, accident). */
export const PHOTO_ALARM_TYPES = [90001, 90002, 90003, 90004, 90005, 90006, 90007, 90008, 90009, 90010, 90011, 90012, 90013, 17003, 17007] as const;
export const WALL_LIMITS = { nameMax: 50, vehiclesMax: 64, refreshMin: 10, refreshMax: 3600, refreshDefault: 30, reasonMax: 200, remarkMax: 200 } as const;
