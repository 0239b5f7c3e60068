import type { VehicleOption } from './VehicleSelect.tsx';

/**
 * The vehicle a screen was opened for (`?vehicleId=&plate=`, the vehicle menu's 参数设置 / 电子围栏 /
 * 通讯日志 entries), as a VehicleSelect option so its plate shows before any search; null without one.
 */
export function vehicleFromUrl(search = typeof window === 'undefined' ? '' : window.location.search): VehicleOption | null {
  const q = new URLSearchParams(search);
  const id = Number(q.get('vehicleId'));
  return Number.isSafeInteger(id) && id > 0 ? { id, plate: q.get('plate') ?? String(id), companyName: '' } : null;
}
