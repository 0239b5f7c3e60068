/** The safety-alarm calls (server/API.md "Safety alarms"). */
import { http } from '../../api/http.ts';
import { evidenceWindow } from './format.ts';
import { announceAlarmsHandled } from './handled.ts';

export interface Alarm {
  id: number; alarmType: number; alarmName: string; alarmGroup: number; source: string; vehicleId: number; vehiidno: string; devidno: string;
  companyId: number; companyName: string; channelId: number; gpsTime: number; startTime: number; endTime: number | null; lastTime: number;
  count: number; lng: number; lat: number; speed: number; riskLevel: string; dealStatus: number; dealType: number | null; dealContent: string;
  dealUserId: number | null; dealUsername: string; dealTime: number | null; typical: boolean; createTime: number;
  /** The place in words (server geocoder), present when the user's reverse geocoding setting is on. */
  address?: string;
}

export interface AlarmTypeEntry { alarmType: number; alarmName: string; nameZh: string; nameEn: string | null; group: number; isGroup: boolean }

export interface AlarmQuery {
  current: number; size: number; startTime: number; endTime: number;
  vehicleIds?: number[]; alarmGroups?: number[]; alarmTypes?: number[]; riskLevels?: string[]; dealStatuses?: number[]; typical?: boolean;
}

export interface AlarmPage { records: Alarm[]; total: number; current: number; size: number; capped: boolean; matched: number }

export interface DealLogEntry {
  id: number; alarmId: number; userId: number | null; username: string; action: string; dealType: number | null; content: string;
  terminalResult: number | null; terminalResultText: string; createTime: number;
}

export interface TerminalAnswer { id: number; dealStatus: number; terminalResult: number | null; terminalResultText: string }

export interface PopSetting { userId: number; popup: boolean; voice: boolean; voiceUrl: string }

export const fetchPopSetting = () => http.get<PopSetting>('/service-safe/usersetting/findUserAlarmPopSettingDetail', {}, { noCompanyId: true, silent: true });

export const fetchAlarmTypes = () => http.get<AlarmTypeEntry[]>('/service-safe/alarmInfo/findAllAlarmTypeList', {}, { noCompanyId: true });

export const queryAlarms = (q: AlarmQuery, signal?: AbortSignal) => http.post<AlarmPage>('/service-safe/alarmInfo', q, { signal });

export const fetchAlarm = (id: number) => http.get<Alarm>(`/service-safe/alarmInfo/${id}`, {}, { noCompanyId: true });

export const fetchDealLog = (alarmId: number) => http.get<DealLogEntry[]>('/service-command/command_record/findAlarmDealLog', { alarmId }, { noCompanyId: true });

// Every handling call announces itself once the server accepted it, so the list, the pop-up and the
// safety board agree without a reload whichever of them handled the alarm (handled.ts).
export const confirmAlarm = async (alarmId: number, dealType: number, dealContent: string) => {
  const a = await http.get<TerminalAnswer>('/service-command/command/confirmAlarmAndReplyDevice', { alarmId, dealType, dealContent }, { noCompanyId: true });
  announceAlarmsHandled([alarmId]);
  return a;
};

export const invalidAlarm = async (alarmId: number, dealContent: string) => {
  const a = await http.get<TerminalAnswer>('/service-command/command/invalidAlarmAndReplyDevice', { alarmId, dealContent }, { noCompanyId: true });
  announceAlarmsHandled([alarmId]);
  return a;
};

export const handleAlarms = async (ids: number[], dealType: number, dealContent: string) => {
  const r = await http.put<{ updated: number; skipped: number }>('/service-safe/alarmInfo/handle_status', { ids, dealType, dealContent }, { noCompanyId: true, silent: true });
  announceAlarmsHandled(ids);
  return r;
};

export const markTypical = (ids: number[], typical: boolean) =>
  http.post<{ updated: number }>('/service-safe/alarmInfo/typical', { ids, typical }, { noCompanyId: true });

export type TtsType = 'tts' | 'urgent' | 'display' | 'advertising';

export const startTts = (vehicleId: number, text: string, types: TtsType[], alarmId?: number) =>
  http.post<{ vehicleId: number; flags: number; result: number; resultText: string }>(
    '/service-command/command/startTts', { vehicleId, text, types, alarmId }, { noCompanyId: true },
  );

/** A photo or clip the media report holds for an alarm (server/API.md "Multimedia"). */
export interface AlarmMediaItem {
  id: number; vehicleId: number; channel: number; mediaType: number; captureTime: number; alarmId: number | null; url: string;
}

/** The alarm's evidence: the media report's rows linked to this alarm (its own call and right). */
export async function fetchAlarmMedia(alarm: Alarm): Promise<AlarmMediaItem[]> {
  const page = await http.post<{ records: AlarmMediaItem[] }>('/service-report/media/alarmMedia', {
    current: 1, size: 50, ...evidenceWindow(alarm), vehicleIds: [alarm.vehicleId], alarmIds: [alarm.id],
  }, { noCompanyId: true, silent: true });
  return page.records;
}

export interface VehicleOption { vehicleId: number; plate: string }

/** Plates matching a keyword (the company tree's search: a session call, so any user of the page may filter). */
export async function searchVehicles(keyword: string): Promise<VehicleOption[]> {
  const found = await http.get<{ node: { id: string; name: string; nodeType: string } }[]>(
    '/service-priv/company/treeSearch', { keyword, limit: 20 }, { noCompanyId: true, silent: true },
  );
  return found
    .filter((f) => f.node.nodeType === 'V')
    .map((f) => ({ vehicleId: Number(f.node.id.replace(/^V_/, '')), plate: f.node.name }));
}
