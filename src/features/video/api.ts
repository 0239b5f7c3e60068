/** Calls and addresses of the live video pages (server/API.md "Live video"). */
import { API_BASE, http } from '../../api/http.ts';
import type { DeviceChannels } from '../../../domain/video/channels.ts';
import type { StreamType } from '../../../domain/video/limits.ts';

export type { DeviceChannel, DeviceChannels } from '../../../domain/video/channels.ts';

/** The device's channels: its record, its terminal's own report, or unknown (domain/video/channels.ts). */
export function fetchChannels(vehicleId: number): Promise<DeviceChannels> {
  return http.get<DeviceChannels>('/service-priv/channel/device', { vehicleId }, { noCompanyId: true });
}

/** The viewer websocket of one channel (the token rides in the query: browsers cannot set headers on websockets). */
export function videoUrl(target: { vehicleId: number; channel: number; stream: StreamType }, token: string, loc: { protocol: string; host: string } = location): string {
  const q = new URLSearchParams({ token, vehicleId: String(target.vehicleId), channel: String(target.channel), stream: String(target.stream) });
  if (/^https?:\/\//.test(API_BASE)) return `${API_BASE.replace(/^http/, 'ws')}/ws-service/video?${q}`;
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}${API_BASE}/ws-service/video?${q}`;
}
