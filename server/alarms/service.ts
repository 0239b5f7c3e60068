/**
 * The server side of alarm generation: feeds the pure engine (domain/alarms/engine.ts) from the
 * gateway's live reports and a periodic offline sweep of the latest-state store, applies company
 * settings, stores what the engine decides and pushes every NEW alarm to the consoles of its company
 * subtree. Merges and ends only update the stored row (the console sees the count on refresh).
 *
 * Events are stored in arrival order through one promise chain, so a merge never overtakes the
 * insert of its alarm. Blind-area re-uploads never get here (the gateway notifies live reports only).
 */
import { ALARM_TYPES, alarmName } from '../../domain/alarms/catalogue.ts';
import { AlarmEngine, defaultPolicy, type AlarmEvent, type AlarmPolicy } from '../../domain/alarms/engine.ts';
import { ALARM_FLAGS, ALARM_WINDOW_MS, PLATFORM_RULES, type Edition } from '../../domain/alarms/sources.ts';
import { OFFLINE_AFTER_MS } from '../../domain/vehicle/state.ts';
import type { AlarmRecord, CompanyAlarmSetting } from '../db/alarm-types.ts';
import type { Storage } from '../db/repositories.ts';
import { ALL_COMPANIES } from '../db/scope.ts';
import type { LocationReport } from '../gateway/jt808/index.ts';
import type { LiveStore } from '../live/store.ts';

/** What the service needs from the push hub (server/push/hub.ts). */
export interface AlarmPublisher {
  publishAlarm(companyPath: string, alarm: Readonly<Record<string, unknown>>): void;
}

export interface AlarmServiceOptions {
  /** Offline sweep period (real time). @default 10 s */
  readonly sweepMs?: number;
  readonly log?: { warn(obj: object, msg: string): void };
}

/** The spec §3 alarm push message body (`commandBody.data`), plus our risk level, count and source. */
export function alarmPushData(a: AlarmRecord): Record<string, unknown> {
  return {
    id: a.id, alarmType: a.alarmType, alarmName: alarmName(a.alarmType, 'zh'), channelId: a.channelId, companyId: a.companyId,
    companyName: a.companyName, createTime: a.createTime, dealUserId: a.dealUserId, dealUsername: a.dealUsername, dealStatus: a.dealStatus,
    dealContent: a.dealContent, dealTime: a.dealTime, dealType: a.dealType, devidno: a.deviceNo, gpsTime: a.startTime, lng: a.lng, lat: a.lat,
    speed: a.speed, vehiidno: a.vehiidno, vehicleId: a.vehicleId, riskLevel: a.riskLevel, count: a.count, source: a.source,
  };
}

export interface EffectiveSetting extends AlarmPolicy {
  readonly popup: boolean;
  readonly voice: boolean;
  readonly tts: boolean;
  /** The company whose row decided; null: the defaults. */
  readonly fromCompanyId: number | null;
}

/** How far back a start looks for alarms still held (a bit held longer than this is not followed). */
const RESTORE_HELD_MS = 7 * 86_400_000;

export class AlarmService {
  readonly engine: AlarmEngine;
  readonly stats = { raised: 0, merged: 0, ended: 0, failed: 0 };
  /** companyId → alarmType → setting. */
  private settings = new Map<number, Map<number, CompanyAlarmSetting>>();
  private levelSwitches = new Map<number, boolean>();
  /** Engine key → stored alarm id. */
  private readonly ids = new Map<number, Promise<number | undefined>>();
  private chain: Promise<void> = Promise.resolve();
  /** Vehicles already offline when the server started: no alarm until they come back and leave again. */
  private readonly offlineAtStart = new Set<number>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly store: LiveStore,
    private readonly publisher: AlarmPublisher,
    private readonly options: AlarmServiceOptions = {},
  ) {
    this.engine = new AlarmEngine((vehicleId, code) => this.policy(vehicleId, code));
  }

  /** Syncs the type catalogue, loads settings, primes the engine with the stored alarm words. */
  async init(): Promise<void> {
    await this.storage.alarms.syncTypes(ALARM_TYPES);
    await this.reloadSettings();
    const c = this.store.columns;
    const now = this.store.clock();
    for (let slot = 0; slot < this.store.count; slot++) {
      const vehicleId = c.vehicleId[slot]!;
      this.engine.prime(vehicleId, c.alarmFlags[slot]!);
      const contact = c.lastContact[slot]!;
      if (Number.isFinite(contact) && now - contact > OFFLINE_AFTER_MS) this.offlineAtStart.add(vehicleId);
    }
    await this.restoreOpenAlarms(now);
  }

  /**
   * Gives the engine the alarms stored before this start that can still merge or end: a state bit
   * still set in the vehicle's last report, an open platform alarm, anything inside the window.
   */
  private async restoreOpenAlarms(now: number): Promise<void> {
    const c = this.store.columns;
    for (const a of await this.storage.alarms.recent(now - RESTORE_HELD_MS, now - ALARM_WINDOW_MS)) {
      const slot = this.store.slotOf(a.vehicleId);
      if (slot < 0) continue;
      let active = false;
      if (a.endTime === null && a.source === 'platform') active = true;
      if (a.endTime === null && a.source === 'bit') {
        const rule = ALARM_FLAGS.find((r) => r.code === a.alarmType && r.kind === 'state');
        active = rule !== undefined && ((c.alarmFlags[slot]! >>> rule.bit) & 1) === 1;
      }
      if (!active && now - a.lastTime > ALARM_WINDOW_MS) continue;
      const key = this.engine.restore(a.vehicleId, a.alarmType, { lastTime: a.lastTime, count: a.count, active });
      this.ids.set(key, Promise.resolve(a.id));
    }
  }

  start(): void {
    this.timer ??= setInterval(() => this.sweep(), this.options.sweepMs ?? 10_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.idle();
  }

  /** Resolves when every event so far is stored (and pushed). */
  idle(): Promise<void> {
    return this.chain;
  }

  /** Re-reads company settings after a settings call changed them. */
  async reloadSettings(): Promise<void> {
    const next = new Map<number, Map<number, CompanyAlarmSetting>>();
    for (const s of await this.storage.alarms.allSettings()) {
      let m = next.get(s.companyId);
      if (!m) next.set(s.companyId, (m = new Map()));
      m.set(s.alarmType, s);
    }
    this.settings = next;
    this.levelSwitches = await this.storage.alarms.allLevelSwitches();
  }

  /**
   * The setting in force for a company's alarm type: the nearest company on the path from it up to
   * its root with a row for the type decides; its level applies while that company's level switch
   * is on. Without any row: the defaults (enabled, manual handling, catalogue level, no linkage).
   */
  effectiveSetting(companyPath: string, code: number): EffectiveSetting {
    const base = defaultPolicy(code);
    const ids = companyPath.split('/').filter(Boolean).map(Number).reverse();
    for (const companyId of ids) {
      const s = this.settings.get(companyId)?.get(code);
      if (!s) continue;
      const levels = this.levelSwitches.get(companyId) ?? true;
      return {
        enabled: s.enabled, autoHandle: s.autoHandle, riskLevel: levels && s.riskLevel !== null ? s.riskLevel : base.riskLevel,
        popup: s.popup, voice: s.voice, tts: s.tts, fromCompanyId: companyId,
      };
    }
    return { ...base, popup: false, voice: false, tts: false, fromCompanyId: null };
  }

  /** The stored row a company inherits for a type: its nearest ancestor's (or its own), else undefined. */
  inheritedRow(companyPath: string, code: number): CompanyAlarmSetting | undefined {
    for (const companyId of companyPath.split('/').filter(Boolean).map(Number).reverse()) {
      const s = this.settings.get(companyId)?.get(code);
      if (s) return s;
    }
    return undefined;
  }

  policy(vehicleId: number, code: number): AlarmPolicy {
    const slot = this.store.slotOf(vehicleId);
    return slot < 0 ? defaultPolicy(code) : this.effectiveSetting(this.store.companyPathOf(slot), code);
  }

  /** The gateway's live-report hook. */
  onReport(vehicleId: number, loc: LocationReport, edition: Edition): void {
    this.offlineAtStart.delete(vehicleId);
    const events = this.engine.report({
      vehicleId, time: loc.time, alarmWord: loc.alarm, status: loc.status, edition, speed: loc.speed, lng: loc.lng, lat: loc.lat,
      adas: loc.adas, dms: loc.dms,
    });
    if (events.length > 0) this.apply(events);
  }

  /** The platform rules over the store: offline after 3 minutes without contact (ends on contact). */
  sweep(now: number = this.store.clock()): void {
    const c = this.store.columns;
    const code = PLATFORM_RULES.offline;
    const events: AlarmEvent[] = [];
    for (let slot = 0; slot < this.store.count; slot++) {
      const contact = c.lastContact[slot]!;
      if (!Number.isFinite(contact)) continue;
      const vehicleId = c.vehicleId[slot]!;
      const offline = now - contact > OFFLINE_AFTER_MS;
      if (!offline) {
        this.offlineAtStart.delete(vehicleId);
        if (this.engine.isActive(vehicleId, code)) events.push(...this.engine.platformEnd(vehicleId, code, contact));
      } else if (!this.offlineAtStart.has(vehicleId) && !this.engine.isActive(vehicleId, code)) {
        const lng = c.lng[slot]!, lat = c.lat[slot]!;
        events.push(...this.engine.platformStart(vehicleId, code, {
          time: contact + OFFLINE_AFTER_MS, lng: Number.isFinite(lng) ? lng : 0, lat: Number.isFinite(lat) ? lat : 0, speed: 0,
        }));
      }
    }
    const forgotten = this.engine.prune(now);
    if (events.length > 0) this.apply(events);
    // After the queued events: a key is dropped only once nothing queued can still name it.
    if (forgotten.length > 0) this.chain = this.chain.then(() => forgotten.forEach((k) => this.ids.delete(k)));
  }

  private apply(events: readonly AlarmEvent[]): void {
    this.chain = this.chain.then(async () => {
      for (const e of events) {
        try {
          await this.store1(e);
        } catch (err) {
          this.stats.failed++;
          this.options.log?.warn({ err, event: e }, 'alarm event could not be stored');
        }
      }
    });
  }

  private async store1(e: AlarmEvent): Promise<void> {
    const alarms = this.storage.alarms;
    if (e.kind === 'start') {
      const id = this.insert(e);
      this.ids.set(e.key, id);
      const stored = await id;
      if (stored === undefined) return;
      this.stats.raised++;
      const record = await alarms.get(ALL_COMPANIES, stored);
      if (record) this.publisher.publishAlarm(record.companyPath, alarmPushData(record));
      return;
    }
    const id = await this.ids.get(e.key);
    if (id === undefined) return;
    if (e.kind === 'merge') {
      this.stats.merged++;
      await alarms.merge(id, e.time, e.count);
    } else {
      this.stats.ended++;
      await alarms.end(id, e.time);
    }
  }

  private async insert(e: Extract<AlarmEvent, { kind: 'start' }>): Promise<number | undefined> {
    const label = (await this.storage.terminals.labels(ALL_COMPANIES, [e.vehicleId])).get(e.vehicleId);
    if (!label) return undefined;
    return this.storage.alarms.insert({
      vehicleId: e.vehicleId, deviceNo: label.deviceNo, companyId: label.companyId, alarmType: e.code, source: e.source, startTime: e.time,
      lng: e.lng, lat: e.lat, speed: Math.round(e.speed * 10) / 10, riskLevel: e.riskLevel, dealStatus: e.dealStatus, createTime: this.store.clock(),
    });
  }
}
