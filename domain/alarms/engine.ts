/**
 * Alarm generation: a pure state machine fed one vehicle report at a time (or a platform rule's
 * verdict) that answers what happened to the vehicle's alarms: `start` (a new alarm), `merge` (a
 * repeat inside the window: count + 1, last time moved) or `end` (a held condition cleared).
 *
 * Rules (issue 5, spec §9):
 * - 0x0200 alarm bits are edge-triggered (`alarmFlagEdges`): a `state` bit starts on its rise and
 *   ends on its fall; a `pulse` bit is one occurrence per rise and never ends.
 * - An ADAS 0x64 / DMS 0x65 item is an occurrence: flag 1 starts (held until its flag 2), flag 0 is
 *   an instant event, flag 2 ends the open alarm of that type.
 * - A repeat of one type on one vehicle within `windowMs` of the previous occurrence (or while the
 *   alarm is still held) merges into that alarm. The window runs between occurrences, not from the
 *   end, so "rises 31 minutes apart" are always two alarms.
 * - Company policy decides per type: a disabled type raises nothing, an auto-handle type starts as
 *   automatically processed, the risk level comes from the policy.
 * - Platform overspeed (12003): reported speed above the vehicle's limit (`SpeedRule`) without a
 *   break for at least the rule's duration starts a held alarm dated from the first report above
 *   the limit; the first report at or below the limit ends it. A single spike never raises it.
 * The caller feeds live reports only, in time order (blind-area re-uploads never reach the engine).
 */
import {
  ALARM_WINDOW_MS, ADAS_TYPES, alarmFlagEdges, defaultRiskLevel, DMS_TYPES, PLATFORM_RULES, safetyItemPhase, VIDEO_ALARM_BITS, type Edition, type RiskLevel,
} from './sources.ts';

/** Where an alarm came from. */
export const ALARM_SOURCES = ['bit', 'adas', 'dms', 'platform'] as const;
export type AlarmSource = (typeof ALARM_SOURCES)[number];

/**
 * Processing state (`dealStatus`, spec §4 "not shown", values ours). "Typical" is a separate flag,
 * so a typical alarm keeps its processing state.
 */
export const DealStatus = { Unprocessed: 0, Auto: 1, Manual: 2, Invalid: 3 } as const;
export type DealStatus = (typeof DealStatus)[keyof typeof DealStatus];
export const DEAL_STATUSES: readonly DealStatus[] = [0, 1, 2, 3];
/**
 * The processing states a person's step may change, by the state it sets. Manual processing (and
 * confirmation) decides an alarm still unprocessed or only auto-processed; marking it invalid may
 * also correct a manual decision (a false alarm found on review). Anything else is already decided:
 * of two officers handling one alarm at once, the second is told so instead of overwriting the first.
 */
export function decidableFrom(target: DealStatus): readonly DealStatus[] {
  if (target === DealStatus.Invalid) return [DealStatus.Unprocessed, DealStatus.Auto, DealStatus.Manual];
  return [DealStatus.Unprocessed, DealStatus.Auto];
}

/** Handling action of a manual processing (`dealType`, values ours). */
export const DealType = { RiskRelease: 1, RiskTracking: 2, RiskEscalation: 3, NoRisk: 4 } as const;
export type DealType = (typeof DealType)[keyof typeof DealType];
export const DEAL_TYPES: readonly DealType[] = [1, 2, 3, 4];

/** What a company decided for one alarm type on one vehicle. */
export interface AlarmPolicy {
  readonly enabled: boolean;
  readonly autoHandle: boolean;
  readonly riskLevel: RiskLevel;
}

/** The policy without company settings: enabled, handled by people, the catalogue's default level. */
export function defaultPolicy(code: number): AlarmPolicy {
  return { enabled: true, autoHandle: false, riskLevel: defaultRiskLevel(code) ?? 'ordinary' };
}

export type PolicyLookup = (vehicleId: number, code: number) => AlarmPolicy;

/** The platform overspeed rule for one vehicle: speed strictly above `limitKmh` for `minDurationMs`. */
export interface SpeedRule {
  readonly limitKmh: number;
  readonly minDurationMs: number;
}

/** Without a setting: 100 km/h (the expressway limit for most vehicle classes) held for 10 s. */
export const DEFAULT_SPEED_RULE: SpeedRule = Object.freeze({ limitKmh: 100, minDurationMs: 10_000 });

/** The rule in force for a vehicle; undefined: the vehicle has no platform speed limit. */
export type SpeedRuleLookup = (vehicleId: number) => SpeedRule | undefined;

/** An ADAS/DMS item as the codec decodes it (only what generation needs). */
export interface SafetyItem {
  readonly type: number;
  /** 0 instant, 1 start, 2 end. */
  readonly flag: number;
}

/** One live report of a vehicle. */
export interface AlarmReport {
  readonly vehicleId: number;
  /** GPS time, epoch ms. */
  readonly time: number;
  readonly alarmWord: number;
  readonly status: number;
  readonly edition: Edition;
  readonly speed: number;
  readonly lng: number;
  readonly lat: number;
  readonly adas?: SafetyItem | undefined;
  readonly dms?: SafetyItem | undefined;
  /** JT/T 1078 video alarm item 0x14 (DWORD) when the report carried it (domain/alarms/video.ts); absent: unchanged. */
  readonly videoAlarm?: number | undefined;
}

/** Where and when an occurrence happened. */
export interface AlarmPlace {
  readonly time: number;
  readonly lng: number;
  readonly lat: number;
  readonly speed: number;
}

export type AlarmEvent =
  | {
    readonly kind: 'start';
    /** Engine handle of the alarm; later merge/end events name it. */
    readonly key: number;
    readonly vehicleId: number;
    readonly code: number;
    readonly source: AlarmSource;
    readonly time: number;
    readonly lng: number;
    readonly lat: number;
    readonly speed: number;
    readonly riskLevel: RiskLevel;
    readonly dealStatus: DealStatus;
  }
  | { readonly kind: 'merge'; readonly key: number; readonly vehicleId: number; readonly code: number; readonly time: number; readonly count: number }
  | { readonly kind: 'end'; readonly key: number; readonly vehicleId: number; readonly code: number; readonly time: number };

const NO_EVENTS: readonly AlarmEvent[] = Object.freeze([]);

interface OpenAlarm {
  readonly key: number;
  lastTime: number;
  count: number;
  /** Held (a state bit still set, an item started and not ended, a platform condition ongoing). */
  active: boolean;
}

export class AlarmEngine {
  private nextKey = 1;
  private readonly words = new Map<number, number>();
  /** The last 0x14 video alarm word per vehicle (issue 18: storage and camera faults); its bits are held states. */
  private readonly videoWords = new Map<number, number>();
  private readonly open = new Map<number, Map<number, OpenAlarm>>();
  /** Keys of alarms replaced by a new one of their type since the last prune. */
  private replaced: number[] = [];
  /** Vehicles currently above their speed limit: where the run started, whether it raised already. */
  private readonly speeding = new Map<number, { readonly place: AlarmPlace; raised: boolean }>();

  constructor(
    private readonly policy: PolicyLookup = (_vehicleId, code) => defaultPolicy(code),
    private readonly windowMs: number = ALARM_WINDOW_MS,
    private readonly speedRule: SpeedRuleLookup = () => DEFAULT_SPEED_RULE,
  ) {}

  /**
   * Sets the alarm word a vehicle is known to hold (e.g. its last stored report at start), so bits
   * already set before a restart are not taken for rises.
   */
  prime(vehicleId: number, alarmWord: number): void {
    this.words.set(vehicleId, alarmWord >>> 0);
  }

  /**
   * Restores an alarm stored before a restart so repeats keep merging into it and a held one can
   * still end; answers its new engine key. A later restore of the same vehicle and type replaces it.
   */
  restore(vehicleId: number, code: number, alarm: { readonly lastTime: number; readonly count: number; readonly active: boolean }): number {
    let byCode = this.open.get(vehicleId);
    if (byCode === undefined) this.open.set(vehicleId, (byCode = new Map()));
    const key = this.nextKey++;
    byCode.set(code, { key, lastTime: alarm.lastTime, count: alarm.count, active: alarm.active });
    // A held overspeed ends at the first report back under the limit, not on a new run.
    if (code === PLATFORM_RULES.overspeed && alarm.active) this.speeding.set(vehicleId, { place: { time: alarm.lastTime, lng: 0, lat: 0, speed: 0 }, raised: true });
    return key;
  }

  report(r: AlarmReport): readonly AlarmEvent[] {
    const word = r.alarmWord >>> 0;
    const previous = this.words.get(r.vehicleId) ?? 0;
    const speed = this.speedStep(r);
    // The hot path (every live report of the fleet): nothing changed, nothing allocated.
    const video = r.videoAlarm === undefined ? undefined : r.videoAlarm >>> 0;
    const videoBefore = this.videoWords.get(r.vehicleId) ?? 0;
    const videoChanged = video !== undefined && video !== videoBefore;
    if (word === previous && r.adas === undefined && r.dms === undefined && speed === undefined && !videoChanged) return NO_EVENTS;
    const events: AlarmEvent[] = [];
    this.words.set(r.vehicleId, word);
    const edges = alarmFlagEdges(previous, word, r.edition);
    for (const rule of edges.ended) this.end(r.vehicleId, rule.code, r.time, events);
    for (const rule of edges.raised) this.occur(r.vehicleId, rule.code, 'bit', rule.kind === 'state', r, events);
    this.item(r, r.adas, ADAS_TYPES, 'adas', events);
    this.item(r, r.dms, DMS_TYPES, 'dms', events);
    if (videoChanged) {
      // A 0x14 bit is a state like an 808 fault bit: its rise starts a held alarm, its fall ends it.
      this.videoWords.set(r.vehicleId, video);
      for (const [bit, code] of VIDEO_ALARM_BITS) {
        const was = (videoBefore >>> bit) & 1;
        const now = (video >>> bit) & 1;
        if (was && !now) this.end(r.vehicleId, code, r.time, events);
        else if (!was && now) this.occur(r.vehicleId, code, 'bit', true, r, events);
      }
    }
    if (speed === 'end') this.end(r.vehicleId, PLATFORM_RULES.overspeed, r.time, events);
    else if (speed !== undefined) this.occur(r.vehicleId, PLATFORM_RULES.overspeed, 'platform', true, speed, events);
    return events;
  }

  /**
   * The overspeed rule's step for one report: the place the run above the limit started once it has
   * lasted long enough (raise), 'end' when the speed is back at or below the limit, else undefined.
   */
  private speedStep(r: AlarmReport): AlarmPlace | 'end' | undefined {
    const rule = this.speedRule(r.vehicleId);
    const run = this.speeding.get(r.vehicleId);
    if (rule === undefined || r.speed <= rule.limitKmh) {
      if (run === undefined) return undefined;
      this.speeding.delete(r.vehicleId);
      return this.isActive(r.vehicleId, PLATFORM_RULES.overspeed) ? 'end' : undefined;
    }
    if (run === undefined) {
      const place = { time: r.time, lng: r.lng, lat: r.lat, speed: r.speed };
      this.speeding.set(r.vehicleId, { place, raised: rule.minDurationMs <= 0 });
      return rule.minDurationMs <= 0 ? place : undefined;
    }
    if (run.raised || r.time - run.place.time < rule.minDurationMs) return undefined;
    run.raised = true;
    return run.place;
  }

  /** A platform rule found its condition (e.g. offline): starts or merges, held until `platformEnd`. */
  platformStart(vehicleId: number, code: number, place: AlarmPlace): AlarmEvent[] {
    const events: AlarmEvent[] = [];
    this.occur(vehicleId, code, 'platform', true, place, events);
    return events;
  }

  /** A platform rule's condition cleared. */
  platformEnd(vehicleId: number, code: number, time: number): AlarmEvent[] {
    const events: AlarmEvent[] = [];
    this.end(vehicleId, code, time, events);
    return events;
  }

  /** True while the vehicle's alarm of this type is held. */
  /**
   * Forgets what this engine holds of a vehicle (its open alarms, a speeding run; its alarm word stays until
   * `prime`): before the vehicle's state is restored from the database after it reported through another node.
   * Answers the keys dropped.
   */
  forgetVehicle(vehicleId: number): number[] {
    const keys = [...(this.open.get(vehicleId)?.values() ?? [])].map((a) => a.key);
    this.open.delete(vehicleId);
    this.speeding.delete(vehicleId);
    return keys;
  }

  isActive(vehicleId: number, code: number): boolean {
    return this.open.get(vehicleId)?.get(code)?.active === true;
  }

  /** Forgets alarms that can no longer merge (not held, window passed); answers their keys and those replaced since. */
  prune(now: number): number[] {
    const keys = this.replaced;
    this.replaced = [];
    for (const [vehicleId, byCode] of this.open) {
      for (const [code, a] of byCode) {
        if (a.active || now - a.lastTime <= this.windowMs) continue;
        byCode.delete(code);
        keys.push(a.key);
      }
      if (byCode.size === 0) this.open.delete(vehicleId);
    }
    return keys;
  }

  private item(r: AlarmReport, item: SafetyItem | undefined, table: ReadonlyMap<number, number>, source: AlarmSource, events: AlarmEvent[]): void {
    if (item === undefined) return;
    const code = table.get(item.type);
    if (code === undefined) return; // reserved or vendor-defined type
    const phase = safetyItemPhase(item.flag);
    if (phase === 'end') this.end(r.vehicleId, code, r.time, events);
    else this.occur(r.vehicleId, code, source, phase === 'start', r, events);
  }

  private occur(vehicleId: number, code: number, source: AlarmSource, held: boolean, place: AlarmPlace, events: AlarmEvent[]): void {
    const policy = this.policy(vehicleId, code);
    if (!policy.enabled) return;
    let byCode = this.open.get(vehicleId);
    if (byCode === undefined) this.open.set(vehicleId, (byCode = new Map()));
    const existing = byCode.get(code);
    if (existing !== undefined && (existing.active || place.time - existing.lastTime <= this.windowMs)) {
      existing.count++;
      existing.lastTime = Math.max(existing.lastTime, place.time);
      if (held) existing.active = true;
      events.push({ kind: 'merge', key: existing.key, vehicleId, code, time: existing.lastTime, count: existing.count });
      return;
    }
    if (existing !== undefined) this.replaced.push(existing.key);
    const key = this.nextKey++;
    byCode.set(code, { key, lastTime: place.time, count: 1, active: held });
    events.push({
      kind: 'start', key, vehicleId, code, source, time: place.time, lng: place.lng, lat: place.lat, speed: place.speed,
      riskLevel: policy.riskLevel, dealStatus: policy.autoHandle ? DealStatus.Auto : DealStatus.Unprocessed,
    });
  }

  private end(vehicleId: number, code: number, time: number, events: AlarmEvent[]): void {
    const a = this.open.get(vehicleId)?.get(code);
    if (a === undefined || !a.active) return;
    a.active = false;
    events.push({ kind: 'end', key: a.key, vehicleId, code, time });
  }
}

/** Spec §5: alarm queries reach back at most three calendar months (UTC calendar arithmetic). */
export function alarmQueryEarliest(now: number): number {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - 3);
  return d.getTime();
}

/** Spec §8: an alarm query shows at most the first 5,000 matches. */
export const ALARM_QUERY_CAP = 5000;
