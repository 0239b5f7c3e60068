/** Records and the repository contract of safety alarms (migration 5, server/API.md "Safety alarms"). */
import type { AlarmSource, DealStatus, DealType } from '../../domain/alarms/engine.ts';
import type { RiskLevel } from '../../domain/alarms/sources.ts';
import type { Scope } from './scope.ts';

export interface AlarmTypeRecord {
  readonly code: number;
  readonly group: number;
  readonly zh: string;
  readonly en: string | null;
  readonly sort: number;
}

/** A stored company setting row (types without one use the defaults). */
export interface CompanyAlarmSetting {
  readonly companyId: number;
  readonly alarmType: number;
  readonly enabled: boolean;
  readonly autoHandle: boolean;
  /** null: the catalogue's default level. */
  readonly riskLevel: RiskLevel | null;
  readonly popup: boolean;
  readonly voice: boolean;
  readonly tts: boolean;
}

export type CompanyAlarmSettingPatch = Partial<Omit<CompanyAlarmSetting, 'companyId' | 'alarmType'>>;

export interface UserAlarmPopSetting {
  readonly userId: number;
  readonly popup: boolean;
  readonly voice: boolean;
  readonly voiceUrl: string;
}

export interface NewAlarm {
  readonly vehicleId: number;
  readonly deviceNo: string;
  readonly companyId: number;
  readonly alarmType: number;
  readonly source: AlarmSource;
  readonly startTime: number;
  readonly lng: number;
  readonly lat: number;
  readonly speed: number;
  readonly riskLevel: RiskLevel;
  readonly dealStatus: DealStatus;
  readonly createTime: number;
}

export interface AlarmRecord {
  readonly id: number;
  readonly vehicleId: number;
  readonly vehiidno: string;
  readonly deviceNo: string;
  readonly companyId: number;
  readonly companyName: string;
  readonly companyPath: string;
  readonly alarmType: number;
  readonly source: AlarmSource;
  readonly channelId: number;
  readonly startTime: number;
  readonly endTime: number | null;
  readonly lastTime: number;
  readonly count: number;
  readonly lng: number;
  readonly lat: number;
  readonly speed: number;
  readonly riskLevel: RiskLevel;
  readonly dealStatus: DealStatus;
  readonly dealType: DealType | null;
  readonly dealContent: string;
  readonly dealUserId: number | null;
  readonly dealUsername: string;
  readonly dealTime: number | null;
  readonly typical: boolean;
  readonly createTime: number;
  /** The platform's note on it: the fence (or route) of a fence alarm, from its 'fence' log row (issue 17); '' or absent otherwise. */
  readonly content?: string;
}

export interface AlarmFilter {
  readonly vehicleIds?: readonly number[];
  readonly groups?: readonly number[];
  readonly types?: readonly number[];
  readonly riskLevels?: readonly RiskLevel[];
  readonly dealStatuses?: readonly DealStatus[];
  readonly typical?: boolean;
  readonly startTime: number;
  readonly endTime: number;
}

export interface AlarmDeal {
  readonly dealStatus: DealStatus;
  readonly dealType: DealType | null;
  readonly dealContent: string;
  readonly dealUserId: number;
  readonly dealUsername: string;
  readonly dealTime: number;
}

export interface AlarmDealLogEntry {
  readonly id: number;
  readonly alarmId: number;
  readonly userId: number | null;
  readonly username: string;
  /** confirm | handle | invalid | typical | untypical | tts | phone | music | audio | linkageTts | fence (the platform, userId null) */
  readonly action: string;
  readonly dealType: DealType | null;
  readonly content: string;
  /** 0x0001 result; -1 terminal offline, -2 no reply in time; null: no terminal involved. */
  readonly terminalResult: number | null;
  readonly resultText: string;
  readonly createTime: number;
}

export type NewAlarmDealLog = Omit<AlarmDealLogEntry, 'id'>;

export interface AlarmCatchUp {
  readonly lastId: number;
  readonly records: AlarmRecord[];
  readonly missed: number;
  /** `missed` reached the count cap: at least that many were missed. */
  readonly missedCapped: boolean;
}

/** What the alarm engine needs of a stored alarm to take it back (`recent`). */
export interface StoredAlarmState {
  readonly id: number;
  readonly vehicleId: number;
  readonly alarmType: number;
  readonly source: AlarmSource;
  readonly lastTime: number;
  readonly count: number;
  readonly endTime: number | null;
}

export interface AlarmRepository {
  /** Inserts catalogue codes the table lacks and refreshes names (the catalogue may grow). */
  syncTypes(types: readonly Omit<AlarmTypeRecord, 'sort'>[]): Promise<void>;
  listTypes(): Promise<AlarmTypeRecord[]>;
  /** Every stored company setting (the generation cache). */
  allSettings(): Promise<CompanyAlarmSetting[]>;
  settingsOf(companyId: number): Promise<CompanyAlarmSetting[]>;
  /**
   * Changes the rows of `alarmTypes` for a company (fields not in the patch keep their value); a
   * missing row is created from `initial(type)` (what the company inherits) with the patch applied.
   */
  patchSettings(companyId: number, alarmTypes: readonly number[], patch: CompanyAlarmSettingPatch, now: number, initial?: (alarmType: number) => CompanyAlarmSettingPatch): Promise<void>;
  /** The company's platform-level switch; undefined when never set (on). */
  levelSwitch(companyId: number): Promise<boolean | undefined>;
  allLevelSwitches(): Promise<Map<number, boolean>>;
  setLevelSwitch(companyId: number, enabled: boolean, now: number): Promise<void>;
  userPop(userId: number): Promise<UserAlarmPopSetting | undefined>;
  patchUserPop(userId: number, patch: Partial<Omit<UserAlarmPopSetting, 'userId'>>, now: number): Promise<void>;

  /** Alarms started since `startedSince` that are still open (no end time) or were last seen since `lastSince`, oldest first. */
  recent(startedSince: number, lastSince: number): Promise<StoredAlarmState[]>;
  /** `recent` of one vehicle (issue 20: its terminal authenticated on another gateway node). */
  recentOf(vehicleId: number, startedSince: number, lastSince: number): Promise<StoredAlarmState[]>;
  insert(alarm: NewAlarm): Promise<number>;
  merge(id: number, lastTime: number, count: number): Promise<void>;
  end(id: number, endTime: number): Promise<void>;
  get(scope: Scope, id: number): Promise<AlarmRecord | undefined>;
  /** The alarms of `ids` inside the scope, newest (highest id) first; one statement. */
  getMany(scope: Scope, ids: readonly number[]): Promise<AlarmRecord[]>;
  /** Matches in the scope, newest first: `total` counts all matches, `records` the slice [offset, offset + limit). */
  query(scope: Scope, filter: AlarmFilter, offset: number, limit: number): Promise<{ total: number; records: AlarmRecord[] }>;
  /** Ids among `ids` inside the scope. */
  inScope(scope: Scope, ids: readonly number[]): Promise<number[]>;
  /**
   * A reconnecting console's catch-up (server/push/hub.ts): `lastId` is the highest alarm id stored
   * (any company: ids are one sequence); with `afterId`, `records` are the newest `limit` alarms of the
   * scope with afterId < id ≤ lastId, oldest first, and `missed` counts (up to `countCap`) the older
   * ones after afterId that did not fit. One synchronous read: no write can land between its parts.
   */
  since(scope: Scope, afterId: number | undefined, limit: number, countCap: number): Promise<AlarmCatchUp>;
  /**
   * Applies a handling action to alarms (processing state and/or the typical flag) and writes their
   * deal-log rows, atomically in one synchronous step (no other write can slip in between).
   */
  /**
   * Applies a handling step and writes the logs of the alarms it changed; answers those ids. A `deal`
   * changes only alarms whose status it may still change (`decidableFrom`): a decision someone else
   * made meanwhile wins and the alarm is left out. `typical` changes every given alarm.
   */
  act(ids: readonly number[], change: { readonly deal?: AlarmDeal; readonly typical?: boolean }, logs: readonly NewAlarmDealLog[]): Promise<number[]>;
  addLog(entry: NewAlarmDealLog): Promise<number>;
  /** Sets the terminal's answer on the user's latest log row of `action` for the alarm (written before the terminal was asked). */
  setLogResult(alarmId: number, action: string, userId: number, terminalResult: number): Promise<void>;
  logs(alarmId: number): Promise<AlarmDealLogEntry[]>;
}
