/**
 * Track history read path (issues 4 and 16): one vehicle's week at 1 Hz (604,800 points) from a SQLite
 * history that also holds other vehicles' rows, interleaved in time as the batched history writer stores
 * them. Positions come from the deterministic simulator (server/sim) stepping every second.
 *
 * Baseline (the peer): Traccar's GET /api/positions?deviceId&from&to, which answers a period with one
 * query and one JSON array (traccar-web's replay loads it in one request). Its fair copy here: one
 * prepared `SELECT *` over the same (vehicle_id, gps_time) index, `.all()` row objects, one
 * `JSON.stringify` of the whole array; the console side `JSON.parse` of that array into the same columns
 * + analyzeTrack. A competent Traccar engineer would not page it, so neither does the baseline.
 * Also measured, labelled as such: the JSON trail paged by OFFSET (our /trail until issue 16, quadratic:
 * each page skips all rows before it and re-prepares), and the JSON trail paged by keyset as it ships
 * now (`pageAfter`, cursor on (gps_time, row id)).
 * Ours: read + encode to the binary track (GET /service-monitor/trail/binary) over the index, and over
 * per-vehicle-day blocks (track_block, what ships: built on first read, decoded after); console side
 * decodeTrack + analyzeTrack on the received bytes.
 * Every figure is one measurement per round (bench/run.ts takes medians over rounds); a one-day pass of
 * each server path first warms the statements and the JIT on both sides alike. Both sides stop the clock
 * when the answer's bytes exist (stringified text, encoded track), the client sides when the columns
 * and the rules' result exist.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyzeTrack } from '../domain/track/analyze.ts';
import { chinaDayIndex, chinaDayStartMs } from '../domain/track/days.ts';
import { allocateTrack, decodeTrack, encodeTrack } from '../proto/track-codec.ts';
import { loadConfig } from '../server/config.ts';
import { openStorage } from '../server/db/open.ts';
import type { PositionRow } from '../server/db/repositories.ts';
import type { SqliteStorage } from '../server/db/sqlite/storage.ts';
import { emissionRow } from '../server/sim/history.ts';
import { VehicleProgram } from '../server/sim/vehicle.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const DAY_MS = 86_400_000;
const PAGE = 1000;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function time<T>(runs: number, fn: () => T): { ms: number; last: T } {
  const ms: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    last = fn();
    ms.push(performance.now() - t0);
  }
  return { ms: median(ms), last: last! };
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const days = quick ? 1 : 7;
  const others = quick ? 5 : 20;
  // One measurement per round: the runner repeats rounds and reports medians with their spread.
  const runs = 1;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-track-bench-'));
  const config = loadConfig({}, { dataDir, logLevel: 'silent', seedEnabled: false });
  const { storage: opened } = await openStorage(config);
  const storage = opened as SqliteStorage;
  const db = storage.db;
  const records: BenchRecord[] = [];
  try {
    // Whole finished China days (they have blocks), ending at the start of yesterday.
    const end = chinaDayStartMs(chinaDayIndex(Date.now()) - 1) - 1;
    const start = end + 1 - days * DAY_MS;
    const target = 1;
    const insert = db.prepare(`INSERT INTO positions (vehicle_id, gps_time, lng, lat, speed, heading, altitude, status, alarm, mileage, received_at)
                               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const put = (r: PositionRow) => insert.run(r.vehicleId, r.gpsTime, r.lng, r.lat, r.speed, r.heading, r.altitude, r.status, r.alarm, r.mileage, r.receivedAt);
    // The target at 1 Hz, others at the live 10 s / 60 s rates, interleaved hour by hour (the writer flushes every few hundred ms).
    const programs = [
      new VehicleProgram({ seed: 1, deviceNo: '010000000001', startMs: start, intervalMs: 1000, parkedIntervalMs: 1000, rates: { offlinePerDay: 0, blindPerDrivingDay: 0 } }),
      ...Array.from({ length: others }, (_, i) => new VehicleProgram({ seed: 1, deviceNo: `0100000001${String(i).padStart(2, '0')}`, startMs: start, intervalMs: 10_000, parkedIntervalMs: 60_000 })),
    ];
    const t0 = performance.now();
    let rows = 0;
    const fill = db.transaction((until: number) => {
      programs.forEach((p, k) => {
        if (p.link === 'never') return;
        while (p.nextAt < until) {
          const r = emissionRow(k + 1, p.step());
          if (r) { put(r); rows++; }
        }
      });
    });
    for (let h = start + 3_600_000; h <= end + 1; h += 3_600_000) fill(h);
    const targetRows = (await storage.tracks.count(target, start, end + 1));
    records.push(
      { name: 'track history: fill', metric: 'rows inserted', value: rows, unit: 'rows' },
      { name: 'track history: fill', metric: 'target vehicle rows', value: targetRows, unit: 'rows' },
      { name: 'track history: fill', metric: 'generate + insert time', value: performance.now() - t0, unit: 'ms' },
    );

    const toRecord = (r: Record<string, number | null>) => ({
      lng: r.lng, lat: r.lat, speed: r.speed, direction: r.heading, altitude: r.altitude, gpsTime: r.gps_time, status: r.status, alarm: r.alarm, mileage: r.mileage,
    });
    // Traccar's way: one query for the period, one JSON array.
    const single = (from: number, to: number) => {
      const rowsAll = db.prepare('SELECT * FROM positions WHERE vehicle_id = ? AND gps_time >= ? AND gps_time < ? ORDER BY gps_time')
        .all(target, from, to) as Record<string, number | null>[];
      return JSON.stringify(rowsAll.map(toRecord));
    };
    // Our /trail before issue 16: OFFSET pages, each prepared again.
    const offsetPages = (from: number, to: number) => {
      let bytes = 0;
      for (let offset = 0; ; offset += PAGE) {
        const page = db.prepare('SELECT * FROM positions WHERE vehicle_id = ? AND gps_time >= ? AND gps_time < ? ORDER BY gps_time LIMIT ? OFFSET ?')
          .all(target, from, to, PAGE, offset) as Record<string, number | null>[];
        if (page.length === 0) break;
        bytes += Buffer.byteLength(JSON.stringify({ code: 200, msg: 'ok', data: { records: page.map(toRecord), total: targetRows, current: offset / PAGE + 1, size: PAGE } }));
        if (page.length < PAGE) break;
      }
      return bytes;
    };
    // Our /trail now: keyset pages through the repository the route calls.
    const keysetPages = async (from: number, to: number) => {
      let bytes = 0;
      let after: { time: number; rowid: number } | undefined;
      for (let current = 1; ; current++) {
        const { rows: page, last } = await storage.tracks.pageAfter(target, from, to, after, 0, PAGE);
        bytes += Buffer.byteLength(JSON.stringify({ code: 200, msg: 'ok', data: { records: page.map((r) => ({
          lng: r.lng, lat: r.lat, speed: r.speed, direction: r.heading, altitude: r.altitude, gpsTime: r.gpsTime, status: r.status, alarm: r.alarm, mileage: r.mileage,
        })), total: targetRows, current, size: PAGE, next: 'x' } }));
        if (!last || page.length < PAGE) break;
        after = last;
      }
      return bytes;
    };
    // Warm-up over the first day, every path alike.
    single(start, start + DAY_MS);
    offsetPages(start, start + DAY_MS);
    await keysetPages(start, start + DAY_MS);
    encodeTrack(storage.tracks.readIndexSync(target, start, start + DAY_MS, 1_000_000));

    let singleText = '';
    const baseline = time(runs, () => {
      singleText = single(start, end + 1);
      return Buffer.byteLength(singleText);
    });
    const offset = time(runs, () => offsetPages(start, end + 1));
    const k0 = performance.now();
    const keysetBytes = await keysetPages(start, end + 1);
    const keysetMs = performance.now() - k0;
    records.push(
      { name: 'trail JSON, one query (baseline: Traccar /api/positions)', metric: 'query + stringify', value: baseline.ms, unit: 'ms' },
      { name: 'trail JSON, one query (baseline: Traccar /api/positions)', metric: 'bytes', value: baseline.last, unit: 'B' },
      { name: 'trail JSON, OFFSET pages of 1,000 (old /trail)', metric: 'query + stringify', value: offset.ms, unit: 'ms', baseline: baseline.ms, ratio: baseline.ms / offset.ms },
      { name: 'trail JSON, keyset pages of 1,000 (/trail now)', metric: 'query + stringify', value: keysetMs, unit: 'ms', baseline: baseline.ms, ratio: baseline.ms / keysetMs },
      { name: 'trail JSON, keyset pages of 1,000 (/trail now)', metric: 'bytes', value: keysetBytes, unit: 'B' },
    );

    const indexRead = time(runs, () => storage.tracks.readIndexSync(target, start, end + 1, 1_000_000));
    const indexed = time(runs, () => encodeTrack(storage.tracks.readIndexSync(target, start, end + 1, 1_000_000)));
    const bytes = indexed.last;
    records.push(
      { name: 'trail binary, index range', metric: 'query only', value: indexRead.ms, unit: 'ms' },
      { name: 'trail binary, index range', metric: 'query + encode', value: indexed.ms, unit: 'ms', baseline: baseline.ms, ratio: baseline.ms / indexed.ms },
      { name: 'trail binary, index range', metric: 'bytes', value: bytes.length, unit: 'B', baseline: baseline.last, ratio: baseline.last / bytes.length },
    );

    // Per-vehicle-day blocks (track_block): the first read builds them from the index, later reads decode them.
    const firstRead = time(1, () => encodeTrack(storage.tracks.readTrackSync(target, start, end + 1, 1_000_000)));
    const blocks = time(runs, () => encodeTrack(storage.tracks.readTrackSync(target, start, end + 1, 1_000_000)));
    const blockBytes = db.prepare('SELECT SUM(LENGTH(data)) FROM track_block WHERE vehicle_id = ?').pluck().get(target) as number;
    records.push(
      { name: 'trail binary, day blocks (ships)', metric: 'first read (builds blocks)', value: firstRead.ms, unit: 'ms' },
      { name: 'trail binary, day blocks (ships)', metric: 'query + decode + encode', value: blocks.ms, unit: 'ms', baseline: baseline.ms, ratio: baseline.ms / blocks.ms },
      { name: 'trail binary, day blocks (ships)', metric: 'vs the index range', value: blocks.ms, unit: 'ms', baseline: indexed.ms, ratio: indexed.ms / blocks.ms },
      { name: 'trail binary, day blocks (ships)', metric: 'block bytes', value: blockBytes, unit: 'B' },
    );
    if (blocks.last.length !== bytes.length) throw new Error(`block path answered ${blocks.last.length} bytes, index path ${bytes.length}`);

    // Client side.
    const client = time(runs, () => analyzeTrack(decodeTrack(bytes)));
    const decodeOnly = time(runs, () => decodeTrack(bytes));
    const jsonClient = time(runs, () => {
      const page = JSON.parse(singleText) as { gpsTime: number; lng: number; lat: number; speed: number }[];
      const t = allocateTrack(page.length);
      page.forEach((r, i) => { t.time[i] = r.gpsTime; t.lng[i] = r.lng; t.lat[i] = r.lat; t.speed[i] = r.speed; });
      return analyzeTrack(t);
    });
    records.push(
      { name: 'client: decodeTrack', metric: 'decode', value: decodeOnly.ms, unit: 'ms' },
      { name: 'client: decodeTrack + analyzeTrack', metric: 'decode + rules', value: client.ms, unit: 'ms', baseline: jsonClient.ms, ratio: jsonClient.ms / client.ms },
      { name: 'client: JSON.parse of the one array + analyzeTrack (baseline)', metric: 'parse + rules', value: jsonClient.ms, unit: 'ms' },
      { name: 'client: analyzeTrack', metric: 'points', value: client.last.points, unit: 'points' },
    );
  } finally {
    storage.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return records;
}
