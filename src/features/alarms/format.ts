/** Pure helpers of the alarm pop-up and the processing page (unit-tested). */
import { alarmQueryEarliest } from '../../../domain/alarms/engine.ts';
import { quickRange, type Period } from '../../../domain/period/period.ts';

/** Track playback around an alarm: the alarm window of spec §9 (30 min) on both sides. */
export const PLAYBACK_MARGIN_MS = 30 * 60_000;

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-11-22 19:05:03` in local time; '—' for a missing time. */
export function formatTime(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms) || ms <= 0) return '—';
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** `121.50000, 31.20000`; '—' when the alarm has no fix. */
export function formatPlace(lng: number, lat: number): string {
  if (!Number.isFinite(lng) || !Number.isFinite(lat) || (lng === 0 && lat === 0)) return '—';
  return `${lng.toFixed(5)}, ${lat.toFixed(5)}`;
}

/** The playback page's URL around an alarm; the end never lies in the future. */
export function playbackHref(alarm: { vehicleId: number; vehiidno: string; gpsTime: number }, now: number): string {
  const startTime = alarm.gpsTime - PLAYBACK_MARGIN_MS;
  const endTime = Math.min(alarm.gpsTime + PLAYBACK_MARGIN_MS, Math.max(now, alarm.gpsTime + 60_000));
  const q = new URLSearchParams({ vehicleId: String(alarm.vehicleId), startTime: String(startTime), endTime: String(endTime), plate: alarm.vehiidno });
  return `/monitor/trackPlaybackPage?${q.toString()}`;
}

/** Track playback from an alarm's evidence: the moment itself, 5 minutes either side (issue 13). */
export const EVIDENCE_TRACK_MARGIN_MS = 5 * 60_000;

/** The playback URL around an alarm's moment (± 5 min); the end never lies in the future. */
export function evidenceTrackHref(alarm: { vehicleId: number; vehiidno: string; gpsTime: number }, now: number): string {
  const startTime = alarm.gpsTime - EVIDENCE_TRACK_MARGIN_MS;
  const endTime = Math.min(alarm.gpsTime + EVIDENCE_TRACK_MARGIN_MS, Math.max(now, alarm.gpsTime + 60_000));
  const q = new URLSearchParams({ vehicleId: String(alarm.vehicleId), startTime: String(startTime), endTime: String(endTime), plate: alarm.vehiidno });
  return `/monitor/trackPlaybackPage?${q.toString()}`;
}

/** The vehicle's live video (every camera), as the pop-up's multi-live button opens it. */
export function liveVideoHref(alarm: { vehicleId: number; vehiidno: string }): string {
  return `/monitor/videoMonitor?vehicleId=${alarm.vehicleId}&plate=${encodeURIComponent(alarm.vehiidno)}`;
}

/**
 * The capture window in which the media report is asked for an alarm's evidence: from 10 minutes
 * before the alarm to an hour after it last occurred (photos and clips arrive after the alarm,
 * uploaded by the terminal), within the report's 31-day limit.
 */
export function evidenceWindow(alarm: { startTime: number; lastTime: number; endTime: number | null }): { startTime: number; endTime: number } {
  const startTime = alarm.startTime - 10 * 60_000;
  const last = Math.max(alarm.lastTime, alarm.endTime ?? 0, alarm.startTime);
  return { startTime, endTime: Math.min(last + 3_600_000, startTime + 31 * 86_400_000 - 1) };
}

/** Why a query range is refused before calling (spec §5: the last 3 months only), or null. */
export function rangeProblem(startTime: number, endTime: number, now: number): 'tooOld' | 'badRange' | null {
  if (!Number.isFinite(startTime) || !Number.isFinite(endTime) || startTime > endTime) return 'badRange';
  if (startTime < alarmQueryEarliest(now)) return 'tooOld';
  return null;
}

/**
 * The period a vehicle's alarm history opens with (issue 13: today only was too short): the last 7
 * whole days, or from the earliest time the spec lets an alarm query reach (the last 3 months, §5)
 * when that is shorter. Visible and changeable on the page.
 */
export function vehicleHistoryRange(now: Date): Period {
  const week = quickRange('last7Days', now, 'datetime');
  const earliest = alarmQueryEarliest(now.getTime());
  if (fromLocalInput(week.start) >= earliest) return week;
  // Whole minutes, rounded up so the start stays inside the limit.
  return { start: toLocalInput(Math.ceil(earliest / 60_000) * 60_000), end: week.end };
}

/** The end of a period field (minutes): the whole minute it names counts, so 23:59 includes 23:59:30. */
export function alarmPeriodEnd(text: string): number {
  return fromLocalInput(text) + 59_999;
}

/** Today from local midnight to the end of the day (the processing page's default range). */
export function todayRange(now: number): { start: number; end: number } {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  const start = d.getTime();
  d.setHours(23, 59, 59, 0);
  return { start, end: d.getTime() };
}

/** `<input type="datetime-local">` value of a time (local). */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Parses a datetime-local value (local time); NaN when empty or malformed. */
export function fromLocalInput(text: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!m) return NaN;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)).getTime();
}

/** Mantine colour of a risk level. */
export function riskColor(level: string): string {
  return level === 'high' ? 'red' : level === 'medium' ? 'orange' : level === 'low' ? 'yellow' : 'gray';
}

/**
 * What a handling did, in plain words: the message key (`handle.outcome.<key>`) for the terminal
 * result code of confirmAlarmAndReplyDevice (server/services/safe/messages.ts: 0–3 the terminal's
 * answer, -1 offline, -2 no reply, -3 nothing to send). The operator learns that the alarm IS
 * handled and what the driver's terminal knows, not a protocol status ("终端应答：该报警无需下发终端").
 */
export function handledOutcome(result: number | null): 'plain' | 'confirmed' | 'refused' | 'offline' | 'noReply' | 'notNeeded' {
  switch (result) {
    case 0: return 'confirmed';
    case 1: case 2: case 3: return 'refused';
    case -1: return 'offline';
    case -2: return 'noReply';
    case -3: return 'notNeeded';
    default: return 'plain';
  }
}
