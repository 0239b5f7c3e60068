import { describe, expect, it } from 'vitest';
import { deviceModule, isContact, isContactDay, withSeen, type DeviceCarry, type DeviceRow } from './device.ts';
import type { DayContext, DayEvent, DayPoint } from './module.ts';
import { reduceDay } from './operation.ts';
import { chinaDayStartMs, DAY_MS } from '../track/days.ts';

const DAY = Date.UTC(2026, 10, 20) / DAY_MS;
const D0 = chinaDayStartMs(DAY);
const MIN = 60_000;
const at = (h: number, m: number, s = 0) => D0 + ((h * 60 + m) * 60 + s) * 1000;

function pt(t: number, receivedAt = t + 1000): DayPoint {
  return { t, lng: 116.4, lat: 39.9, speed: 0, status: 3, alarm: 0, mileage: null, fuel: null, receivedAt };
}
/** One point every `everyS` seconds in [from, to). */
function every(from: number, to: number, everyS = 60): DayPoint[] {
  const out: DayPoint[] = [];
  for (let t = from; t < to; t += everyS * 1000) out.push(pt(t));
  return out;
}
const ctx = (previous: DayPoint | null = null): DayContext => ({ vehicleId: 1, day: DAY, dayStart: D0, dayEnd: D0 + DAY_MS, previous, settings: {} });

describe('device module: online sessions', () => {
  it('splits the day at a gap over 3 minutes: two sessions, one offline of its length', () => {
    // 08:00–09:00 every minute (last 08:59), silent until 09:30, then to 10:00 (last 09:59).
    const points = [...every(at(8, 0), at(9, 0)), ...every(at(9, 30), at(10, 0))];
    const { row, events } = reduceDay(deviceModule, ctx(), points);
    expect(row).toMatchObject({ points: 90, online: 1, contacts: 90, sessions: 2, offlines: 1, firstContact: at(8, 0), lastContact: at(9, 59) });
    expect(row.onlineMinutes).toBe(59 + 29);
    expect(row.offlineMinutes).toBe(31); // 08:59 → 09:30
    expect(row.longestOfflineMinutes).toBe(31);
    expect(events.map((e) => [e.start, e.end, e.value['open']])).toEqual([[at(8, 0), at(8, 59), 0], [at(9, 30), at(9, 59), 1]]);
  });

  it('a gap of exactly 3 minutes is still online; 3 minutes and 1 second is offline', () => {
    const still = reduceDay(deviceModule, ctx(), [pt(at(8, 0)), pt(at(8, 3)), pt(at(8, 6, 1))]);
    expect(still.row).toMatchObject({ sessions: 2, offlines: 1 });
    expect(still.row.onlineMinutes).toBe(3);
  });

  it('a blind-area re-upload makes the day online but is no contact', () => {
    const late = pt(at(8, 10), at(11, 0)); // recorded 08:10, received 11:00
    expect(isContact(late)).toBe(false);
    const { row } = reduceDay(deviceModule, ctx(), [pt(at(8, 0)), late, pt(at(8, 20))]);
    expect(row).toMatchObject({ points: 3, online: 1, contacts: 2, sessions: 2, offlines: 1, offlineMinutes: 20 });
    const onlyLate = reduceDay(deviceModule, ctx(), [late]);
    expect(onlyLate.row).toMatchObject({ online: 1, contacts: 0, sessions: 0, onlineMinutes: 0 });
    expect(onlyLate.events).toEqual([]);
  });

  it('continues a session across midnight from 00:00, and counts an offline begun yesterday from 00:00', () => {
    const across = reduceDay(deviceModule, ctx(pt(D0 - MIN)), every(D0 + MIN, at(0, 10)));
    expect(across.row).toMatchObject({ sessions: 1, offlines: 0 });
    expect(across.events[0]).toMatchObject({ start: D0, end: at(0, 9) });
    const gap = reduceDay(deviceModule, ctx(pt(D0 - 60 * MIN)), [pt(at(0, 30)), pt(at(0, 31))]);
    expect(gap.row).toMatchObject({ sessions: 1, offlines: 1, offlineMinutes: 30, onlineMinutes: 1 });
  });

  it('a carry saved as JSON mid-day resumes to the same row (the engine persists it)', () => {
    const points = [...every(at(1, 0), at(2, 0), 30), ...every(at(2, 20), at(3, 0), 45)];
    const whole = reduceDay(deviceModule, ctx(), points);
    let carry = deviceModule.start(ctx());
    const events: DayEvent[] = [];
    points.forEach((p, i) => {
      deviceModule.step(carry, p, events);
      if (i % 17 === 0) carry = JSON.parse(JSON.stringify(carry)) as DeviceCarry;
    });
    expect(deviceModule.finish(carry, events)).toEqual(whole.row);
    expect(events).toEqual(whole.events);
  });
});

/** The same figures straight from the raw points (sort, keep contacts, split at gaps), written independently. */
function fromRaw(points: readonly DayPoint[]) {
  const contacts = points.filter((p) => Math.abs(p.receivedAt - p.t) <= 3 * MIN).map((p) => p.t).sort((a, b) => a - b);
  const sessions: [number, number][] = [];
  let gaps = 0;
  let gapMs = 0;
  for (const t of contacts) {
    const s = sessions[sessions.length - 1];
    if (s && t - s[1] <= 3 * MIN) s[1] = t;
    else {
      if (s) {
        gaps++;
        gapMs += t - s[1];
      }
      sessions.push([t, t]);
    }
  }
  return { sessions, gaps, gapMinutes: gapMs / MIN, onlineMinutes: sessions.reduce((a, [f, l]) => a + (l - f), 0) / MIN };
}

describe('device module against a recompute from raw points', () => {
  it('agrees on a day of a terminal with random gaps and late uploads', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const points: DayPoint[] = [];
    for (let t = at(0, 5); t < D0 + DAY_MS; t += (rnd() < 0.02 ? 5 + rnd() * 90 : 0.5 + rnd() * 2.4) * MIN) {
      points.push(pt(Math.round(t / 1000) * 1000, rnd() < 0.03 ? t + 2 * 3_600_000 : t + 2000));
    }
    const { row, events } = reduceDay(deviceModule, ctx(), points);
    const raw = fromRaw(points);
    expect(raw.gaps).toBeGreaterThan(5);
    expect(row.sessions).toBe(raw.sessions.length);
    expect(events.map((e) => [e.start, e.end])).toEqual(raw.sessions);
    expect(row.offlines).toBe(raw.gaps);
    expect(row.offlineMinutes).toBeCloseTo(raw.gapMinutes, 9);
    expect(row.onlineMinutes).toBeCloseTo(raw.onlineMinutes, 9);
    expect(row.points).toBe(points.length);
  });
});

describe('withSeen: heartbeat contact laid over the position sessions', () => {
  const ZERO: DeviceRow = {
    points: 0, online: 0, contacts: 0, sessions: 0, onlineMinutes: 0, offlines: 0, offlineMinutes: 0, longestOfflineMinutes: 0, firstContact: null, lastContact: null,
  };
  const sessionsOf = (events: DayEvent[]) => events.filter((e) => e.kind === 'online');

  it('a day of heartbeats only: online, one session of their span, no offline, no point', () => {
    const row = withSeen(ZERO, [], [{ start: at(2, 0), end: at(2, 4) }], D0, D0 + DAY_MS);
    expect(row).toMatchObject({ points: 0, online: 1, sessions: 1, onlineMinutes: 4, offlines: 0, firstContact: at(2, 0), lastContact: at(2, 4) });
  });

  it('heartbeats filling the gap between two position sessions join them: no offline left', () => {
    // Positions 08:00–08:59 and 09:30–09:59 (offline 31 min); heartbeats 08:59:30–09:29 bridge it (gaps ≤ 3 min).
    const { row, events } = reduceDay(deviceModule, ctx(), [...every(at(8, 0), at(9, 0)), ...every(at(9, 30), at(10, 0))]);
    const merged = withSeen(row, sessionsOf(events), [{ start: at(8, 59, 30), end: at(9, 29) }], D0, D0 + DAY_MS);
    expect(merged).toMatchObject({ points: 90, contacts: 90, online: 1, sessions: 1, offlines: 0, offlineMinutes: 0, firstContact: at(8, 0), lastContact: at(9, 59) });
    expect(merged.onlineMinutes).toBe(119);
  });

  it('heartbeats inside the gap but not reaching either side: three sessions, two offlines of the hand-computed minutes', () => {
    // Offline 08:59 → 09:30 becomes 08:59 → 09:10 (11 min) and 09:15 → 09:30 (15 min); online 59 + 5 + 29.
    const { row, events } = reduceDay(deviceModule, ctx(), [...every(at(8, 0), at(9, 0)), ...every(at(9, 30), at(10, 0))]);
    const merged = withSeen(row, sessionsOf(events), [{ start: at(9, 10), end: at(9, 15) }], D0, D0 + DAY_MS);
    expect(merged).toMatchObject({ sessions: 3, offlines: 2, offlineMinutes: 26, longestOfflineMinutes: 15, onlineMinutes: 93 });
  });

  it('an offline begun yesterday ends at the first heartbeat when that comes before the first position', () => {
    // Last contact yesterday 23:00: today's first position at 01:00 ends an offline counted from 00:00 (60 min).
    const previous = pt(D0 - 60 * MIN);
    const { row, events } = reduceDay(deviceModule, ctx(previous), every(at(1, 0), at(2, 0)));
    expect(row).toMatchObject({ offlines: 1, offlineMinutes: 60 });
    const merged = withSeen(row, sessionsOf(events), [{ start: at(0, 40), end: at(0, 59) }], D0, D0 + DAY_MS);
    // Heartbeats from 00:40 to 00:59 join the 01:00 session: offline 00:00 → 00:40.
    expect(merged).toMatchObject({ sessions: 1, offlines: 1, offlineMinutes: 40, firstContact: at(0, 40) });
    expect(merged.onlineMinutes).toBe(79);
  });

  it('spans of other days are clipped away; without any the row is the same object', () => {
    const { row, events } = reduceDay(deviceModule, ctx(), every(at(8, 0), at(9, 0)));
    expect(withSeen(row, sessionsOf(events), [{ start: D0 - 10 * MIN, end: D0 - MIN }], D0, D0 + DAY_MS)).toBe(row);
    expect(withSeen(row, sessionsOf(events), [], D0, D0 + DAY_MS)).toBe(row);
  });
});

describe('isContactDay: the online-day rule with heartbeats (every report that says online)', () => {
  const END = D0 + DAY_MS;
  it('one stored position is an online day; no position and no heartbeat is not', () => {
    expect(isContactDay(1, [], D0, END)).toBe(true);
    expect(isContactDay(0, [], D0, END)).toBe(false);
  });

  it('a day of heartbeats only (02:00-02:04, no position) is online', () => {
    expect(isContactDay(0, [{ start: at(2, 0), end: at(2, 4) }], D0, END)).toBe(true);
    // A single heartbeat is a span of zero length: still contact.
    expect(isContactDay(0, [{ start: at(23, 59, 59), end: at(23, 59, 59) }], D0, END)).toBe(true);
  });

  it('spans of other days do not count: yesterday 23:00-23:59:59 and tomorrow from 00:00', () => {
    const yesterday = { start: D0 - 60 * MIN, end: D0 - 1000 };
    const tomorrow = { start: END, end: END + 5 * MIN };
    expect(isContactDay(0, [yesterday, tomorrow], D0, END)).toBe(false);
  });

  it("yesterday's span cut at exactly 00:00 meets today at its first instant (a heartbeat came after midnight)", () => {
    expect(isContactDay(0, [{ start: D0 - 2 * MIN, end: D0 }], D0, END)).toBe(true);
  });

  it('withSeen decides online by the same rule', () => {
    const ZERO: DeviceRow = {
      points: 0, online: 0, contacts: 0, sessions: 0, onlineMinutes: 0, offlines: 0, offlineMinutes: 0, longestOfflineMinutes: 0, firstContact: null, lastContact: null,
    };
    const spans = [{ start: D0 - 2 * MIN, end: D0 }];
    expect(withSeen(ZERO, [], spans, D0, END).online).toBe(isContactDay(0, spans, D0, END) ? 1 : 0);
  });
});
