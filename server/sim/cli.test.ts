import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { openStorage } from '../db/open.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { startLiveServer } from '../live/test-harness.ts';
import { chosenTerminals, formatEvent, parseCli } from './cli.ts';
import { readChosenTerminals, readProvisionedTerminals } from './fleet-source.ts';
import { startSimulator } from './simulator.ts';
import type { SimTerminalEvent } from './terminal.ts';

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

describe('npm run sim -- --device-no (chosen terminals)', () => {
  it('reads the numbers and what their 0x0100 carries', () => {
    const o = parseCli(['--device-no', '013800000001, 013800000002', '--plate', '粤B12345,粤B12346', '--plate-color', '1', '--maker', 'ACME',
      '--model', 'X9', '--terminal-id', 'T000042', '--edition', '2019', '--retry', '30', '--port', '17611'], {});
    expect(o).toMatchObject({
      deviceNos: ['013800000001', '013800000002'], plates: ['粤B12345', '粤B12346'], plateColor: 1, maker: 'ACME', model: 'X9',
      terminalId: 'T000042', edition: 2019, retryS: 30, port: 17611, vehicles: undefined,
    });
    expect(chosenTerminals(o)).toEqual({
      edition: 2019,
      terminals: [
        { deviceNo: '013800000001', plate: '粤B12345', authCode: null, registration: { makerId: 'ACME', model: 'X9', terminalId: 'T000042', plateColor: 1 } },
        { deviceNo: '013800000002', plate: '粤B12346', authCode: null, registration: { makerId: 'ACME', model: 'X9', terminalId: 'T000042', plateColor: 1 } },
      ],
    });
    expect(parseCli([], {})).toMatchObject({ deviceNos: undefined, edition: undefined, retryS: undefined });
  });

  it('refuses numbers the console would refuse, and options that make no sense together', () => {
    expect(() => parseCli(['--device-no', '13800000001'], {})).toThrow('--device-no takes 12-digit terminal numbers (leading zeros kept), got "13800000001"');
    expect(() => parseCli(['--device-no', '013800000001,'], {})).toThrow(/comma list without empty items/);
    expect(() => parseCli(['--device-no', '013800000001,013800000001'], {})).toThrow(/twice/);
    expect(() => parseCli(['--device-no', '013800000001', '--vehicles', '5'], {})).toThrow(/exclude each other/);
    expect(() => parseCli(['--device-no', '013800000001,013800000002', '--plate', '粤B12345'], {})).toThrow(/one plate per number/);
    expect(() => parseCli(['--model', 'X9'], {})).toThrow('--model applies to --device-no terminals only');
    expect(() => parseCli(['--device-no', '013800000001', '--edition', '2011'], {})).toThrow(/--edition must be 2013 or 2019/);
    expect(() => parseCli(['--device-no', '013800000001', '--maker', 'TOOLONG'], {})).toThrow('--maker must be 1 to 5 ASCII characters, got "TOOLONG"');
    expect(parseCli(['--device-no', '013800000001', '--maker', 'LONGER2019', '--edition', '2019'], {}).maker).toBe('LONGER2019');
  });

  it('says what a refusal means and when the terminal tries again', () => {
    const at = new Date('2026-11-25T10:00:00Z');
    expect(formatEvent('013899999999', { kind: 'registerRefused', result: 4, retryInMs: 15_000 }, at)).toBe(
      '[sim 10:00:00] 013899999999 REFUSED at register: 0x8100 result 4 — no such terminal: enter the device on /information/device (or turn GATEWAY_AUTO_REGISTER on); registering again in 15 s',
    );
    expect(formatEvent('013800000001', { kind: 'registerRefused', result: 2, retryInMs: 30_000 }, at)).toMatch(/result 2 — no such vehicle: .*bind it/);
    expect(formatEvent('013800000001', { kind: 'authenticated' }, at)).toBe('[sim 10:00:00] 013800000001 authenticated: online, reporting positions');
  });

  it('fills plate, colour, terminal id, edition and the stored code from a data dir', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-chosen-'));
    dirs.push(dataDir);
    const { storage } = await openStorage(loadConfig({}, { dataDir, seedVehicles: 5, seedFleetsPerBranch: 1, logLevel: 'silent' }));
    const db = (storage as SqliteStorage).db;
    const v = db.prepare('SELECT vehiidno, device_no FROM vehicle ORDER BY id LIMIT 1').get() as { vehiidno: string; device_no: string };
    db.prepare("UPDATE vehicle SET plate_color = 1 WHERE device_no = ?").run(v.device_no);
    db.prepare("UPDATE device SET terminal_id = 'T42', protocol = 2019 WHERE device_no = ?").run(v.device_no);
    storage.close();
    const unknown = '013899999999';
    expect([...readChosenTerminals(dataDir, [v.device_no, unknown]).keys()]).toEqual([v.device_no]);
    const picked = chosenTerminals(parseCli(['--device-no', `${v.device_no},${unknown}`, '--data-dir', dataDir], {}));
    expect(picked.edition).toBe(2019);
    expect(picked.terminals[0]).toMatchObject({ deviceNo: v.device_no, plate: v.vehiidno, registration: { terminalId: 'T42', plateColor: 1 } });
    expect(picked.terminals[1]).toMatchObject({ deviceNo: unknown, authCode: null, registration: { terminalId: undefined, plateColor: undefined } });
    expect(picked.terminals[1]!.plate).toBeUndefined();
  });
});

describe('chosen terminals against the gateway (auto-registration off)', () => {
  it('a known number registers and reports; an unknown one is refused with result 4 and told when it tries again', async () => {
    const server = await startLiveServer({ seedVehicles: 5, seedFleetsPerBranch: 1, autoRegister: false });
    const events: { deviceNo: string; e: SimTerminalEvent }[] = [];
    const known = (await server.app.storage.terminals.allVehicles())[0]!;
    const unknown = '013899999999';
    const sim = startSimulator({
      port: server.gatewayPort, rateHz: 1, refusedRetryS: 20, edition2019Share: 0,
      rates: { neverOnlineShare: 0, offlinePerDay: 0, blindPerDrivingDay: 0 },
      terminals: [{ deviceNo: known.deviceNo, registration: { model: 'X9', terminalId: 'T42' } }, { deviceNo: unknown }],
      onEvent: (deviceNo, e) => events.push({ deviceNo, e }),
    });
    try {
      await expect.poll(() => events.map((x) => `${x.deviceNo} ${x.e.kind}`).sort(), { timeout: 15_000 }).toEqual(
        [`${known.deviceNo} authenticated`, `${known.deviceNo} registered`, `${unknown} registerRefused`].sort(),
      );
      const refused = events.find((x) => x.e.kind === 'registerRefused')!.e as Extract<SimTerminalEvent, { kind: 'registerRefused' }>;
      expect(refused.result).toBe(4);
      // The least wait asked for, not the five minutes of a fleet run.
      expect(refused.retryInMs).toBeGreaterThanOrEqual(20_000);
      expect(refused.retryInMs).toBeLessThan(60_000);
      // The accepted terminal's positions reach the live store under its vehicle.
      await expect.poll(() => sim.stats.acks, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(sim.stats.registerFailures).toBe(1);
      const registered = (server.app.storage as SqliteStorage).db.prepare('SELECT model, terminal_id FROM terminal WHERE device_no = ?').get(known.deviceNo);
      expect(registered).toEqual({ model: 'X9', terminal_id: 'T42' });
    } finally {
      await sim.stop();
      await server.close();
    }
  });

  it('the CLI prints the handshake of each chosen terminal by number', async () => {
    const server = await startLiveServer({ seedVehicles: 5, seedFleetsPerBranch: 1, autoRegister: false });
    const known = (await server.app.storage.terminals.allVehicles())[0]!;
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/sim/cli.ts', '--device-no', `${known.deviceNo},013899999999`, '--port', String(server.gatewayPort), '--rate', '1'], {
      cwd: path.resolve(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => out, { timeout: 20_000 }).toMatch(new RegExp(`${known.deviceNo} authenticated: online`));
      await expect.poll(() => out, { timeout: 5_000 }).toMatch(/013899999999 REFUSED at register: 0x8100 result 4 — no such terminal.*registering again in (1[5-9]|[2-5]\d) s/);
      expect(out).toMatch(new RegExp(`\\[sim\\] 2 terminals → 127\\.0\\.0\\.1:${server.gatewayPort}, 1 Hz with ACC on, seed 1: ${known.deviceNo} \\([^,]+, 2013\\), 013899999999 \\(`));
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await server.close();
    }
    expect(out).toMatch(/\[sim\] stopped/);
  }, 40_000);
});
