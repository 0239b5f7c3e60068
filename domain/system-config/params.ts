/**
 * System parameters (issue 19, /system/param; spec §3 "parameter tree node label is paramName"): the values
 * other parts of the console read instead of constants. One catalogue for server and console: the built-in
 * parameters with their kind, limits, default and scope, and the one validation both sides run, so the
 * parameter form refuses exactly what the server would and says why in the user's language.
 *
 * Scope: `platform` parameters hold one value for the whole installation (only a platform administrator
 * changes them); `company` parameters hold a value per company (the report engine's thresholds, stored in
 * its `report_setting` table under the same key), changed by anyone with the page's update bit for a
 * company in their subtree. A company without its own value uses the default.
 */
import type { Lang } from '../errors/catalogue.ts';
import { FUEL_DEFAULTS, FUEL_LIMITS, FUEL_SETTING_PREFIX, type FuelThresholds } from '../fuel/rules.ts';
import { DEFAULT_RATED_LOAD, RATED_LOAD_MAX, RATED_LOAD_SETTING } from '../passengers/flow.ts';
import { DEFAULT_NIGHT_END_MINUTE, DEFAULT_NIGHT_START_MINUTE, OperationSettings } from '../report-day/operation.ts';
import { DEFAULT_STOP_MINUTES } from '../track/stops.ts';

export const PARAM_KINDS = ['group', 'int', 'number', 'enum', 'duration', 'time', 'text'] as const;
export type ParamKind = (typeof PARAM_KINDS)[number];
/** Kinds a custom parameter may take (time of day and groups aside, which are built-in shapes). */
export const CUSTOM_PARAM_KINDS = ['int', 'number', 'enum', 'duration', 'text'] as const;
export type ParamScope = 'platform' | 'company';

export interface ParamOption {
  readonly value: string;
  readonly zh: string;
  readonly en: string;
}

/** What the rules need of a parameter (a built-in entry or a stored custom row). */
export interface ParamRule {
  readonly kind: ParamKind;
  /** Inclusive bounds: of the number (int, number, duration in minutes, time as minute of day) or of a text's length. */
  readonly min?: number | null;
  readonly max?: number | null;
  readonly options?: readonly ParamOption[];
}

export interface BuiltinParam extends ParamRule {
  readonly key: string;
  /** The group's key (a `group` entry); undefined for a top-level group. */
  readonly parent?: string;
  readonly zh: string;
  readonly en: string;
  readonly scope: ParamScope;
  readonly unit?: readonly [zh: string, en: string];
  /** As stored (text); the server may replace it from its configuration (VIDEO_DAILY_LIMIT). */
  readonly defaultValue?: string;
}

export const ParamKeys = {
  videoAutoStopMinutes: 'video.autoStopMinutes',
  videoDailyLimit: 'video.dailyLimit',
} as const;

/** Limits shared with the live video page's own input (0 turns auto-stop off). */
export const AUTO_STOP_MAX_MINUTES = 120;
export const DEFAULT_AUTO_STOP_MINUTES = 5;
export const DAILY_LIMIT_MAX = 1_000_000;
export const PARAM_NAME_MAX = 50;
export const PARAM_KEY_MAX = 64;
export const PARAM_KEY_PATTERN = '^[A-Za-z][A-Za-z0-9_.-]*$';
export const PARAM_TEXT_MAX = 500;
export const PARAM_OPTIONS_MAX = 50;

const MINUTES: readonly [string, string] = ['分钟', 'min'];

const FUEL_NAMES: { readonly [K in keyof FuelThresholds]: readonly [zh: string, en: string, unit?: readonly [string, string]] } = {
  smoothSamples: ['油位平滑采样数', 'Fuel level smoothing samples'],
  refuelMinL: ['加油判定最小量', 'Smallest refuel', ['升', 'L']],
  leakMinL: ['漏油判定最小量', 'Smallest leak', ['升', 'L']],
  windowMin: ['油位变化判定窗口', 'Fuel change window', MINUTES],
  settleMin: ['油位稳定时间', 'Fuel settle time', MINUTES],
  maxLPer100km: ['行驶最大油耗', 'Highest driving burn', ['升/百公里', 'L/100 km']],
  idleLPerHour: ['怠速最大油耗', 'Highest idling burn', ['升/小时', 'L/h']],
  stoppedKmh: ['停车速度阈值', 'Stopped below', ['km/h', 'km/h']],
  refuelStoppedPct: ['加油时停车读数占比', 'Stopped share of a refuel', ['%', '%']],
};

/** The parameters the console reads today, in tree order. */
export const BUILTIN_PARAMS: readonly BuiltinParam[] = [
  { key: 'video', kind: 'group', zh: '视频参数', en: 'Video', scope: 'platform' },
  {
    key: ParamKeys.videoAutoStopMinutes, parent: 'video', kind: 'duration', min: 0, max: AUTO_STOP_MAX_MINUTES, unit: MINUTES,
    zh: '实时视频自动停止时间', en: 'Live video auto-stop time', scope: 'platform', defaultValue: String(DEFAULT_AUTO_STOP_MINUTES),
  },
  {
    key: ParamKeys.videoDailyLimit, parent: 'video', kind: 'int', min: 0, max: DAILY_LIMIT_MAX, unit: ['次', 'times'],
    zh: '每日实时视频连接次数上限', en: 'Daily live-video connection limit', scope: 'platform', defaultValue: '200',
  },
  { key: 'report', kind: 'group', zh: '报表阈值', en: 'Report thresholds', scope: 'company' },
  { key: 'report.operation', parent: 'report', kind: 'group', zh: '运营报表', en: 'Operation reports', scope: 'company' },
  {
    key: OperationSettings.stopMinutes, parent: 'report.operation', kind: 'duration', min: 1, max: 24 * 60, unit: MINUTES,
    zh: '停车判定时长', en: 'Stop after', scope: 'company', defaultValue: String(DEFAULT_STOP_MINUTES),
  },
  {
    key: OperationSettings.nightStartMinute, parent: 'report.operation', kind: 'time', min: 0, max: 24 * 60 - 1,
    zh: '夜间行驶开始时间', en: 'Night driving starts', scope: 'company', defaultValue: String(DEFAULT_NIGHT_START_MINUTE),
  },
  {
    key: OperationSettings.nightEndMinute, parent: 'report.operation', kind: 'time', min: 0, max: 24 * 60 - 1,
    zh: '夜间行驶结束时间', en: 'Night driving ends', scope: 'company', defaultValue: String(DEFAULT_NIGHT_END_MINUTE),
  },
  { key: 'report.fuel', parent: 'report', kind: 'group', zh: '油耗报表', en: 'Fuel reports', scope: 'company' },
  ...(Object.keys(FUEL_DEFAULTS) as (keyof FuelThresholds)[]).map((k): BuiltinParam => {
    const [zh, en, unit] = FUEL_NAMES[k];
    const [min, max] = FUEL_LIMITS[k];
    return {
      key: FUEL_SETTING_PREFIX + k, parent: 'report.fuel', kind: k === 'smoothSamples' ? 'int' : 'number', min, max, unit,
      zh, en, scope: 'company', defaultValue: String(FUEL_DEFAULTS[k]),
    };
  }),
  { key: 'report.passengers', parent: 'report', kind: 'group', zh: '客流报表', en: 'Passenger reports', scope: 'company' },
  {
    // issue 18: passenger supervision counts an overload above this (on board after a stop)
    key: RATED_LOAD_SETTING, parent: 'report.passengers', kind: 'int', min: 1, max: RATED_LOAD_MAX, unit: ['人', 'passengers'],
    zh: '车辆核定载客人数', en: 'Rated passenger load', scope: 'company', defaultValue: String(DEFAULT_RATED_LOAD),
  },
  // Issue 19 cab supervision: vehicles with at least this many driver-state alarms in 7 days are suggested.
  { key: 'safety', kind: 'group', zh: '安全监管', en: 'Safety supervision', scope: 'platform' },
  {
    key: 'safety.cabSuggestAlarms', parent: 'safety', kind: 'int', min: 1, max: 1000, unit: ['次', 'alarms'],
    zh: '驾驶室监管建议报警次数（7天）', en: 'Cab supervision: suggest at alarms in 7 days', scope: 'platform', defaultValue: '3',
  },
];

export function builtinParam(key: string): BuiltinParam | undefined {
  return BUILTIN_PARAMS.find((p) => p.key === key);
}

/** A problem with a value: a field-problem code (domain/errors/field-problem.ts) and its parameters. */
export interface ParamProblem {
  readonly code: 'required' | 'type' | 'minimum' | 'maximum' | 'maxLength' | 'minLength' | 'enum' | 'pattern';
  readonly params?: Readonly<Record<string, unknown>>;
}

/** "HH:mm" → minute of day, or undefined. */
export function parseTimeOfDay(text: string): number | undefined {
  const m = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

export function formatTimeOfDay(minute: number): string {
  const h = Math.floor(minute / 60);
  const m = minute % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/**
 * Checks a value as typed by a user (text) against its parameter's rule; answers the normalised stored text
 * (numbers without spaces, a time as its minute of day) or the problem.
 */
export function checkParamValue(rule: ParamRule, raw: string): { ok: true; value: string } | { ok: false; problem: ParamProblem } {
  const text = raw.trim();
  if (text === '') return { ok: false, problem: { code: 'required' } };
  const bounded = (n: number): ParamProblem | undefined => {
    if (rule.min !== undefined && rule.min !== null && n < rule.min) return { code: 'minimum', params: { limit: rule.kind === 'time' ? formatTimeOfDay(rule.min) : rule.min } };
    if (rule.max !== undefined && rule.max !== null && n > rule.max) return { code: 'maximum', params: { limit: rule.kind === 'time' ? formatTimeOfDay(rule.max) : rule.max } };
    return undefined;
  };
  switch (rule.kind) {
    case 'int':
    case 'duration': {
      if (!/^-?\d+$/.test(text)) return { ok: false, problem: { code: 'type', params: { type: 'integer' } } };
      const n = Number(text);
      const p = bounded(n);
      return p ? { ok: false, problem: p } : { ok: true, value: String(n) };
    }
    case 'number': {
      const n = Number(text);
      if (!/^-?\d+(\.\d+)?$/.test(text) || !Number.isFinite(n)) return { ok: false, problem: { code: 'type', params: { type: 'number' } } };
      const p = bounded(n);
      return p ? { ok: false, problem: p } : { ok: true, value: String(n) };
    }
    case 'time': {
      const n = /^\d+$/.test(text) ? Number(text) : parseTimeOfDay(text);
      if (n === undefined) return { ok: false, problem: { code: 'pattern' } };
      const p = bounded(n);
      return p ? { ok: false, problem: p } : { ok: true, value: String(n) };
    }
    case 'enum': {
      const allowed = (rule.options ?? []).map((o) => o.value);
      return allowed.includes(text) ? { ok: true, value: text } : { ok: false, problem: { code: 'enum', params: { allowedValues: allowed } } };
    }
    case 'text': {
      const max = rule.max ?? PARAM_TEXT_MAX;
      if (text.length > max) return { ok: false, problem: { code: 'maxLength', params: { limit: max } } };
      if (rule.min && text.length < rule.min) return { ok: false, problem: { code: 'minLength', params: { limit: rule.min } } };
      return { ok: true, value: text };
    }
    case 'group':
      return { ok: false, problem: { code: 'type', params: { type: 'null' } } };
  }
}

/** A stored value as a number (built-in numeric parameters), or the fallback when it is missing or unreadable. */
export function paramNumber(values: Readonly<Record<string, string | null | undefined>>, key: string, fallback: number): number {
  const v = values[key];
  if (v === null || v === undefined || v === '') return fallback;
  const n = Number(v);
  return Number.isFinite(n) ? n : fallback;
}

/** A stored value as the parameter form shows it (a time of day as HH:mm). */
export function displayValue(rule: Pick<ParamRule, 'kind'>, value: string | null): string {
  if (value === null) return '';
  if (rule.kind === 'time' && /^\d+$/.test(value)) return formatTimeOfDay(Number(value));
  return value;
}

export function paramLabel(p: { zh: string; en: string }, lang: Lang): string {
  return lang === 'zh' ? p.zh : p.en || p.zh;
}

/** Messages of rules the schema cannot hold. */
export const PARAM_MESSAGES = {
  platformOnly: ['平台参数只有平台管理员可以修改', 'Only a platform administrator can change platform parameters'],
  builtinRemove: ['内置参数不能删除', 'A built-in parameter cannot be removed'],
  builtinShape: ['内置参数只能修改取值', 'Only the value of a built-in parameter can be changed'],
  notFound: ['参数不存在', 'No such parameter'],
  keyTaken: ['参数键已存在', 'This parameter key is taken'],
  noParent: ['上级分组不存在', 'No such parameter group'],
  hasChildren: ['分组下还有参数，不能删除', 'The group still holds parameters'],
  enumOptions: ['枚举参数至少需要一个选项', 'An enum parameter needs at least one option'],
} as const satisfies Record<string, readonly [string, string]>;

export function paramMessage(key: keyof typeof PARAM_MESSAGES, lang: Lang): string {
  return PARAM_MESSAGES[key][lang === 'zh' ? 0 : 1];
}
