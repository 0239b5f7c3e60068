/**
 * Issue 12 §5: nothing a user may come back for is lost at restart, and history does not grow without
 * bound. Each test runs a real server on a temporary DATA_DIR (restarted on the same directory where a
 * restart is the point) with the test clock driving lifetimes.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chinaDateOfDay, chinaDayIndex, chinaDayStartMs } from '../../domain/track/days.ts';
import type { PositionRow } from '../db/repositories.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { POSITION_BATCH } from './data-retention.ts';

const DAY = 86_400_000;
const MINUTE = 60_000;

const dbOf = (s: LiveTestServer) => (s.app.storage as SqliteStorage).db;
const count = (s: LiveTestServer, sql: string, ...params: unknown[]) => dbOf(s).prepare(sql).pluck().get(...params) as number;

function urlOf(s: LiveTestServer): string {
  const a = s.app.server.address();
  if (!a || typeof a === 'string') throw new Error('no address');
  return `http://127.0.0.1:${a.port}`;
}

/** `n` points of a vehicle every `stepMs` from `from`, moving east ≈ 100 m a step; arrival `arrival(t)`. */
function points(vehicleId: number, from: number, n: number, stepMs: number, arrival = (t: number) => t + 1000): PositionRow[] {
  return Array.from({ length: n }, (_, i) => {
    const t = from + i * stepMs;
    // In the track format's precision (1e-6°, 0.1 km), so a finished day gets a real block.
    return {
      vehicleId, gpsTime: t, lng: Math.round((116 + i * 0.001) * 1e6) / 1e6, lat: 39.9, speed: 36, heading: 90, altitude: 50, status: 3, alarm: 0,
      mileage: Math.round((1000 + i * 0.1) * 10) / 10, receivedAt: arrival(t),
    };
  });
}

describe('retention of history (positions, track blocks, rollups, alarms, raw logs)', () => {
  let server: LiveTestServer;
  let admin: string;
  let v1: number, v2: number;

  beforeAll(async () => {
    server = await startLiveServer({ seedVehicles: 4 });
    admin = await server.login('admin', 'admin123');
    [v1, v2] = (await server.app.storage.terminals.allVehicles()).map((v) => v.vehicleId) as [number, number];
  });
  afterAll(async () => {
    await server?.close();
  });

  it('deletes what is past each kind’s days in batches, keeps the rest, and keeps answering meanwhile', async () => {
    const now = server.clock.now();
    const today = chinaDayIndex(now);
    const storage = server.app.storage;
    const old = today - 200;
    // Positions: 180 whole days are kept before today; day today-181 goes, day today-180 stays.
    await storage.positions.append(points(v1, chinaDayStartMs(old) + 3_600_000, 3000, 10_000));
    await storage.positions.append(points(v2, chinaDayStartMs(old) + 3_600_000, 6000, 5000));
    await storage.positions.append(points(v1, chinaDayStartMs(today - 181) + 3_600_000, 10, 10_000));
    await storage.positions.append(points(v1, chinaDayStartMs(today - 180) + 60_000, 10, 10_000));
    await storage.positions.append(points(v1, chinaDayStartMs(today - 1) + 3_600_000, 100, 10_000));
    // A terminal with a reset clock: stamped 2000, arrived now. Kept until it has really been stored that long.
    await storage.positions.append(points(v2, Date.UTC(2000, 0, 1), 5, 1000, () => now));
    // Day blocks of an old and a recent finished day (the playback cache).
    await storage.tracks.readTrack(v1, chinaDayStartMs(old), chinaDayStartMs(old + 1), 1_000_000);
    await storage.tracks.readTrack(v1, chinaDayStartMs(today - 1), chinaDayStartMs(today), 1_000_000);
    expect(count(server, 'SELECT count(*) FROM track_block WHERE vehicle_id = ? AND length(data) > 0', v1)).toBe(2);

    // Alarms: 3 years are kept; an old one goes with its deal log, a recent one stays.
    const db = dbOf(server);
    const company = count(server, 'SELECT company_id FROM vehicle WHERE id = ?', v1);
    const alarm = db.prepare(`INSERT INTO alarm (vehicle_id, device_no, company_id, alarm_type, source, start_time, last_time, lng, lat, speed, risk_level, create_time)
                              VALUES (?, '000000000001', ?, 1, 'bit', ?, ?, 116, 39.9, 0, 'high', ?)`);
    const oldAlarm = Number(alarm.run(v1, company, now - 1100 * DAY, now - 1100 * DAY, now - 1100 * DAY).lastInsertRowid);
    const newAlarm = Number(alarm.run(v1, company, now - 1000 * DAY, now - 1000 * DAY, now - 1000 * DAY).lastInsertRowid);
    db.prepare("INSERT INTO alarm_deal_log (alarm_id, username, action, create_time) VALUES (?, 'admin', 'deal', ?)").run(oldAlarm, now - 1100 * DAY);
    // Stamped 2000 by a terminal with a reset clock, raised today: kept (it is not 3 years old).
    const resetAlarm = Number(alarm.run(v1, company, Date.UTC(2000, 0, 1), Date.UTC(2000, 0, 1), now).lastInsertRowid);
    // Safety-board items: one resolved 3 years ago goes (its log too), one still open since then stays.
    const item = db.prepare(`INSERT INTO board_item (vehicle_id, company_id, state, risk_level, first_alarm_time, last_alarm_time, last_alarm_type, close_time, create_time, update_time)
                             VALUES (?, ?, ?, 'high', ?, ?, 1, ?, ?, ?)`);
    const t = now - 1100 * DAY;
    const closedItem = Number(item.run(v1, company, 'resolved', t, t, t, t, t).lastInsertRowid);
    const openItem = Number(item.run(v1, company, 'pending', t, t, null, t, t).lastInsertRowid);
    db.prepare("INSERT INTO board_log (item_id, action, to_state, create_time) VALUES (?, 'resolve', 'resolved', ?)").run(closedItem, t);
    // Raw logs: 180 days of the live-video log; sessions unused for 180 days (the admin's own stays signed in).
    const stream = db.prepare('INSERT INTO stream_log (user_id, vehicle_id, channel, stream, started_at) VALUES (1, ?, 1, 0, ?)');
    stream.run(v1, now - 181 * DAY);
    stream.run(v1, now - 179 * DAY);
    db.prepare("INSERT INTO session (id, user_id, create_time, last_seen) VALUES ('stale', 1, ?, ?)").run(now - 200 * DAY, now - 200 * DAY);

    // While the sweep runs, the server keeps answering: a call issued with it finishes before it.
    let sweepEnd = 0;
    let callEnd = 0;
    const sweep = server.app.dataRetention.sweep().then((r) => ((sweepEnd = performance.now()), r));
    const call = server.call('GET', '/service-priv/user/current', { token: admin }).then((r) => ((callEnd = performance.now()), r));
    const [r, answered] = await Promise.all([sweep, call]);
    expect(answered.status).toBe(200);
    expect(callEnd).toBeLessThan(sweepEnd);

    // v2 has been silent for 200 days: all its old rows go but the newest, where it was last seen.
    expect(r).toMatchObject({ positions: 3000 + 5999 + 10, alarms: 1, boardItems: 1, streamLog: 1, sessions: 1 });
    // The old day's block, and those the rollups' reads of the other deleted days built on the way.
    expect(r.trackBlocks).toBeGreaterThanOrEqual(1);
    expect(r.rollupsComputed).toBe(3);
    // In batches: at least one statement per POSITION_BATCH rows, each short.
    expect(r.steps).toBeGreaterThanOrEqual(Math.ceil(9009 / POSITION_BATCH));
    expect(r.longestStepMs).toBeGreaterThan(0);

    const left = (v: number, from: number, to: number) => count(server, 'SELECT count(*) FROM positions WHERE vehicle_id = ? AND gps_time >= ? AND gps_time < ?', v, from, to);
    expect(left(v1, 0, chinaDayStartMs(today - 180))).toBe(0);
    expect(left(v2, chinaDayStartMs(old), chinaDayStartMs(old + 1))).toBe(1);
    // The live store loads it at start: the monitor still shows where v2 was last seen, not "never located".
    const lastSeen = (await storage.positions.latestPerVehicle()).find((p) => p.vehicleId === v2);
    expect(lastSeen?.gpsTime).toBe(chinaDayStartMs(old) + 3_600_000 + 5999 * 5000);
    expect(left(v1, chinaDayStartMs(today - 180), chinaDayStartMs(today - 179))).toBe(10);
    expect(left(v1, chinaDayStartMs(today - 1), chinaDayStartMs(today))).toBe(100);
    expect(left(v2, Date.UTC(2000, 0, 1), Date.UTC(2000, 0, 2))).toBe(5);
    // The old day's block went with its rows; the recent one stays (playback of yesterday still reads it).
    expect(count(server, 'SELECT count(*) FROM track_block WHERE vehicle_id = ? AND day = ?', v1, old)).toBe(0);
    expect(count(server, 'SELECT count(*) FROM track_block WHERE vehicle_id = ? AND day = ?', v1, today - 1)).toBe(1);

    expect(count(server, 'SELECT count(*) FROM alarm WHERE id = ?', oldAlarm)).toBe(0);
    expect(count(server, 'SELECT count(*) FROM alarm_deal_log WHERE alarm_id = ?', oldAlarm)).toBe(0);
    expect(count(server, 'SELECT count(*) FROM alarm WHERE id = ?', newAlarm)).toBe(1);
    expect(count(server, 'SELECT count(*) FROM alarm WHERE id = ?', resetAlarm)).toBe(1);
    expect(count(server, 'SELECT count(*) FROM board_item WHERE id = ?', closedItem)).toBe(0);
    expect(count(server, 'SELECT count(*) FROM board_log WHERE item_id = ?', closedItem)).toBe(0);
    expect(count(server, 'SELECT count(*) FROM board_item WHERE id = ?', openItem)).toBe(1);
    expect(count(server, 'SELECT count(*) FROM stream_log')).toBe(1);
    expect(count(server, "SELECT count(*) FROM session WHERE id = 'stale'")).toBe(0);
    expect((await server.call('GET', '/service-priv/user/current', { token: admin })).status).toBe(200);

    // The daily rollup outlives the positions: the report of the deleted day still says what they said.
    const report = await server.call<{ records: { date: string; totalGps: number; mileageKm: number }[] }>('POST', '/service-onlinegps/offlinereport/daily', {
      token: admin, body: { current: 1, size: 10, startDate: chinaDateOfDay(old), endDate: chinaDateOfDay(old), vehicleIds: [v1, v2] },
    });
    expect(report.status).toBe(200);
    expect(report.data.records.map((x) => x.totalGps).sort((a, b) => a - b)).toEqual([3000, 6000]);
    expect(report.data.records.every((x) => x.mileageKm > 100)).toBe(true);

    // Nothing left to do: a second sweep removes nothing.
    expect(await server.app.dataRetention.sweep()).toMatchObject({ positions: 0, trackBlocks: 0, alarms: 0, streamLog: 0, sessions: 0, rollupsComputed: 0 });
  });
});

describe('kept across a restart, gone when expired (export files, stored-media search results)', () => {
  let server: LiveTestServer;
  let admin: string;
  let vehicleId: number;

  beforeAll(async () => {
    server = await startLiveServer({ seedVehicles: 4 });
    admin = await server.login('admin', 'admin123');
    vehicleId = (await server.app.storage.terminals.allVehicles())[0]!.vehicleId;
  });
  afterAll(async () => {
    await server?.close();
  });

  async function restart(): Promise<void> {
    const dataDir = server.config.dataDir;
    await server.close(true);
    server = await startLiveServer({ seedVehicles: 4, dataDir });
    admin = await server.login('admin', 'admin123');
  }

  const exportDir = () => path.join(server.config.dataDir, 'exports');

  async function download(taskId: string): Promise<{ status: number; bytes: Buffer }> {
    const res = await fetch(`${urlOf(server)}/service-monitor/trail/excel_file?taskId=${taskId}`, { headers: { 'x-jwt': admin } });
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  it('serves a finished export after a restart for its lifetime, then answers 404 and deletes the file', async () => {
    const now = server.clock.now();
    await server.app.storage.positions.append(points(vehicleId, now - 3_600_000, 50, 60_000));
    const q = `vehicleId=${vehicleId}&startTime=${now - 2 * 3_600_000}&endTime=${now}`;
    const started = await server.call<{ taskId: string }>('GET', `/service-monitor/trail/excel?${q}`, { token: admin });
    expect(started.status).toBe(200);
    const { taskId } = started.data;
    let status = '';
    for (let i = 0; i < 200 && status !== 'done'; i++) {
      status = (await server.call<{ status: string }>('GET', `/service-monitor/trail/export_status?taskId=${taskId}`, { token: admin })).data.status;
      if (status !== 'done') await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe('done');
    const before = await download(taskId);
    expect(before.status).toBe(200);
    expect(readdirSync(exportDir())).toEqual([`${taskId}.xlsx`]);

    await restart();
    const after = await server.call<{ status: string; exported: number }>('GET', `/service-monitor/trail/export_status?taskId=${taskId}`, { token: admin });
    expect(after.data).toMatchObject({ status: 'done', exported: 50 });
    const again = await download(taskId);
    expect(again.status).toBe(200);
    expect(again.bytes.equals(before.bytes)).toBe(true);
    // Another family's calls do not find it (a track task id is not an alarm task id).
    expect((await server.call('GET', `/service-safe/alarmInfo/export_status?taskId=${taskId}`, { token: admin })).status).toBe(404);

    // 30 minutes after it finished (EXPORT_RETENTION_MINUTES) it has expired: 404 at once, file gone at the sweep.
    server.clock.advance(31 * MINUTE);
    const gone = await server.call('GET', `/service-monitor/trail/export_status?taskId=${taskId}`, { token: admin, lang: 'en' });
    expect(gone.status).toBe(404);
    expect(gone.msg).toBe('The export task does not exist or has expired');
    expect((await download(taskId)).status).toBe(404);
    await server.app.retention.runAll();
    expect(existsSync(path.join(exportDir(), `${taskId}.xlsx`))).toBe(false);
    expect(count(server, 'SELECT count(*) FROM export_file WHERE id = ?', taskId)).toBe(0);
  });

  it('sweeps at start: history that expired while the server was down is gone soon after it starts', async () => {
    const now = server.clock.now();
    const vehicle = (await server.app.storage.terminals.allVehicles())[1]!.vehicleId;
    dbOf(server).prepare('INSERT INTO stream_log (user_id, vehicle_id, channel, stream, started_at) VALUES (1, ?, 1, 0, ?)').run(vehicle, now - 200 * DAY);
    await server.app.storage.positions.append([...points(vehicle, now - 400 * DAY, 20, 1000), ...points(vehicle, now - 60_000, 1, 1000)]);
    await restart();
    // Soon: within 10 s (the round's first rollup starts its worker; on PostgreSQL that worker opens its own connection, ~3 s loaded).
    const soon = async (done: () => boolean) => {
      for (const until = Date.now() + 10_000; !done() && Date.now() < until;) await new Promise((r) => setTimeout(r, 10));
    };
    await soon(() => count(server, 'SELECT count(*) FROM stream_log') === 0);
    expect(count(server, 'SELECT count(*) FROM stream_log')).toBe(0);
    await soon(() => count(server, 'SELECT count(*) FROM positions WHERE vehicle_id = ?', vehicle) <= 1);
    expect(count(server, 'SELECT count(*) FROM positions WHERE vehicle_id = ?', vehicle)).toBe(1);
  });

  it('fails a job the last process left running instead of leaving the user polling forever', async () => {
    await server.app.storage.exportFiles.create({
      id: '00000000-0000-4000-8000-000000000001', kind: 'track', userId: 1, status: 'running', total: 0, exported: 0, size: 0,
      fileName: ['轨迹', 'track'], asciiName: 'track', createdAt: server.clock.now(), finishedAt: null,
    });
    await restart();
    const r = await server.call<{ status: string; message: string }>('GET', '/service-monitor/trail/export_status?taskId=00000000-0000-4000-8000-000000000001', { token: admin, lang: 'en' });
    expect(r.data).toMatchObject({ status: 'failed', message: 'The export failed; try again later' });
  });

  it('keeps a user’s stored-media search result across a restart for a day, then forgets it', async () => {
    const userId = (await server.app.storage.users.findByUsername('admin'))!.id;
    // What 0x0802 answered (one item with a fix, one without: JSON has no NaN), as MultimediaService.search stores it.
    const items = [
      { mediaId: 7, mediaType: 0, channel: 2, eventCode: 1, location: { alarm: 0, status: 3, lat: 31.2, lng: 121.5, altitude: 0, speed: 40, direction: 0, time: server.clock.now() - 3_600_000 } },
      { mediaId: 8, mediaType: 0, channel: 1, eventCode: 0, location: { alarm: 0, status: 0, lat: 0, lng: 0, altitude: 0, speed: 0, direction: 0, time: NaN } },
    ];
    const searchTime = server.clock.now();
    await server.app.storage.mediaSearches.save({ userId, vehicleId, searchTime, items: JSON.stringify(items) });
    // The route's method follows the call catalogue (POST); accept either while it moves.
    const resultCall = () => {
      const p = '/service-command/command/searchDeviceMediaResult';
      return server.app.hasRoute({ method: 'POST', url: p })
        ? server.call<{ searchTime: number; items: { mediaId: number; time: number | null; lng: number | null }[] }>('POST', p, { token: admin, body: { vehicleId } })
        : server.call<{ searchTime: number; items: { mediaId: number; time: number | null; lng: number | null }[] }>('GET', `${p}?vehicleId=${vehicleId}`, { token: admin });
    };

    await restart();
    const kept = await resultCall();
    expect(kept.status).toBe(200);
    expect(kept.data.searchTime).toBe(searchTime);
    expect(kept.data.items).toEqual([
      expect.objectContaining({ mediaId: 7, time: items[0]!.location.time, lng: 121.5 }),
      expect.objectContaining({ mediaId: 8, time: null, lng: null }),
    ]);

    server.clock.advance(searchTime + 25 * 3_600_000 - server.clock.now());
    expect((await resultCall()).status).toBe(404);
    const r = await server.app.dataRetention.sweep();
    expect(r.mediaSearches).toBe(1);
    expect(count(server, 'SELECT count(*) FROM media_search')).toBe(0);
  });
});
