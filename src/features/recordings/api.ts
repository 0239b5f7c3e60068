/** Calls and addresses of recording playback (server/API.md "Recordings on the terminal"). */
import { API_BASE, http } from '../../api/http.ts';

export interface Recording {
  channel: number;
  startTime: number;
  endTime: number;
  /** Alarm bits of the 64-bit flags (0–31 JT/T 808 alarms, 32–63 video alarms). */
  alarms: number[];
  mediaType: number;
  streamType: number;
  storageType: number;
  fileSize: number;
}

export interface RecordingQuery {
  vehicleId: number;
  /** 0 = every channel. */
  channel: number;
  startTime: number;
  endTime: number;
  alarmOnly: boolean;
}

/** Asks the terminal (0x9205 → 0x1205); errors carry the server's message (not online, no response …). */
export function fetchRecordings(q: RecordingQuery, signal?: AbortSignal): Promise<Recording[]> {
  return http.get<Recording[]>('/service-command/1078command/resourceList', { ...q, alarmOnly: q.alarmOnly || undefined }, { noCompanyId: true, silent: true, signal });
}

/** The playback websocket of one recording span (the token rides in the query: browsers cannot set headers on websockets). */
export function playbackUrl(t: { vehicleId: number; channel: number; startTime: number; endTime: number }, token: string, loc: { protocol: string; host: string } = location): string {
  const q = new URLSearchParams({ token, vehicleId: String(t.vehicleId), channel: String(t.channel), startTime: String(t.startTime), endTime: String(t.endTime) });
  if (/^https?:\/\//.test(API_BASE)) return `${API_BASE.replace(/^http/, 'ws')}/ws-service/playback?${q}`;
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}${API_BASE}/ws-service/playback?${q}`;
}
