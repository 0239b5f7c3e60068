/**
 * The `device` day module (issue 18): a terminal's online sessions over one China day — when it was in contact
 * with the platform, how often and how long it was offline — for the device work reports (deviceOnlineReport,
 * deviceOnlineStatistics) and the online analysis (online minutes beside the online day).
 *
 * Decisions (the reports and their tests rely on these):
 * - Contact evidence is a stored position received within the offline threshold (3 minutes, spec §4/§9) of its
 *   GPS time: such a point proves the terminal was talking to the platform at its GPS time. A point uploaded
 *   later than that (a blind-area 0x0704 re-upload, a clock far off) was recorded while the terminal could not
 *   reach the platform, so it counts for the online day (`points`) but is no contact.
 * - A session is a run of contact points whose gaps are at most 3 minutes; a longer gap is one offline, counted
 *   on the day of the point that ends it (the pair rule of domain/track/days.ts). A session spans its first to
 *   its last contact point; the day's first session starts at 00:00 when the vehicle's last point before the day
 *   (`context.previous`) was a contact within 3 minutes of it (the session ran across midnight).
 * - An offline that began the day before is counted today with its minutes from 00:00.
 * - Heartbeats (0x0002) are no positions: the module never sees them. The gateway keeps, per terminal, spans of
 *   heartbeat contact (server/services/report-engine/seen.ts: a span extended by each heartbeat within 3 minutes,
 *   written at most every 30 s); the reports lay them over the day's position sessions with `withSeen` below, so
 *   a terminal that only heartbeats is online, for the day and for its minutes.
 */
import type { DayContext, DayEvent, DayModule, DayPoint } from './module.ts';
import { OFFLINE_AFTER_MS, isOnlineDay } from '../track/days.ts';

export const DEVICE_MODULE_KEY = 'device';
export const DeviceEventKind = { online: 'online' } as const;

/** The day's figures (minutes unrounded; the reports round). */
export interface DeviceRow {
  /** Points stored for the day (contact or not). */
  readonly points: number;
  /** 1 when the day is an online day (≥ 1 point, spec §9). */
  readonly online: 0 | 1;
  /** Points that were contact (received within 3 minutes of their GPS time). */
  readonly contacts: number;
  readonly sessions: number;
  readonly onlineMinutes: number;
  /** Gaps over 3 minutes between contacts ended this day, and their minutes (clipped at 00:00). */
  readonly offlines: number;
  readonly offlineMinutes: number;
  readonly longestOfflineMinutes: number;
  readonly firstContact: number | null;
  readonly lastContact: number | null;
}

/** Values of an 'online' event: the session's minutes, contact points, and 1 when it was still running at the day's last point. */
export interface OnlineValue { minutes: number; points: number; open: 0 | 1 }

export interface DeviceCarry {
  readonly dayStart: number;
  /** The last contact before the day (from `context.previous`), or null. */
  readonly before: number | null;
  points: number;
  contacts: number;
  /** The open session: its start, place, contact count; `last` = its latest contact. */
  from: number | null;
  lng: number;
  lat: number;
  n: number;
  last: number | null;
  first: number | null;
  sessions: number;
  onlineMs: number;
  offlines: number;
  offlineMs: number;
  longestMs: number;
}

/** Whether a stored point proves contact at its GPS time (received within the offline threshold of it). */
export function isContact(p: Pick<DayPoint, 't' | 'receivedAt'>): boolean {
  return Math.abs(p.receivedAt - p.t) <= OFFLINE_AFTER_MS;
}

const minutes = (ms: number) => ms / 60_000;

function session(c: DeviceCarry, open: 0 | 1): DayEvent {
  const from = c.from ?? c.dayStart;
  const end = c.last ?? from;
  const value: OnlineValue = { minutes: minutes(end - from), points: c.n, open };
  return { kind: DeviceEventKind.online, start: from, end, lng: c.lng, lat: c.lat, value: { ...value } };
}

export const deviceModule: DayModule<DeviceCarry, DeviceRow> = {
  key: DEVICE_MODULE_KEY,

  start(context: DayContext): DeviceCarry {
    const p = context.previous;
    return {
      dayStart: context.dayStart, before: p && isContact(p) ? p.t : null,
      points: 0, contacts: 0, from: null, lng: 0, lat: 0, n: 0, last: null, first: null,
      sessions: 0, onlineMs: 0, offlines: 0, offlineMs: 0, longestMs: 0,
    };
  },

  step(c: DeviceCarry, p: DayPoint, events: DayEvent[]): void {
    c.points++;
    if (!isContact(p)) return;
    c.contacts++;
    c.first ??= p.t;
    const prev = c.last ?? c.before;
    let opens = c.last === null;
    if (prev !== null && p.t - prev > OFFLINE_AFTER_MS) {
      // An offline ends here: counted today, its minutes from 00:00 at the earliest.
      const off = p.t - Math.max(prev, c.dayStart);
      c.offlines++;
      c.offlineMs += off;
      if (off > c.longestMs) c.longestMs = off;
      if (c.last !== null) {
        const e = session(c, 0);
        events.push(e);
        c.onlineMs += e.end - e.start;
      }
      opens = true;
    }
    if (opens) {
      // The day's first session continues yesterday's when its last contact is within the threshold.
      const continued = c.last === null && prev !== null && p.t - prev <= OFFLINE_AFTER_MS;
      c.from = continued ? c.dayStart : p.t;
      c.lng = p.lng;
      c.lat = p.lat;
      c.n = 0;
      c.sessions++;
    }
    c.n++;
    c.last = p.t;
  },

  finish(c: DeviceCarry, events: DayEvent[]): DeviceRow {
    let onlineMs = c.onlineMs;
    if (c.last !== null) {
      const e = session(c, 1);
      events.push(e);
      onlineMs += e.end - e.start;
    }
    return {
      points: c.points,
      online: isOnlineDay(c.points) ? 1 : 0,
      contacts: c.contacts,
      sessions: c.sessions,
      onlineMinutes: minutes(onlineMs),
      offlines: c.offlines,
      offlineMinutes: minutes(c.offlineMs),
      longestOfflineMinutes: minutes(c.longestMs),
      firstContact: c.first,
      lastContact: c.last,
    };
  },
};

/** A span of heartbeat contact (ms): every heartbeat in it came within OFFLINE_AFTER_MS of the one before. */
export interface SeenSpan { readonly start: number; readonly end: number }

/**
 * Whether a heartbeat span meets the China day [dayStart, dayEnd): it starts before the day ends and ends at or after
 * its start. Spans never cross a China midnight (server/services/report-engine/seen.ts cuts contact running across it
 * into one span each side), so a span meets at most its own day, and yesterday's span cut at exactly 00:00 (a heartbeat
 * came after midnight, which opened today's span) meets today at its first instant.
 */
export function seenMeetsDay(span: SeenSpan, dayStart: number, dayEnd: number): boolean {
  return span.start < dayEnd && span.end >= dayStart && span.end >= span.start;
}

/**
 * The online-day rule of every report that says whether a vehicle was online on a China day (spec §9 with heartbeats
 * as contact): at least one stored position that day (`isOnlineDay`, contact or not: a blind-area re-upload proves the
 * terminal was working), or heartbeat contact (0x0002) meeting the day, so a terminal that only heartbeats is online.
 * The device-work and online-analysis reports (`withSeen`) and the positioning-quality reports
 * (server/services/reports/, its online rate) all decide it here.
 */
export function isContactDay(points: number, seen: readonly SeenSpan[], dayStart: number, dayEnd: number): boolean {
  return isOnlineDay(points) || seen.some((s) => seenMeetsDay(s, dayStart, dayEnd));
}

/**
 * The day's row with the terminal's heartbeat contact laid over its position sessions (the `online` events of
 * this module): a heartbeat span is contact like a position received on time. The sessions are the union of
 * both, joined where the gap is at most the offline threshold; online minutes are their length; an offline is a
 * gap over it between two of them. The offline that ended the day's first position session (it began before the
 * first contact, maybe yesterday) is kept, shortened to end where the first contact of either kind is; the day
 * of a terminal that only heartbeats counts no such offline (its contact before the day is not known here).
 * Points and contacts stay the positions' own. No spans: the row as it is.
 */
export function withSeen(row: DeviceRow, sessions: readonly SeenSpan[], seen: readonly SeenSpan[], dayStart: number, dayEnd: number): DeviceRow {
  const spans = seen.filter((s) => seenMeetsDay(s, dayStart, dayEnd)).map((s) => ({ start: Math.max(s.start, dayStart), end: Math.min(s.end, dayEnd) }));
  if (spans.length === 0) return row;
  const own = [...sessions].sort((a, b) => a.start - b.start);
  const all = [...own, ...spans].sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: { start: number; end: number }[] = [];
  for (const s of all) {
    const last = merged[merged.length - 1];
    if (last && s.start - last.end <= OFFLINE_AFTER_MS) last.end = Math.max(last.end, s.end);
    else merged.push({ start: s.start, end: s.end });
  }
  let offlines = 0, offlineMs = 0, longestMs = 0;
  const gap = (ms: number) => {
    offlines++;
    offlineMs += ms;
    if (ms > longestMs) longestMs = ms;
  };
  // The leading offline of the positions: what their offlines hold beyond the gaps between their own sessions.
  if (own.length > 0) {
    let between = 0;
    for (let i = 1; i < own.length; i++) between += own[i]!.start - own[i - 1]!.end;
    const leadingMs = row.offlineMinutes * 60_000 - between;
    if (row.offlines - (own.length - 1) >= 1 && leadingMs > 0) {
      const from = own[0]!.start - leadingMs;
      const ms = merged[0]!.start - from;
      if (ms > 0) gap(ms);
    }
  }
  for (let i = 1; i < merged.length; i++) gap(merged[i]!.start - merged[i - 1]!.end);
  let onlineMs = 0;
  for (const m of merged) onlineMs += m.end - m.start;
  const firstSeen = spans.reduce((m, s) => Math.min(m, s.start), Infinity);
  const lastSeen = spans.reduce((m, s) => Math.max(m, s.end), -Infinity);
  return {
    ...row,
    online: isContactDay(row.points, spans, dayStart, dayEnd) ? 1 : 0,
    sessions: merged.length,
    onlineMinutes: minutes(onlineMs),
    offlines,
    offlineMinutes: minutes(offlineMs),
    longestOfflineMinutes: minutes(longestMs),
    firstContact: row.firstContact === null ? firstSeen : Math.min(row.firstContact, firstSeen),
    lastContact: row.lastContact === null ? lastSeen : Math.max(row.lastContact, lastSeen),
  };
}
