/**
 * Where alarms come from: the documented default mapping from terminal signals and platform rules
 * to catalogue codes (`catalogue.ts`), the dashboard sets and the default risk levels. The server
 * seeds its database from this; company settings override levels and enablement per type.
 *
 * Signals, as `server/gateway/jt808/location.ts` decodes them:
 * - 0x0200 alarm flags DWORD (JT/T 808-2013 table 24 / -2019 table 25): `ALARM_FLAGS`.
 * - Additional items of the Jiangsu active-safety standard (T/JSATL 12): ADAS 0x64 and DMS 0x65
 *   (decoded), TPMS 0x66 and BSD 0x67 (kept raw by the codec today; the tables are ready for it).
 * - JT/T 1078 video alarm item 0x14 and abnormal-driving item 0x18 (raw in the codec today).
 * - JT/T 809 warning types from a subordinate platform (group 81).
 * - Platform rules over the position stream (`PLATFORM_RULES`): the "specially treated" codes.
 */
import { groupOf, type AlarmGroup } from './catalogue.ts';

/** JT/T 808 edition of the frame's header (2013 headers also cover 2011-era terminals). */
export type Edition = 2013 | 2019;

/**
 * How a 0x0200 alarm flag behaves on the wire (the standard's "处理说明" column):
 * - `state` (标志维持至报警条件解除): held while the condition lasts. The alarm starts when the bit
 *   rises and ends when it falls.
 * - `pulse` (收到应答后清零): an occurrence the terminal latches until the platform answers. The
 *   rise is the alarm; the fall only means "answered", so it ends nothing.
 */
export type FlagKind = 'state' | 'pulse';

export interface AlarmFlagRule {
  readonly bit: number;
  readonly code: number;
  readonly kind: FlagKind;
  /** The bit is one 0x8203 manual alarm confirmation can confirm (bits 0, 3, 20, 21, 22, 27, 28). */
  readonly manualConfirm: boolean;
  /** Editions that define the bit; elsewhere it is reserved and ignored. */
  readonly editions: readonly Edition[];
}

const BOTH: readonly Edition[] = [2013, 2019];
const ONLY_2019: readonly Edition[] = [2019];
const ONLY_2013: readonly Edition[] = [2013];

function flag(bit: number, code: number, kind: FlagKind, editions = BOTH, manualConfirm = false): AlarmFlagRule {
  return Object.freeze({ bit, code, kind, manualConfirm, editions });
}

/** Every alarm flag JT/T 808 defines, by bit. Bits 15–17 are 2019 only; bit 31 is 2013 only. */
export const ALARM_FLAGS: readonly AlarmFlagRule[] = Object.freeze([
  flag(0, 17001, 'pulse', BOTH, true), // emergency alarm (SOS switch)
  flag(1, 12001, 'state'), // overspeed
  flag(2, 10032, 'state'), // "fatigue driving": continuous driving time over the limit
  // 2013: danger warning, cleared on answer; 2019 renames it "dangerous driving behaviour" and holds
  // it. Treated as a pulse for both: one alarm per rise either way; 2019 loses only the end time.
  flag(3, 17002, 'pulse', BOTH, true),
  flag(4, 15001, 'state'), // GNSS module fault
  flag(5, 15002, 'state'), // GNSS antenna disconnected or cut
  flag(6, 15003, 'state'), // GNSS antenna short circuit
  flag(7, 15004, 'state'), // main power under-voltage
  flag(8, 15005, 'state'), // main power off
  flag(9, 15006, 'state'), // LCD or display fault
  flag(10, 15007, 'state'), // TTS module fault
  flag(11, 15008, 'state'), // camera fault
  flag(12, 15009, 'state'), // road transport certificate IC card module fault
  flag(13, 12002, 'state'), // overspeed warning
  flag(14, 10033, 'state'), // fatigue driving warning
  flag(15, 17003, 'state', ONLY_2019), // illegal driving
  flag(16, 16008, 'state', ONLY_2019), // tire pressure warning
  flag(17, 14004, 'state', ONLY_2019), // right-turn blind area abnormal
  flag(18, 10034, 'state'), // daily cumulative driving overtime
  flag(19, 11001, 'state'), // parking overtime
  flag(20, 13001, 'pulse', BOTH, true), // entering/leaving area (detail in item 0x12)
  flag(21, 13002, 'pulse', BOTH, true), // entering/leaving route (detail in item 0x12)
  flag(22, 13003, 'pulse', BOTH, true), // route section travel time too short/long (item 0x13)
  flag(23, 13004, 'state'), // route deviation
  flag(24, 15010, 'state'), // VSS fault
  flag(25, 11002, 'state'), // abnormal fuel
  flag(26, 17004, 'state'), // vehicle stolen (anti-theft device)
  flag(27, 17005, 'pulse', BOTH, true), // illegal ignition
  flag(28, 17006, 'pulse', BOTH, true), // illegal displacement
  flag(29, 18005, 'state'), // collision warning (2019: collision and rollover)
  flag(30, 18006, 'state'), // rollover warning
  flag(31, 11003, 'pulse', ONLY_2013), // illegal door opening (2019: reserved)
]);

const FLAG_BY_BIT: readonly (AlarmFlagRule | undefined)[] = Array.from({ length: 32 }, (_, bit) => ALARM_FLAGS.find((r) => r.bit === bit));

/** The rule for one bit in an edition, or undefined when that edition reserves the bit. */
export function alarmFlag(bit: number, edition: Edition): AlarmFlagRule | undefined {
  const rule = FLAG_BY_BIT[bit];
  return rule !== undefined && rule.editions.includes(edition) ? rule : undefined;
}

export interface FlagEdges {
  /** Bits that rose: each starts an alarm (state) or is one occurrence (pulse). */
  readonly raised: readonly AlarmFlagRule[];
  /** State bits that fell: each ends its alarm. Falling pulses are answers, not ends, so absent. */
  readonly ended: readonly AlarmFlagRule[];
}

/**
 * Edge detection between a terminal's previous and current alarm DWORD. For the first report of
 * a session pass 0 as `previous`: every set bit is then a rise. Reserved bits are ignored.
 */
export function alarmFlagEdges(previous: number, current: number, edition: Edition): FlagEdges {
  const rose = (current & ~previous) >>> 0;
  const fell = (previous & ~current) >>> 0;
  const raised: AlarmFlagRule[] = [];
  const ended: AlarmFlagRule[] = [];
  if ((rose | fell) === 0) return { raised, ended };
  for (let bit = 0; bit < 32; bit++) {
    const rule = alarmFlag(bit, edition);
    if (rule === undefined) continue;
    if ((rose >>> bit) & 1) raised.push(rule);
    else if ((fell >>> bit) & 1 && rule.kind === 'state') ended.push(rule);
  }
  return { raised, ended };
}

/**
 * The 0x8203 `alarmType` mask confirming an alarm code, or 0 when 0x8203 cannot confirm it (the
 * terminal is then answered only with the platform's text, if any).
 */
export function manualConfirmMask(code: number): number {
  let mask = 0;
  for (const rule of ALARM_FLAGS) if (rule.manualConfirm && rule.code === code) mask |= 1 << rule.bit;
  return mask >>> 0;
}

/** ADAS 0x64 alarm/event type → code (types 0x08–0x0F and 0x12+ are reserved or vendor-defined). */
export const ADAS_TYPES: ReadonlyMap<number, number> = new Map([
  [0x01, 10006], // forward collision
  [0x02, 10007], // lane departure (deviationType 1 left, 2 right kept as detail)
  [0x03, 10008], // headway too close
  [0x04, 10009], // pedestrian collision
  [0x05, 10010], // frequent lane changes
  [0x06, 10011], // road sign over-limit (roadSignType 1 speed, 2 height, 3 weight kept as detail)
  [0x07, 10012], // obstacle
  [0x10, 10014], // road sign recognition event
  [0x11, 10015], // active capture event
]);

/** DMS 0x65 alarm/event type → code. */
export const DMS_TYPES: ReadonlyMap<number, number> = new Map([
  [0x01, 10001], // fatigue driving (fatigue degree 1–10 kept as detail)
  [0x02, 10002], // phone call
  [0x03, 10003], // smoking
  [0x04, 10004], // distracted driving
  [0x05, 10005], // driver abnormal
  [0x10, 10018], // automatic capture event
  [0x11, 10019], // driver change event
]);

/** BSD 0x67 (blind spot / lane-change decision aid) alarm type → code. */
export const BSD_TYPES: ReadonlyMap<number, number> = new Map([
  [0x01, 14001], // rear approach
  [0x02, 14002], // left rear approach
  [0x03, 14003], // right rear approach
]);

/**
 * TPMS 0x66 per-tire alarm/event WORD: bit → code. Bit 0 is the periodic pressure report, not an
 * alarm; bits 8–15 are vendor-defined.
 */
export const TPMS_BITS: ReadonlyMap<number, number> = new Map([
  [1, 16001], // pressure too high
  [2, 16002], // pressure too low
  [3, 16003], // temperature too high
  [4, 16004], // sensor abnormal
  [5, 16005], // pressure imbalance
  [6, 16006], // slow leak
  [7, 16007], // sensor battery low
]);

/** JT/T 1078 video alarm item 0x14 DWORD: bit → code. Bit 5 (abnormal driving) is detailed by 0x18. */
export const VIDEO_ALARM_BITS: ReadonlyMap<number, number> = new Map([
  [0, 15011], // video signal loss
  [1, 15012], // video signal occlusion
  [2, 15013], // storage unit fault
  [3, 15014], // other video device fault
  [4, 11010], // passenger overload
  [6, 15015], // special alarm recording reached the storage threshold
]);

/** JT/T 1078 abnormal driving behaviour item 0x18 WORD: bit → code (the DMS codes). */
export const ABNORMAL_DRIVING_BITS: ReadonlyMap<number, number> = new Map([
  [0, 10001], // fatigue
  [1, 10002], // phone call
  [2, 10003], // smoking
]);

/** JT/T 809-2011 warning type (WARN_TYPE) from a subordinate platform → code. */
export const SUBORDINATE_WARN_TYPES: ReadonlyMap<number, number> = new Map([
  [0x0001, 81001],
  [0x0002, 81002],
  [0x0003, 81003],
  [0x0004, 81004],
  [0x0005, 81005],
  [0x0006, 81006],
  [0x0007, 81007],
  [0x0008, 81008],
  [0x0009, 81009],
  [0x000a, 81010],
  [0x000b, 81011],
  [0x000c, 81012],
  [0x000d, 81013],
  [0x00ff, 81014],
]);

/** Codes for the set bits of a bit-table signal (TPMS per tire, 1078 0x14, 0x18), in bit order. */
export function codesForBits(table: ReadonlyMap<number, number>, bits: number): number[] {
  const codes: number[] = [];
  for (const [bit, code] of table) if ((bits >>> bit) & 1) codes.push(code);
  return codes;
}

/**
 * What an ADAS/DMS/BSD/TPMS item's flag byte means: 1 start, 2 end, and 0 "not applicable", which
 * the standard uses for events (captures, sign recognition, driver change) that have no duration.
 */
export function safetyItemPhase(flag: number): 'start' | 'end' | 'instant' {
  return flag === 1 ? 'start' : flag === 2 ? 'end' : 'instant';
}

/**
 * The platform-side rules and the code each raises; together exactly the catalogue's
 * `PLATFORM_GENERATED_CODES`. Thresholds come from the spec (§9) or company settings.
 */
export const PLATFORM_RULES = Object.freeze({
  /** No contact for over 3 minutes (spec §9; `domain/vehicle/state.ts` OFFLINE_AFTER_MS). */
  offline: 11004,
  /** Back online far from where it went offline (position moved while not reporting). */
  offlineDisplacement: 11005,
  /** No contact for three days. */
  notOnlineForThreeDays: 11006,
  /** Reporting while moving but without a GNSS fix (status bit 1 clear). */
  noPositionFix: 11007,
  /** The drift rule (spec §9; `domain/track/drift.ts`). */
  drift: 11008,
  /** A discontinuous segment (spec §9; `domain/track/continuity.ts`). */
  discontinuity: 11009,
  /** Operating outside the registered area for a long time. */
  longTermRemoteOperation: 11012,
  /** Speed over the company's limit for the vehicle for the configured duration. */
  overspeed: 12003,
  /** Speed within the configured margin below that limit. */
  overspeedWarning: 12004,
  /** Speed over a fence's limit inside the fence. */
  areaOverspeed: 12005,
  /** Speed over a road section's limit. */
  sectionOverspeed: 12006,
  /** Speed over the night limit (22:00–06:00, 80 % of the day limit by default). */
  nightOverspeed: 12007,
  /** Speed over the map's actual road limit. */
  roadLimitOverspeed: 12008,
  /** Speed over the basic limit of the vehicle class. */
  basicLimitOverspeed: 12009,
  /** Continuous driving time over the limit, computed from the track. */
  continuousDriving: 10035,
  /** Continuous night driving over the limit. */
  nightDriving: 10036,
  /** Moving between 02:00 and 05:00 (spec §9 early-morning period; `domain/track/days.ts`). */
  earlyMorning: 10047,
  /** Moving with no driver signed in (no 0x0702 identity since ignition). */
  noDriverCard: 10031,
  enterArea: 13005,
  leaveArea: 13006,
  forbiddenAreaEntry: 13007,
  restrictedAreaExit: 13008,
  parkingInArea: 13009,
  routeDeviation: 13010,
  keyPointMissed: 13011,
  /** The JT/T 809 link to a subordinate platform dropped. */
  subordinateLinkLost: 81015,
} as const);
export type PlatformRule = keyof typeof PLATFORM_RULES;

/** Repeats of one type on one vehicle within this window merge into one alarm (spec §9). */
export const ALARM_WINDOW_MS = 30 * 60_000;

/** Dashboard driver-fatigue alarm set, exactly as the spec lists it (§9). */
export const DRIVER_FATIGUE_SET: readonly number[] = Object.freeze([10001, 10002, 10003, 10013, 10004, 10005, 10034, 10032]);

/** Dashboard vehicle-risk alarm set, exactly as the spec lists it (§9). */
export const VEHICLE_RISK_SET: readonly number[] = Object.freeze([10006, 10007, 10017, 10016, 10012, 10008, 10009, 10010]);

/** Platform risk levels (spec §3), most severe first. */
export const RISK_LEVELS = ['high', 'medium', 'low', 'ordinary'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/**
 * Default level per group, before the per-type exceptions below:
 * - high: an imminent crash or a driver who cannot drive safely right now;
 * - medium: risky behaviour or vehicle state that needs handling soon;
 * - low: compliance, supervision and equipment problems, and warnings that precede an alarm;
 * - ordinary: events and data-quality records that need no handling.
 */
const GROUP_LEVEL: Readonly<Record<Exclude<AlarmGroup, 1>, RiskLevel>> = {
  10: 'medium',
  19: 'medium',
  11: 'low',
  18: 'medium',
  12: 'medium',
  13: 'low',
  14: 'medium',
  15: 'low',
  16: 'medium',
  17: 'medium',
  59: 'low',
  60: 'medium',
  70: 'medium',
  80: 'low',
  81: 'medium',
  82: 'high',
  90: 'medium',
};

function levels(level: RiskLevel, codes: readonly number[]): [number, RiskLevel][] {
  return codes.map((code) => [code, level]);
}

/** Per-type exceptions to the group default (exported so tests can check every code exists). */
export const RISK_LEVEL_EXCEPTIONS: ReadonlyMap<number, RiskLevel> = new Map([
  ...levels('high', [
    10001, 10005, 10006, 10009, 10013, 10017, 10022, 10023, 10047, // fatigue, incapacity, collision
    14006, 14007, // right-turn blind area with a pedestrian or cyclist
    16003, 16009, // blow-out risk
    17001, 17002, 17004, 17006, 17007, // emergency, danger, theft, displacement, accident
    18005, 18006, // collision, rollover
  ]),
  ...levels('medium', [11003, 11005, 11010, 11011, 11013]), // door, tampering, overload
  ...levels('low', [
    10033, 12002, 12004, 16008, // warnings before the alarm
    17008, // vehicle battery
    82006, 82007, 82008, 82009, 82010, 82011, // AEB system state, not a braking event
  ]),
  ...levels('ordinary', [10014, 10015, 10018, 10019, 10037, 11004, 11006, 11007, 11008, 11009, 81014]),
]);

/**
 * The default platform risk level of an alarm type (companies override it per type), or
 * undefined for group headings and codes outside the spec's groups.
 */
export function defaultRiskLevel(code: number): RiskLevel | undefined {
  const group = groupOf(code);
  if (group === undefined || group === 1) return undefined;
  return RISK_LEVEL_EXCEPTIONS.get(code) ?? GROUP_LEVEL[group];
}
