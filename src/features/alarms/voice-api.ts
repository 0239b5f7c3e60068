/** The pop-up's voice calls (server/API.md "Intercom and reminders"). */
import { API_BASE, http } from '../../api/http.ts';

export type ReminderSound = 'music' | 'audio';

export const startReminder = (vehicleId: number, fun: ReminderSound, alarmId?: number) =>
  http.post<{ vehicleId: number; fun: ReminderSound; channel: number; durationMs: number }>('/service-command/command/startFun', { vehicleId, fun, alarmId }, { noCompanyId: true, silent: true });

export const callBack = (vehicleId: number, phone: string, listen: boolean, alarmId?: number) =>
  http.post<{ vehicleId: number; phone: string; flag: number; result: number; resultText: string }>(
    '/service-command/command/callAlarm', { vehicleId, phone, listen, alarmId }, { noCompanyId: true, silent: true },
  );

/** The intercom websocket of a vehicle (the token rides in the query: browsers cannot set headers on websockets). */
export function talkUrl(vehicleId: number, token: string, loc: { protocol: string; host: string } = location): string {
  const q = new URLSearchParams({ token, vehicleId: String(vehicleId) });
  if (/^https?:\/\//.test(API_BASE)) return `${API_BASE.replace(/^http/, 'ws')}/ws-service/talk?${q}`;
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}${API_BASE}/ws-service/talk?${q}`;
}

export type CanProtocol = 'obd2' | 'j1939';

export interface ObdReading {
  protocol: CanProtocol; time: number;
  engineRpm: number | null; coolantC: number | null; fuelPct: number | null; speedKmh: number | null; engineLoadPct: number | null; engineHours: number | null;
}

export const fetchObd = (vehicleId: number, protocol: CanProtocol) =>
  http.get<{ vehicleId: number; protocol: CanProtocol; reading: ObdReading | null }>('/service-monitor/obd/detail', { vehicleId, protocol }, { noCompanyId: true, silent: true });
