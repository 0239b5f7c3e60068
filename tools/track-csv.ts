/**
 * Reads the analyst CSV (`time,lng,lat,speed`, columns in any order, rows in any order) into
 * time-sorted track columns, or a list of `line N: <what>` errors. Pure: no file system, so tests and
 * other tools can call it on a string.
 *
 * Decisions:
 * - Line numbers are physical lines of the file, the header being line 1 when the file starts with it.
 * - Blank lines are skipped. Fields are trimmed and may be wrapped in double quotes; a quoted comma is
 *   not supported (no field of this format needs one).
 * - Header names are case-insensitive; extra columns are allowed and ignored (exports often carry
 *   more), a required column missing or repeated is an error.
 * - time: epoch milliseconds (digits only) or ISO 8601 `YYYY-MM-DD[(T| )hh:mm[:ss[.fff]]][Z|±hh[:mm]]`.
 *   Without an offset it is China time (GMT+8): every day in this product is a China day, so the
 *   analyst's machine time zone must never change a result.
 */
import { allocateColumns, permuteColumns, timeOrder } from '../domain/track/columns.ts';
import type { TrackColumns } from '../domain/track/columns.ts';
import { CHINA_OFFSET_MS } from '../domain/track/days.ts';

export const REQUIRED_COLUMNS = ['time', 'lng', 'lat', 'speed'] as const;
type Column = (typeof REQUIRED_COLUMNS)[number];

export type ParseResult = { ok: true; columns: TrackColumns } | { ok: false; errors: string[] };

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const EPOCH_MS = /^\d{1,16}$/;
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;
const MAX_TIME_MS = 8.64e15; // the ECMAScript Date range

/** Epoch ms of an ISO 8601 or epoch-millisecond text, or undefined when it is neither. */
export function parseTime(text: string): number | undefined {
  if (EPOCH_MS.test(text)) {
    const ms = Number(text);
    return ms <= MAX_TIME_MS ? ms : undefined;
  }
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zulu, sign, oh, om = '0'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (day < 1 || day > new Date(Date.UTC(2000, month, 0)).getUTCDate() || (month === 2 && day === 29 && !isLeap(year))) {
    return undefined;
  }
  let offsetMs = CHINA_OFFSET_MS;
  if (zulu) offsetMs = 0;
  else if (sign) {
    const offH = Number(oh);
    const offM = Number(om);
    if (offH > 23 || offM > 59) return undefined;
    offsetMs = (sign === '-' ? -1 : 1) * (offH * 60 + offM) * 60_000;
  }
  // setUTCFullYear, not Date.UTC, which would read years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Math.floor(Number(`0.${frac || '0'}`) * 1000));
  return date.getTime() - offsetMs;
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function field(raw: string): string {
  const t = raw.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1).trim() : t;
}

/** Parses the whole text; collects every malformed line, in order, up to `maxErrors` of them. */
export function parseTrackCsv(text: string, maxErrors = 20): ParseResult {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const errors: string[] = [];
  const headerAt = lines.findIndex((l) => l.trim() !== '');
  if (headerAt < 0) return { ok: true, columns: allocateColumns(0) };

  const names = lines[headerAt]!.split(',').map((f) => field(f).toLowerCase());
  const at = {} as Record<Column, number>;
  for (const col of REQUIRED_COLUMNS) {
    const first = names.indexOf(col);
    if (first < 0) errors.push(`line ${headerAt + 1}: header lacks column "${col}" (needs time,lng,lat,speed in any order)`);
    else if (names.indexOf(col, first + 1) >= 0) errors.push(`line ${headerAt + 1}: header has column "${col}" twice`);
    at[col] = first;
  }
  if (errors.length > 0) return { ok: false, errors };

  const n = lines.length - headerAt - 1;
  const raw = allocateColumns(n);
  let count = 0;
  let moreErrors = 0;
  const fail = (msg: string): void => {
    if (errors.length < maxErrors) errors.push(msg);
    else moreErrors++;
  };
  for (let i = headerAt + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const no = i + 1;
    const fields = line.split(',');
    if (fields.length !== names.length) {
      fail(`line ${no}: expected ${names.length} fields as in the header, found ${fields.length}`);
      continue;
    }
    const timeText = field(fields[at.time]!);
    const time = parseTime(timeText);
    if (time === undefined) {
      fail(`line ${no}: time "${timeText}" is not a valid ISO 8601 time or epoch milliseconds`);
      continue;
    }
    const lng = number(fields[at.lng]!, 'lng', -180, 180);
    const lat = number(fields[at.lat]!, 'lat', -90, 90);
    const speed = number(fields[at.speed]!, 'speed', 0, Infinity);
    const problem = [lng, lat, speed].find((v) => typeof v === 'string');
    if (problem !== undefined) {
      fail(`line ${no}: ${problem}`);
      continue;
    }
    raw.time[count] = time;
    raw.lng[count] = lng as number;
    raw.lat[count] = lat as number;
    raw.speed[count] = speed as number;
    count++;
  }
  if (moreErrors > 0) errors.push(`… and ${moreErrors} more malformed lines`);
  if (errors.length > 0) return { ok: false, errors };

  const columns = {
    time: raw.time.subarray(0, count),
    lng: raw.lng.subarray(0, count),
    lat: raw.lat.subarray(0, count),
    speed: raw.speed.subarray(0, count),
  };
  const order = timeOrder(columns.time);
  return { ok: true, columns: order ? permuteColumns(columns, order) : columns };
}

/** The number, or a description of what is wrong with it. */
function number(raw: string, name: string, min: number, max: number): number | string {
  const text = field(raw);
  if (!NUMBER.test(text)) return `${name} "${text}" is not a number`;
  const v = Number(text);
  if (!Number.isFinite(v)) return `${name} "${text}" is not a finite number`;
  if (v < min || v > max) return max === Infinity ? `${name} ${text} is below ${min}` : `${name} ${text} is outside ${min}..${max}`;
  return v;
}
