import { describe, expect, it } from 'vitest';
import { alarmPeriodEnd, EVIDENCE_TRACK_MARGIN_MS, evidenceTrackHref, evidenceWindow, formatPlace, handledOutcome, fromLocalInput, playbackHref, PLAYBACK_MARGIN_MS, rangeProblem, todayRange, toLocalInput, vehicleHistoryRange } from './format.ts';

const NOW = new Date(2026, 10, 22, 19, 0, 0).getTime();

describe('alarm helpers', () => {
  it('opens track playback half an hour either side of the alarm, never ending in the future', () => {
    const alarm = { vehicleId: 7, vehiidno: '沪A1', gpsTime: NOW - 5 * 60_000 };
    const q = new URLSearchParams(playbackHref(alarm, NOW).split('?')[1]);
    expect(playbackHref(alarm, NOW)).toMatch(/^\/monitor\/trackPlaybackPage\?/);
    expect(Number(q.get('vehicleId'))).toBe(7);
    expect(Number(q.get('startTime'))).toBe(alarm.gpsTime - PLAYBACK_MARGIN_MS);
    expect(Number(q.get('endTime'))).toBe(NOW);
    const old = { ...alarm, gpsTime: NOW - 3 * 3_600_000 };
    expect(Number(new URLSearchParams(playbackHref(old, NOW).split('?')[1]).get('endTime'))).toBe(old.gpsTime + PLAYBACK_MARGIN_MS);
  });

  it('refuses a query reaching back more than three months, and a start after the end', () => {
    const d = new Date(NOW);
    d.setUTCMonth(d.getUTCMonth() - 3);
    expect(rangeProblem(d.getTime() - 60_000, NOW, NOW)).toBe('tooOld');
    expect(rangeProblem(d.getTime() + 60_000, NOW, NOW)).toBeNull();
    expect(rangeProblem(NOW, NOW - 1, NOW)).toBe('badRange');
    expect(rangeProblem(NaN, NOW, NOW)).toBe('badRange');
  });

  it('defaults to today from midnight', () => {
    const { start, end } = todayRange(NOW);
    expect(toLocalInput(start)).toBe('2026-11-22T00:00');
    expect(toLocalInput(end)).toBe('2026-11-22T23:59');
  });

  it('reads back what the date input shows', () => {
    expect(fromLocalInput(toLocalInput(NOW))).toBe(NOW);
    expect(fromLocalInput('')).toBeNaN();
  });

  it('shows a place as longitude and latitude, or a dash without a fix', () => {
    expect(formatPlace(121.5, 31.2)).toBe('121.50000, 31.20000');
    expect(formatPlace(NaN, 31)).toBe('—');
  });
});

describe('the handling outcome in plain words', () => {
  it('says the terminal confirmed only when it answered 0, and names offline, silence and nothing to send apart', () => {
    expect(handledOutcome(0)).toBe('confirmed');
    expect([1, 2, 3].map(handledOutcome)).toEqual(['refused', 'refused', 'refused']);
    expect(handledOutcome(-1)).toBe('offline');
    expect(handledOutcome(-2)).toBe('noReply');
    expect(handledOutcome(-3)).toBe('notNeeded');
    expect(handledOutcome(null)).toBe('plain');
  });
});

describe('alarm evidence links', () => {
  it('opens the track 5 minutes either side of the alarm, never ending in the future', () => {
    const alarm = { vehicleId: 7, vehiidno: '沪A1', gpsTime: NOW - 60 * 60_000 };
    const q = new URLSearchParams(evidenceTrackHref(alarm, NOW).split('?')[1]);
    expect(Number(q.get('startTime'))).toBe(alarm.gpsTime - EVIDENCE_TRACK_MARGIN_MS);
    expect(Number(q.get('endTime'))).toBe(alarm.gpsTime + EVIDENCE_TRACK_MARGIN_MS);
    const fresh = { ...alarm, gpsTime: NOW - 60_000 };
    expect(Number(new URLSearchParams(evidenceTrackHref(fresh, NOW).split('?')[1]).get('endTime'))).toBe(NOW);
  });

  it('asks the media report from 10 minutes before the alarm to an hour after it last occurred', () => {
    const w = evidenceWindow({ startTime: NOW, lastTime: NOW + 5 * 60_000, endTime: null });
    expect(w).toEqual({ startTime: NOW - 10 * 60_000, endTime: NOW + 65 * 60_000 });
    // An alarm held for 40 days stays within the report's 31-day limit.
    const long = evidenceWindow({ startTime: NOW, lastTime: NOW, endTime: NOW + 40 * 86_400_000 });
    expect(long.endTime - long.startTime).toBeLessThan(31 * 86_400_000);
  });
});

describe('the period of a vehicle’s alarm history (the vehicle menu)', () => {
  it('opens on the last 7 whole days, today included, not on today only', () => {
    const now = new Date(2026, 10, 25, 14, 30);
    expect(vehicleHistoryRange(now)).toEqual({ start: '2026-11-19T00:00', end: '2026-11-25T23:59' });
  });

  it('never reaches further back than the spec’s 3 months (the 7 days fit well inside them)', () => {
    const now = new Date(2026, 10, 25, 14, 30);
    const { start } = vehicleHistoryRange(now);
    expect(rangeProblem(fromLocalInput(start), now.getTime(), now.getTime())).toBeNull();
  });

  it('counts the whole last minute of a period: 23:59 includes 23:59:59', () => {
    expect(alarmPeriodEnd('2026-11-25T23:59')).toBe(new Date(2026, 10, 25, 23, 59, 59, 999).getTime());
    expect(Number.isNaN(alarmPeriodEnd('bad'))).toBe(true);
  });
});
