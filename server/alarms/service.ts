/**
 * The server side of alarm generation: feeds the pure engine (domain/alarms/engine.ts) from the
 * gateway's live reports and a periodic offline sweep of the latest-state store, applies company
 * settings, stores what the engine decides and pushes every NEW alarm to the consoles of its company
 * subtree. Merges and ends only update the stored row (the console sees the count on refresh).
 * The type's linkage travels on the push (`popup`, `voice`: the console obeys them) and, when TTS is
 * linked, the service speaks the alarm in the cab through the gateway (0x8300) and logs the answer.
 *
 * Events are stored in arrival order through one promise chain, in batches (one transaction each),
 * so a merge never overtakes the insert of its alarm. Blind-area re-uploads never get here (the
 * gateway notifies live reports only).
 */
import { ALARM_TYPES, alarmName } from '../../domain/alarms/catalogue.ts';
import { AlarmEngine, DEFAULT_SPEED_RULE, defaultPolicy, type AlarmEvent, type AlarmPlace, type AlarmPolicy, type SpeedRule } from '../../domain/alarms/engine.ts';
import { defaultLinkage, linkageForLevel, linkageSpeech, type Linkage } from '../../domain/alarms/linkage.ts';
import { ALARM_FLAGS, ALARM_WINDOW_MS, PLATFORM_RULES, type Edition, type RiskLevel } from '../../domain/alarms/sources.ts';
import { OFFLINE_AFTER_MS } from '../../domain/vehicle/state.ts';
import type { AlarmRecord, AlarmRepository, CompanyAlarmSetting, CompanyAlarmSettingPatch, NewAlarm, StoredAlarmState } from '../db/alarm-types.ts';
import type { Storage, VehicleLabel } from '../db/repositories.ts';
import { ALL_COMPANIES } from '../db/scope.ts';
import type { LocationReport } from '../gateway/jt808/index.ts';
import type { LiveStore } from '../live/store.ts';
import { FenceWatch, fenceNote, type FenceSource } from './fence-watch.ts';
import { RouteWatch, routeNote, type RouteSource } from './route-watch.ts';
import type { FenceTransition } from '../../domain/fence/rules.ts';
import { videoAlarmWord } from '../../domain/alarms/video.ts';

/** What the service needs from the push hub (server/push/hub.ts). */
export interface AlarmPublisher {
  publishAlarm(companyPath: string, alarm: Readonly<Record<string, unknown>>): void;
}

/** The platform alarm rules a node keeps in memory and re-reads when a call changes them. */
export type AlarmRules = 'fences' | 'routes' | 'settings';

export interface AlarmServiceOptions {
  /** Offline sweep period (real time). @default 10 s */
  readonly sweepMs?: number;
  /**
   * Whether this node decides the platform's offline alarm now (issue 20: in a cluster, one node whose store sees
   * every terminal: `app.sweepLeadership`, server/cluster-jobs.md). The sweep's other parts (route key-point windows of
   * this node's terminals, pruning) run regardless. @default always
   */
  readonly offlineWhen?: () => boolean;
  /** The platform overspeed rule for every vehicle; null: off. @default DEFAULT_SPEED_RULE (100 km/h for 10 s) */
  readonly speedRule?: SpeedRule | null;
  readonly log?: { warn(obj: object, msg: string): void };
  /**
   * Speaks a text in a vehicle's cab (0x8300 with the TTS flag) and answers the terminal's result:
   * 0x0001 result, -1 offline, -2 no reply (the alarm log's terminalResult). Without it, TTS linkage is off.
   */
  readonly speak?: (vehicleId: number, text: string, alarmId: number) => Promise<number>;
  /** The fences the platform evaluates (fence-watch.ts); without it, no fence alarm is raised. */
  readonly fences?: FenceSource;
  /** The routes the platform evaluates (route-watch.ts); without it, no route alarm is raised. */
  readonly routes?: RouteSource;
}

/**
 * The spec §3 alarm push message body (`commandBody.data`), plus our risk level, count, source and
 * the type's linkage for the alarm's company (`popup`, `voice`).
 */
export function alarmPushData(a: AlarmRecord, linkage: Pick<Linkage, 'popup' | 'voice'>): Record<string, unknown> {
  return {
    id: a.id, alarmType: a.alarmType, alarmName: alarmName(a.alarmType, 'zh'), channelId: a.channelId, companyId: a.companyId,
    companyName: a.companyName, createTime: a.createTime, dealUserId: a.dealUserId, dealUsername: a.dealUsername, dealStatus: a.dealStatus,
    dealContent: a.dealContent, dealTime: a.dealTime, dealType: a.dealType, devidno: a.deviceNo, gpsTime: a.startTime, lng: a.lng, lat: a.lat,
    speed: a.speed, vehiidno: a.vehiidno, vehicleId: a.vehicleId, riskLevel: a.riskLevel, count: a.count, source: a.source,
    popup: linkage.popup, voice: linkage.voice,
    // The fence of a fence alarm: the live push and the catch-up carry it alike.
    ...(a.content ? { content: a.content } : {}),
  };
}

export interface EffectiveSetting extends AlarmPolicy, Linkage {
  /** The company whose row decided; null: the defaults. */
  readonly fromCompanyId: number | null;
}

/**
 * The most events one batch stores and publishes before the service yields to the event loop (issue 16):
 * in a storm one unbounded batch built a multi-MB corked write per console and held the loop (gateway
 * reads, push ticks, socket drains) for its whole length. 500 alarms ≈ 300 KB per console per write.
 */
export const DRAIN_BATCH_MAX = 500;

/** How far back a start looks for alarms still held (a bit held longer than this is not followed). */
const RESTORE_HELD_MS = 7 * 86_400_000;

export class AlarmService {
  readonly engine: AlarmEngine;
  /** `batches`: stored batches (one transaction each); alarms per batch is what a storm's commits amortise over (bench/alarm-storm). */
  readonly stats = { raised: 0, merged: 0, ended: 0, failed: 0, spoken: 0, batches: 0 };
  /** companyId → alarmType → setting. */
  private settings = new Map<number, Map<number, CompanyAlarmSetting>>();
  private levelSwitches = new Map<number, boolean>();
  /** companyPath → alarmType → setting in force (cleared by `reloadSettings`). */
  private readonly policies = new Map<string, Map<number, EffectiveSetting>>();
  /** Engine key → stored alarm id. */
  private readonly ids = new Map<number, Promise<number | undefined>>();
  /** Vehicles whose alarm state is being read back (`adoptVehicle`), with their reports waiting meanwhile. */
  private readonly adopting = new Map<number, Parameters<AlarmService['onReport']>[]>();
  private chain: Promise<void> = Promise.resolve();
  /** Events waiting for the next batch (see `apply`). */
  private pending: AlarmEvent[] = [];
  /**
   * Events queued / whose batch finished (stored, or failed and logged), for the gateway's acks
   * (issue 20): a report's 0x8001 waits until the alarm rows it raised are committed
   * (server/live/history.ts `addBarrier`; wired by server/ops/routes.ts).
   */
  readonly commits: { queued: number; settled: number; onSettled: (() => void) | undefined } = { queued: 0, settled: 0, onSettled: undefined };
  /** Vehicles already offline when the server started: no alarm until they come back and leave again. */
  private readonly offlineAtStart = new Set<number>();
  private timer: ReturnType<typeof setInterval> | undefined;
  /** The platform's fence evaluation (loaded by `init`, reloaded by `fencesChanged`); none without the option. */
  fenceWatch: FenceWatch | undefined;
  /** The platform's route evaluation (loaded by `init`, reloaded by `routesChanged`); none without the option. */
  routeWatch: RouteWatch | undefined;
  /** The fence an event came from (stored on the alarm's log, carried by its push as `content`). */
  private readonly notes = new WeakMap<AlarmEvent, string>();
  /**
   * Scale-out (issue 20, bus/events.ts): told of each fence, route or settings change this node's calls
   * made, so the gateway nodes that evaluate the reports re-read them too. Unset on a single node.
   */
  rulesRelay: ((what: AlarmRules, ids?: readonly number[]) => void) | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly store: LiveStore,
    private readonly publisher: AlarmPublisher,
    private readonly options: AlarmServiceOptions = {},
  ) {
    const speedRule = options.speedRule === undefined ? DEFAULT_SPEED_RULE : (options.speedRule ?? undefined);
    this.engine = new AlarmEngine((vehicleId, code) => this.policy(vehicleId, code), ALARM_WINDOW_MS, () => speedRule);
  }

  /** Syncs the type catalogue, loads settings, primes the engine with the stored alarm words. */
  async init(): Promise<void> {
    await this.storage.alarms.syncTypes(ALARM_TYPES);
    await this.reloadSettings();
    this.fencesChanged();
    this.routesChanged();
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
      if (slot >= 0) this.restoreAlarm(a, c.alarmFlags[slot]!, now);
    }
  }

  /** Puts a stored alarm back into the engine when it is held (by `alarmWord` for a terminal's state bit) or can still merge. */
  private restoreAlarm(a: StoredAlarmState, alarmWord: number, now: number): void {
    let active = false;
    if (a.endTime === null && a.source === 'platform') active = true;
    if (a.endTime === null && a.source === 'bit') {
      const rule = ALARM_FLAGS.find((r) => r.code === a.alarmType && r.kind === 'state');
      active = rule !== undefined && ((alarmWord >>> rule.bit) & 1) === 1;
    }
    if (!active && now - a.lastTime > ALARM_WINDOW_MS) return;
    const key = this.engine.restore(a.vehicleId, a.alarmType, { lastTime: a.lastTime, count: a.count, active });
    this.ids.set(key, Promise.resolve(a.id));
  }

  /**
   * Issue 20, several gateway nodes on one database (wired in services/safe on a shared database only: one node's own
   * memory is the latest): the vehicle's terminal authenticated on this node, and may have reported through another
   * gateway node since this one last saw it (a failover, a balancer's choice). Its alarm state is read back from the
   * database (the alarms the other node stored, the alarm word of its latest stored position), replacing this
   * engine's, so a condition held there merges into the same alarm here and ends it, instead of a second alarm.
   * Its reports arriving meanwhile wait and are evaluated after, in order.
   */
  async adoptVehicle(vehicleId: number): Promise<void> {
    if (this.adopting.has(vehicleId)) return;
    const waiting: Parameters<AlarmService['onReport']>[] = [];
    this.adopting.set(vehicleId, waiting);
    // The reports waiting are acknowledged only once the alarms they raise are stored (the history's commit
    // barrier, server/live/history.ts): one item that settles after those alarms' batch.
    this.commits.queued++;
    try {
      // This node's own alarms of the vehicle stored first: read back below, not lost with the engine's keys.
      await this.idle();
      const now = this.store.clock();
      const [latest] = await this.storage.positions.latestOf([vehicleId]);
      const stored = await this.storage.alarms.recentOf(vehicleId, now - RESTORE_HELD_MS, now - ALARM_WINDOW_MS);
      for (const key of this.engine.forgetVehicle(vehicleId)) this.ids.delete(key);
      const slot = this.store.slotOf(vehicleId);
      const word = latest?.alarm ?? (slot >= 0 ? this.store.columns.alarmFlags[slot]! : 0);
      this.engine.prime(vehicleId, word);
      for (const a of stored) this.restoreAlarm(a, word, now);
    } catch (err) {
      this.options.log?.warn({ err, vehicleId }, 'alarm state of a vehicle from another node could not be read; its reports are evaluated on what this node holds');
    } finally {
      this.adopting.delete(vehicleId);
      for (const args of waiting) this.onReport(...args);
      void this.idle().finally(() => {
        this.commits.settled++;
        this.commits.onSettled?.();
      });
    }
  }

  /**
   * Issue 20: this node has just become the one that decides offline alarms (`offlineWhen`). The offline alarms
   * another node opened and left open are taken over (ended here when their vehicle reports again, never raised a
   * second time); one this engine already holds is kept.
   */
  async adoptOpenOffline(now: number = this.store.clock()): Promise<number> {
    const code = PLATFORM_RULES.offline;
    let adopted = 0;
    for (const a of await this.storage.alarms.recent(now - RESTORE_HELD_MS, now - ALARM_WINDOW_MS)) {
      if (a.alarmType !== code || a.endTime !== null || this.engine.isActive(a.vehicleId, code) || this.store.slotOf(a.vehicleId) < 0) continue;
      const key = this.engine.restore(a.vehicleId, code, { lastTime: a.lastTime, count: a.count, active: true });
      this.ids.set(key, Promise.resolve(a.id));
      adopted++;
    }
    return adopted;
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
  async idle(): Promise<void> {
    // The chain may grow while it runs (a drain yields between batches, events keep coming).
    for (let chain = this.chain; ; chain = this.chain) {
      await chain;
      if (chain === this.chain) return;
    }
  }

  /** Re-reads the fences after a fence or its vehicle bindings changed (the fence API calls it, naming the fences it wrote). */
  fencesChanged(ids?: readonly number[]): void {
    this.rulesRelay?.('fences', ids);
    if (!this.options.fences) return;
    if (this.fenceWatch === undefined) {
      this.fenceWatch = new FenceWatch(this.options.fences);
      return;
    }
    const now = this.store.clock();
    const events = this.fenceEvents(ids === undefined ? this.fenceWatch.reload(now) : this.fenceWatch.changed(ids, now));
    if (events.length > 0) this.apply(events);
  }

  /**
   * Fence transitions as engine events: an occurrence (enter, leave) is an alarm that starts and
   * ends at once (so a restart never takes it for a held platform alarm), a held condition starts
   * or merges and ends when the last fence lets go.
   */
  private fenceEvents(transitions: readonly (Pick<FenceTransition, 'phase' | 'code' | 'vehicleId' | 'time' | 'lng' | 'lat' | 'speed'> & { fence?: FenceTransition['fence']; note?: string })[]): AlarmEvent[] {
    const events: AlarmEvent[] = [];
    for (const t of transitions) {
      if (t.phase === 'end') {
        events.push(...this.engine.platformEnd(t.vehicleId, t.code, t.time));
        continue;
      }
      const started = this.engine.platformStart(t.vehicleId, t.code, { time: t.time, lng: t.lng, lat: t.lat, speed: t.speed });
      for (const e of started) this.notes.set(e, t.note ?? fenceNote({ fence: t.fence! }));
      events.push(...started);
      if (t.phase === 'occur') events.push(...this.engine.platformEnd(t.vehicleId, t.code, t.time));
    }
    return events;
  }

  /** Re-reads the routes after a route or its vehicle bindings changed (the route API calls it). */
  routesChanged(): void {
    this.rulesRelay?.('routes');
    if (!this.options.routes) return;
    if (this.routeWatch === undefined) {
      this.routeWatch = new RouteWatch(this.options.routes);
      return;
    }
    const events = this.fenceEvents(this.routeWatch.reload(this.store.clock()).map((t) => ({ ...t, note: routeNote(t) })));
    if (events.length > 0) this.apply(events);
  }

  /** Re-reads company settings after a settings call changed them. */
  async reloadSettings(): Promise<void> {
    this.rulesRelay?.('settings');
    const next = new Map<number, Map<number, CompanyAlarmSetting>>();
    for (const s of await this.storage.alarms.allSettings()) {
      let m = next.get(s.companyId);
      if (!m) next.set(s.companyId, (m = new Map()));
      m.set(s.alarmType, s);
    }
    this.settings = next;
    this.levelSwitches = await this.storage.alarms.allLevelSwitches();
    this.policies.clear();
  }

  /**
   * The setting in force for a company's alarm type: the nearest company on the path from it up to
   * its root with a row for the type decides; its level applies while that company's level switch
   * is on. Without any row: the defaults (enabled, manual handling, catalogue level, `defaultLinkage`).
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
    return { ...base, ...defaultLinkage(code), fromCompanyId: null };
  }

  /** The stored row a company inherits for a type: its nearest ancestor's (or its own), else undefined. */
  inheritedRow(companyPath: string, code: number): CompanyAlarmSetting | undefined {
    for (const companyId of companyPath.split('/').filter(Boolean).map(Number).reverse()) {
      const s = this.settings.get(companyId)?.get(code);
      if (s) return s;
    }
    return undefined;
  }

  /**
   * What a company's first own row for a type starts from (before the patch): the inherited row, else
   * the default linkage (of `level` when the row is made by setting one), so switching one field never
   * silently switches the pop-up or tone off.
   */
  rowBase(companyPath: string, code: number, level?: RiskLevel | null): CompanyAlarmSettingPatch {
    return this.inheritedRow(companyPath, code) ?? (level ? linkageForLevel(level) : defaultLinkage(code));
  }

  policy(vehicleId: number, code: number): AlarmPolicy {
    const slot = this.store.slotOf(vehicleId);
    if (slot < 0) return defaultPolicy(code);
    return this.settingOf(this.store.companyPathOf(slot), code);
  }

  /** The pop-up and tone linkage in force for a company and type (a reconnecting console's catch-up uses it). */
  linkageOf(companyPath: string, code: number): Linkage {
    return this.settingOf(companyPath, code);
  }

  /** `effectiveSetting`, cached per company path and type until the settings change (asked for every occurrence). */
  private settingOf(path: string, code: number): EffectiveSetting {
    let byCode = this.policies.get(path);
    if (byCode === undefined) this.policies.set(path, (byCode = new Map()));
    let p = byCode.get(code);
    if (p === undefined) byCode.set(code, (p = this.effectiveSetting(path, code)));
    return p;
  }

  /** The gateway's live-report hook. */
  onReport(vehicleId: number, loc: LocationReport, edition: Edition): void {
    const waiting = this.adopting.get(vehicleId);
    if (waiting) {
      waiting.push([vehicleId, loc, edition]);
      return;
    }
    this.offlineAtStart.delete(vehicleId);
    let events = this.engine.report({
      vehicleId, time: loc.time, alarmWord: loc.alarm, status: loc.status, edition, speed: loc.speed, lng: loc.lng, lat: loc.lat,
      adas: loc.adas, dms: loc.dms, videoAlarm: videoAlarmWord(loc.extras),
    });
    if (this.routeWatch !== undefined) {
      const { transitions, stale } = this.routeWatch.report(vehicleId, loc);
      if (transitions.length > 0) events = [...events, ...this.fenceEvents(transitions.map((t) => ({ ...t, note: routeNote(t) })))];
      for (const code of stale) if (this.engine.isActive(vehicleId, code)) events = [...events, ...this.engine.platformEnd(vehicleId, code, loc.time)];
    }
    if (this.fenceWatch !== undefined) {
      const { transitions, stale } = this.fenceWatch.report(vehicleId, loc);
      if (transitions.length > 0 || stale.length > 0) {
        const all = [...events, ...this.fenceEvents(transitions)];
        // First position since the start: a held fence alarm restored from the database that no fence holds now ends.
        for (const code of stale) if (this.engine.isActive(vehicleId, code)) all.push(...this.engine.platformEnd(vehicleId, code, loc.time));
        if (all.length > 0) this.apply(all);
        return;
      }
    }
    if (events.length > 0) this.apply(events);
  }

  /**
   * A platform rule of another service (cargo box, ...) found its condition: starts the alarm (held
   * until `platformEnd`), or nothing while it is already held.
   */
  platformStart(vehicleId: number, code: number, place: AlarmPlace): void {
    if (this.engine.isActive(vehicleId, code)) return;
    const events = this.engine.platformStart(vehicleId, code, place);
    if (events.length > 0) this.apply(events);
  }

  /** That rule's condition cleared. */
  platformEnd(vehicleId: number, code: number, time: number): void {
    if (!this.engine.isActive(vehicleId, code)) return;
    const events = this.engine.platformEnd(vehicleId, code, time);
    if (events.length > 0) this.apply(events);
  }

  /** The platform rules over the store: offline after 3 minutes without contact (ends on contact). */
  sweep(now: number = this.store.clock()): void {
    const c = this.store.columns;
    const code = PLATFORM_RULES.offline;
    const events: AlarmEvent[] = [];
    const offlineHere = this.options.offlineWhen?.() ?? true;
    for (let slot = 0; offlineHere && slot < this.store.count; slot++) {
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
    // Route key points whose window closed while their vehicle was silent (issue 17): a heap peek when none is due.
    const keys = this.routeWatch?.sweep(now) ?? [];
    if (keys.length > 0) events.push(...this.fenceEvents(keys.map((t) => ({ ...t, note: routeNote(t) }))));
    const forgotten = this.engine.prune(now);
    if (events.length > 0) this.apply(events);
    // After the queued events: a key is dropped only once nothing queued can still name it.
    if (forgotten.length > 0) this.chain = this.chain.then(() => forgotten.forEach((k) => this.ids.delete(k)));
  }

  /**
   * Queues events; the chain stores everything queued by then as one batch (one label read, one
   * transaction). The batch waits for the end of the event loop's current I/O phase (setImmediate),
   * so a storm's reports from many sockets share one commit, while a lone alarm waits no timer.
   * (Gathering 5 ms in storms cut commit time by a third but did not improve the latency figures.)
   * A batch holds at most DRAIN_BATCH_MAX events: `drain` stores and publishes them, yields one
   * setImmediate (the loop serves sockets and push ticks), and goes on with what is pending.
   */
  private apply(events: readonly AlarmEvent[]): void {
    const idle = this.pending.length === 0;
    for (const e of events) this.pending.push(e);
    this.commits.queued += events.length;
    if (idle) this.chain = this.chain.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(() => this.drain());
  }

  private async drain(): Promise<void> {
    for (;;) {
      const batch = this.pending.length <= DRAIN_BATCH_MAX ? this.pending : this.pending.slice(0, DRAIN_BATCH_MAX);
      this.pending = batch === this.pending ? [] : this.pending.slice(DRAIN_BATCH_MAX);
      if (batch.length > 0) {
        try {
          await this.drainBatch(batch);
        } finally {
          this.commits.settled += batch.length;
          this.commits.onSettled?.();
        }
      }
      if (this.pending.length === 0) return;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Stores one batch in one transaction, then publishes its new alarms. */
  private async drainBatch(batch: readonly AlarmEvent[]): Promise<void> {
    this.stats.batches++;
    const starts = new Set<number>();
    for (const e of batch) if (e.kind === 'start') starts.add(e.vehicleId);
    let labels = new Map<number, VehicleLabel>();
    const created: { record: AlarmRecord; note: string | undefined }[] = [];
    try {
      if (starts.size > 0) labels = await this.storage.terminals.labels(ALL_COMPANIES, [...starts]);
      // One transaction; a failing event is counted and skipped, the others still commit.
      await this.storage.transaction(async (tx) => {
        for (const e of batch) {
          try {
            await this.store1(tx.alarms, e, labels, created);
          } catch (err) {
            this.stats.failed++;
            this.options.log?.warn({ err, event: e }, 'alarm event could not be stored');
          }
        }
      });
    } catch (err) {
      this.stats.failed += batch.length;
      this.options.log?.warn({ err, events: batch.length }, 'alarm events could not be stored');
      return;
    }
    // Pushed after the commit: a console that opens the alarm finds it.
    for (const { record, note } of created) {
      const linkage = this.settingOf(record.companyPath, record.alarmType);
      const data = alarmPushData(record, linkage);
      this.publisher.publishAlarm(record.companyPath, note === undefined ? data : { ...data, content: note });
      if (linkage.tts && this.options.speak) this.speakLinked(record);
    }
  }

  /**
   * The linked TTS of a new alarm: spoken in the cab, the terminal's answer logged on the alarm under
   * the platform (userId null). Runs beside the chain: a terminal that does not answer (5 s) never
   * holds up the next batch of alarms.
   */
  private speakLinked(record: AlarmRecord): void {
    const text = linkageSpeech(record.alarmType);
    this.stats.spoken++;
    void this.options.speak!(record.vehicleId, text, record.id)
      .then((terminalResult) => this.storage.alarms.addLog({
        alarmId: record.id, userId: null, username: '', action: 'linkageTts', dealType: null, content: text, terminalResult, resultText: '',
        createTime: this.store.clock(),
      }))
      .catch((err: unknown) => this.options.log?.warn({ err, alarmId: record.id }, 'linked TTS could not be sent or logged'));
  }

  private async store1(alarms: AlarmRepository, e: AlarmEvent, labels: ReadonlyMap<number, VehicleLabel>, created: { record: AlarmRecord; note: string | undefined }[]): Promise<void> {
    const note = this.notes.get(e);
    if (e.kind === 'start') {
      const label = labels.get(e.vehicleId);
      const record = label ? await this.insert(alarms, e, label) : undefined;
      this.ids.set(e.key, Promise.resolve(record?.id));
      if (record === undefined) return;
      this.stats.raised++;
      if (note !== undefined) await this.logNote(alarms, record.id, note);
      created.push({ record, note });
      return;
    }
    const id = await this.ids.get(e.key);
    if (id === undefined) return;
    if (e.kind === 'merge') {
      this.stats.merged++;
      await alarms.merge(id, e.time, e.count);
      if (note !== undefined) await this.logNote(alarms, id, note); // a repeat from another fence names it too
    } else {
      this.stats.ended++;
      await alarms.end(id, e.time);
    }
  }

  /** The platform's note on an alarm (the fence it came from), in the alarm's log under the platform. */
  private async logNote(alarms: AlarmRepository, alarmId: number, content: string): Promise<void> {
    await alarms.addLog({
      alarmId, userId: null, username: '', action: 'fence', dealType: null, content, terminalResult: null, resultText: '', createTime: this.store.clock(),
    });
  }

  /**
   * Stores a new alarm and answers it as a read would (columns not inserted hold the table's
   * defaults), so a storm's push needs no read-back; the company path is the live store's (the scope
   * positions are pushed by), else the database's.
   */
  private async insert(alarms: AlarmRepository, e: Extract<AlarmEvent, { kind: 'start' }>, label: VehicleLabel): Promise<AlarmRecord | undefined> {
    const row: NewAlarm = {
      vehicleId: e.vehicleId, deviceNo: label.deviceNo ?? '', companyId: label.companyId, alarmType: e.code, source: e.source, startTime: e.time,
      lng: e.lng, lat: e.lat, speed: Math.round(e.speed * 10) / 10, riskLevel: e.riskLevel, dealStatus: e.dealStatus, createTime: this.store.clock(),
    };
    const id = await alarms.insert(row);
    const slot = this.store.slotOf(e.vehicleId);
    const companyPath = slot < 0 || this.store.columns.companyId[slot] !== label.companyId ? '' : this.store.companyPathOf(slot);
    if (companyPath === '') return alarms.get(ALL_COMPANIES, id);
    // Every field spelled out, no `...row`: a spread followed by more fields gave each record a map of its own
    // (V8 copied the descriptor array at each added field, ≈ 7 KB per alarm). In a storm that garbage lived
    // long enough to be promoted and set off a full GC every ~12 s (issue 16, bench/alarm-storm).
    return {
      id, vehicleId: row.vehicleId, vehiidno: label.vehiidno, deviceNo: row.deviceNo, companyId: row.companyId, companyName: label.companyName,
      companyPath, alarmType: row.alarmType, source: row.source, channelId: 0, startTime: row.startTime, endTime: null, lastTime: row.startTime,
      count: 1, lng: row.lng, lat: row.lat, speed: row.speed, riskLevel: row.riskLevel, dealStatus: row.dealStatus, dealType: null,
      dealContent: '', dealUserId: null, dealUsername: '', dealTime: null, typical: false, createTime: row.createTime,
    };
  }
}
