import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { Readable } from 'node:stream';
import { Client, FTPError } from 'basic-ftp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCredentials, RecordingFtpServer, type FtpReceiverOptions } from './recording-ftp.ts';

const root = mkdtempSync(path.join(tmpdir(), 'ftp-receiver-test-'));
const stored: [number, string, number][] = [];
const logins: number[] = [];
const receivers: RecordingFtpServer[] = [];

/** A receiver on a free port; every one is closed after the file's tests. */
async function receiver(over: Partial<FtpReceiverOptions> = {}): Promise<{ server: RecordingFtpServer; port: number }> {
  const server = new RecordingFtpServer({
    publicHost: '127.0.0.1',
    passivePorts: [0, 0],
    maxFileBytes: 100_000,
    passivePerLogin: 2,
    passivePerAddress: 3,
    throttle: { windowMs: 60_000, maxFailures: 1000 },
    events: {
      onLogin: (taskId) => void logins.push(taskId),
      onFile: async (taskId, name, size) => void stored.push([taskId, name, size]),
    },
    ...over,
  });
  receivers.push(server);
  return { server, port: await server.listen(0, '127.0.0.1') };
}

let server: RecordingFtpServer;
let port = 0;

beforeAll(async () => {
  ({ server, port } = await receiver());
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  rmSync(root, { recursive: true, force: true });
});

async function login(user: string, password: string, at = port): Promise<Client> {
  const c = new Client(5000);
  await c.access({ host: '127.0.0.1', port: at, user, password });
  return c;
}

/** The server's answer to a raw command, success or refusal (basic-ftp throws on 4xx/5xx). */
async function answer(c: Client, command: string): Promise<{ code: number; message: string }> {
  try {
    const r = await c.send(command);
    return { code: r.code, message: r.message };
  } catch (err) {
    if (err instanceof FTPError) return { code: err.code, message: err.message };
    throw err;
  }
}

let nextTask = 100;
function task(srv: RecordingFtpServer = server) {
  const taskId = nextTask++;
  const cred = newCredentials();
  const dir = path.join(root, String(taskId));
  srv.grant({ taskId, ...cred, dir });
  return { taskId, dir, ...cred };
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

describe('RecordingFtpServer trust boundaries (issue 12 §3)', () => {
  it('attack: a login of task 1 writes neither task 2\'s files nor anything outside its own folder, however the path is spelled', async () => {
    const one = task();
    const two = task();
    const c = await login(one.username, one.password);
    const bytes = Buffer.alloc(1000, 3);
    for (const name of ['../' + two.taskId + '/stolen.h264', '/../' + two.taskId + '/stolen.h264', '../../escape.h264', two.dir + '/stolen.h264']) {
      await c.uploadFrom(Readable.from([bytes]), name);
    }
    await c.cd('..');
    expect(await c.pwd()).toBe('/');
    await c.uploadFrom(Readable.from([bytes]), 'stolen.h264');
    c.close();
    // Task 2's folder holds nothing, nothing appeared beside the task folders or above the root.
    expect(readdirSync(two.dir)).toEqual([]);
    expect(readdirSync(root).sort()).toEqual(readdirSync(root).filter((n) => /^\d+$/.test(n)).sort());
    expect(existsSync(path.join(root, '..', 'escape.h264'))).toBe(false);
    // Everything landed inside task 1's folder and was reported as task 1's.
    const mine = stored.filter(([t]) => t === one.taskId).map(([, name]) => name);
    expect(mine).toHaveLength(5);
    expect(stored.some(([t]) => t === two.taskId)).toBe(false);
    for (const name of mine) expect(existsSync(path.join(one.dir, name))).toBe(true);
  });

  it('attack: one login cannot hold every passive port, nor one address (caps per login and per address)', async () => {
    const r = await receiver({ passivePerLogin: 2, passivePerAddress: 3 });
    const one = task(r.server);
    const two = task(r.server);
    const clients = [
      await login(one.username, one.password, r.port),
      await login(one.username, one.password, r.port),
      await login(one.username, one.password, r.port),
      await login(two.username, two.password, r.port),
      await login(two.username, two.password, r.port),
    ];
    try {
      expect((await answer(clients[0]!, 'PASV')).code).toBe(227);
      // Asking again on the same connection replaces its port: still one held.
      expect((await answer(clients[0]!, 'EPSV')).code).toBe(229);
      expect((await answer(clients[1]!, 'PASV')).code).toBe(227);
      const perLogin = await answer(clients[2]!, 'PASV');
      expect(perLogin).toMatchObject({ code: 425 });
      expect(perLogin.message).toMatch(/this login/);
      // Another login from the same address gets the address's last port, then no more.
      expect((await answer(clients[3]!, 'EPSV')).code).toBe(229);
      const perAddress = await answer(clients[4]!, 'PASV');
      expect(perAddress).toMatchObject({ code: 425 });
      expect(perAddress.message).toMatch(/your address/);
      expect(r.server.stats.passiveRefused).toBe(2);
      // A login whose connection went away frees its port.
      clients[1]!.close();
      // The server learns of the close asynchronously: ask until it has (a refusal holds nothing).
      let after = await answer(clients[2]!, 'PASV');
      for (let i = 0; i < 40 && after.code !== 227; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        after = await answer(clients[2]!, 'PASV');
      }
      expect(after.code).toBe(227);
    } finally {
      for (const c of clients) c.close();
    }
  });

  it('attack: idle control connections cannot pile up before login (closed after the login bound; a capped number per address)', async () => {
    const r = await receiver({ loginWithinMs: 300, unauthenticatedPerAddress: 2 });
    /** A raw control connection that never logs in: everything the server says, until it closes. */
    const idle = () => {
      const socket = net.connect(r.port, '127.0.0.1');
      let text = '';
      socket.on('data', (b) => (text += b.toString()));
      const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(text)));
      socket.on('error', () => undefined);
      return { socket, closed };
    };
    // A logged-in connection does not count against the address's waiting ones.
    const t = task(r.server);
    const c = await login(t.username, t.password, r.port);
    const first = idle();
    const second = idle();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // A third from the same address while two wait: closed at once.
    const third = await idle().closed;
    expect(third).toMatch(/421 Too many connections from your address/);
    expect(r.server.stats.unauthenticatedRefused).toBe(1);
    // The two that never log in are closed once the bound has passed.
    expect(await first.closed).toMatch(/421 Login timed out/);
    expect(await second.closed).toMatch(/421 Login timed out/);
    expect(r.server.stats.loginTimeouts).toBe(2);
    // The logged-in one is still served.
    expect((await answer(c, 'NOOP')).code).toBe(200);
    c.close();
  });

  it('attack: password guessing is throttled per address with the HTTP login\'s rule, and a blocked address is refused even with the right password', async () => {
    const r = await receiver({ throttle: { windowMs: 60_000, maxFailures: 3 } });
    const t = task(r.server);
    for (let i = 0; i < 3; i++) await expect(login(t.username, 'guess' + i, r.port)).rejects.toThrow(/530 Login incorrect/);
    await expect(login(t.username, t.password, r.port)).rejects.toThrow(/530 Too many failed logins/);
    expect(r.server.stats).toMatchObject({ refusedLogins: 3, throttledLogins: 1, logins: 0 });
  });

  it('attack: no reply reveals a server file-system path (PWD, MKD, CWD, SIZE, STAT, LIST, RNFR, refused reads and writes)', async () => {
    const t = task();
    const c = await login(t.username, t.password);
    const replies: string[] = [];
    const say = async (command: string) => replies.push((await answer(c, command)).message);
    await c.uploadFrom(Readable.from([Buffer.alloc(10, 1)]), 'file.h264');
    for (const command of ['PWD', 'MKD day/ch1', 'CWD day', 'PWD', 'CWD /missing', 'CWD ../../../..', 'PWD', 'SIZE missing.h264', 'MDTM missing.h264',
      'STAT missing', 'STAT /', 'RNFR file.h264', 'DELE file.h264', 'RMD day', 'SITE CHMOD 777 file.h264', 'MKD file.h264/inner']) await say(command);
    const refused = async (transfer: Promise<unknown>, code: RegExp) => {
      const err = await transfer.then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(FTPError);
      expect((err as FTPError).message).toMatch(code);
      replies.push((err as FTPError).message);
    };
    await refused(c.list('missing'), /^45\d/);
    await refused(c.uploadFrom(Readable.from([Buffer.alloc(10, 1)]), 'file.h264/inner.h264'), /^55\d/);
    await refused(c.downloadTo(path.join(root, 'never'), 'file.h264'), /^55\d/);
    c.close();
    expect(replies).toContain('257 "/day/ch1"');
    expect(replies.filter((m) => m.startsWith('257 "/'))).toHaveLength(4);
    for (const m of replies) {
      expect(m).not.toContain(root);
      expect(m).not.toContain(tmpdir());
    }
  });

  it('attack: FTP bounce: PORT / EPRT to another address or to a port below 1024 is refused; the client\'s own high port is allowed', async () => {
    const t = task();
    const c = await login(t.username, t.password);
    try {
      for (const command of ['PORT 10,0,0,1,7,208', 'PORT 127,0,0,1,0,22', 'PORT 127,0,0,1,300,1', 'EPRT |1|10.0.0.1|2000|', 'EPRT |1|127.0.0.1|25|', 'EPRT |2|::1|80|']) {
        const a = await answer(c, command);
        expect(a.code, command).toBeGreaterThanOrEqual(500);
      }
      expect(server.stats.activeRefused).toBe(6);
      expect((await answer(c, 'PORT 127,0,0,1,200,10')).code).toBe(200);
      expect((await answer(c, 'EPRT |1|127.0.0.1|51211|')).code).toBe(200);
    } finally {
      c.close();
    }
  });
});
