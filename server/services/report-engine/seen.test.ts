/**
 * Heartbeats count as contact (issue 18 leftovers): a scripted terminal that only sends heartbeats (0x0002) for 4
 * simulated minutes — no position at all — stays online live and in the online and device-work reports; its
 * contact is stored as ONE span row, not a row per heartbeat. An unauthenticated connection's heartbeats change
 * nothing (session.ts rule). The test clock makes the minutes steps, not sleeps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chinaDateOfDay, chinaDayIndex, chinaDayStartMs } from '../../../domain/track/days.ts';
import { isOnline } from '../../../domain/vehicle/state.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { MSG } from '../../gateway/jt808/index.ts';
import { TestTerminal } from '../../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';
import { ScriptedFleet, type SeededVehicle } from '../../test/scripted-fleet.ts';
import type { SqliteReportEngine } from './engine.ts';

const MIN = 60_000;
interface Page<T> { records: T[]; total: number; totals: Record<string, number> }
type Rec = Record<string, unknown>;

let server: LiveTestServer;
let fleet: ScriptedFleet;
let admin: string;
let beating: SeededVehicle; // authenticated, heartbeats only
let stranger: SeededVehicle; // its terminal never authenticates, heartbeats anyway
let day: number;
let from: number;
const strangerReplies: number[] = [];

const online = (vehicleId: number) => {
  const store = server.app.live.store;
  return isOnline(store.stateOf(store.slotOf(vehicleId)));
};
const seenRows = (vehicleId: number) => (server.app.storage as SqliteStorage).db
  .prepare('SELECT start, "end" FROM terminal_seen WHERE vehicle_id = ? ORDER BY start').all(vehicleId) as { start: number; end: number }[];

async function list(path: string, vehicleIds: number[]) {
  const d = chinaDateOfDay(day);
  const r = await server.call<Page<Rec>>('POST', path, { token: admin, body: { startDate: d, endDate: d, vehicleIds, current: 1, size: 100 } });
  expect(r.code, r.msg).toBe(200);
  return r.data;
}

beforeAll(async () => {
  server = await startLiveServer();
  fleet = await ScriptedFleet.open(server);
  admin = await server.login('admin', 'admin123');
  beating = fleet.fresh();
  stranger = fleet.fresh();
  // 02:00 China time of the next day: no seeded position of these vehicles that day.
  day = chinaDayIndex(server.clock.now()) + 1;
  server.clock.advance(chinaDayStartMs(day) + 2 * 60 * MIN - server.clock.now());
  from = server.clock.now();

  const t = await fleet.terminal(beating);
  const u = await TestTerminal.connect(server.gatewayPort, stranger.deviceNo); // connected, never 0x0102
  // A heartbeat every 30 s for 4 minutes (02:00:00 … 02:04:00), and nothing else.
  for (let i = 0; i <= 8; i++) {
    expect((await t.request({ msgId: MSG.HEARTBEAT })).result).toBe(0);
    strangerReplies.push((await u.request({ msgId: MSG.HEARTBEAT })).result);
    if (i < 8) server.clock.advance(30_000);
  }
  await u.close();
}, 60_000);
afterAll(async () => {
  await fleet?.close();
  await server?.close();
});

describe('heartbeats are contact (0x0002 through the gateway)', () => {
  it('the heartbeating terminal stays online live for its 4 minutes without a position; the stranger is refused and stays offline', () => {
    expect(online(beating.vehicleId)).toBe(true);
    expect(strangerReplies.every((r) => r === 1)).toBe(true);
    expect(online(stranger.vehicleId)).toBe(false);
  });

  it('its contact is one span row, written at most every 30 s, not a row per heartbeat; the stranger has none', () => {
    (server.app.reportEngine as SqliteReportEngine).seen!.flush();
    expect(seenRows(beating.vehicleId)).toEqual([{ start: from, end: from + 4 * MIN }]);
    expect(seenRows(stranger.vehicleId)).toEqual([]);
  });

  it('device online report: online that day, one session of 4 minutes, no offline; the stranger has no row', async () => {
    const page = await list('/service-safe/devstatus/onlinelist', [beating.vehicleId, stranger.vehicleId]);
    const row = page.records.find((r) => r['vehicleId'] === beating.vehicleId)!;
    expect(row).toMatchObject({ online: true, sessions: 1, onlineMinutes: 4, offlines: 0, firstContact: from, lastContact: from + 4 * MIN });
    expect(page.records.find((r) => r['vehicleId'] === stranger.vehicleId)).toMatchObject({ online: false, sessions: 0, onlineMinutes: 0 });
  });

  it('online analysis: an online day with no point; the online rate counts it', async () => {
    const daily = await list('/service-onlinegps/onlineanalysis/daily', [beating.vehicleId, stranger.vehicleId]);
    expect(daily.records.find((r) => r['vehicleId'] === beating.vehicleId)).toMatchObject({ online: true, points: 0, onlineMinutes: 4 });
    expect(daily.records.find((r) => r['vehicleId'] === stranger.vehicleId)).toMatchObject({ online: false, points: 0 });
    const rate = await list('/service-onlinegps/onlineanalysis/rate', [beating.vehicleId, stranger.vehicleId]);
    expect(rate.totals).toMatchObject({ days: 2, onlineDays: 1, onlineRate: 50 });
  });

  it('positioning-quality reports (offlinereport): the heartbeat-only day is online and counts in the online rate', async () => {
    // Yesterday and the heartbeat day; neither vehicle has a position on either.
    const body = { startDate: chinaDateOfDay(day - 1), endDate: chinaDateOfDay(day), vehicleIds: [beating.vehicleId, stranger.vehicleId], current: 1, size: 100 };
    const rate = await server.call<Page<Rec>>('POST', '/service-onlinegps/offlinereport/onlinerate', { token: admin, body });
    expect(rate.code, rate.msg).toBe(200);
    expect(rate.data.records.find((r) => r['vehicleId'] === beating.vehicleId)).toMatchObject({ days: 2, onlineDays: 1, onlineRate: 50 });
    expect(rate.data.records.find((r) => r['vehicleId'] === stranger.vehicleId)).toMatchObject({ days: 2, onlineDays: 0, onlineRate: 0 });
    const daily = await server.call<Page<Rec>>('POST', '/service-onlinegps/offlinereport/daily', { token: admin, body });
    expect(daily.code, daily.msg).toBe(200);
    const mine = daily.data.records.filter((r) => r['vehicleId'] === beating.vehicleId).map((r) => [r['date'], r['totalGps'], r['online']]);
    expect(mine).toEqual([[chinaDateOfDay(day - 1), 0, false], [chinaDateOfDay(day), 0, true]]);
  });

  it('a silence over 3 minutes ends the span: the next heartbeat opens a second one, and the report counts the offline between', async () => {
    const t = await fleet.terminal(beating);
    server.clock.advance(10 * MIN); // 02:14
    expect((await t.request({ msgId: MSG.HEARTBEAT })).result).toBe(0);
    server.clock.advance(MIN);
    expect((await t.request({ msgId: MSG.HEARTBEAT })).result).toBe(0);
    (server.app.reportEngine as SqliteReportEngine).seen!.flush();
    expect(seenRows(beating.vehicleId)).toEqual([{ start: from, end: from + 4 * MIN }, { start: from + 14 * MIN, end: from + 15 * MIN }]);
    const page = await list('/service-safe/devstatus/onlinelist', [beating.vehicleId]);
    // 02:04 → 02:14 offline (10 min); online 4 + 1 minutes.
    expect(page.records[0]).toMatchObject({ sessions: 2, onlineMinutes: 5, offlines: 1, offlineMinutes: 10, longestOfflineMinutes: 10 });
  });
});
