/**
 * Track history read path (issue 4): one vehicle's week at 1 Hz (604,800 points) from a SQLite history
 * that also holds other vehicles' rows, interleaved in time as the batched history writer stores them.
 * Positions come from the deterministic simulator (server/sim) stepping every second.
 *
 * Server side, per call: read + encode to the binary track (GET /service-monitor/trail/binary)
 * - over the existing index positions(vehicle_id, gps_time), rows as raw arrays into typed columns;
 * - over per-vehicle-day blocks (track_block: one encoded Track per finished China day, built on first read);
 * baseline: the JSON trail call's way, `.all()` objects in pages of 1,000 + JSON.stringify per page.
 * Client side: decodeTrack + analyzeTrack on the received bytes; baseline JSON.parse of the pages into
 * the same columns + analyzeTrack.
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
  const runs = quick ? 2 : 3;
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

    // Baseline: the JSON trail call's way, page after page.
    const jsonPages: string[] = [];
    const baseline = time(runs, () => {
      jsonPages.length = 0;
      let bytes = 0;
      for (let offset = 0; ; offset += PAGE) {
        const page = db.prepare('SELECT * FROM positions WHERE vehicle_id = ? AND gps_time >= ? AND gps_time < ? ORDER BY gps_time LIMIT ? OFFSET ?')
          .all(target, start, end + 1, PAGE, offset) as Record<string, number | null>[];
        if (page.length === 0) break;
        const text = JSON.stringify({ code: 200, msg: 'ok', data: { records: page.map((r) => ({
          lng: r.lng, lat: r.lat, speed: r.speed, direction: r.heading, altitude: r.altitude, gpsTime: r.gps_time, status: r.status, alarm: r.alarm, mileage: r.mileage,
        })), total: targetRows, current: offset / PAGE + 1, size: PAGE } });
        bytes += Buffer.byteLength(text);
        jsonPages.push(text);
        if (page.length < PAGE) break;
      }
      return bytes;
    });

    const indexRead = time(runs, () => storage.tracks.readIndexSync(target, start, end + 1, 1_000_000));
    const indexed = time(runs, () => encodeTrack(storage.tracks.readIndexSync(target, start, end + 1, 1_000_000)));
    const bytes = indexed.last;
    records.push(
      { name: 'trail JSON pages of 1,000 (baseline)', metric: 'query + stringify', value: baseline.ms, unit: 'ms' },
      { name: 'trail JSON pages of 1,000 (baseline)', metric: 'bytes', value: baseline.last, unit: 'B' },
      { name: 'trail binary, index range', metric: 'query only', value: indexRead.ms, unit: 'ms' },
      { name: 'trail binary, index range', metric: 'query + encode', value: indexed.ms, unit: 'ms', baseline: baseline.ms, ratio: baseline.ms / indexed.ms },
      { name: 'trail binary, index range', metric: 'bytes', value: bytes.length, unit: 'B', baseline: baseline.last, ratio: baseline.last / bytes.length },
    );

    // Per-vehicle-day blocks (track_block): the first read builds them from the index, later reads decode them.
    const firstRead = time(1, () => encodeTrack(storage.tracks.readTrackSync(target, start, end + 1, 1_000_000)));
    const blocks = time(runs, () => encodeTrack(storage.tracks.readTrackSync(target, start, end + 1, 1_000_000)));
    const blockBytes = db.prepare('SELECT SUM(LENGTH(data)) FROM track_block WHERE vehicle_id = ?').pluck().get(target) as number;
    records.push(
      { name: 'trail binary, day blocks', metric: 'first read (builds blocks)', value: firstRead.ms, unit: 'ms' },
      { name: 'trail binary, day blocks', metric: 'query + decode + encode', value: blocks.ms, unit: 'ms', baseline: indexed.ms, ratio: indexed.ms / blocks.ms },
      { name: 'trail binary, day blocks', metric: 'block bytes', value: blockBytes, unit: 'B' },
    );
    if (blocks.last.length !== bytes.length) throw new Error(`block path answered ${blocks.last.length} bytes, index path ${bytes.length}`);

    // Client side.
    const client = time(runs, () => analyzeTrack(decodeTrack(bytes)));
    const decodeOnly = time(runs, () => decodeTrack(bytes));
    const jsonClient = time(runs, () => {
      const n = targetRows;
      const t = allocateTrack(n);
      let i = 0;
      for (const text of jsonPages) {
        const page = (JSON.parse(text) as { data: { records: { gpsTime: number; lng: number; lat: number; speed: number }[] } }).data.records;
        for (const r of page) { t.time[i] = r.gpsTime; t.lng[i] = r.lng; t.lat[i] = r.lat; t.speed[i] = r.speed; i++; }
      }
      return analyzeTrack(t);
    });
    records.push(
      { name: 'client: decodeTrack', metric: 'decode', value: decodeOnly.ms, unit: 'ms' },
      { name: 'client: decodeTrack + analyzeTrack', metric: 'decode + rules', value: client.ms, unit: 'ms', baseline: jsonClient.ms, ratio: jsonClient.ms / client.ms },
      { name: 'client: JSON.parse pages + analyzeTrack (baseline)', metric: 'parse + rules', value: jsonClient.ms, unit: 'ms' },
      { name: 'client: analyzeTrack', metric: 'points', value: client.last.points, unit: 'points' },
    );
  } finally {
    storage.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return records;
}
