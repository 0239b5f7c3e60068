import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { openStorage } from '../db/open.ts';
import { parseCli } from './cli.ts';
import { readProvisionedTerminals } from './fleet-source.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('npm run sim', () => {
  it('reads its options and falls back to the documented defaults', () => {
    expect(parseCli([], {})).toMatchObject({ vehicles: undefined, rateHz: 0.1, parkedIntervalS: 60, host: '127.0.0.1', port: 7611, seed: 1, dataDir: undefined });
    expect(parseCli(['--vehicles', '500', '--rate', '1', '--port', '17695', '--seed', '9', '--data-dir', '/tmp/x'], {})).toMatchObject({
      vehicles: 500, rateHz: 1, port: 17695, seed: 9, dataDir: '/tmp/x',
    });
    expect(parseCli([], { GATEWAY_PORT: '9000' }).port).toBe(9000);
    expect(parseCli(['--offset', '5000'], {}).offset).toBe(5000);
  });

  it('names the option and the accepted values when one is wrong', () => {
    expect(() => parseCli(['--vehicles', '0'], {})).toThrow('--vehicles must be an integer from 1 to 200000, got "0"');
    expect(() => parseCli(['--rate', 'fast'], {})).toThrow(/--rate must be .*"fast"/);
    expect(() => parseCli(['--rate', '2'], {})).toThrow(/at most 1/);
    expect(() => parseCli(['--port', '70000'], {})).toThrow(/--port/);
    expect(() => parseCli(['--speed', '3'], {})).toThrow(/--speed/);
  });

  it('uses the device numbers and plates of the vehicles provisioned in a data dir', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-data-'));
    dirs.push(dataDir);
    const { storage } = await openStorage(loadConfig({}, { dataDir, seedVehicles: 30 }));
    storage.close();
    const all = readProvisionedTerminals(dataDir);
    expect(all).toHaveLength(30);
    for (const t of all) {
      expect(t.deviceNo).toMatch(/^\d{12}$/);
      expect(t.plate).toMatch(/^[\u4e00-\u9fff][A-Z]/);
    }
    expect(readProvisionedTerminals(dataDir, 5)).toEqual(all.slice(0, 5));
    expect(readProvisionedTerminals(dataDir, 5, 10)).toEqual(all.slice(10, 15));
  });

  it('explains a data dir without a database', () => {
    expect(() => readProvisionedTerminals('/nonexistent-sim-dir')).toThrow(/no database at \/nonexistent-sim-dir\/fleet\.sqlite/);
  });
});
