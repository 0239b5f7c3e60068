/**
 * Road accident rules (issue 19, /safeManagement/accidentAnalysis/manualProcessing and accidentPublicity):
 * the fields a fleet safety officer files, the grading of Chinese road traffic accidents, the handling
 * states and who may move an accident between them. One set of rules for the server (which enforces them)
 * and the console form (which shows the same refusal before sending), worded in both languages.
 *
 * Grading (公安部《道路交通事故等级划分标准》, the four levels road transport companies still report by):
 * - 轻微事故 minor: 1–2 light injuries, or property loss under 1,000 yuan;
 * - 一般事故 ordinary: 1–2 serious injuries, or 3+ light injuries, or property loss under 30,000 yuan;
 * - 重大事故 major: 1–2 deaths, or 3–10 serious injuries, or property loss 30,000 – 60,000 yuan;
 * - 特大事故 extra serious: 3+ deaths, or 11+ serious injuries, or 1 death with 8+ serious injuries, or
 *   2 deaths with 5+ serious injuries, or property loss of 60,000 yuan or more.
 * The counts give the lowest level the accident can have (`impliedLevel`); the officer may file a higher
 * one (an investigation may know more than the counts), never a lower one.
 */
import type { Lang } from '../errors/catalogue.ts';

export const ACCIDENT_TYPES = ['collision', 'rollover', 'scrape', 'pedestrian', 'other'] as const;
export type AccidentType = (typeof ACCIDENT_TYPES)[number];

/** Lowest first: the order is the grading's. */
export const ACCIDENT_LEVELS = ['minor', 'ordinary', 'major', 'extraSerious'] as const;
export type AccidentLevel = (typeof ACCIDENT_LEVELS)[number];

/** `pending`: not yet determined (a reported or investigated accident); a closed one needs a determination. */
export const RESPONSIBILITIES = ['pending', 'full', 'main', 'equal', 'secondary', 'none'] as const;
export type Responsibility = (typeof RESPONSIBILITIES)[number];

export const ACCIDENT_STATES = ['reported', 'investigating', 'closed'] as const;
export type AccidentState = (typeof ACCIDENT_STATES)[number];

export const LABELS = {
  type: {
    collision: ['碰撞', 'Collision'], rollover: ['侧翻', 'Rollover'], scrape: ['刮擦', 'Scrape'],
    pedestrian: ['碰撞行人', 'Pedestrian struck'], other: ['其他', 'Other'],
  },
  level: { minor: ['轻微事故', 'Minor'], ordinary: ['一般事故', 'Ordinary'], major: ['重大事故', 'Major'], extraSerious: ['特大事故', 'Extra serious'] },
  responsibility: {
    pending: ['待认定', 'Not determined'], full: ['全部责任', 'Full'], main: ['主要责任', 'Main'], equal: ['同等责任', 'Equal'],
    secondary: ['次要责任', 'Secondary'], none: ['无责任', 'None'],
  },
  state: { reported: ['已上报', 'Reported'], investigating: ['调查中', 'Investigating'], closed: ['已结案', 'Closed'] },
} as const satisfies Record<string, Record<string, readonly [string, string]>>;

export function label<K extends keyof typeof LABELS>(kind: K, value: keyof (typeof LABELS)[K], lang: Lang): string {
  const pair = (LABELS[kind] as Record<string, readonly [string, string]>)[value as string];
  return pair ? pair[lang === 'zh' ? 0 : 1] : String(value);
}

export const ACCIDENT_LIMITS = {
  /** Injuries and deaths of one accident (a coach crash stays far below). */
  peopleMax: 999,
  /** Property loss in whole yuan. */
  lossMax: 1_000_000_000,
  placeMax: 100,
  descriptionMax: 2000,
  textMax: 50,
  vinMax: 17,
  /** The alarm window around the accident time the officer chooses (minutes either side). */
  windowMinutesMin: 1,
  windowMinutesMax: 60,
  windowMinutesDefault: 10,
  /** Alarms linked to one accident. */
  linkedAlarmsMax: 100,
  /** A clock a few minutes ahead of the server's must not refuse an accident "now". */
  futureSlackMs: 5 * 60_000,
  titleMax: 60,
  summaryMax: 1000,
  /** Companies a case is published to. */
  publishCompaniesMax: 200,
} as const;

export interface Casualties {
  lightInjuries: number;
  seriousInjuries: number;
  deaths: number;
  /** Whole yuan. */
  propertyLoss: number;
}

const levelIndex = (l: AccidentLevel) => ACCIDENT_LEVELS.indexOf(l);

/** The lowest level the counts put an accident at (see the header's grading). */
export function impliedLevel(c: Casualties): AccidentLevel {
  const { lightInjuries: light, seriousInjuries: serious, deaths, propertyLoss: loss } = c;
  if (deaths >= 3 || serious >= 11 || (deaths === 1 && serious >= 8) || (deaths === 2 && serious >= 5) || loss >= 60_000) return 'extraSerious';
  if (deaths >= 1 || serious >= 3 || loss >= 30_000) return 'major';
  if (serious >= 1 || light >= 3 || loss >= 1_000) return 'ordinary';
  return 'minor';
}

export function levelAtLeast(level: AccidentLevel, floor: AccidentLevel): boolean {
  return levelIndex(level) >= levelIndex(floor);
}

/** Handling moves forward one step at a time; a closed accident may be reopened (new evidence) unless published. */
export function canMove(from: AccidentState, to: AccidentState): boolean {
  if (from === to) return true;
  if (from === 'reported') return to === 'investigating';
  if (from === 'investigating') return to === 'closed' || to === 'reported';
  return to === 'investigating';
}

/** What an accident being saved (created or edited) must satisfy, beyond each field's own limits. */
export interface AccidentDraft extends Casualties {
  time: number;
  type: AccidentType;
  level: AccidentLevel;
  responsibility: Responsibility;
  state: AccidentState;
  lng: number;
  lat: number;
  place: string;
}

export type AccidentProblem =
  | { field: 'time'; code: 'future' }
  | { field: 'level'; code: 'belowCounts'; implied: AccidentLevel }
  | { field: 'responsibility'; code: 'pendingOnClose' }
  | { field: 'lng' | 'lat'; code: 'outsideChina' }
  | { field: 'place'; code: 'required' }
  | { field: 'deaths' | 'seriousInjuries' | 'lightInjuries' | 'propertyLoss'; code: 'range' }
  | { field: 'state'; code: 'transition'; from: AccidentState; to: AccidentState };

/** WGS-84 bounds of China's territory (with its islands): a point outside is a typing error (lng/lat swapped, a 0). */
export const CHINA_BOUNDS = { lngMin: 73, lngMax: 136, latMin: 3, latMax: 54 } as const;

/** Every problem of a draft (empty: valid). `previous` is the stored state of an edit. */
export function checkAccident(d: AccidentDraft, now: number, previous?: AccidentState): AccidentProblem[] {
  const out: AccidentProblem[] = [];
  if (d.time > now + ACCIDENT_LIMITS.futureSlackMs) out.push({ field: 'time', code: 'future' });
  for (const f of ['lightInjuries', 'seriousInjuries', 'deaths'] as const) {
    if (!Number.isInteger(d[f]) || d[f] < 0 || d[f] > ACCIDENT_LIMITS.peopleMax) out.push({ field: f, code: 'range' });
  }
  if (!Number.isInteger(d.propertyLoss) || d.propertyLoss < 0 || d.propertyLoss > ACCIDENT_LIMITS.lossMax) out.push({ field: 'propertyLoss', code: 'range' });
  if (!(d.lng >= CHINA_BOUNDS.lngMin && d.lng <= CHINA_BOUNDS.lngMax)) out.push({ field: 'lng', code: 'outsideChina' });
  if (!(d.lat >= CHINA_BOUNDS.latMin && d.lat <= CHINA_BOUNDS.latMax)) out.push({ field: 'lat', code: 'outsideChina' });
  if (d.place.trim() === '') out.push({ field: 'place', code: 'required' });
  const implied = impliedLevel(d);
  if (!levelAtLeast(d.level, implied)) out.push({ field: 'level', code: 'belowCounts', implied });
  if (d.state === 'closed' && d.responsibility === 'pending') out.push({ field: 'responsibility', code: 'pendingOnClose' });
  if (previous === undefined ? d.state !== 'reported' && d.state !== 'investigating' : !canMove(previous, d.state)) {
    out.push({ field: 'state', code: 'transition', from: previous ?? 'reported', to: d.state });
  }
  return out;
}

/** The problem in the user's words. */
export function problemText(p: AccidentProblem, lang: Lang): string {
  const zh = lang === 'zh';
  switch (p.code) {
    case 'future': return zh ? '事故时间不能晚于当前时间' : 'The accident time must not be in the future';
    case 'belowCounts': {
      const l = label('level', p.implied, lang);
      return zh ? `按伤亡和财产损失，事故等级至少为${l}` : `By its casualties and property loss the accident is at least ${l}`;
    }
    case 'pendingOnClose': return zh ? '结案前须认定事故责任' : 'Determine the responsibility before closing';
    case 'outsideChina': return zh ? '坐标不在中国境内（经度 73–136，纬度 3–54）' : 'The point is outside China (longitude 73–136, latitude 3–54)';
    case 'required': return zh ? '请填写事故地点' : 'Enter the place';
    case 'range': return p.field === 'propertyLoss'
      ? (zh ? `财产损失需为 0 到 ${ACCIDENT_LIMITS.lossMax} 元的整数` : `Property loss must be a whole number of yuan, 0 to ${ACCIDENT_LIMITS.lossMax}`)
      : (zh ? `人数需为 0 到 ${ACCIDENT_LIMITS.peopleMax} 的整数` : `Must be a whole number, 0 to ${ACCIDENT_LIMITS.peopleMax}`);
    case 'transition': {
      const from = label('state', p.from, lang);
      const to = label('state', p.to, lang);
      return zh ? `处理状态不能从“${from}”改为“${to}”` : `The state cannot go from "${from}" to "${to}"`;
    }
  }
}

/** The alarm window around an accident time (ms), clamped to the allowed minutes. */
export function alarmWindow(time: number, minutes: number = ACCIDENT_LIMITS.windowMinutesDefault): { from: number; to: number } {
  const m = Math.min(ACCIDENT_LIMITS.windowMinutesMax, Math.max(ACCIDENT_LIMITS.windowMinutesMin, Math.round(minutes)));
  return { from: time - m * 60_000, to: time + m * 60_000 };
}

/** Only a closed accident becomes a safety-education case. */
export function canPublish(state: AccidentState): boolean {
  return state === 'closed';
}
