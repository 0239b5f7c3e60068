import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeTrack } from '../../domain/track/analyze.ts';
import { loadConfig } from '../config.ts';
import { openStorage } from '../db/open.ts';
import type { Storage } from '../db/repositories.ts';
import { emissionRow, parseTiers } from '../sim/history.ts';
import { readProvisionedTerminals } from '../sim/index.ts';
import { backfillHistory, DEFAULT_HISTORY_TIERS, type BackfillResult } from './history.ts';

const DAY = 86_400_000;
let dataDir: string;
let storage: Storage;
let result: BackfillResult;
const NOW = Date.UTC(2026, 10, 22, 10, 0, 0);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-history-test-'));
  ({ storage } = await openStorage(loadConfig({}, { dataDir, logLevel: 'silent', seedVehicles: 10, seedFleetsPerBranch: 1 })));
  result = await backfillHistory(storage, readProvisionedTerminals(dataDir, 10), parseTiers('1,2', '3,1', DEFAULT_HISTORY_TIERS), NOW);
});
afterAll(() => {
  storage.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the demo history backfill', () => {
  it('stores the first vehicle’s last days with a drift point and a stop of at least three minutes', async () => {
    expect(result.vehicles).toBe(3);
    expect(result.summary).toMatch(/^1 × 3 days \+ 2 × 1 days: [\d,]+ positions in/);
    const [first] = await storage.terminals.allVehicles();
    const t = await storage.tracks.readTrack(first!.vehicleId, NOW - 2 * DAY, NOW, 1_000_000);
    expect(t.count).toBeGreaterThan(1000);
    const a = analyzeTrack(t);
    expect(a.drift.length).toBeGreaterThanOrEqual(1);
    expect(a.stops.some((s) => s.minutes >= 3)).toBe(true);
    expect((await storage.tracks.count(first!.vehicleId, NOW - 4 * DAY, NOW - 3 * DAY - 60_000))).toBe(0);
  });

  it('hands over programs that continue the stored track from now on', async () => {
    const [first] = await storage.terminals.allVehicles();
    const program = result.programs.get(first!.deviceNo.padStart(12, '0'))!;
    expect(program.nextAt).toBeGreaterThanOrEqual(NOW);
    const last = await storage.tracks.readTrack(first!.vehicleId, NOW - DAY, NOW, 1_000_000);
    let next = null;
    while (!next) next = emissionRow(first!.vehicleId, program.step());
    // The next live report is a short step from the last stored one (10 s driving at most ≈ 0.4 km).
    const i = last.count - 1;
    expect(Math.abs(next.lng - last.lng[i]!) + Math.abs(next.lat - last.lat[i]!)).toBeLessThan(0.05);
    expect(next.gpsTime).toBeGreaterThan(last.time[i]!);
  });

  it('is off with zero vehicles or zero days, and refuses words', () => {
    expect(parseTiers('0', '7', DEFAULT_HISTORY_TIERS)).toEqual([]);
    expect(parseTiers('3', '0', DEFAULT_HISTORY_TIERS)).toEqual([]);
    expect(parseTiers(undefined, undefined, DEFAULT_HISTORY_TIERS)).toEqual(DEFAULT_HISTORY_TIERS);
    expect(() => parseTiers('many', '2', DEFAULT_HISTORY_TIERS)).toThrow(/SEED_HISTORY_VEHICLES/);
  });
});
