import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Client } from 'basic-ftp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCredentials, RecordingFtpServer } from './recording-ftp.ts';

const root = mkdtempSync(path.join(tmpdir(), 'ftp-receiver-test-'));
const stored: [number, string, number][] = [];
const logins: number[] = [];
const server = new RecordingFtpServer({
  publicHost: '127.0.0.1',
  passivePorts: [0, 0],
  maxFileBytes: 100_000,
  events: {
    onLogin: (taskId) => void logins.push(taskId),
    onFile: async (taskId, name, size) => void stored.push([taskId, name, size]),
  },
});
let port = 0;

beforeAll(async () => {
  port = await server.listen(0, '127.0.0.1');
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

async function login(user: string, password: string): Promise<Client> {
  const c = new Client(5000);
  await c.access({ host: '127.0.0.1', port, user, password });
  return c;
}

describe('RecordingFtpServer', () => {
  it('stores a file in the task directory (sub-directories included) and reports it after it is on disk', async () => {
    const cred = newCredentials();
    const dir = path.join(root, '1');
    server.grant({ taskId: 1, ...cred, dir });
    const c = await login(cred.username, cred.password);
    expect(logins).toEqual([1]);
    const bytes = Buffer.alloc(64_000, 7);
    await c.ensureDir('/day/ch1');
    await c.uploadFrom(Readable.from([bytes]), 'clip.h264');
    c.close();
    expect(stored).toEqual([[1, 'day/ch1/clip.h264', 64_000]]);
    expect(Buffer.compare(readFileSync(path.join(dir, 'day', 'ch1', 'clip.h264')), bytes)).toBe(0);
    expect(server.stats).toMatchObject({ logins: 1, filesStored: 1, bytesStored: 64_000 });
  });

  it('cuts off and deletes a file larger than the limit, and reports nothing for it', async () => {
    const cred = newCredentials();
    const dir = path.join(root, '2');
    server.grant({ taskId: 2, ...cred, dir });
    const c = await login(cred.username, cred.password);
    await expect(c.uploadFrom(Readable.from([Buffer.alloc(150_000, 1)]), 'big.h264')).rejects.toThrow(/^55\d/);
    c.close();
    expect(existsSync(path.join(dir, 'big.h264'))).toBe(false);
    expect(stored.some(([task]) => task === 2)).toBe(false);
    expect(server.stats.tooLarge).toBe(1);
  });

  it('gives every task its own credentials: one task\'s password does not open another', async () => {
    const a = newCredentials();
    const b = newCredentials();
    expect(a.username).not.toBe(b.username);
    server.grant({ taskId: 3, ...a, dir: path.join(root, '3') });
    server.grant({ taskId: 4, ...b, dir: path.join(root, '4') });
    await expect(login(a.username, b.password)).rejects.toThrow(/530/);
    expect(server.stats.refusedLogins).toBe(1);
  });
});
