import { decidableFrom, type AlarmSource, type DealStatus, type DealType } from '../../../domain/alarms/engine.ts';
import { groupCodes } from '../../../domain/alarms/catalogue.ts';
import type { RiskLevel } from '../../../domain/alarms/sources.ts';
import type {
  AlarmCatchUp, AlarmDeal, AlarmDealLogEntry, AlarmFilter, AlarmRecord, AlarmRepository, AlarmTypeRecord, CompanyAlarmSetting,
  CompanyAlarmSettingPatch, NewAlarm, NewAlarmDealLog, StoredAlarmState, UserAlarmPopSetting,
} from '../alarm-types.ts';
import { scopeCondition, type Scope } from '../scope.ts';
import type { Statement } from 'better-sqlite3';
import type { SqliteDb } from '../sqlite.ts';
import { placeholders } from './rows.ts';

interface SettingRowDb {
  company_id: number; alarm_type: number; enabled: number; auto_handle: number; risk_level: RiskLevel | null; popup: number; voice: number; tts: number;
}

const toSetting = (r: SettingRowDb): CompanyAlarmSetting => ({
  companyId: r.company_id, alarmType: r.alarm_type, enabled: r.enabled === 1, autoHandle: r.auto_handle === 1, riskLevel: r.risk_level,
  popup: r.popup === 1, voice: r.voice === 1, tts: r.tts === 1,
});

export interface AlarmRowDb {
  id: number; vehicle_id: number; vehiidno: string; device_no: string; company_id: number; company_name: string; path: string;
  alarm_type: number; source: AlarmSource; channel_id: number; start_time: number; end_time: number | null; last_time: number; count: number;
  lng: number; lat: number; speed: number; risk_level: RiskLevel; deal_status: DealStatus; deal_type: DealType | null; deal_content: string;
  deal_user_id: number | null; deal_username: string; deal_time: number | null; typical: number; create_time: number;
  /** The platform's note (NOTE below); absent where a query does not read it. */
  note?: string | null;
}

export const toAlarm = (r: AlarmRowDb): AlarmRecord => ({
  id: r.id, vehicleId: r.vehicle_id, vehiidno: r.vehiidno, deviceNo: r.device_no, companyId: r.company_id, companyName: r.company_name,
  companyPath: r.path, alarmType: r.alarm_type, source: r.source, channelId: r.channel_id, startTime: r.start_time, endTime: r.end_time,
  lastTime: r.last_time, count: r.count, lng: r.lng, lat: r.lat, speed: r.speed, riskLevel: r.risk_level, dealStatus: r.deal_status,
  dealType: r.deal_type, dealContent: r.deal_content, dealUserId: r.deal_user_id, dealUsername: r.deal_username, dealTime: r.deal_time,
  typical: r.typical === 1, createTime: r.create_time, content: r.note ?? '',
});

/**
 * The platform's note on an alarm (the fence a fence alarm came from): its first 'fence' log row, by
 * the (alarm_id, id) index. Kept in the log, not a column, so the catch-up and the queries read it here.
 */
const NOTE = `(SELECT l.content FROM alarm_deal_log l WHERE l.alarm_id = a.id AND l.action = 'fence' ORDER BY l.id LIMIT 1) AS note`;
const SELECT = `SELECT a.*, v.vehiidno, c.name AS company_name, c.path, ${NOTE} FROM alarm a
                JOIN vehicle v ON v.id = a.vehicle_id JOIN company c ON c.id = a.company_id`;

const STORED_STATE = 'id, vehicle_id, alarm_type, source, last_time, count, end_time';
type StoredStateDb = { id: number; vehicle_id: number; alarm_type: number; source: AlarmSource; last_time: number; count: number; end_time: number | null };
const toStoredState = (r: StoredStateDb): StoredAlarmState => ({ id: r.id, vehicleId: r.vehicle_id, alarmType: r.alarm_type, source: r.source, lastTime: r.last_time, count: r.count, endTime: r.end_time });

const bool = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);

/**
 * The conditions of an alarm filter over `alarm a JOIN company c` (scope, start-time range, lists,
 * type groups): shared by the alarm list and the alarm statistics.
 */
export function alarmFilterConditions(scope: Scope, f: Omit<AlarmFilter, 'typical'>): { parts: string[]; params: (string | number)[] } {
  const s = scopeCondition(scope, 'c');
  const parts: string[] = ['a.start_time >= ?', 'a.start_time <= ?', s.sql];
  const params: (string | number)[] = [f.startTime, f.endTime, ...s.params];
  const inList = (column: string, values: readonly (string | number)[] | undefined) => {
    if (values === undefined || values.length === 0) return;
    parts.push(`${column} IN (${placeholders(values.length)})`);
    params.push(...values);
  };
  inList('a.vehicle_id', f.vehicleIds);
  inList('a.alarm_type', f.types);
  inList('a.risk_level', f.riskLevels);
  inList('a.deal_status', f.dealStatuses);
  if (f.groups !== undefined && f.groups.length > 0) {
    // A group is its code range minus the codes filed elsewhere plus those filed here (the ADAS
    // codes 100xx are group 19: domain/alarms/catalogue.ts groupCodes).
    const ors: string[] = [];
    for (const g of f.groups) {
      const c = groupCodes(g);
      ors.push(`(a.alarm_type >= ? AND a.alarm_type < ?${c.except.length > 0 ? ` AND a.alarm_type NOT IN (${placeholders(c.except.length)})` : ''})`);
      params.push(c.from, c.to, ...c.except);
      if (c.plus.length > 0) {
        ors.push(`a.alarm_type IN (${placeholders(c.plus.length)})`);
        params.push(...c.plus);
      }
    }
    parts.push(`(${ors.join(' OR ')})`);
  }
  return { parts, params };
}

export class SqliteAlarmRepository implements AlarmRepository {
  /** Prepared statements of the per-alarm calls (an alarm storm calls them thousands of times a second). */
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: SqliteDb) {}

  private st(sql: string): Statement {
    let s = this.statements.get(sql);
    if (s === undefined) this.statements.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  async syncTypes(types: readonly Omit<AlarmTypeRecord, 'sort'>[]): Promise<void> {
    const upsert = this.db.prepare(`INSERT INTO alarm_type (code, group_no, name_zh, name_en, sort) VALUES (?, ?, ?, ?, ?)
                                    ON CONFLICT (code) DO UPDATE SET group_no = excluded.group_no, name_zh = excluded.name_zh,
                                      name_en = excluded.name_en, sort = excluded.sort`);
    this.db.transaction(() => types.forEach((t, i) => upsert.run(t.code, t.group, t.zh, t.en, i)))();
  }

  async listTypes(): Promise<AlarmTypeRecord[]> {
    const rows = this.db.prepare('SELECT code, group_no, name_zh, name_en, sort FROM alarm_type ORDER BY sort, code').all() as
      { code: number; group_no: number; name_zh: string; name_en: string | null; sort: number }[];
    return rows.map((r) => ({ code: r.code, group: r.group_no, zh: r.name_zh, en: r.name_en, sort: r.sort }));
  }

  async allSettings(): Promise<CompanyAlarmSetting[]> {
    return (this.db.prepare('SELECT * FROM company_alarm_setting').all() as SettingRowDb[]).map(toSetting);
  }

  async settingsOf(companyId: number): Promise<CompanyAlarmSetting[]> {
    return (this.db.prepare('SELECT * FROM company_alarm_setting WHERE company_id = ? ORDER BY alarm_type').all(companyId) as SettingRowDb[]).map(toSetting);
  }

  async patchSettings(companyId: number, alarmTypes: readonly number[], patch: CompanyAlarmSettingPatch, now: number, initial?: (alarmType: number) => CompanyAlarmSettingPatch): Promise<void> {
    const exists = this.db.prepare('SELECT 1 FROM company_alarm_setting WHERE company_id = ? AND alarm_type = ?');
    const insert = this.db.prepare(`INSERT INTO company_alarm_setting (company_id, alarm_type, enabled, auto_handle, risk_level, popup, voice, tts, update_time)
                                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const sets: string[] = [];
    const values: (number | string | null)[] = [];
    const set = (column: string, value: number | string | null | undefined) => {
      if (value === undefined) return;
      sets.push(`${column} = ?`);
      values.push(value);
    };
    set('enabled', bool(patch.enabled));
    set('auto_handle', bool(patch.autoHandle));
    set('risk_level', patch.riskLevel);
    set('popup', bool(patch.popup));
    set('voice', bool(patch.voice));
    set('tts', bool(patch.tts));
    const update = this.db.prepare(`UPDATE company_alarm_setting SET ${[...sets, 'update_time = ?'].join(', ')} WHERE company_id = ? AND alarm_type = ?`);
    this.db.transaction(() => {
      for (const t of alarmTypes) {
        if (exists.get(companyId, t) !== undefined) {
          update.run(...values, now, companyId, t);
          continue;
        }
        const r = { ...initial?.(t), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as CompanyAlarmSettingPatch;
        insert.run(companyId, t, (r.enabled ?? true) ? 1 : 0, r.autoHandle ? 1 : 0, r.riskLevel ?? null, r.popup ? 1 : 0, r.voice ? 1 : 0, r.tts ? 1 : 0, now);
      }
    })();
  }

  async levelSwitch(companyId: number): Promise<boolean | undefined> {
    const row = this.db.prepare('SELECT enabled FROM company_alarm_level WHERE company_id = ?').get(companyId) as { enabled: number } | undefined;
    return row === undefined ? undefined : row.enabled === 1;
  }

  async allLevelSwitches(): Promise<Map<number, boolean>> {
    const rows = this.db.prepare('SELECT company_id, enabled FROM company_alarm_level').all() as { company_id: number; enabled: number }[];
    return new Map(rows.map((r) => [r.company_id, r.enabled === 1]));
  }

  async setLevelSwitch(companyId: number, enabled: boolean, now: number): Promise<void> {
    this.db.prepare(`INSERT INTO company_alarm_level (company_id, enabled, update_time) VALUES (?, ?, ?)
                     ON CONFLICT (company_id) DO UPDATE SET enabled = excluded.enabled, update_time = excluded.update_time`).run(companyId, enabled ? 1 : 0, now);
  }

  async userPop(userId: number): Promise<UserAlarmPopSetting | undefined> {
    const r = this.db.prepare('SELECT * FROM user_alarm_pop_setting WHERE user_id = ?').get(userId) as
      { user_id: number; popup: number; voice: number; voice_url: string } | undefined;
    return r && { userId: r.user_id, popup: r.popup === 1, voice: r.voice === 1, voiceUrl: r.voice_url };
  }

  async patchUserPop(userId: number, patch: Partial<Omit<UserAlarmPopSetting, 'userId'>>, now: number): Promise<void> {
    this.db.prepare(`INSERT INTO user_alarm_pop_setting (user_id, popup, voice, voice_url, update_time)
                     VALUES (@u, coalesce(@popup, 1), coalesce(@voice, 1), coalesce(@url, ''), @now)
                     ON CONFLICT (user_id) DO UPDATE SET popup = coalesce(@popup, user_alarm_pop_setting.popup), voice = coalesce(@voice, user_alarm_pop_setting.voice),
                       voice_url = coalesce(@url, user_alarm_pop_setting.voice_url), update_time = @now`)
      .run({ u: userId, popup: bool(patch.popup), voice: bool(patch.voice), url: patch.voiceUrl ?? null, now });
  }

  async recent(startedSince: number, lastSince: number): Promise<StoredAlarmState[]> {
    return (this.st(`SELECT ${STORED_STATE} FROM alarm WHERE start_time >= ? AND (end_time IS NULL OR last_time >= ?) ORDER BY start_time, id`)
      .all(startedSince, lastSince) as StoredStateDb[]).map(toStoredState);
  }

  async recentOf(vehicleId: number, startedSince: number, lastSince: number): Promise<StoredAlarmState[]> {
    return (this.st(`SELECT ${STORED_STATE} FROM alarm WHERE vehicle_id = ? AND start_time >= ? AND (end_time IS NULL OR last_time >= ?) ORDER BY start_time, id`)
      .all(vehicleId, startedSince, lastSince) as StoredStateDb[]).map(toStoredState);
  }

  async insert(a: NewAlarm): Promise<number> {
    const r = this.st(`INSERT INTO alarm (vehicle_id, device_no, company_id, alarm_type, source, start_time, last_time, lng, lat, speed, risk_level, deal_status, create_time)
                               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(a.vehicleId, a.deviceNo, a.companyId, a.alarmType, a.source, a.startTime, a.startTime, a.lng, a.lat, a.speed, a.riskLevel, a.dealStatus, a.createTime);
    return Number(r.lastInsertRowid);
  }

  async merge(id: number, lastTime: number, count: number): Promise<void> {
    // A merge after the end re-opens the alarm (the condition is back).
    this.st('UPDATE alarm SET last_time = ?, count = ?, end_time = NULL WHERE id = ?').run(lastTime, count, id);
  }

  async end(id: number, endTime: number): Promise<void> {
    this.st('UPDATE alarm SET end_time = ? WHERE id = ?').run(endTime, id);
  }

  async get(scope: Scope, id: number): Promise<AlarmRecord | undefined> {
    const s = scopeCondition(scope, 'c');
    const row = this.st(`${SELECT} WHERE a.id = ? AND ${s.sql}`).get(id, ...s.params) as AlarmRowDb | undefined;
    return row && toAlarm(row);
  }

  async getMany(scope: Scope, ids: readonly number[]): Promise<AlarmRecord[]> {
    if (ids.length === 0) return [];
    const s = scopeCondition(scope, 'c');
    const rows = this.db.prepare(`${SELECT} WHERE a.id IN (${placeholders(ids.length)}) AND ${s.sql} ORDER BY a.id DESC`).all(...ids, ...s.params) as AlarmRowDb[];
    return rows.map(toAlarm);
  }

  async query(scope: Scope, f: AlarmFilter, offset: number, limit: number): Promise<{ total: number; records: AlarmRecord[] }> {
    const { parts: where, params } = alarmFilterConditions(scope, f);
    if (f.typical !== undefined) {
      where.push('a.typical = ?');
      params.push(f.typical ? 1 : 0);
    }
    const from = `FROM alarm a JOIN company c ON c.id = a.company_id WHERE ${where.join(' AND ')}`;
    const total = (this.db.prepare(`SELECT count(*) AS n ${from}`).get(...params) as { n: number }).n;
    const rows = limit <= 0 ? [] : this.db.prepare(`SELECT a.*, v.vehiidno, c.name AS company_name, c.path, ${NOTE} ${from.replace('JOIN company c', 'JOIN vehicle v ON v.id = a.vehicle_id JOIN company c')}
                                                    ORDER BY a.start_time DESC, a.id DESC LIMIT ? OFFSET ?`).all(...params, limit, offset) as AlarmRowDb[];
    return { total, records: rows.map(toAlarm) };
  }

  async inScope(scope: Scope, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const s = scopeCondition(scope, 'c');
    const rows = this.db.prepare(`SELECT a.id FROM alarm a JOIN company c ON c.id = a.company_id WHERE a.id IN (${placeholders(ids.length)}) AND ${s.sql}`)
      .all(...ids, ...s.params) as { id: number }[];
    return rows.map((r) => r.id);
  }

  async since(scope: Scope, afterId: number | undefined, limit: number, countCap: number): Promise<AlarmCatchUp> {
    const lastId = (this.st('SELECT coalesce(max(id), 0) AS m FROM alarm').get() as { m: number }).m;
    if (afterId === undefined || afterId >= lastId) return { lastId, records: [], missed: 0, missedCapped: false };
    const s = scopeCondition(scope, 'c');
    // Newest first by rowid (a range scan of the primary key), reversed below so the console adds them in order.
    const rows = this.st(`${SELECT} WHERE a.id > ? AND a.id <= ? AND ${s.sql} ORDER BY a.id DESC LIMIT ?`)
      .all(afterId, lastId, ...s.params, limit) as AlarmRowDb[];
    let missed = 0;
    if (rows.length === limit && limit > 0) {
      // Counted with a cap: a console away for weeks must not hold the single connection for a full count.
      missed = (this.st(`SELECT count(*) AS n FROM (SELECT 1 FROM alarm a JOIN company c ON c.id = a.company_id
                          WHERE a.id > ? AND a.id < ? AND ${s.sql} LIMIT ?)`)
        .get(afterId, rows[rows.length - 1]!.id, ...s.params, countCap) as { n: number }).n;
    }
    return { lastId, records: rows.reverse().map(toAlarm), missed, missedCapped: missed >= countCap };
  }

  async act(ids: readonly number[], change: { readonly deal?: AlarmDeal; readonly typical?: boolean }, logs: readonly NewAlarmDealLog[]): Promise<number[]> {
    const from = change.deal ? decidableFrom(change.deal.dealStatus) : [];
    const deal = this.db.prepare(`UPDATE alarm SET deal_status = ?, deal_type = ?, deal_content = ?, deal_user_id = ?, deal_username = ?, deal_time = ?
                                  WHERE id = ? AND deal_status IN (${from.join(', ')})`);
    const typical = this.db.prepare('UPDATE alarm SET typical = ? WHERE id = ?');
    const changed: number[] = [];
    this.db.transaction(() => {
      for (const id of ids) {
        const d = change.deal;
        if (d && deal.run(d.dealStatus, d.dealType, d.dealContent, d.dealUserId, d.dealUsername, d.dealTime, id).changes === 0) continue;
        if (change.typical !== undefined) typical.run(change.typical ? 1 : 0, id);
        changed.push(id);
      }
      const done = new Set(changed);
      for (const e of logs) if (done.has(e.alarmId)) this.insertLog(e);
    })();
    return changed;
  }

  async addLog(e: NewAlarmDealLog): Promise<number> {
    return this.insertLog(e);
  }

  async setLogResult(alarmId: number, action: string, userId: number, terminalResult: number): Promise<void> {
    this.db.prepare(`UPDATE alarm_deal_log SET terminal_result = ?
                     WHERE id = (SELECT max(id) FROM alarm_deal_log WHERE alarm_id = ? AND action = ? AND user_id = ?)`).run(terminalResult, alarmId, action, userId);
  }

  private insertLog(e: NewAlarmDealLog): number {
    const r = this.db.prepare(`INSERT INTO alarm_deal_log (alarm_id, user_id, username, action, deal_type, content, terminal_result, result_text, create_time)
                               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(e.alarmId, e.userId, e.username, e.action, e.dealType, e.content, e.terminalResult, e.resultText, e.createTime);
    return Number(r.lastInsertRowid);
  }

  async logs(alarmId: number): Promise<AlarmDealLogEntry[]> {
    const rows = this.db.prepare('SELECT * FROM alarm_deal_log WHERE alarm_id = ? ORDER BY id').all(alarmId) as {
      id: number; alarm_id: number; user_id: number | null; username: string; action: string; deal_type: DealType | null; content: string;
      terminal_result: number | null; result_text: string; create_time: number;
    }[];
    return rows.map((r) => ({
      id: r.id, alarmId: r.alarm_id, userId: r.user_id, username: r.username, action: r.action, dealType: r.deal_type, content: r.content,
      terminalResult: r.terminal_result, resultText: r.result_text, createTime: r.create_time,
    }));
  }
}
