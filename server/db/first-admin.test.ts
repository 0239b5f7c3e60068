/**
 * The first administrator of an empty database (SEED=0): someone must be able to log in, with a password
 * that is either configured or generated and printed once — never a fixed default — and a second start
 * creates nothing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { startServer } from '../test/harness.ts';
import { openStorage } from './open.ts';
import type { SqliteStorage } from './sqlite/storage.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function dataDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'fleet-first-admin-'));
  dirs.push(d);
  return d;
}

function counts(storage: SqliteStorage): { users: number; companies: number; vehicles: number } {
  const n = (table: string) => (storage.db.prepare(`SELECT count(*) n FROM "${table}"`).get() as { n: number }).n;
  return { users: n('user'), companies: n('company'), vehicles: n('vehicle') };
}

describe('first administrator on an unseeded database', () => {
  it('is created with a generated password that logs in; a second start creates nothing', async () => {
    const dir = dataDir();
    const config = loadConfig({ SEED: '0' }, { dataDir: dir, logLevel: 'silent' });
    const first = await openStorage(config);
    const admin = first.firstAdmin;
    expect(admin).toMatchObject({ username: 'admin', companyName: '我的公司', companyCreated: true });
    expect(admin?.generatedPassword).toMatch(/^[A-Za-z2-9]{18}$/);
    expect(counts(first.storage as SqliteStorage)).toEqual({ users: 1, companies: 1, vehicles: 0 });
    first.storage.close();

    // Two new databases never share the password (it is random, not a default).
    const other = await openStorage(loadConfig({ SEED: '0' }, { dataDir: dataDir(), logLevel: 'silent' }));
    expect(other.firstAdmin?.generatedPassword).not.toBe(admin?.generatedPassword);
    other.storage.close();

    // A second start of the same database: nothing created, nothing to print.
    const second = await openStorage(config);
    expect(second.firstAdmin).toBeUndefined();
    expect(counts(second.storage as SqliteStorage)).toEqual({ users: 1, companies: 1, vehicles: 0 });
    second.storage.close();

    // The server on that database: the administrator logs in with the generated password only.
    const server = await startServer({ dataDir: dir, seedEnabled: false });
    try {
      const wrong = await server.call('POST', '/service-priv/login', { body: { username: 'admin', password: 'admin123', loginType: 'login' } });
      expect(wrong.code).not.toBe(200);
      const token = await server.login('admin', admin!.generatedPassword!);
      const me = await server.call<{ user: { username: string; userLevel: number; companyId: number } }>('GET', '/service-priv/user/current', { token });
      expect(me.data.user).toMatchObject({ username: 'admin', userLevel: 0, companyId: admin!.companyId });
      // The administrator sees the root company and can start building the fleet under it.
      const created = await server.call<{ id: number }>('POST', '/service-priv/company', {
        token, body: { pid: admin!.companyId, name: '第一车队', contact: '', phone: '', address: '', remark: '' },
      });
      expect(created.code).toBe(200);
      expect(server.count('user')).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('takes ADMIN_PASSWORD and ROOT_COMPANY_NAME from the environment and prints no password', async () => {
    const dir = dataDir();
    const config = loadConfig({ SEED: '0', ADMIN_PASSWORD: ' s3cret pass ', ROOT_COMPANY_NAME: ' 顺达物流 ' }, { dataDir: dir, logLevel: 'silent' });
    const opened = await openStorage(config);
    expect(opened.firstAdmin).toMatchObject({ username: 'admin', generatedPassword: undefined, companyName: '顺达物流', companyCreated: true });
    opened.storage.close();
    const server = await startServer({ dataDir: dir, seedEnabled: false });
    try {
      // The password is taken as written (blanks included): it is a secret, not a name.
      await server.login('admin', ' s3cret pass ');
      expect((await server.call('POST', '/service-priv/login', { body: { username: 'admin', password: 's3cret pass', loginType: 'login' } })).code).not.toBe(200);
    } finally {
      await server.close();
    }
  });

  it('refuses an ADMIN_PASSWORD or ROOT_COMPANY_NAME out of bounds, naming the variable', () => {
    expect(() => loadConfig({ ADMIN_PASSWORD: '12345' })).toThrow('ADMIN_PASSWORD must be 6 to 64 characters, got 5');
    expect(() => loadConfig({ ADMIN_PASSWORD: 'x'.repeat(65) })).toThrow(/ADMIN_PASSWORD must be 6 to 64/);
    expect(() => loadConfig({ ROOT_COMPANY_NAME: '公'.repeat(65) })).toThrow(/ROOT_COMPANY_NAME must be 1 to 64/);
    expect(loadConfig({}).rootCompanyName).toBe('我的公司');
    expect(loadConfig({}).adminPassword).toBeUndefined();
  });

  it('leaves a seeded database to its demo accounts', async () => {
    const opened = await openStorage(loadConfig({}, { dataDir: dataDir(), logLevel: 'silent', seedVehicles: 5, seedFleetsPerBranch: 1 }));
    try {
      expect(opened.firstAdmin).toBeUndefined();
      const users = (opened.storage as SqliteStorage).db.prepare("SELECT count(*) n FROM user WHERE username = 'admin'").get() as { n: number };
      expect(users.n).toBe(1);
    } finally {
      opened.storage.close();
    }
  });

  it('a database without users but with companies gets its administrator in the first root company', async () => {
    const dir = dataDir();
    const opened = await openStorage(loadConfig({ SEED: '0' }, { dataDir: dir, logLevel: 'silent' }));
    const db = (opened.storage as SqliteStorage).db;
    // As a database made with SEED=0 before the first administrator existed, with a company added by hand.
    db.prepare('DELETE FROM user').run();
    db.prepare('UPDATE company SET name = ? WHERE id = ?').run('老公司', opened.firstAdmin!.companyId);
    opened.storage.close();
    const again = await openStorage(loadConfig({ SEED: '0', ROOT_COMPANY_NAME: '不会用到' }, { dataDir: dir, logLevel: 'silent' }));
    try {
      expect(again.firstAdmin).toMatchObject({ companyName: '老公司', companyCreated: false });
      expect(counts(again.storage as SqliteStorage)).toEqual({ users: 1, companies: 1, vehicles: 0 });
    } finally {
      again.storage.close();
    }
  });
});

/** Runs `server/main.ts` on a data dir until it has printed its start lines, then stops it; answers stdout. */
async function runMain(dir: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env, DATA_DIR: dir, SEED: '0', PORT: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0', MEDIA_PLAYBACK_PORT: '0',
      FTP_PORT: '0', FTP_PASV_PORTS: '0', LOG_LEVEL: 'silent', ADMIN_PASSWORD: '', CONSOLE_DIR: path.join(dir, 'no-console'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 25_000;
  while (!/^Database: /m.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server/main.ts did not start:\n${out}\n${err}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGTERM');
  await exited;
  return out;
}

describe('server/main.ts on an empty database', () => {
  it('prints the generated password once, at the start that created the administrator', async () => {
    const dir = dataDir();
    const first = await runMain(dir);
    const line = /^first administrator: admin \/ ([A-Za-z2-9]{18}) — change it$/m.exec(first);
    expect(line, first).not.toBeNull();
    expect(first).not.toMatch(/Demo accounts/);
    const second = await runMain(dir);
    expect(second).not.toMatch(/first administrator/);
    expect(second).not.toContain(line![1]);
    // The printed password is the one stored.
    const server = await startServer({ dataDir: dir, seedEnabled: false });
    try {
      await server.login('admin', line![1]!);
    } finally {
      await server.close();
    }
  }, 60_000);
});
