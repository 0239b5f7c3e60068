/**
 * Dashboard (issue 14): login → every panel of /home/index filled, with 100,000 vehicles in the fleet
 * (`--quick`: 10,000), on a real server (buildApp, loopback, the seeded demo tree):
 *  - ours: the panels' calls in parallel (what the page's queries send) and the fleet's positions from
 *    the push channel's snapshot, decoded as the stream worker decodes it;
 *  - baseline (spec §4): the same panel calls, positions paged 1,000 at a time, one page a second
 *    (`/service-monitor/dashboard/locations`), until the total is reached.
 * Each is run cold (the first login of the day: the 7-day driving rows are computed then) and warm.
 * Positions are put into the live store directly (every vehicle online with a fix) and 5,000 alarms
 * over the last 30 days into the database, so the alarm panels count something real.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { PushDecoder } from '../proto/codec.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import type { SqliteStorage } from '../server/db/sqlite/storage.ts';
import { LOCATION_PAGE_INTERVAL_MS, LOCATION_PAGE_SIZE, yesterday } from '../domain/dashboard/rules.ts';
import { login } from './load/common.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

interface Fill {
  /** login → every panel and the fleet's positions in hand, ms. */
  totalMs: number;
  /** The slowest panel call (answer parsed), ms after login. */
  panelsMs: number;
  /** All positions received and decoded, ms after login. */
  positionsMs: number;
  positions: number;
}

async function panels(base: string, token: string): Promise<number> {
  const t0 = performance.now();
  const y = yesterday(Date.now());
  const get = (p: string) => fetch(`${base}${p}`, { headers: { 'x-jwt': token } }).then((r) => r.json() as Promise<{ code: number }>);
  const answers = await Promise.all([
    get('/service-monitor/monitor/getDashboard'),
    get('/service-monitor/dashboard/mapTotals'),
    get('/service-onlinegps/geography/getVehicleDailyMile'),
    fetch(`${base}/service-safe/devstatus/errorcount`, { method: 'POST', headers: { 'x-jwt': token, 'content-type': 'application/json' }, body: '{}' }).then((r) => r.json() as Promise<{ code: number }>),
    get('/service-monitor/dashboard/runningAlarms'),
    get('/service-monitor/dashboard/riskRanking'),
    get(`/service-safe/aggregate/driveBehaviourStat?startTime=${y.startTime}&endTime=${y.endTime}`),
    get('/service-safesheet/screenV2/lastMonthAlarmStat'),
    get('/service-ops/weather'),
    get('/service-priv/guide/fetch?guideModule=home'),
    // The online-rate panel is left out: it shows only under 10,000 vehicles (spec §9).
  ]);
  const bad = answers.find((a) => a.code !== 200);
  if (bad) throw new Error(`a panel call failed: ${JSON.stringify(bad).slice(0, 200)}`);
  return performance.now() - t0;
}

/** The push channel's snapshot: resolves with the positions decoded once `expected` arrived. */
function pushed(port: number, token: string, expected: number): Promise<{ ms: number; positions: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws-service/websocket?token=${encodeURIComponent(token)}`);
    const decoder = new PushDecoder();
    let positions = 0;
    ws.on('message', (data: Buffer) => {
      const m = decoder.decode(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      if (m.body.type !== 'positions' || m.body.frame.kind !== 1) return;
      positions += m.body.frame.count;
      if (positions >= expected) {
        ws.close();
        resolve({ ms: performance.now() - t0, positions });
      }
    });
    ws.once('error', reject);
  });
}

/** Spec §4's paged loading: pages of 1,000, one page a second, until the total is reached. */
async function paged(base: string, token: string): Promise<{ ms: number; positions: number }> {
  const t0 = performance.now();
  let positions = 0;
  for (let current = 1; ; current++) {
    const started = performance.now();
    const r = (await fetch(`${base}/service-monitor/dashboard/locations?current=${current}&size=${LOCATION_PAGE_SIZE}`, { headers: { 'x-jwt': token } })
      .then((x) => x.json())) as { data: { total: number; records: unknown[] } };
    positions += r.data.records.length;
    if (positions >= r.data.total || r.data.records.length === 0) break;
    const wait = LOCATION_PAGE_INTERVAL_MS - (performance.now() - started);
    if (wait > 0) await new Promise((res) => setTimeout(res, wait));
  }
  return { ms: performance.now() - t0, positions };
}

async function fill(base: string, port: number, mode: 'push' | 'paged', expected: number): Promise<Fill> {
  const t0 = performance.now();
  const token = await login(base, 'admin', 'admin123');
  const t1 = performance.now();
  const [panelsMs, pos] = await Promise.all([panels(base, token), mode === 'push' ? pushed(port, token, expected) : paged(base, token)]);
  return { totalMs: performance.now() - t0, panelsMs: panelsMs + (t1 - t0), positionsMs: pos.ms + (t1 - t0), positions: pos.positions };
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const vehicles = quick ? 10_000 : 100_000;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-dashboard-bench-'));
  const config = loadConfig({}, { dataDir, port: 0, host: '127.0.0.1', logLevel: 'warn', seedVehicles: vehicles, consoleDir: path.join(dataDir, 'no-console') });
  const app = await buildApp(config);
  const records: BenchRecord[] = [];
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const port = address.port;
    const base = `http://127.0.0.1:${port}`;
    const store = app.live.store;
    const now = Date.now();
    // Every vehicle online with a fix spread over eastern China.
    for (let slot = 0; slot < store.count; slot++) {
      store.applyPosition({
        vehicleId: store.columns.vehicleId[slot]!, lng: 100 + (slot % 1000) / 50, lat: 22 + Math.floor(slot / 1000) / (vehicles / 18000), speed: slot % 3 === 0 ? 0 : 40,
        heading: (slot * 7) % 360, altitude: 20, statusFlags: 3, alarmFlags: 0, gpsTime: now - 5000,
      });
    }
    // 5,000 alarms over the last 30 days (DMS/ADAS codes of the dashboard's sets and camera faults).
    const db = (app.storage as SqliteStorage).db;
    const ids = db.prepare('SELECT id, device_no AS deviceNo, company_id AS companyId FROM vehicle ORDER BY id LIMIT 2000').all() as { id: number; deviceNo: string; companyId: number }[];
    const codes = [10001, 10002, 10003, 10004, 10006, 10007, 10008, 15012, 12001];
    const levels = ['high', 'medium', 'low', 'ordinary'];
    const insert = db.prepare(`INSERT INTO alarm (vehicle_id, device_no, company_id, alarm_type, source, start_time, last_time, lng, lat, speed, risk_level, create_time)
      VALUES (?, ?, ?, ?, 'platform', ?, ?, 116, 39, 50, ?, ?)`);
    db.transaction(() => {
      for (let i = 0; i < 5000; i++) {
        const v = ids[(i * 7919) % ids.length]!;
        const t = now - ((i * 104_729) % (30 * 86_400_000));
        insert.run(v.id, v.deviceNo, v.companyId, codes[i % codes.length], t, t, levels[i % 4], t);
      }
    })();
    const expected = store.count;

    const cold = await fill(base, port, 'push', expected);
    const warm = await fill(base, port, 'push', expected);
    const paging = await fill(base, port, 'paged', expected);
    const name = `dashboard ${vehicles.toLocaleString('en-US')} vehicles`;
    records.push(
      { name, metric: 'login→filled, push (warm)', value: warm.totalMs, unit: 'ms', baseline: paging.totalMs, ratio: paging.totalMs / warm.totalMs },
      { name, metric: 'login→filled, push (cold)', value: cold.totalMs, unit: 'ms', baseline: paging.totalMs, ratio: paging.totalMs / cold.totalMs },
      { name, metric: 'panels (warm)', value: warm.panelsMs, unit: 'ms' },
      { name, metric: 'panels (cold: 7-day rows)', value: cold.panelsMs, unit: 'ms' },
      { name, metric: 'positions, push snapshot', value: warm.positionsMs, unit: 'ms' },
      { name, metric: 'positions, paged 1,000/s', value: paging.positionsMs, unit: 'ms' },
      { name, metric: 'positions received', value: warm.positions, unit: 'vehicles', baseline: paging.positions },
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return records;
}
