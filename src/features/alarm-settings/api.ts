/** The company alarm-setting calls (server/API.md "Safety alarms", /service-safe/companysetting/). */
import { http } from '../../api/http.ts';
import type { RiskLevel } from '../../../domain/alarms/sources.ts';

/** One alarm type's settings in force for the company (inherited from `fromCompanyId`, null = catalogue default). */
export interface AlarmSettingRecord {
  alarmType: number; alarmName: string; group: number; enabled: boolean; autoHandle: boolean; riskLevel: RiskLevel;
  defaultRiskLevel: RiskLevel; popup: boolean; voice: boolean; tts: boolean; fromCompanyId: number | null;
}

export interface AlarmSettingList { companyId: number; records: AlarmSettingRecord[] }

export interface LevelRecord { alarmType: number; alarmName: string; group: number; riskLevel: RiskLevel; defaultRiskLevel: RiskLevel }

export interface LevelSettingList { companyId: number; enabled: boolean; records: LevelRecord[] }

export interface LinkagePatch { popup?: boolean; voice?: boolean; tts?: boolean }

const BASE = '/service-safe/companysetting';

/** Failures are shown by the pages themselves (silent): each says what failed and the server's message. */
export const fetchAlarmSettings = (signal?: AbortSignal) =>
  http.get<AlarmSettingList>(`${BASE}/findCompanyAlarmSetting`, {}, { silent: true, signal });

export const setEnabled = (alarmTypes: number[], enabled: boolean) =>
  http.post<{ companyId: number; alarmTypes: number[] }>(`${BASE}/doCompanyAlarmSettingEnableStatus`, { alarmTypes, enabled }, { silent: true });

export const setAutoHandle = (alarmTypes: number[], autoHandle: boolean) =>
  http.post<{ companyId: number; alarmTypes: number[] }>(`${BASE}/doCompanyAlarmSettingHandleStatus`, { alarmTypes, autoHandle }, { silent: true });

export const setLinkage = (alarmTypes: number[], patch: LinkagePatch) =>
  http.post<{ companyId: number; alarmTypes: number[] }>(`${BASE}/doCompanyAlarmSettingLinkage`, { alarmTypes, ...patch }, { silent: true });

export const fetchLevelSettings = (signal?: AbortSignal) =>
  http.get<LevelSettingList>(`${BASE}/findCompanyAlarmLevelSetting`, {}, { silent: true, signal });

export const saveLevels = (items: { alarmType: number; riskLevel: RiskLevel | null }[]) =>
  http.post<{ companyId: number; saved: number }>(`${BASE}/saveCompanyAlarmLevelSetting`, { items }, { silent: true });

export const enableLevels = (enabled: boolean) =>
  http.post<{ companyId: number; enabled: boolean }>(`${BASE}/enableCompanyAlarmLevelSetting`, { enabled }, { silent: true });
